"""The engine's message catalog: every text a person reads, by stable code, in English.

The engine never writes a sentence while it evaluates a hand. An error, a warning, a
mismatch explanation or a breakdown note holds a *message code* and its *parameters*
(``Message("cul.note.gained", {"bet": …, "points": 43, "target": 44})``); the text is
rendered only when someone reads it, in the language of the ``gettext`` functions given:

>>> render("field.required", {"path": "dealer"})
'dealer is required'
>>> render("field.required", {"path": "dealer"}, gettext=french.gettext)  # doctest: +SKIP
'dealer est obligatoire'

Stored evaluations keep the codes and parameters (``to_json``), so a hand recorded in one
language is shown in any other later; ``scorekeeper.matches.i18n`` renders them with
Django's translations.

The templates below are marked for Django's ``makemessages`` (xgettext) without importing
Django: ``gettext_noop`` marks a sentence, ``ngettext_lazy`` a sentence that counts
something (its third argument names the counting parameter, as Django's own
``ngettext_lazy`` allows) and ``pgettext_lazy`` a term with a context, so that a short
word such as "point" cannot collide with the site's own catalog. Templates are whole
sentences with named placeholders (``{seat}``); a parameter that is itself text (a
combination, a rank, a bet) is a nested ``Message`` rendered in the same language.
The translations live in ``scorekeeper/rules/locale/<lang>/LC_MESSAGES/django.po``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

# -- markers (xgettext keywords) and English fallbacks ------------------------------------------


def gettext_noop(message: str) -> str:
    """Mark a template for extraction; the English text is the template itself."""
    return message


class Plural(NamedTuple):
    """A template that counts: the English singular and plural, and the counting parameter."""

    singular: str
    plural: str
    number: str


class Term(NamedTuple):
    """A word of the games (a combination, a rank, a bet) with its translation context."""

    context: str
    message: str


def ngettext_lazy(singular: str, plural: str, number: str) -> Plural:
    """Mark a counted template; ``number`` is the name of the parameter that counts."""
    return Plural(singular, plural, number)


def pgettext_lazy(context: str, message: str) -> Term:
    """Mark a term and its context."""
    return Term(context, message)


def gettext(message: str) -> str:
    """English: the template as written."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """English: one thing, or several."""
    return singular if n == 1 else plural


def pgettext(context: str, message: str) -> str:
    """English: the term as written."""
    return message


# -- messages ---------------------------------------------------------------------------------

_NO_PARAMS: Mapping[str, Any] = {}


class Message(NamedTuple):
    """A message code and its parameters; ``str()`` renders it in English."""

    code: str
    params: Mapping[str, Any] = _NO_PARAMS

    def __str__(self) -> str:
        return render(self.code, self.params)

    def render(self, **translations: Callable) -> str:
        return render(self.code, self.params, **translations)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": params_to_json(self.params)}


def term(code: str) -> Message:
    """A catalog term as a parameter: rendered in the reader's language."""
    return Message(code)


def params_to_json(params: Mapping[str, Any] | None) -> dict[str, Any]:
    """Parameters as JSON: a nested message becomes ``{"code", "params"}``, a card its notation."""
    return {key: _json(value) for key, value in (params or _NO_PARAMS).items()}


def _json(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float)):
        return value
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return str(value)  # a Card: its canonical notation


