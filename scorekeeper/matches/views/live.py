"""The hand form's live check: the form's own POST data in, the dry run's verdict out (JSON).

The page's script (``static/matches/live.js``) posts the hand form as it stands, as it would
be saved, to ``/matches/<id>/hands/check/`` (a new hand) or ``…/hands/<n>/check/`` (a
correction). Here the same form class as the save turns it into the hand record, and the
same engine call as the API's dry run (``services.hand_dry_run``, the body of
``POST /api/v1/rules/<game>/score``) scores it against the state before the hand. So the
script knows nothing of records, of games or of how an engine path maps to a field: every
problem comes back with the form field it belongs to, every seat with the score the rules
give and why its declared one differs, in the request's language (the script sends the
page's ``<html lang>`` as Accept-Language). Nothing is stored; the save still checks it all.

Answers, one body shape (``code``, ``message``, ``valid``, ``savable``, ``fields``,
``problems``, ``seats``, ``mismatches``, ``warnings``):

- 200 ``checked``: the engine's verdict, ``valid`` when it has no error and no mismatch;
  ``savable`` when the save would be taken (valid, or mismatches accepted with a reason).
- 400 ``form_invalid``: what was typed is not a hand yet (a trick list with a letter,
  broken JSON in the advanced box): those messages under ``fields``, nothing scored.
- 404 ``not_found`` (no such match or hand), 405 for anything but POST, 409 ``hand_blocked``
  (the match is void, or over for a new hand), as the form page itself would say.
"""

from __future__ import annotations

from typing import Any

from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorekeeper.rules import find_ruleset

from .. import selectors, services
from .matches import _at, _blocked, _outcome, _posted_hand_form


@require_POST
def hand_check(request, pk: int, number: int | None = None):
    match = selectors.match_with_seats().filter(pk=pk).first()
    if match is None:
        return _answer(404, "not_found", _("There is no such match."))
    if number is not None and not selectors.match_current_hands(match=match).filter(number=number).exists():
        return _answer(404, "not_found", _("the match has no hand %(number)s") % {"number": number})
    blocked = _blocked(match, correcting=number is not None)
    if blocked:
        return _answer(409, "hand_blocked", blocked)
    names, form = _posted_hand_form(request, match, number)
    fields: dict[str, list[dict[str, str]]]
    if not form.is_valid():
        fields = {
            name: [{"code": e.code or "invalid", "message": " ".join(e.messages)} for e in errs.as_data()]
            for name, errs in form.errors.items()
        }
        return _answer(
            400,
            "form_invalid",
            _("Nothing was checked: please fix what is marked."),
            held=_("Not saved yet: fix what is marked first."),
            fields=fields,
            problems=[
                {"field": name, "label": _label(form, name), **item}
                for name, items in fields.items()
                for item in items
            ],
        )
    data = form.cleaned_data
    accept = bool(data.get("accept_declared"))
    run = services.hand_dry_run(match=match, record=form.record(), number=number, accept_declared=accept)
    evaluation = run["evaluation"]
    # The engine's messages in the request's language (the seats' scores are the evaluation's own).
    outcome = _outcome(evaluation, names, match.game, breakdown=False)
    problems = []
    fields = {}
    for problem in outcome["errors"]:
        name = form.field_for_path(str(problem.get("path", "")))
        name = name if name in form.fields else None
        item = {"code": str(problem.get("code", "")), "message": str(problem.get("message", ""))}
        problems.append({"field": name, "label": _label(form, name), "path": problem.get("path"), **item})
        if name:
            fields.setdefault(name, []).append(item)
    mismatched = {m.get("seat"): m for m in outcome["mismatches"]}
    declared_keys = find_ruleset(match.game).declared_keys
    declared = next((k for k in declared_keys if f"{k}_0" in form.fields), None)
    seats = []
    for i, name in enumerate(names):
        m = mismatched.get(i)
        seats.append({
            "seat": i,
            "name": name,
            "computed": _at(evaluation.get("scores"), i),
            "field": f"{declared}_{i}" if declared else None,
            "differs": m is not None,
            "declared": m.get("declared") if m else None,
            "rules_give": m.get("computed") if m else None,
            "explanation": m["explanation"] if m else "",
            "note": _seat_note(_at(evaluation.get("scores"), i), m),
            # The tap by a mismatch that puts the rules' score into the declared field.
            "use": _("Use %(score)s") % {"score": m.get("computed")} if m else "",
        })  # fmt: skip
    valid = not outcome["errors"] and not outcome["mismatches"]
    reason = (data.get("reason") or "").strip()
    savable = not outcome["errors"] and (not outcome["mismatches"] or (accept and bool(reason)))
    if outcome["errors"]:
        message = _("The rules refuse this hand: see the marked fields.")
    elif outcome["mismatches"]:
        message = _("The declared scores differ from the rules.")
        if not savable:
            message += " " + _("Fix them, or accept the declared scores with a reason.")
    else:
        message = _("The hand is valid.")
    if outcome["errors"]:
        held = _("Not saved yet: the rules refuse this hand (see the marked fields).")
    elif accept and not reason:
        held = _("Not saved yet: give the reason for accepting the declared scores.")
    else:
        held = _("Not saved yet: a declared score differs. Use the rules' score, or accept with a reason.")
    return _answer(
        200,
        "checked",
        message,
        valid=valid,
        savable=savable,
        held="" if savable else held,
        fields=fields,
        problems=problems,
        seats=seats,
        mismatches=[
            {k: m.get(k) for k in ("seat", "declared", "computed", "explanation")}
            for m in outcome["mismatches"]
        ],
        warnings=[{"code": w.get("code"), "message": w.get("message")} for w in outcome["warnings"]],
        match_over=bool(evaluation.get("match_over")),
        dry_run={"url": reverse("api:rules-score", kwargs={"game": match.game}), "body": run["request"]},
    )


def _seat_note(computed: Any, mismatch: dict[str, Any] | None) -> str:
    """What the page shows by a seat's declared field, in the request's language."""
    if mismatch:
        return _("The rules give %(computed)s, not %(declared)s: %(why)s") % {
            "computed": mismatch.get("computed"),
            "declared": mismatch.get("declared"),
            "why": mismatch.get("explanation") or "",
        }
    return _("The rules give %(computed)s.") % {"computed": computed} if computed is not None else ""


def _label(form, name: str | None) -> str:
    field = form.fields.get(name) if name else None
    return str(field.label or "") if field is not None else ""


def _answer(status: int, code: str, message: str, **body: Any) -> JsonResponse:
    defaults: dict[str, Any] = {
        "valid": False,
        "savable": False,
        "fields": {},
        "problems": [],
        "seats": [],
        "mismatches": [],
        "warnings": [],
        "held": "",
    }
    # The page's script has no words of its own: the one it needs comes with every answer.
    defaults["still_to_fill"] = _("Still to fill in")
    response = JsonResponse({"code": code, "message": message, **defaults, **body}, status=status)
    response["Cache-Control"] = "no-store"
    return response
