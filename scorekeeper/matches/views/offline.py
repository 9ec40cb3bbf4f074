"""Offline capture: the service worker and the endpoint the browser's queue sends hands to.

``/sw.js`` is the service worker (``static/matches/sw.js``), served from the site's root so
that its scope is every page; its cache is named after the content of the app shell's files,
so a new release installs a new cache and the worker drops the old ones.

A hand saved on the hand form while the phone has no network goes into a queue in the browser
(IndexedDB, ``static/matches/offline.js``) with its own ``Idempotency-Key``. When the network
returns, the queue posts each hand, exactly as the form's Save would, to
``/matches/<id>/hands/send/``, which answers JSON:

- 201 ``recorded``: ``number``, ``version`` (the match's version after this hand: the next
  queued hand of the match is sent with it) and ``url``.
- 400 ``refused`` with the page's ``message`` and each field's ``errors``.
- 409 ``version_conflict`` (someone recorded or corrected meanwhile) with the current
  ``version``, ``hand_count`` and the hand now in its place (``theirs``: number, who recorded
  it and when, each seat's score), or 409 ``refused`` (the match is void or over).

A key whose hand was recorded is replayed (the same 201, ``Idempotent-Replayed: true``) and
nothing is written again: an answer lost on a flaky network is resent safely. A refusal is not
kept under the key, since it wrote nothing: sent again, the hand is checked again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.idempotency.errors import IdempotencyKeyReused
from scorekeeper.idempotency.keys import HEADER, KEY
from scorekeeper.idempotency.services import idempotency_claim, idempotency_store

from .. import selectors
from .matches import _blocked, _posted_hand_form, _submit, scorer_required

#: The app shell the worker keeps from its install on (pages are kept as they are visited).
SHELL = (
    "scorekeeper/site.css",
    "scorekeeper/club.css",
    "scorekeeper/site.js",
    "scorekeeper/favicon.svg",
    "scorekeeper/manifest.json",
    "matches/offline.js",
    "matches/hand_form.js",
    "matches/live.js",
    "matches/live.css",
)


def _static_path(name: str) -> str:
    path = finders.find(name)
    if path is None:
        raise FileNotFoundError(f"no static file {name!r}")
    return path


@cache
def _worker_source() -> str:
    """sw.js with the shell's addresses and a cache version made of their content."""
    digest = hashlib.sha256()
    with open(_static_path("matches/sw.js"), encoding="utf-8") as f:
        source = f.read()
    digest.update(source.encode())
    for name in SHELL:
        with open(_static_path(name), "rb") as f:
            digest.update(f.read())
    shell = [static(name) for name in SHELL]
    head = f"var CACHE_VERSION = {json.dumps(digest.hexdigest()[:12])};\nvar SHELL = {json.dumps(shell)};\n"
    return head + source


@require_GET
def service_worker(request):
    response = HttpResponse(_worker_source(), content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on each visit; the file is small.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_POST
@scorer_required
def hand_send(request, match, number: int | None = None):
    """A queued hand, as the hand form posts it, with its ``Idempotency-Key``; with ``number``
    (``…/hands/<n>/send/``), sent as a correction of hand ``n`` (the scorer's choice after a
    conflict), which then needs a ``reason``."""
    key = (request.headers.get(HEADER) or "").strip(" \t")
    if not KEY.fullmatch(key):
        message = _("%(header)s must be 1 to %(most)s printable ASCII characters (a UUID, say)") % {
            "header": HEADER,
            "most": 255,
        }
        return JsonResponse({"code": "idempotency_key_invalid", "message": message}, status=400)
    fingerprint = _fingerprint(request)
    with transaction.atomic():
        try:
            entry, first = idempotency_claim(
                user=request.user, key=key, fingerprint=fingerprint, method="POST", path=request.path
            )
        except IdempotencyKeyReused as exc:
            return JsonResponse({"code": exc.code, "message": exc.message}, status=422)
        if not first:
            response = JsonResponse(entry.response, status=entry.status_code)
            response["Idempotent-Replayed"] = "true"
            return response
        status, body = _send(request, match, number)
        if status == 201:
            idempotency_store(entry=entry, status_code=status, response=body)
        else:
            transaction.set_rollback(True)  # the key too: a refusal wrote nothing
    return JsonResponse(body, status=status)


def _send(request, match, number: int | None) -> tuple[int, dict]:
    if number is not None and not selectors.match_current_hands(match=match).filter(number=number).exists():
        return 404, {
            "code": "not_found",
            "message": _("the match has no hand %(number)s") % {"number": number},
        }
    blocked = _blocked(match, correcting=number is not None)
    if blocked:
        return 409, {"code": "refused", "message": blocked}
    names, form = _posted_hand_form(request, match, number)
    context = {"match": match, "names": names}
    status, done = _submit(request, match, number, form, context, announce=False)
    if done is not None:
        hand = context["saved"]
        return 201, {
            "code": "recorded",
            "number": hand.number,
            "version": hand.match.version,
            "url": done["Location"],
        }
    if context.get("conflict"):
        return 409, {
            "code": "version_conflict",
            "message": context["conflict"],
            "version": match.version,
            "hand_count": match.hand_count,
            "theirs": _last_hand(match, names),
        }
    if context.get("refused"):
        return status, {"code": "refused", "message": context["refused"]}
    errors = {name: [str(m) for m in messages] for name, messages in form.errors.items()}
    outcome = context.get("outcome") or {}
    lines = [
        _("%(who)s: the rules give %(computed)s, not %(declared)s (%(why)s)")
        % {
            "who": m["who"],
            "computed": m.get("computed"),
            "declared": m.get("declared"),
            "why": m["explanation"],
        }
        for m in outcome.get("mismatches", [])
    ]
    lines += [str(e.get("message", "")) for e in outcome.get("errors", [])]
    lines += [f"{label}: {message}" if label else message for label, message in form.error_summary()]
    return 400, {"code": "refused", "message": " · ".join(dict.fromkeys(lines)), "errors": errors}


def _last_hand(match, names) -> dict | None:
    hand = (
        selectors.match_current_hands(match=match).select_related("recorded_by").order_by("-number").first()
    )
    if hand is None:
        return None
    computed = hand.computed or []
    declared = hand.declared or []
    return {
        "number": hand.number,
        "by": hand.recorded_by.get_username() if hand.recorded_by else "",
        "at": hand.recorded_at.isoformat(),
        "seats": [
            {
                "name": name,
                "score": computed[i] if i < len(computed) else None,
                "declared": declared[i] if i < len(declared) else None,
            }
            for i, name in enumerate(names)
        ],
        "url": reverse("hand-detail", args=[match.pk, hand.number]),
    }


def _fingerprint(request) -> str:
    # The CSRF token is left out: the queue sends the one of the page it runs on.
    body = {k: v for k, v in request.POST.lists() if k != "csrfmiddlewaretoken"}
    text = json.dumps({"path": request.path, "body": body}, sort_keys=True, separators=(",", ":"))
    return hmac.new(settings.SECRET_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()