class _Params(dict):
    """Format parameters; a placeholder without a value is left as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render(
    code: str,
    params: Mapping[str, Any] | None = None,
    *,
    gettext: Callable[[str], str] = gettext,
    ngettext: Callable[[str, str, int], str] = ngettext,
    pgettext: Callable[[str, str], str] = pgettext,
) -> str:
    """The text of message ``code`` with ``params``, in the language of the functions given.

    ``params`` may be the engine's (nested ``Message`` objects) or stored JSON (nested
    ``{"code", "params"}`` objects). A code the catalog does not know is a plain text written
    before the catalog existed (or by a test's fake game) and is returned as it is.
    """
    entry = MESSAGES.get(code)
    if entry is None:
        return code
    tr = (gettext, ngettext, pgettext)
    if type(entry) is str:
        template = gettext(entry)
    elif type(entry) is Term:
        return pgettext(entry.context, entry.message)
    else:
        count = (params or _NO_PARAMS).get(entry.number, 0)
        template = ngettext(entry.singular, entry.plural, count if isinstance(count, int) else 0)
    if not params:
        return template
    values = _Params({key: _text(value, tr) for key, value in params.items()})
    return template.format_map(values)


def _text(value: Any, tr: tuple) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Message):
        return render(value.code, value.params, gettext=tr[0], ngettext=tr[1], pgettext=tr[2])
    if isinstance(value, dict) and "code" in value:
        return render(value["code"], value.get("params"), gettext=tr[0], ngettext=tr[1], pgettext=tr[2])
    if isinstance(value, (list, tuple)):
        texts = [_text(v, tr) for v in value]
        sentences = any(isinstance(v, (Message, dict)) for v in value)
        return ("; " if sentences else ", ").join(texts)
    return str(value)


# -- the catalog --------------------------------------------------------------------------------
#
# Codes are ``<area>.<what>``; a code is stable once released (stored evaluations name it).
# Placeholders: {path} a path into the record ("points[2]"), {seat} a seat number, {value} the
# offending value as the engine describes it, {card} a card in canonical notation ("10H").

#: Explanations that open with the computed value ("the rules give 34: {detail}"); a page that
#: shows that value beside the explanation shows only the ``detail`` parameter.
RULES_GIVE = frozenset({"piquet.rules_give", "piquet.rules_give_team"})

MESSAGES: dict[str, str | Plural | Term] = {
    # -- the result (spec 1.5) ------------------------------------------------------------------
    "result.score_mismatch": gettext_noop(
        "seat {seat} declared {declared}, the rules give {computed}: {explanation}"
    ),
    "result.mismatches": gettext_noop(
        "declared scores differ from the rules for seat(s) {seats}: {explanation}"
    ),
    "result.problems": gettext_noop("{problems}"),
    "result.at_path": gettext_noop("{path}: {message}"),
    # -- games, seats and the state (spec 1.4, 1.7) ----------------------------------------------
    "game.unknown": gettext_noop("unknown game {key}; known: {known}"),
    "game.seat_count": gettext_noop("{game} is played by {allowed} players, not {seats}"),
    "state.not_an_object": gettext_noop("the state must be an object or null"),
    "state.problems": gettext_noop("{reasons}"),
    "state.match_over": gettext_noop("the match is already over"),
    "state.key_missing": gettext_noop("{key} is missing"),
    "state.key_unknown": gettext_noop("{key} is not a state field"),
    "state.count_negative": gettext_noop("{key} must be an integer ≥ 0"),
    "state.integers": ngettext_lazy(
        "{key} must be a list of {n} integer", "{key} must be a list of {n} integers", "n"
    ),
    "state.no_negatives": gettext_noop("{key} must not hold negative numbers"),
    "state.seat_or_null": gettext_noop("{key} must be a seat 0…{last} or null"),
    "state.over_boolean": gettext_noop("over must be true or false"),
    # -- reading the record (spec 1.7) -----------------------------------------------------------
    "field.record_not_object": gettext_noop("the hand record must be a JSON object"),
    "field.the_record": pgettext_lazy("path", "the record"),
    "field.required": gettext_noop("{path} is required"),
    "field.must_be_object": gettext_noop("{path} must be an object"),
    "field.not_integer": gettext_noop("{path} must be an integer, not {value}"),
    "field.out_of_bounds": gettext_noop("{path} is {value}, outside {bounds}"),
    "field.not_boolean": gettext_noop("{path} must be true or false, not {value}"),
    "field.not_a_choice": gettext_noop("{path} must be one of {allowed}, not {value}"),
    "field.not_a_seat": gettext_noop("{path} must be a seat 0…{last}, not {value}"),
    "field.not_a_list": gettext_noop("{path} must be a list, not {value}"),
    "field.per_seat_length": ngettext_lazy(
        "{path} must have {seats} entry, not {length}",
        "{path} must have {seats} entries, not {length}",
        "seats",
    ),
    "field.card_invalid": gettext_noop("{path}: {reason}"),
    "field.card_not_in_pack": gettext_noop("{path}: {card} is not in this game's pack"),
    "field.card_duplicate": gettext_noop("{path}: {card} also appears at {other}"),
    "value.nothing": pgettext_lazy("value", "nothing"),
    "value.an_object": pgettext_lazy("value", "an object"),
    "value.a_list": pgettext_lazy("value", "a list"),
    # -- cards (spec 1.3) ------------------------------------------------------------------------
    "card.rank_not_string": gettext_noop("a rank must be a string, not {type}"),
    "card.not_a_rank": gettext_noop("{text} is not a rank"),
    "card.not_string": gettext_noop("a card must be a string, not {type}"),
    "card.not_a_card": gettext_noop("{text} is not a card"),
    # -- options (spec 1.2) ----------------------------------------------------------------------
    "option.preset_invalid": gettext_noop("preset must be classic or seed, not {value}"),
    "option.not_an_object": gettext_noop("options must be an object"),
    "option.unknown": gettext_noop("{name} is not an option of this game"),
    "option.not_boolean": gettext_noop("{name} must be true or false, not {value}"),
    "option.not_a_choice": gettext_noop("{name} must be one of {allowed}, not {value}"),
    "option.not_integer": gettext_noop("{name} must be an integer ≥ {minimum}, not {value}"),
    "option.not_auto_or_integer": gettext_noop(
        '{name} must be "auto" or an integer ≥ {minimum}, not {value}'
    ),
    # -- cul «Жопа» (spec 8) ---------------------------------------------------------------------
    "cul.bet.go": pgettext_lazy("cul bet", "go"),
    "cul.bet.not_go": pgettext_lazy("cul bet", "not go"),
    "cul.note.dropped": gettext_noop(
        "bet {bet}, made {points} of {target}: reaching the target drops a bank"
    ),
    "cul.note.gained": gettext_noop("bet {bet}, made {points} of {target}: a failed go gains a bank"),
    "cul.note.unchanged": gettext_noop(
        "bet {bet}, made {points} of {target}: a failed not go changes nothing"
    ),
    "cul.mismatch": ngettext_lazy(
        "{why} ({before} → {after} bank)", "{why} ({before} → {after} banks)", "after"
    ),
    "cul.state.banks": gettext_noop("banks[{seat}] is {banks}, but 3 − dropped + gained = {expected}"),
    "cul.bonus_claim_not_object": gettext_noop('{path} must be an object like {{"item": "queen_king"}}'),
    "cul.bonus_unknown": gettext_noop("{path}: {value} is not one of {allowed}"),
    "cul.bonus_twice": gettext_noop("{path}: {item} is claimed twice by seat {seat}"),
    "cul.points_cards": gettext_noop(
        "seat {seat} reports {points} points, the captured cards give {cards} = {total}"
    ),
    "cul.points_with_bonuses": gettext_noop(
        "seat {seat} reports {points} points, the captured cards give {cards} + bonuses {bonuses} = {total}"
    ),
    "cul.dealer_rule": gettext_noop(
        "seat {previous} led first in the previous party and should deal, not seat {dealer}"
    ),
    "cul.bonus_unsupported": gettext_noop("seat {seat} claims {item} but the captured cards do not show it"),
    # -- Bank «Банк» (spec 9) --------------------------------------------------------------------
    "bank.place.1": pgettext_lazy("bank finishing position", "1st"),
    "bank.place.2": pgettext_lazy("bank finishing position", "2nd"),
    "bank.place.3": pgettext_lazy("bank finishing position", "3rd"),
    "bank.penalty.cards": ngettext_lazy("{p0} card point (option 1)", "{p0} card points (option 1)", "p0"),
    "bank.penalty.flat_additive": ngettext_lazy(
        "{p0} card point + {fixed} fixed (option 2a, additive reading)",
        "{p0} card points + {fixed} fixed (option 2a, additive reading)",
        "p0",
    ),
    "bank.penalty.flat_replace": ngettext_lazy(
        "{fixed} fixed instead of the {p0} card point (option 2a, replacing reading)",
        "{fixed} fixed instead of the {p0} card points (option 2a, replacing reading)",
        "p0",
    ),
    "bank.penalty.flat_not_pointless": ngettext_lazy(
        "{p0} card point; the fixed {fixed} is only for a pointless hand (option 2a)",
        "{p0} card points; the fixed {fixed} is only for a pointless hand (option 2a)",
        "p0",
    ),
    "bank.penalty.flat_pointless": gettext_noop(
        "no card points, so the fixed {fixed} (option 2a, pointless-only reading)"
    ),
    "bank.penalty.per_card_additive": ngettext_lazy(
        "{p0} card points + {k} × {count} card (option 2b, additive reading)",
        "{p0} card points + {k} × {count} cards (option 2b, additive reading)",
        "count",
    ),
    "bank.penalty.per_card_replace": ngettext_lazy(
        "{k} × {count} card instead of the {p0} card points (option 2b, replacing reading)",
        "{k} × {count} cards instead of the {p0} card points (option 2b, replacing reading)",
        "count",
    ),
    "bank.penalty.per_card_pointless": gettext_noop(
        "{p0} card points + {k} × {zero} without points (option 2b, pointless-only)"
    ),
    "bank.note.captured": ngettext_lazy(
        "{points} card point captured", "{points} card points captured", "points"
    ),
    "bank.note.finish": gettext_noop("{points} for going out {place}"),
    "bank.note.king_additive": gettext_noop("{points} king bonus under the additive reading"),
    "bank.note.king_replacing": gettext_noop(
        "{points} king bonus replacing the {base} for going out {place}"
    ),
    "bank.note.four_of_kind": gettext_noop("{points} for going out with four of a kind"),
    "bank.note.four_run": gettext_noop("{points} for going out {place} with a same-suit run of four"),
    "bank.note.penalty_held": gettext_noop("penalty {amount} for {cards} left in hand"),
    "bank.note.penalty": gettext_noop("{held}: {why}"),
    "bank.headline.out": gettext_noop("did not go out"),
    "bank.headline.out_rule_a": gettext_noop("did not go out (rule A: no penalty)"),
    "bank.headline.finished": gettext_noop("finished {place}"),
    "bank.headline.four_kings": gettext_noop("{head} laying the four kings"),
    "bank.headline.trump_king": gettext_noop("{head} with the trump king"),
    "bank.headline.king": gettext_noop("{head} with a king"),
    "bank.headline.four_of_kind": gettext_noop("{head} laying four of a kind"),
    "bank.headline.four_run": gettext_noop("{head} with a run of four"),
    "bank.plus": gettext_noop("{a} + {b}"),
    "bank.minus": gettext_noop("{a} − {b}"),
    "bank.hint.option": gettext_noop("{declared} is what {setting} would give"),
    "bank.hint.left_out": gettext_noop("{declared} leaves out the {item}"),
    "bank.explain": gettext_noop("{headline}: {terms} = {total}"),
    "bank.explain_hints": gettext_noop("{headline}: {terms} = {total}; {hints}"),
    "bank.mismatch_non_participant": gettext_noop("took no part in the tie-break party: scores 0"),
    "bank.state.tiebreak_seats": gettext_noop(
        "tiebreak_seats must be null or at least two distinct seats in ascending order"
    ),
    "bank.state.judge": gettext_noop(
        "over = {over} and tiebreak_seats = {tied} do not follow from the totals {totals} "
        "with target {target}"
    ),
    "bank.state.nothing_played": gettext_noop(
        "no party has been played, yet there are totals or a last dealer"
    ),
    "bank.captured_needed": gettext_noop("captured_points (or the cards, captured) is needed"),
    "bank.captured_conflict": gettext_noop(
        "captured_points[{seat}] is {points}, the cards in captured[{seat}] are worth {worth}"
    ),
    "bank.captured_points_range": gettext_noop("{path} is {value}: card points are 0 … {maximum}"),
    "bank.position_invalid": gettext_noop("{path} must be a position 1, 2, 3 or null, not {value}"),
    "bank.flags_invalid": gettext_noop("{path} must be a flags object or null, not {value}"),
    "bank.flag_unknown": gettext_noop("{key} is not a going-out flag ({flags})"),
    "bank.dealer_not_playing": gettext_noop(
        "seat {seat} deals, but only seats {seats} play the tie-break party"
    ),
    "bank.non_participant.captured": gettext_noop(
        "seat {seat} takes no part in the tie-break party but has captured points"
    ),
    "bank.non_participant.finish": gettext_noop(
        "seat {seat} takes no part in the tie-break party but has a finishing position"
    ),
    "bank.non_participant.bonus": gettext_noop(
        "seat {seat} takes no part in the tie-break party but has a going-out bonus"
    ),
    "bank.non_participant.cards": gettext_noop(
        "seat {seat} takes no part in the tie-break party but holds cards"
    ),
    "bank.positions_invalid": gettext_noop(
        "the going-out positions {positions} are not 1 … {m} without gaps or repeats"
    ),
    "bank.all_out": gettext_noop("{m} of {n} players went out; one is always left with cards"),
    "bank.bonus_not_out": gettext_noop("seat {seat} did not go out: no going-out bonus"),
    "bank.flags_king": gettext_noop(
        "going out with the trump king or the four kings is going out with a king"
    ),
    "bank.flags_four_kings": gettext_noop(
        "the four kings have their own flag: four_of_kind is four of a kind other than kings"
    ),
    "bank.no_trump_king": gettext_noop("trump scheme 2 is played without trumps: there is no trump king"),
    "bank.left_cards_finisher": gettext_noop("seat {seat} went out: no cards left"),
    "bank.left_cards_missing": gettext_noop(
        "seat {seat} did not go out: the cards left in hand are needed for the penalty"
    ),
    "bank.points_exceed_deck": gettext_noop(
        "{captured} card points captured and {held} left in hand make {total}; the pack holds {pack}"
    ),
    "bank.play_blocked": gettext_noop("only {went_out} of {n} players went out: play was blocked"),
    "bank.dealer_loser": gettext_noop(
        "seat {seat} dealt, but under next_dealer_rule = {rule} the last loser, seat {loser}, deals"
    ),
    "bank.dealer_most": gettext_noop(
        "seat {seat} dealt, but under next_dealer_rule = {rule} "
        "a player with the most points ({points}) deals"
    ),
    "bank.dealer_fewest": gettext_noop(
        "seat {seat} dealt, but under next_dealer_rule = {rule} "
        "a player with the fewest points ({points}) deals"
    ),
    # -- Bastard (spec 10) -----------------------------------------------------------------------
    "bastard.note.tricks": ngettext_lazy("{tricks} trick", "{tricks} tricks", "tricks"),
    "bastard.note.charm_and_ugly": gettext_noop("7♦ and 7♣ without jacks: 4 per trick"),
    "bastard.note.ugly_doubles": gettext_noop("7♦ without jacks: tricks doubled"),
    "bastard.note.jacks_doubled": gettext_noop("jacks {jacks}, doubled by the 7♦"),
    "bastard.note.jacks_cancelled": gettext_noop("jacks {jacks}, the 7♣ cancels the 7♦'s doubling"),
    "bastard.note.jacks": gettext_noop("jacks {jacks}"),
    "bastard.note.charm_alone": gettext_noop("7♣ alone without jacks: 4 per trick"),
    "bastard.mismatch": gettext_noop(
        "{notes} = {score} (the hand's scores add up to {total}, the declared ones to {declared})"
    ),
    "bastard.specials_without_tricks": gettext_noop(
        "seat {seat} took {tricks} trick(s) but holds {specials} special card(s): "
        "they need at least {needed} trick(s) of {n} cards"
    ),
    "bastard.state.last_dealer": gettext_noop("last_dealer is null exactly before the first hand"),
    "bastard.state.over": gettext_noop("a match of {hands} hands is over after hand {played}"),
    "bastard.trump_invalid": gettext_noop("trump must be one of S, H, D, C, NT, not {value}"),
    "bastard.tricks_negative": gettext_noop("{path} is {value}: a player cannot take fewer than 0"),
    "bastard.tricks_sum": gettext_noop("the tricks add up to {total}; {seats} players take {expected}"),
    "bastard.special_invalid": gettext_noop("{path}: {card} is not one of {specials}"),
    "bastard.special_missing": gettext_noop(
        "{cards} must be in some player's tricks (each special card is taken once)"
    ),
    "bastard.dealer_rotation": gettext_noop(
        "seat {last} dealt the previous hand, so seat {expected} deals, not seat {dealer}"
    ),
    "bastard.pass_count": ngettext_lazy(
        "hand {hand}: {expected} card is passed, not {count}",
        "hand {hand}: {expected} cards are passed, not {count}",
        "expected",
    ),
}
