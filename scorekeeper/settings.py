"""One settings module, read from the environment.

Defaults run the service on a laptop with nothing else installed: a SQLite file in the
project folder, Celery tasks executed in-process, debug mode on. Production sets
DJANGO_DEBUG=0 (the Procfile does), a DJANGO_SECRET_KEY, DATABASE_URL and REDIS_URL.
"""

from __future__ import annotations

import hashlib
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

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

# HTTPS, on by default in production mode (README "Production mode"): the site is served over
# TLS, usually by a proxy in front of gunicorn. Plain HTTP is redirected, the browser is told to
# come back over HTTPS only (HSTS), and the session and CSRF cookies never travel in clear.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
# The header a TLS proxy sets to say the client came over HTTPS (`X-Forwarded-Proto`, whose
# value is then `https`). Only with a proxy that sets it on every request, overwriting what
# the client sent: otherwise any client could claim HTTPS. Unset: requests are HTTPS when
# gunicorn itself serves TLS.
_PROXY_HEADER = env_str("DJANGO_SECURE_PROXY_SSL_HEADER")
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_" + _PROXY_HEADER.upper().replace("-", "_"), "https") if _PROXY_HEADER else None
)

# Security headers on every page (docs/pages.md, "Security headers"). Content-Security-Policy
# (django-csp): scripts, styles and images from this site only, no inline script or style (the
# pages' scripts and styles are static files), no plugins, forms that post here only, and no
# framing by any site (as X-Frame-Options: DENY says to older browsers).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        # The offline service worker (/sw.js, matches/views/offline.py), this site's only.
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# The address of the page a link was followed from goes to this site only, never to another.
SECURE_REFERRER_POLICY = "same-origin"
# Permissions-Policy (django-permissions-policy): no page uses the camera, the microphone, the
# position, payments or other devices, so no script on them (nor a frame) may ask for them.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in [
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "hid",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "serial",
        "usb",
        "xr-spatial-tracking",
    ]
}

# How many proxies in front of the site append to X-Forwarded-For (1 behind one TLS proxy):
# the client's address, which the throttles count by, is read that many entries from the end.
# 0: the address of the connection (a client could otherwise claim any address).
NUM_PROXIES = env_int("DJANGO_NUM_PROXIES", 0)

