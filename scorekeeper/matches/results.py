"""A finished match's result (spec 1.5 ``result``) in words, for the score sheet and the lists.

The engine stores each game's result as a small dict of per-seat lists and a few facts
(``winner``, ``rubiconed``, ``points_won``, ``double``, ``winning_team``, ``finish_order``,
``banks``, ``rating_pct``: see scorekeeper/rules/*). A person wants the places in order, who
won what and why, not those keys; this module says it, one sentence per fact, in the page's
language (every sentence is a whole translatable string).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.utils.formats import number_format
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scorekeeper.rules.fields import is_int

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: The per-seat figures a result may carry, in the order of the table's columns.
COLUMNS = {
    "totals": gettext_lazy("Points"),
    "banks": gettext_lazy("Banks"),
    "settlement": gettext_lazy("Won (+) or paid (−)"),
    "rating_pct": gettext_lazy("Match rating"),
}


def names_and(names: Sequence[str]) -> str:
    """ "Ada", "Ada and Bea", "Ada, Bea and Cid"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def _seat(value: Any, n: int) -> int | None:
    return value if is_int(value) and 0 <= value < n else None


def _per_seat(result: dict[str, Any], key: str, n: int) -> list[Any] | None:
    value = result.get(key)
    return value if isinstance(value, list) and len(value) == n else None


def _signed(value: Any) -> str:
    if is_int(value) and value > 0:
        return f"+{value}"
    if is_int(value) and value < 0:
        return f"−{-value}"
    return str(value)


def _pct(value: Any) -> StrOrPromise:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format_lazy("{} %", number_format(value, 1))
    return "—"


def result_summary(
    *, game: str, result: dict[str, Any] | None, seats: Sequence[dict[str, Any]], options: dict | None = None
) -> dict[str, Any] | None:
    """The result of a finished match for a page, or None before the end.

    ``seats`` are the sheet's seats (``name``, ``team``). Returns ``sentences`` (the result in
    words: who won, how, what was settled), ``columns`` (labels of the per-seat figures) and
    ``rows``: one per seat in the order of places (``place``, ``name``, ``seat``, ``values``
    formatted for display, ``first``).
    """
    if not isinstance(result, dict):
        return None
    options = options or {}
    n = len(seats)
    names = [str(seat.get("name", "?")) for seat in seats]
    placements = _per_seat(result, "placements", n)
    places = [p if is_int(p) else n for p in placements] if placements else list(range(1, n + 1))
    order = sorted(range(n), key=lambda i: (places[i], i))
    finish = result.get("finish_order")
    if isinstance(finish, list) and sorted(finish) == list(range(n)):
        order = list(finish)
    columns = [(key, label) for key, label in COLUMNS.items() if _per_seat(result, key, n) is not None]
    rows = []
    for i in order:
        values = []
        for key, _label in columns:
            value = result[key][i]
            if key == "settlement":
                value = _signed(value)
            elif key == "rating_pct":
                value = _pct(value)
            values.append(value)
        rows.append(
            {"place": places[i], "seat": i, "name": names[i], "values": values, "first": places[i] == 1}
        )
    return {
        "sentences": _sentences(game, result, names, places, seats, options),
        "columns": [label for _key, label in columns],
        "rows": rows,
        "winners": [names[i] for i in order if places[i] == 1],
    }


