"""One settings module, read from the environment.

Defaults run the service on a laptop with nothing else installed: a SQLite file in the
project folder, Celery tasks executed in-process, debug mode on. Production sets
DJANGO_DEBUG=0 (the Procfile does), a DJANGO_SECRET_KEY, DATABASE_URL and REDIS_URL.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer; got {raw!r}") from None


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


# Debug defaults to on so that `./run` works with the embedded defaults; production mode
# (the Procfile) turns it off, and then a real secret key is required.
DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. It is required when DJANGO_DEBUG is off (production mode): "
            "set it to a long random string, e.g. the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
        )
    SECRET_KEY = "insecure-development-key-only-used-with-DJANGO_DEBUG-on"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served locally (no CDN)
    "scorekeeper.matches",
    "scorekeeper.accounts",
    "scorekeeper.outbox",
    "ratings",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language from the switcher's cookie, else Accept-Language (after sessions, before common).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The signed-in user's language (between the cookie and Accept-Language) and time zone.
    "scorekeeper.accounts.middleware.PreferenceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",  # LANGUAGES, LANGUAGE_CODE
                "django.template.context_processors.tz",  # TIME_ZONE: the viewer's zone
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# DATABASE_URL, e.g. postgres://user:password@127.0.0.1:5432/scorekeeper; default a SQLite file.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
# Server-side parameters and prepared statements (psycopg 3): a statement run often (the hand
# write, the token look-up) is parsed and planned once per connection, and its JSON values
# travel as parameters instead of being quoted into the SQL. Turn off for a pooler that cannot
# keep prepared statements (PgBouncer before 1.21 in transaction mode).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_PREPARED_STATEMENTS", True
):
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=env_int("DATABASE_PREPARE_THRESHOLD", 2)
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The four languages of the tables we serve; every catalog in locale/ is complete (a test checks).
LANGUAGES = [("en", "English"), ("fr", "Français"), ("de", "Deutsch"), ("ru", "Русский")]
# The site's catalog first (it wins where both have a string), then the rules engine's own:
# makemessages puts the strings of scorekeeper/rules/ into the engine's folder.
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "scorekeeper" / "rules" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files in production (needs `manage.py collectstatic`); plain files in debug.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Debug serves files straight from the apps (no collectstatic needed while developing).
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

LOGIN_URL = "login"

REST_FRAMEWORK = {
    # The one place the API's sign-in is chosen: apps send a token, the pages use the session.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON, and DRF's HTML pages for a browser (api/renderers.py: fixed for the list pages).
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "api.renderers.BrowsableAPIRenderer",
    ],
    # JSON only, strictly: a malformed body is a 400 (api/parsers.py); the token view takes forms too.
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Scorekeeper API",
    "DESCRIPTION": (
        "Checks and records the scores of card games played at a real table.\n\n"
        "**Sign in**: `POST /api/v1/auth/token` with a username and password, then send "
        "`Authorization: Token <key>`. Anyone may read; signed-in users add players and start "
        "matches; only a match's scorers record, correct, void or reopen it.\n\n"
        "**Versions**: writes to a match take the version last seen (`version` in the body or "
        '`If-Match: "3"`) and answer with the new one (`version`, `ETag`); a stale one is a 409 '
        "`version_conflict` saying what is current.\n\n"
        "**Retries**: send an `Idempotency-Key` (a fresh UUID per request) on every POST; a retry "
        "with the same key and body gets the original answer and writes nothing; the same key "
        "with another request is a 422.\n\n"
        "**Errors**: every 4xx has the `Error` body: `code` (stable), `message`, `field` (path into "
        "the request), and for rule rejections `errors`, `mismatches` and the engine's `evaluation`."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "scorekeeper.matches.models.Match.Status",
        "HandStatusEnum": "scorekeeper.matches.models.Hand.Status",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.add_error_range",
    ],
}

# REDIS_URL unset: tasks run in-process (eagerly), so the service needs nothing else.
# Set: Redis is the broker and the result backend of real workers.
REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
# Nothing is lost (Celery's own guidance; our tasks are idempotent): a task is acknowledged
# only after it ran, and one whose worker died (SIGKILL, OOM) goes back to the queue.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis redelivers a task not acknowledged within this many seconds (to another worker): longer
# than any task runs (a full recompute of a pool takes seconds), shorter than we'd wait.
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 900)
# Short broker timeouts: an enqueue with Redis down fails in well under a second, and the
# outbox's sweep hands the work over later (scorekeeper/outbox).
CELERY_BROKER_CONNECTION_TIMEOUT = 0.5
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    "socket_connect_timeout": 0.5,
    "socket_timeout": 5,
    "max_retries": 0,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 0.5
CELERY_REDIS_SOCKET_TIMEOUT = 5
# The result store reconnects 20 times a second apart by default: 19 s of a request waiting.
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 1, "interval_start": 0.1, "interval_step": 0.1, "interval_max": 0.2},
}
CELERY_TASK_PUBLISH_RETRY = False
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE: dict = {
    "outbox-sweep": {"task": "outbox.sweep", "schedule": 60.0},
    # A full recompute of every rating pool, nightly (ratings/tasks.py).
    "ratings-recompute-nightly": {
        "task": "ratings.recompute_all",
        "schedule": crontab(hour=env_int("RATINGS_RECOMPUTE_HOUR", 3), minute=30),
    },
}
# The outbox (scorekeeper/outbox): a message is left this many seconds to the dispatch after
# its own commit before the sweep takes it, and handed over again when its task has not
# finished this many seconds after the last hand-over (a dead worker, a Redis that lost it).
OUTBOX_GRACE = env_int("OUTBOX_GRACE", 10)
OUTBOX_REDELIVER_AFTER = env_int("OUTBOX_REDELIVER_AFTER", CELERY_VISIBILITY_TIMEOUT + 60)

# Ratings (ratings/): a player is listed on a game's leaderboard from this many rated matches on.
RATINGS_LEADERBOARD_MIN_MATCHES = env_int("RATINGS_LEADERBOARD_MIN_MATCHES", 1)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
}
