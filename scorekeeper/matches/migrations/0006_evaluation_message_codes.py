"""Give the messages of every stored evaluation their codes and parameters (issue 12).

Before, a hand's ``evaluation`` held the engine's explanations as English text only, so they
could not be shown in another language. The rules engine now keeps a message code and its
parameters beside each text (``message_code``/``message_params`` for errors and warnings,
``explanation_code``/``explanation_params`` for mismatches, ``note_code``/``note_params``
for breakdown lines). This migration re-evaluates each stored hand with the engine and
copies the codes and parameters of every item whose English text the engine gives again
word for word; an item it cannot reproduce (an engine that changed since, or a superseded
version whose state before is unknown) keeps its English text only, which the pages and the
API then show as it is.

Nothing recorded changes: only the derived message fields of ``evaluation`` are added; the
record, declared and computed values, state, status and every other key stay as stored.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

#: Per list of an evaluation: the keys that identify an item, and its text, code and params keys.
LISTS = {
    "errors": (("code", "path"), ("message", "message_code", "message_params")),
    "warnings": (("code", "path"), ("message", "message_code", "message_params")),
    "mismatches": (("seat", "declared", "computed"), ("explanation", "explanation_code", "explanation_params")),
    "breakdown": (("seat", "item", "points"), ("note", "note_code", "note_params")),
}


def converted(stored: dict[str, Any], fresh: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """``stored`` with the codes of ``fresh``'s items that say exactly the same; the count of
    items still without a code."""
    out = dict(stored)
    left = 0
    for name, (ids, (text, code, params)) in LISTS.items():
        items = stored.get(name)
        if not isinstance(items, list):
            continue
        pool = [f for f in fresh.get(name) or [] if isinstance(f, dict)]
        new_items = []
        for item in items:
            if not isinstance(item, dict) or code in item:
                new_items.append(item)
                continue
            same = next(
                (f for f in pool if f.get(text) == item.get(text) and all(f.get(k) == item.get(k) for k in ids)),
                None,
            )
            if same is None:
                left += 1
                new_items.append(item)
            else:
                pool.remove(same)
                new_items.append({**item, code: same[code], params: same[params]})
        out[name] = new_items
    return out, left


def _needs_codes(evaluation: Any) -> bool:
    if not isinstance(evaluation, dict):
        return False
    return any(
        isinstance(item, dict) and keys[1][1] not in item
        for name, keys in LISTS.items()
        for item in evaluation.get(name) or []
    )


def add_codes(apps, schema_editor):
    from scorekeeper.rules import RulesError, find_ruleset

    Match = apps.get_model("matches", "Match")
    Hand = apps.get_model("matches", "Hand")
    for match in Match.objects.order_by("pk").iterator():
        hands = list(Hand.objects.filter(match=match).order_by("number", "version"))
        if not any(_needs_codes(h.evaluation) for h in hands):
            continue
        try:
            game = find_ruleset(match.game).create(match.preset, match.options or {}, match.seats.count())
        except RulesError:
            continue  # a game or options this engine no longer knows: the texts stay as they are
        by_number: dict[int, list] = {}
        for hand in hands:
            by_number.setdefault(hand.number, []).append(hand)
        changed = []
        for hand in hands:
            if not _needs_codes(hand.evaluation):
                continue
            # The state before: the current version of the previous hand first, then its others.
            previous = sorted(by_number.get(hand.number - 1, []), key=lambda h: h.status == "superseded")
            states = [h.state_after for h in previous] if hand.number > 1 else [None]
            best = None
            for state in states:
                fresh = game.evaluate(state, hand.record, accept_declared=hand.accepted_declared).to_dict()
                candidate = converted(hand.evaluation, fresh)
                if best is None or candidate[1] < best[1]:
                    best = candidate
                if best[1] == 0:
                    break
            if best is not None and best[0] != hand.evaluation:
                hand.evaluation = best[0]
                changed.append(hand)
        Hand.objects.bulk_update(changed, ["evaluation"], batch_size=500)


def drop_codes(apps, schema_editor):
    Hand = apps.get_model("matches", "Hand")
    changed = []
    for hand in Hand.objects.iterator():
        evaluation = hand.evaluation
        if not isinstance(evaluation, dict):
            continue
        out = dict(evaluation)
        for name, (_, (_, code, params)) in LISTS.items():
            if isinstance(out.get(name), list):
                out[name] = [
                    {k: v for k, v in item.items() if k not in (code, params)} if isinstance(item, dict) else item
                    for item in out[name]
                ]
        if out != evaluation:
            hand.evaluation = out
            changed.append(hand)
    Hand.objects.bulk_update(changed, ["evaluation"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("matches", "0005_match_fillfactor")]

    operations = [migrations.RunPython(add_codes, drop_codes, elidable=True)]