# Redis (REDIS_URL): the cache below, Celery's broker and result store further down.
REDIS_URL = env_str("REDIS_URL")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",  # "2 hours ago" in the list of one's sessions (allauth's page)
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",  # API tokens, hashed, one per device, with an expiry (api/tokens.py)
    "axes",  # sign-in lockouts for the pages and the admin (after the auth app)
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served locally (no CDN)
    "csp",  # the Content-Security-Policy header (its system checks)
    # Accounts (django-allauth): sign-up from an invitation, verified email, password reset and
    # change, two-factor sign-in (TOTP, recovery codes), the list of one's sessions.
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.usersessions",
    "scorekeeper.clubs",  # clubs, roles, joining, the guard on club objects (below the matches)
    "scorekeeper.matches",
    "scorekeeper.events",  # club nights, round robins, Swiss events, leagues (on the matches)
    "scorekeeper.accounts",
    "scorekeeper.outbox",
    "scorekeeper.idempotency",
    "ratings",
    "api",
    "scorekeeper.backup",  # manage.py site_export, site_import, site_check: no URL, no models
    "scorekeeper.devtools",  # the demo, the screenshots: tooling, no URL, no models
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy, Permissions-Policy and X-Frame-Options headers (below) on
    # every answer: above the middleware that may answer themselves (axes' 429 page).
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language from the switcher's cookie, else Accept-Language (after sessions, before common).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # allauth's sign-in stages (the second factor) and its list of a user's sessions.
    "allauth.account.middleware.AccountMiddleware",
    "allauth.usersessions.middleware.UserSessionsMiddleware",
    # Scopes every club object a request reads to the clubs its user may see (after auth).
    "scorekeeper.clubs.scoping.ClubScopeMiddleware",
    # The signed-in user's language (between the cookie and Accept-Language) and time zone.
    "scorekeeper.accounts.middleware.PreferenceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Club admins and staff without a second factor are sent to set one up (accounts/middleware.py;
    # after the messages, which say why).
    "scorekeeper.accounts.middleware.SecondFactorRequiredMiddleware",
    # Turns a locked-out sign-in into the 429 page (after authentication, per django-axes).
    "axes.middleware.AxesMiddleware",
    # Last, so that it wraps the view and the rendering of its answer: a 5xx writes nothing.
    "scorekeeper.middleware.AtomicWritesMiddleware",
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
# Bounded waits on PostgreSQL, so that a database that is down or unreachable answers a request
# 503 within seconds (api/exceptions.py) instead of holding it: a connection attempt gives up
# after DATABASE_CONNECT_TIMEOUT seconds (psycopg's own default is 130; libpq's least is 2).
# DATABASE_STATEMENT_TIMEOUT (seconds, 0: none) cancels a longer statement; off by default
# because the worker's recomputes and the migrations share these settings: set it for the web
# process alone. A setting in DATABASE_URL's query string (`?connect_timeout=5`) wins.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    _db_options = DATABASES["default"].setdefault("OPTIONS", {})
    _db_options.setdefault("connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 3))
    if _statement_timeout := env_int("DATABASE_STATEMENT_TIMEOUT", 0):
        _server_options = f"{_db_options.get('options', '')} -c statement_timeout={_statement_timeout}s"
        _db_options["options"] = _server_options.strip()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache holds the throttles' and the sign-in lockouts' counts: Redis when REDIS_URL is set
# (shared by every gunicorn worker; failing soft when Redis is down, scorekeeper/cache.py),
# this process's memory otherwise (`./run`: one process).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "scorekeeper.cache.FailSoftRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "sk",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sign-in to the pages and the admin (django-axes): after AXES_FAILURE_LIMIT failures from
# one address, or for one username, further attempts are refused for AXES_COOLOFF_TIME
# (each failure meanwhile starts it again) with a 429 page, before the password is checked.
AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(seconds=env_int("AXES_COOLOFF_SECONDS", 15 * 60))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "scorekeeper.lockout.signin_locked_out"
AXES_IPWARE_PROXY_COUNT = NUM_PROXIES or None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR") if NUM_PROXIES else ("REMOTE_ADDR",)
)
# Axes warns that a cache in local memory is per process: on `./run` there is one process.
SILENCED_SYSTEM_CHECKS = [] if REDIS_URL else ["axes.W001"]

# django-axes first: a locked-out IP or username is refused before any password is hashed.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # Sign-in by email address as well as by username (the pages' sign-in form).
    "allauth.account.auth_backends.AuthenticationBackend",
]
# The sign-in form names its field "login" (a username or an email address): axes counts the
# failures of either under the name given (scorekeeper/lockout.py).
AXES_USERNAME_CALLABLE = "scorekeeper.lockout.signin_username"

# Accounts (django-allauth; docs/accounts.md). A new account comes from a club's invitation; open
# sign-up without one is a setting, off by default. Its email address is verified by a link before
# it may sign in (and so score); an account staff made without an address signs in as before.
SIGNUP_OPEN = env_bool("SIGNUP_OPEN", False)
ACCOUNT_ADAPTER = "scorekeeper.accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True  # a new address replaces the old once it is verified
ACCOUNT_CONFIRM_EMAIL_ON_GET = False  # the link opens a page with a button: mail scanners follow links
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# The reset form answers the same for any address; an address with no account is told so by email.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = True
ACCOUNT_EMAIL_NOTIFICATIONS = True  # "your password was changed", "your address was changed" …
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Scorekeeper] "
# allauth's own throttles (its cache). Passwords: django-axes locks out first (5 failures), so
# allauth's "login_failed" is a looser backstop; it also counts wrong second-factor codes.
# Sign-up, reset and verification are limited per address (ip) and per email (key).
ACCOUNT_RATE_LIMITS = {
    "login_failed": "30/m/ip,10/5m/key",
    "signup": env_str("SIGNUP_RATE_LIMIT", "10/h/ip"),
    "reset_password": env_str("RESET_PASSWORD_RATE_LIMIT", "20/h/ip,3/h/key"),
    "reset_password_from_key": "20/m/ip",
    "confirm_email": "1/3m/key,10/h/ip",
    "manage_email": "10/m/user",
    "change_password": "5/m/user",
    "reauthenticate": "10/m/user",
}
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "Scorekeeper"
# Two-factor sign-in is offered to everyone and required of club admins and staff (pages: they
# are sent to set it up; API: no token without it). On in production mode; off by default in
# debug mode, so that the local demo's `demo` user (staff) signs in with its password alone.
MFA_REQUIRED_FOR_ADMINS = env_bool("MFA_REQUIRED_FOR_ADMINS", not DEBUG)
USERSESSIONS_TRACK_ACTIVITY = False  # a session's row is written at sign-in, not at every request

