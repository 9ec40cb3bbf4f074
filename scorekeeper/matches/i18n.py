"""The rules engine's messages in the active language (Django's translation).

The engine is plain Python: it keeps every error, warning, mismatch explanation and
breakdown note as a message code with parameters, and renders English unless it is given
gettext functions (``scorekeeper.rules.messages.render``). This module gives it Django's,
so that the API and the pages show a stored evaluation in the reader's language; the
translations are the engine's catalog, ``scorekeeper/rules/locale``.

An evaluation stored before messages had codes (no ``message_code`` …) keeps its English
text: the data migration 0006 converted every stored one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from scorekeeper.rules import messages

#: The text key of each kind of engine item and the keys of its code and parameters.
_PROBLEM = ("message", "message_code", "message_params")
_MISMATCH = ("explanation", "explanation_code", "explanation_params")
_LINE = ("note", "note_code", "note_params")


def render(code: str, params: Mapping[str, Any] | None = None) -> str:
    """An engine message in the active language."""
    return messages.render(code, params, gettext=gettext, ngettext=ngettext, pgettext=pgettext)


def _item(item: Any, keys: tuple[str, str, str]) -> Any:
    text, code, params = keys
    if not isinstance(item, dict) or not isinstance(item.get(code), str):
        return item
    return {**item, text: render(item[code], item.get(params))}


def problems(items: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Errors or warnings (``{"code", "path", "message", …}``) with their message translated."""
    return [_item(item, _PROBLEM) for item in items or []]


def mismatches(items: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    return [_item(item, _MISMATCH) for item in items or []]


def breakdown(items: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    return [_item(item, _LINE) for item in items or []]


def evaluation(value: dict[str, Any] | None) -> dict[str, Any]:
    """An evaluation dict (``Evaluation.to_dict()``, or one stored on a hand) in the active
    language: a copy whose messages, explanations and notes are rendered from their codes."""
    if not value:
        return value or {}
    out = dict(value)
    for key, localize in (
        ("errors", problems),
        ("warnings", problems),
        ("mismatches", mismatches),
        ("breakdown", breakdown),
    ):
        if key in out:
            out[key] = localize(out[key])
    return out


def explanation_detail(mismatch: dict[str, Any]) -> str:
    """A mismatch's explanation without an opening that restates the computed value
    ("the rules give 34: …"), for a page that shows that value beside it."""
    params = mismatch.get("explanation_params") or {}
    detail = params.get("detail")
    if mismatch.get("explanation_code") in messages.RULES_GIVE and isinstance(detail, dict):
        return render(detail["code"], detail.get("params"))
    text = str(mismatch.get("explanation") or "")
    return text.removeprefix(f"the rules give {mismatch.get('computed')}: ")


def rejection_message(evaluation_: dict[str, Any], code: str, *, english: bool = False) -> str | None:
    """The top message of a rejected hand in the active language (or in English), from its
    evaluation: the first error's message, or for mismatches the seats and the first explanation."""
    say = messages.render if english else render
    if code == "hand_invalid" and evaluation_.get("errors"):
        first = evaluation_["errors"][0]
        return say(first["message_code"], first.get("message_params")) if "message_code" in first else None
    if code == "score_mismatch" and evaluation_.get("mismatches"):
        items = evaluation_["mismatches"]
        if not all("explanation_code" in m for m in items):
            return None
        seats = ", ".join(str(m.get("seat")) for m in items)
        explanation = say(items[0]["explanation_code"], items[0].get("explanation_params"))
        return say("result.mismatches", {"seats": seats, "explanation": explanation})
    return None


def error_body(body: dict[str, Any]) -> dict[str, Any]:
    """An API error body whose engine parts (``errors``, ``problems``, ``mismatches``,
    ``evaluation``) are shown in the active language; ``code``s never change."""
    out = dict(body)
    for key in ("errors", "problems"):
        if isinstance(out.get(key), list):
            out[key] = problems(out[key])
    if isinstance(out.get("mismatches"), list):
        out["mismatches"] = mismatches(out["mismatches"])
    if isinstance(out.get("evaluation"), dict):
        stored, out["evaluation"] = out["evaluation"], evaluation(out["evaluation"])
        # The service wrote the message in English, maybe after its own words ("hand 2: …").
        english = rejection_message(stored, str(out.get("code")), english=True)
        said = str(out.get("message", ""))
        if english and said.endswith(english):
            localized = rejection_message(stored, str(out.get("code")))
            out["message"] = said[: len(said) - len(english)] + str(localized)
    elif out.get("code") == "options_invalid" and out.get("problems"):
        at = [
            {"code": "result.at_path", "params": {"path": p.get("path", ""), "message": p.get("message", "")}}
            for p in out["problems"]
        ]
        out["message"] = render("result.problems", {"problems": at})
    return out