def _sentences(game, result, names, places, seats, options) -> list[str]:
    n = len(names)
    totals = _per_seat(result, "totals", n)
    points = result.get("points_won")
    out: list[str] = []
    if "winning_team" in result:  # piquet-voleur: two partnerships
        team = result.get("winning_team")
        if team is None:
            out.append(_("Drawn: the teams are level, nothing is settled."))
        else:
            winners = [names[i] for i, seat in enumerate(seats) if seat.get("team") == team]
            losers = [names[i] for i, seat in enumerate(seats) if seat.get("team") not in (None, team)]
            out.append(
                _("%(winners)s win: %(points)s points each, paid by %(losers)s.")
                % {"winners": names_and(winners), "points": points, "losers": names_and(losers)}
            )
        return out
    if "finish_order" in result:  # piquet-normand: places by finishing order, the last pays
        order = result.get("finish_order") or []
        finish = [seat for s in order if (seat := _seat(s, n)) is not None]
        settlement = _per_seat(result, "settlement", n)
        if len(order) == 3 and len(finish) == 3 and settlement:
            first, second, last = finish
            out.append(
                _("%(first)s finished first, %(second)s second, %(last)s last.")
                % {"first": names[first], "second": names[second], "last": names[last]}
            )
            out.append(
                _("%(last)s pays %(first)s %(a)s points and %(second)s %(b)s points.")
                % {
                    "last": names[last],
                    "first": names[first],
                    "second": names[second],
                    "a": settlement[first],
                    "b": settlement[second],
                }
            )
        return out
    if "winner" in result:  # piquet, piquet-auction, piquet-au-cent, bank
        winner = _seat(result.get("winner"), n)
        if winner is None:
            if totals and len(set(totals)) == 1:
                out.append(_("Drawn at %(total)s points each: nothing is settled.") % {"total": totals[0]})
            else:
                out.append(_("Drawn: nothing is settled."))
            return out
        others = [names[i] for i in range(n) if i != winner]
        if "rubiconed" in result:
            values = {"winner": names[winner], "points": points, "loser": names_and(others)}
            if result.get("rubiconed"):
                rubicon = options.get("rubicon")
                if is_int(rubicon):
                    out.append(
                        _("%(winner)s wins %(points)s points: %(loser)s is rubiconed (under %(rubicon)s).")
                        % {**values, "rubicon": rubicon}
                    )
                else:
                    out.append(_("%(winner)s wins %(points)s points: %(loser)s is rubiconed.") % values)
            else:
                out.append(_("%(winner)s wins %(points)s points; %(loser)s passed the Rubicon.") % values)
        elif "double" in result:
            values = {"winner": names[winner], "points": points}
            if result.get("double"):
                out.append(_("%(winner)s wins %(points)s points: a double game.") % values)
            else:
                out.append(_("%(winner)s wins %(points)s points.") % values)
        elif totals:
            out.append(
                _("%(winner)s wins with %(total)s points.")
                % {"winner": names[winner], "total": totals[winner]}
            )
        else:
            out.append(_("%(winner)s wins.") % {"winner": names[winner]})
        return out
    banks = _per_seat(result, "banks", n)
    winners = [names[i] for i in range(n) if places[i] == 1]
    if banks:  # cul: the fewest banks win, the most make the cul
        best = min(banks)
        out.append(
            ngettext(
                "%(names)s wins with %(banks)s bank left.",
                "%(names)s wins with %(banks)s banks left.",
                best,
            )
            % {"names": names_and(winners), "banks": best}
            if len(winners) == 1
            else ngettext(
                "%(names)s share the first place with %(banks)s bank left.",
                "%(names)s share the first place with %(banks)s banks left.",
                best,
            )
            % {"names": names_and(winners), "banks": best}
        )
        worst = max(banks)
        culs = [names[i] for i in range(n) if banks[i] == worst]
        if worst != best:
            out.append(
                ngettext(
                    "%(names)s is the cul, with %(banks)s bank.",
                    "%(names)s is the cul, with %(banks)s banks.",
                    worst,
                )
                % {"names": names_and(culs), "banks": worst}
            )
        return out
    # bastard and any other game: the places by points
    if len(winners) == 1 and totals:
        i = names.index(winners[0])
        out.append(_("%(winner)s wins with %(total)s points.") % {"winner": winners[0], "total": totals[i]})
    elif winners:
        out.append(
            ngettext("%(names)s wins.", "%(names)s share the first place.", len(winners))
            % {"names": names_and(winners)}
        )
    return out