# Email. Every message goes through the outbox (scorekeeper/outbox/mail.py): stored in the
# transaction that sends it, delivered by a task that tries again while the mail server is
# down. EMAIL_DELIVERY_BACKEND is what delivers: SMTP once EMAIL_HOST is set, else the console.
EMAIL_BACKEND = "scorekeeper.outbox.mail.OutboxEmailBackend"
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_DELIVERY_BACKEND = env_str(
    "EMAIL_DELIVERY_BACKEND",
    f"django.core.mail.backends.{'smtp' if EMAIL_HOST else 'console'}.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", bool(EMAIL_HOST))
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Scorekeeper <scorekeeper@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

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

# The club of every match and player that names none: an existing site's matches and players
# move into it on upgrade, and a new account joins it in HOME_CLUB_NEW_ACCOUNT_ROLE ("" for
# none), so that a single-club site works as it did before clubs.
HOME_CLUB_NAME = env_str("HOME_CLUB_NAME", "Home club")
HOME_CLUB_SLUG = env_str("HOME_CLUB_SLUG", "home")
HOME_CLUB_NEW_ACCOUNT_ROLE = env_str("HOME_CLUB_NEW_ACCOUNT_ROLE", "scorer")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The site's own files (static/scorekeeper/: its style, its script, the manifest, the icons),
# beside the apps' own static folders.
STATICFILES_DIRS = [BASE_DIR / "static"]
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
LOGIN_REDIRECT_URL = LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    # The one place the API's sign-in is chosen: apps send a token, the pages use the session.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # `Authorization: Token <key>`: knox's hashed tokens (api/tokens.py).
        "api.tokens.TokenAuthentication",
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
    # Throttles (api/throttles.py), counted in the cache. The token endpoint is limited per
    # client address and per username before the password is checked; every write (POST) per
    # user (anonymous: per address), generously: a table records a hand a minute.
    "DEFAULT_THROTTLE_CLASSES": ["api.throttles.WriteThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "token_address": env_str("API_THROTTLE_TOKEN_ADDRESS", "30/minute"),
        "token_username": env_str("API_THROTTLE_TOKEN_USERNAME", "10/minute"),
        "write": env_str("API_THROTTLE_WRITE", "600/minute"),
    },
    "NUM_PROXIES": NUM_PROXIES or None,
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    # drf-spectacular's, made as exact as the server (api/schema.py).
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
}
# The name this site gives itself in its exports (docs/api.md, "Export and import"): importing a
# file that names this site binds its players by id. By default a digest of the secret key,
# so one per installation (with the fixed development key, every `./run` shares one).
SCOREKEEPER_SITE = (
    env_str("SCOREKEEPER_SITE")
    or "site-" + hashlib.sha256(f"scorekeeper export site {SECRET_KEY}".encode()).hexdigest()[:16]
)

# Caps on request bodies (api/parsers.py): every API body, a hand's, a correction's, a dry
# run's, is at most API_MAX_BODY bytes (a real hand record is under 2 KB); an import document
# of up to 1000 hands (scorekeeper/matches/exchange.MAX_HANDS) gets API_IMPORT_MAX_BODY.
# Larger bodies are a 413.
API_MAX_BODY = env_int("API_MAX_BODY", 64 * 1024)
API_IMPORT_MAX_BODY = env_int("API_IMPORT_MAX_BODY", 4 * 1024 * 1024)
# Django's own cap on form bodies (the pages, the admin) and on request.body: the import's.
DATA_UPLOAD_MAX_MEMORY_SIZE = API_IMPORT_MAX_BODY

# API tokens (django-rest-knox): a sign-in makes a token for that device, valid this many days
# (then a 401: sign in again); the `Token` keyword of the Authorization header stays.
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=env_int("API_TOKEN_TTL_DAYS", 30)),
    "AUTH_HEADER_PREFIX": "Token",
    "TOKEN_LIMIT_PER_USER": None,
    "AUTO_REFRESH": False,
}

SPECTACULAR_SETTINGS = {
    # In the request's language: drf-spectacular turns lazy strings into text as it serves the
    # schema (LocaleMiddleware has activated the language by then). One paragraph a message.
    "TITLE": _("Scorekeeper API"),
    "DESCRIPTION": format_lazy(
        "{}\n\n{}\n\n{}\n\n{}\n\n{}",
        _("Checks and records the scores of card games played at a real table."),
        _(
            "**Sign in**: `POST /api/v1/auth/token` with a username and password, then send "
            "`Authorization: Token <key>`. Anyone may read; signed-in users add players and start "
            "matches; only a match's scorers record, correct, void or reopen it."
        ),
        _(
            "**Versions**: writes to a match take the version last seen (`version` in the body or "
            '`If-Match: "3"`) and answer with the new one (`version`, `ETag`); a stale one is a 409 '
            "`version_conflict` saying what is current."
        ),
        _(
            "**Retries**: send an `Idempotency-Key` (a fresh UUID per request) on every POST; a retry "
            "with the same key and body gets the original answer and writes nothing; the same key "
            "with another request is a 422."
        ),
        _(
            "**Errors**: every 4xx has the `Error` body: `code` (stable), `message`, `field` (path into "
            "the request), and for rule rejections `errors`, `mismatches` and the engine's `evaluation`."
        ),
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Read-only fields stay required: they are in every answer (a generated client's models
    # then have no Unset for them); request components, split off, have none.
    "COMPONENT_NO_READ_ONLY_REQUIRED": False,
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "scorekeeper.matches.models.Match.Status",
        "HandStatusEnum": "scorekeeper.matches.models.Hand.Status",
        "OptionTypeEnum": "api.games.OPTION_TYPES",
        "OptionEffectEnum": "api.games.OPTION_EFFECTS",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.add_error_range",
    ],
}

# REDIS_URL unset: tasks run in-process (eagerly), so the service needs nothing else.
# Set: Redis is the broker and the result backend of real workers.
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
# only after it ran, and one whose pool process died (SIGKILL, OOM) goes back to the queue at
# once. With acks_late and a multiplier of 1 a worker process holds only the task it runs, so a
# worker that dies or freezes strands no queue of others behind it.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A connection to Redis lost mid-task: the task runs on to its end (its outbox message says it is
# done) rather than being cut short to wait for a redelivery (Celery 6 means to change the default).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# Redis hands a task no worker acknowledged within this many seconds to another worker: only a
# backstop now, after the outbox's own redelivery (OUTBOX_REDELIVER_AFTER, below), which sees
# whether the task still runs. Longer than any task runs (a full recompute of a pool takes
# seconds), or Redis would run a live task twice.
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
# Celery's Django fixup closes the worker's database connections before and after every task
# unless this is set: each rating then started a PostgreSQL backend of its own, whose catalog
# caches it filled again (docs/performance.md, "The worker's database connection"). The worker
# keeps its connection for up to this many tasks instead; around each task scorekeeper/celery.py
# closes one that is unusable or older than CONN_MAX_AGE, as Django does around a request.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000)
CELERY_TASK_PUBLISH_RETRY = False
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Beat runs the outbox's sweep this often (the other outbox settings are below).
OUTBOX_SWEEP_INTERVAL = env_int("OUTBOX_SWEEP_INTERVAL", 15)
CELERY_BEAT_SCHEDULE: dict = {
    # A sweep that waited longer than its interval (no worker was free) is dropped: the next
    # one is due anyway, and a backlog of sweeps would hand the same messages over twice.
    "outbox-sweep": {
        "task": "outbox.sweep",
        "schedule": float(OUTBOX_SWEEP_INTERVAL),
        "options": {"expires": float(OUTBOX_SWEEP_INTERVAL)},
    },
    "idempotency-expire": {"task": "idempotency.expire", "schedule": 3600.0},
    "tokens-expire": {"task": "api.tokens_expire", "schedule": 3600.0},
    # A full recompute of every rating pool, nightly (ratings/tasks.py).
    "ratings-recompute-nightly": {
        "task": "ratings.recompute_all",
        "schedule": crontab(hour=env_int("RATINGS_RECOMPUTE_HOUR", 3), minute=30),
    },
}
# An Idempotency-Key is remembered this many seconds (docs/api.md, "Retries"): a retry within the
# window is replayed; after it the key is forgotten (swept hourly) and may be used anew.
IDEMPOTENCY_KEY_TTL = env_int("IDEMPOTENCY_KEY_TTL", 24 * 3600)
# The outbox (scorekeeper/outbox), which bounds the recovery of a lost task to 2 minutes
# (docs/ratings.md, "Recovery"; scorekeeper/outbox/checks.py adds the terms up and warns past
# it): a message is left OUTBOX_GRACE seconds to the dispatch after its own commit before the
# sweep takes it; a running task notes every OUTBOX_HEARTBEAT seconds that it is alive; the sweep
# hands a message over again once its last sign of life (its hand-over, its task's last beat) is
# OUTBOX_REDELIVER_AFTER seconds old (a dead or frozen worker, a Redis that lost it).
# OUTBOX_TASK_BUDGET: what a task (its wait in the queue and its run) may take within the bound;
# a longer run is logged.
OUTBOX_GRACE = env_int("OUTBOX_GRACE", 10)
OUTBOX_HEARTBEAT = env_int("OUTBOX_HEARTBEAT", 10)
OUTBOX_REDELIVER_AFTER = env_int("OUTBOX_REDELIVER_AFTER", 40)
OUTBOX_TASK_BUDGET = env_int("OUTBOX_TASK_BUDGET", 20)

# Ratings (ratings/, docs/ratings.md "The boards"): a player is listed on a game's leaderboard
# from this many rated matches in the game on (before, he is on its provisional list), and, when
# RATINGS_LEADERBOARD_ACTIVE_DAYS is above 0, only while his last match is at most that many days
# old (0: off, everybody is listed however long ago he played).
RATINGS_LEADERBOARD_MIN_MATCHES = env_int("RATINGS_LEADERBOARD_MIN_MATCHES", 5)
RATINGS_LEADERBOARD_ACTIVE_DAYS = env_int("RATINGS_LEADERBOARD_ACTIVE_DAYS", 0)
# Whether a finished match waits for the other side's confirmation of every hand before it is
# rated (docs/recording.md, "Confirmation by the other side"). After changing it, recompute the
# ratings (POST /api/v1/ratings/recompute, the admin's action on rating pools, or the nightly run).
RATINGS_WAIT_FOR_CONFIRMATION = env_bool("RATINGS_WAIT_FOR_CONFIRMATION", False)

# Players and accounts (docs/recording.md, "Players and accounts"): a code a scorer gives a player
# to link his account is valid this many minutes; a user may fail this many claims in this many
# seconds before he is asked to wait.
PLAYER_CLAIM_CODE_TTL_MINUTES = env_int("PLAYER_CLAIM_CODE_TTL_MINUTES", 24 * 60)
PLAYER_CLAIM_ATTEMPTS = env_int("PLAYER_CLAIM_ATTEMPTS", 10)
PLAYER_CLAIM_WINDOW_SECONDS = env_int("PLAYER_CLAIM_WINDOW_SECONDS", 3600)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
}
