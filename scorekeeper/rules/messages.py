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

    def render(self, **translations: Callable[..., str]) -> str:
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


#: The three gettext functions of one language, handed down to nested messages.
_Translations = tuple[
    Callable[[str], str],
    Callable[[str, str, int], str],
    Callable[[str, str], str],
]


class _Params(dict[str, str]):
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
    if isinstance(entry, str):
        template = gettext(entry)
    elif isinstance(entry, Term):
        return pgettext(entry.context, entry.message)
    else:
        count = (params or _NO_PARAMS).get(entry.number, 0)
        template = ngettext(entry.singular, entry.plural, count if isinstance(count, int) else 0)
    if not params:
        return template
    values = _Params(
        {
            key: "; ".join(_text(v, tr) for v in value)
            if key in SENTENCE_LISTS and isinstance(value, (list, tuple))
            else _text(value, tr)
            for key, value in params.items()
        }
    )
    return template.format_map(values)


def _text(value: Any, tr: _Translations) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Message):
        return render(value.code, value.params, gettext=tr[0], ngettext=tr[1], pgettext=tr[2])
    if isinstance(value, dict) and "code" in value:
        return render(value["code"], value.get("params"), gettext=tr[0], ngettext=tr[1], pgettext=tr[2])
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v, tr) for v in value)
    return str(value)


#: Parameters that list whole sentences: joined with "; " (any other list with ", ").
SENTENCE_LISTS = frozenset({"reasons", "problems", "hints", "notes"})


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
    # -- cards (spec 1.3): a card's name for people; records keep the notation ("QS") -----------
    "card.name": gettext_noop("{rank} of {suit}"),
    "card.rank.2": pgettext_lazy("card rank", "two"),
    "card.rank.3": pgettext_lazy("card rank", "three"),
    "card.rank.4": pgettext_lazy("card rank", "four"),
    "card.rank.5": pgettext_lazy("card rank", "five"),
    "card.rank.6": pgettext_lazy("card rank", "six"),
    "card.rank.7": pgettext_lazy("card rank", "seven"),
    "card.rank.8": pgettext_lazy("card rank", "eight"),
    "card.rank.9": pgettext_lazy("card rank", "nine"),
    "card.rank.10": pgettext_lazy("card rank", "ten"),
    "card.rank.J": pgettext_lazy("card rank", "jack"),
    "card.rank.Q": pgettext_lazy("card rank", "queen"),
    "card.rank.K": pgettext_lazy("card rank", "king"),
    "card.rank.A": pgettext_lazy("card rank", "ace"),
    "card.suit.S": pgettext_lazy("card suit, in a card's name", "spades"),
    "card.suit.H": pgettext_lazy("card suit, in a card's name", "hearts"),
    "card.suit.D": pgettext_lazy("card suit, in a card's name", "diamonds"),
    "card.suit.C": pgettext_lazy("card suit, in a card's name", "clubs"),
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
    "option.integer_too_large": gettext_noop(
        "{name} must be an integer {minimum}…{maximum}, not a larger one"
    ),
    # -- the limits every input keeps (docs/rules/README.md, "Limits") ---------------------------
    "limit.the_value": pgettext_lazy("path", "the value"),
    "limit.the_document": pgettext_lazy("path", "the document"),
    "limit.number_out_of_range": gettext_noop("{path} is outside {minimum}…{maximum}"),
    "limit.string_nul": gettext_noop("{path} contains the character U+0000"),
    "limit.string_surrogate": gettext_noop("{path} contains an unpaired surrogate (not a Unicode character)"),
    "limit.string_nul_key": gettext_noop("the key {path} contains the character U+0000"),
    "limit.string_surrogate_key": gettext_noop(
        "the key {path} contains an unpaired surrogate (not a Unicode character)"
    ),
    "limit.too_deep": gettext_noop("{path} nests deeper than {depth} levels"),
    "limit.total_out_of_range": gettext_noop(
        "this hand would take a score or a total outside {minimum}…{maximum}"
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
    # -- the piquet family (spec 2–7) ------------------------------------------------------------
    # Who: the elder (non-dealer) and the younger of a two-hand deal, a seat in three or four
    # hands; each also as a possessor ("younger's trio of tens"), for sentences that need it.
    "piquet.elder": pgettext_lazy("piquet hand", "elder"),
    "piquet.younger": pgettext_lazy("piquet hand", "younger"),
    "piquet.elder_s": pgettext_lazy("piquet hand, possessive", "elder's"),
    "piquet.younger_s": pgettext_lazy("piquet hand, possessive", "younger's"),
    "piquet.seat": gettext_noop("seat {seat}"),
    "piquet.seat_s": gettext_noop("seat {seat}'s"),
    "piquet.who": gettext_noop("{hand} (seat {seat})"),
    # The combinations (spec 2.2): a sequence by its length and top card, a set by its rank.
    "piquet.run.3.9": pgettext_lazy("piquet sequence", "tierce to the nine"),
    "piquet.run.3.10": pgettext_lazy("piquet sequence", "tierce to the ten"),
    "piquet.run.3.J": pgettext_lazy("piquet sequence", "tierce to the jack"),
    "piquet.run.3.Q": pgettext_lazy("piquet sequence", "tierce to the queen"),
    "piquet.run.3.K": pgettext_lazy("piquet sequence", "tierce to the king"),
    "piquet.run.3.A": pgettext_lazy("piquet sequence", "tierce to the ace"),
    "piquet.run.4.10": pgettext_lazy("piquet sequence", "quart to the ten"),
    "piquet.run.4.J": pgettext_lazy("piquet sequence", "quart to the jack"),
    "piquet.run.4.Q": pgettext_lazy("piquet sequence", "quart to the queen"),
    "piquet.run.4.K": pgettext_lazy("piquet sequence", "quart to the king"),
    "piquet.run.4.A": pgettext_lazy("piquet sequence", "quart to the ace"),
    "piquet.run.5.J": pgettext_lazy("piquet sequence", "quint to the jack"),
    "piquet.run.5.Q": pgettext_lazy("piquet sequence", "quint to the queen"),
    "piquet.run.5.K": pgettext_lazy("piquet sequence", "quint to the king"),
    "piquet.run.5.A": pgettext_lazy("piquet sequence", "quint to the ace"),
    "piquet.run.6.Q": pgettext_lazy("piquet sequence", "sixième to the queen"),
    "piquet.run.6.K": pgettext_lazy("piquet sequence", "sixième to the king"),
    "piquet.run.6.A": pgettext_lazy("piquet sequence", "sixième to the ace"),
    "piquet.run.7.K": pgettext_lazy("piquet sequence", "septième to the king"),
    "piquet.run.7.A": pgettext_lazy("piquet sequence", "septième to the ace"),
    "piquet.run.8.A": pgettext_lazy("piquet sequence", "huitième to the ace"),
    "piquet.set.3.10": pgettext_lazy("piquet set", "trio of tens"),
    "piquet.set.3.J": pgettext_lazy("piquet set", "trio of jacks"),
    "piquet.set.3.Q": pgettext_lazy("piquet set", "trio of queens"),
    "piquet.set.3.K": pgettext_lazy("piquet set", "trio of kings"),
    "piquet.set.3.A": pgettext_lazy("piquet set", "trio of aces"),
    "piquet.set.4.10": pgettext_lazy("piquet set", "quatorze of tens"),
    "piquet.set.4.J": pgettext_lazy("piquet set", "quatorze of jacks"),
    "piquet.set.4.Q": pgettext_lazy("piquet set", "quatorze of queens"),
    "piquet.set.4.K": pgettext_lazy("piquet set", "quatorze of kings"),
    "piquet.set.4.A": pgettext_lazy("piquet set", "quatorze of aces"),
    "piquet.point": gettext_noop("point of {cards} ({pips})"),
    "piquet.point_of": gettext_noop("point of {cards}"),
    # Ranks as "a run of 4 cannot be topped by the {rank}" and "the {ranks} are listed twice" need them.
    "piquet.top.7": pgettext_lazy("piquet rank as the top card of a run", "seven"),
    "piquet.top.8": pgettext_lazy("piquet rank as the top card of a run", "eight"),
    "piquet.top.9": pgettext_lazy("piquet rank as the top card of a run", "nine"),
    "piquet.top.10": pgettext_lazy("piquet rank as the top card of a run", "ten"),
    "piquet.top.J": pgettext_lazy("piquet rank as the top card of a run", "jack"),
    "piquet.top.Q": pgettext_lazy("piquet rank as the top card of a run", "queen"),
    "piquet.top.K": pgettext_lazy("piquet rank as the top card of a run", "king"),
    "piquet.top.A": pgettext_lazy("piquet rank as the top card of a run", "ace"),
    "piquet.ranks.10": pgettext_lazy("piquet rank, plural", "tens"),
    "piquet.ranks.J": pgettext_lazy("piquet rank, plural", "jacks"),
    "piquet.ranks.Q": pgettext_lazy("piquet rank, plural", "queens"),
    "piquet.ranks.K": pgettext_lazy("piquet rank, plural", "kings"),
    "piquet.ranks.A": pgettext_lazy("piquet rank, plural", "aces"),
    # Breakdown items as explanations list them ("point 6, sequences 15, last trick 1"): words for
    # people in every language, English too (the item's code is the breakdown line's ``item``).
    "piquet.item.carte_blanche": pgettext_lazy("piquet breakdown item", "carte blanche"),
    "piquet.item.point": pgettext_lazy("piquet breakdown item", "point"),
    "piquet.item.sequences": pgettext_lazy("piquet breakdown item", "sequences"),
    "piquet.item.sets": pgettext_lazy("piquet breakdown item", "sets"),
    "piquet.item.repique": pgettext_lazy("piquet breakdown item", "repique"),
    "piquet.item.pique": pgettext_lazy("piquet breakdown item", "pique"),
    "piquet.item.lead": pgettext_lazy("piquet breakdown item", "leads"),
    "piquet.item.capture": pgettext_lazy("piquet breakdown item", "tricks taken"),
    "piquet.item.trick": pgettext_lazy("piquet breakdown item", "tricks"),
    "piquet.item.last_trick": pgettext_lazy("piquet breakdown item", "last trick"),
    "piquet.item.cards": pgettext_lazy("piquet breakdown item", "the cards"),
    "piquet.item.capot": pgettext_lazy("piquet breakdown item", "capot"),
    "piquet.item.contract_overtricks": pgettext_lazy("piquet breakdown item", "contract overtricks"),
    "piquet.item.contract_defeated": pgettext_lazy("piquet breakdown item", "contract defeated"),
    # The steps of the reckoning order (spec 2.4), where a pique happens or a deal stops.
    "piquet.step.play_begins": gettext_noop("as play begins"),
    "piquet.step.lead": gettext_noop("lead to trick {trick}"),
    "piquet.step.trick": gettext_noop("trick {trick}"),
    "piquet.step.cards": gettext_noop("the cards"),
    # Breakdown notes.
    "piquet.note.carte_blanche": gettext_noop("carte blanche"),
    "piquet.note.point": gettext_noop("point of {cards} ({pips}), good"),
    "piquet.note.runs": gettext_noop("{runs}"),
    "piquet.note.sets": gettext_noop("{sets}"),
    "piquet.note.repique": gettext_noop("repique: {points} in hand before the opponent scores"),
    "piquet.note.pique": gettext_noop("pique: {points} in hand and play before the opponent scores ({step})"),
    "piquet.note.leads": ngettext_lazy("leads {tricks} trick", "leads {tricks} tricks", "tricks"),
    "piquet.note.captures": ngettext_lazy(
        "wins {tricks} trick led by the opponent", "wins {tricks} tricks led by the opponent", "tricks"
    ),
    "piquet.note.tricks": ngettext_lazy("{tricks} trick won", "{tricks} tricks won", "tricks"),
    "piquet.note.last_trick": gettext_noop("wins the last trick"),
    "piquet.note.cards": gettext_noop("the cards: {tricks} tricks"),
    "piquet.note.capot": gettext_noop("capot: all {tricks} tricks"),
    "piquet.sign.plus": pgettext_lazy("piquet auction contract", "plus"),
    "piquet.sign.minus": pgettext_lazy("piquet auction contract", "minus"),
    "piquet.contract": gettext_noop("contract {tricks} {sign}"),
    "piquet.contract_multiplied": gettext_noop("contract {tricks} {sign} ×{multiplier}"),
    "piquet.note.overtricks_won": ngettext_lazy(
        "{contract}: {made} trick won", "{contract}: {made} tricks won", "made"
    ),
    "piquet.note.overtricks_lost": ngettext_lazy(
        "{contract}: {made} trick lost", "{contract}: {made} tricks lost", "made"
    ),
    "piquet.note.defeated_won": ngettext_lazy(
        "{contract}: only {made} trick won", "{contract}: only {made} tricks won", "made"
    ),
    "piquet.note.defeated_lost": ngettext_lazy(
        "{contract}: only {made} trick lost", "{contract}: only {made} tricks lost", "made"
    ),
    # Mismatch explanations (spec 2.4): {seat} names the seat, {seat_of} is its possessive form.
    "piquet.barred_pique": gettext_noop("{barrer_of} {fact} reckons before {seat_of} play: no pique"),
    "piquet.barred_repique": gettext_noop("{barrer_of} {fact} reckons before {seat_of} hand: no repique"),
    "piquet.pique_not_reached": gettext_noop("no pique: {seat} did not reach {at}"),
    "piquet.repique_not_reached": gettext_noop("no repique: {seat} did not reach {at}"),
    "piquet.makes_pique": gettext_noop("{seat} makes a pique ({count} before the opponent scores, {step})"),
    "piquet.makes_repique": gettext_noop(
        "{seat} makes a repique ({count} before the opponent scores, {step})"
    ),
    "piquet.pique_is_other": gettext_noop("the pique is {owner_of}, not {seat_of}"),
    "piquet.repique_is_other": gettext_noop("the repique is {owner_of}, not {seat_of}"),
    "piquet.capot_in_all": gettext_noop(
        "capot counts {capot} in all, not {cards} for the cards plus {capot}"
    ),
    "piquet.capot_additive": gettext_noop("with capot_additive the cards' {cards} is scored besides capot"),
    "piquet.rules_give": gettext_noop("the rules give {computed}: {detail}"),
    "piquet.rules_give_team": gettext_noop("the rules give seats {first} and {second} {computed}: {detail}"),
    "piquet.items": gettext_noop("{items}"),
    "piquet.items_stopped": gettext_noop("{items}; the deal stopped at {step}"),
    "piquet.item_points": gettext_noop("{item} {points}"),
    "piquet.nothing_scored": gettext_noop("nothing scored"),
    "piquet.nothing_scored_stopped": gettext_noop("nothing scored; the deal stopped at {step}"),
    # Reading the record.
    "piquet.not_in_record": gettext_noop("{name} is not part of this game's record"),
    "piquet.tricks_not_list": gettext_noop("tricks must be a list of seats, not {value}"),
    "piquet.play_empty": gettext_noop("the play is required: the trick winners list is empty"),
    "piquet.play_required": gettext_noop("the play is required: give the trick winners"),
    "piquet.tricks_count": gettext_noop("a deal has {tricks} tricks, not {count}"),
    "piquet.seat_finished": gettext_noop("seat {seat} has finished the match and takes no part"),
    "piquet.seat_finished_deals": gettext_noop("seat {seat} has finished the match and cannot deal"),
    "piquet.seat_finished_declares": gettext_noop("seat {seat} has finished the match: its deal score is 0"),
    "piquet.play_not_object": gettext_noop("play must be an object, not {value}"),
    "piquet.category_required": gettext_noop("{key} is required (null when nothing was declared)"),
    "piquet.listed_twice": gettext_noop("seat {seat} is listed twice"),
    "piquet.blanche_one_seat": gettext_noop("carte_blanche must be one seat or null here"),
    "piquet.blanche_holders": gettext_noop("at most {most} players can be dealt no face card, not {count}"),
    "piquet.category_not_object": gettext_noop("{key} must be an object or null, not {value}"),
    "piquet.scorer_required": gettext_noop("{path} is required (null for equal)"),
    "piquet.point_cards": gettext_noop("a point has {least} to 8 cards, not {cards}"),
    "piquet.point_pips": gettext_noop("{cards} cards hold {low}–{high} pips, not {pips}"),
    "piquet.no_sequence_listed": gettext_noop("seat {seat} scores sequences but none is listed"),
    "piquet.no_set_listed": gettext_noop("seat {seat} scores sets but none is listed"),
    "piquet.runs_too_many_cards": gettext_noop(
        "the runs hold {total} cards, more than the {limit} a side holds"
    ),
    "piquet.sets_too_many_cards": gettext_noop(
        "the sets hold {total} cards, more than the {limit} a side holds"
    ),
    "piquet.not_object": gettext_noop("{path} must be an object, not {value}"),
    "piquet.sequence_length": gettext_noop("a sequence has 3 to 8 cards, not {value}"),
    "piquet.not_a_rank": gettext_noop("{value} is not a piquet rank"),
    "piquet.run_too_low": gettext_noop(
        "a run of {length} cannot be topped by the {rank} (the pack starts at the seven)"
    ),
    "piquet.sets_cannot_tie": gettext_noop("sets can never be equal: name the scorer"),
    "piquet.set_count": gettext_noop("a set has 3 or 4 cards, not {value}"),
    "piquet.set_rank": gettext_noop("sets are of {allowed}, not {value}"),
    "piquet.set_twice": gettext_noop("the {ranks} are listed twice"),
    "piquet.play_conflict_tricks": gettext_noop("give the play either as a summary or as tricks, not both"),
    "piquet.play_conflict_cards": gettext_noop(
        "give the play either as a summary or as trick_cards, not both"
    ),
    "piquet.summary_infeasible": gettext_noop(
        "no sequence of 12 trick winners gives these tricks, play points, last trick and pique"
    ),
    "piquet.tricks_required": gettext_noop("the target is reached during the play: give the tricks"),
    "piquet.contract_not_object": gettext_noop("contract must be an object, not {value}"),
    "piquet.contract_declarer": gettext_noop("{path} must be a seat 0…1, not {value}"),
    "piquet.contract_tricks": gettext_noop("{path} must be an integer 7…12, not {value}"),
    "piquet.contract_sign": gettext_noop('{path} must be "plus" or "minus", not {value}'),
    "piquet.contract_multiplier": gettext_noop("{path} must be 1, 2 or 4, not {value}"),
    # The state (spec 2.7, 3–7).
    "piquet.state.partie_over": gettext_noop("after {deals} deals with totals {totals} the partie is over"),
    "piquet.state.game_over": gettext_noop("a total has reached {target}, so the game is over"),
    "piquet.team": gettext_noop("seats {first} and {second}"),
    "piquet.state.partners_equal": gettext_noop("partners' totals must be equal ({teams})"),
    "piquet.state.team_reached": gettext_noop("a team has reached {target} but the match is not over"),
    "piquet.state.finished_seats": gettext_noop("finished must be a list of seats 0…2"),
    "piquet.state.finished_twice": gettext_noop("a seat is listed twice in finished"),
    "piquet.state.finished_count": gettext_noop(
        "finished holds no seat, the first finisher, or all three in finishing order"
    ),
    "piquet.state.finished_over": gettext_noop(
        "over must be true exactly when all three seats are in finished"
    ),
    "piquet.state.finisher_below": gettext_noop("a finisher's total is below {target}"),
    "piquet.state.reached_not_finished": gettext_noop("a player has reached {target} but is not in finished"),
    "piquet.partners_claim": gettext_noop("seats {first} and {second} claim {a} and {b}"),
    "piquet.partners_disagree": gettext_noop(
        "partners must claim the same score for a disputed deal to stand: {claims}"
    ),
    "piquet.dealer_rotation": gettext_noop("seat {seat} also dealt the previous deal"),
    # The cards themselves (spec 2.6).
    "piquet.card_not_in_pack": gettext_noop("{card} is not in the piquet pack"),
    "piquet.hands_not_lists": gettext_noop("{key} must be a list of two lists of cards"),
    "piquet.hands_length": gettext_noop("{key} must have 2 entries, one per seat, not {count}"),
    "piquet.hand_not_list": gettext_noop("{path} must be a list of cards"),
    "piquet.hand_size": gettext_noop("{path} has {count} cards; a piquet hand has {size}"),
    "piquet.hands_required": gettext_noop("trick_cards can be checked only with the hands"),
    "piquet.blanche_unsupported": gettext_noop("{who} declared carte blanche but was dealt {cards}"),
    "piquet.blanche_not_declared": gettext_noop(
        "{who} was dealt no king, queen or jack but did not declare carte blanche"
    ),
    "piquet.better_point": gettext_noop("{who} holds a better point, {better}, than the declared {declared}"),
    "piquet.better_point_none": gettext_noop(
        "{who} holds a better point, {better}, and nothing was declared"
    ),
    "piquet.better_sequence": gettext_noop(
        "{who} holds a better sequence, {better}, than the declared {declared}"
    ),
    "piquet.better_sequence_none": gettext_noop(
        "{who} holds a better sequence, {better}, and nothing was declared"
    ),
    "piquet.better_set": gettext_noop("{who} holds a better set, {better}, than the declared {declared}"),
    "piquet.better_set_none": gettext_noop("{who} holds a better set, {better}, and nothing was declared"),
    "piquet.point_unsupported": gettext_noop("{who} holds no suit with {cards} cards worth {pips}"),
    "piquet.point_unsupported_equal": gettext_noop(
        "{who} holds no suit with {cards} cards worth {pips} (an equal point needs both players to hold it)"
    ),
    "piquet.run_unsupported": gettext_noop("{who} does not hold a {run}"),
    "piquet.run_unsupported_equal": gettext_noop(
        "{who} does not hold a {run} (an equal sequence needs both players to hold it)"
    ),
    "piquet.runs_overlap": gettext_noop(
        "{who} holds each declared run but not all of them at once (the runs would share cards)"
    ),
    "piquet.set_unsupported": gettext_noop("{who} declared {count} {ranks} but holds {held}"),
    "piquet.trick_cards_not_list": gettext_noop(
        "trick_cards must be a list of [leader's card, follower's card]"
    ),
    "piquet.trick_not_pair": gettext_noop("{path} must be [leader's card, follower's card]"),
    "piquet.trick_illegal": gettext_noop("trick {trick}: {problem}"),
    "piquet.leads_played": gettext_noop("{who} leads {card}, which he already played"),
    "piquet.leads_not_held": gettext_noop("{who} leads {card}, which is not in his hand"),
    "piquet.plays_played": gettext_noop("{who} plays {card}, which he already played"),
    "piquet.plays_not_held": gettext_noop("{who} plays {card}, which is not in his hand"),
    "piquet.must_follow": gettext_noop("{who} plays {card} to {lead} but holds {cards}: he must follow suit"),
    "piquet.winner_mismatch": gettext_noop(
        "tricks[{index}] says seat {seat} won trick {trick}; the cards give it to seat {winner}"
    ),
    "piquet.winners_count": gettext_noop("tricks lists {listed} winners but trick_cards has {tricks} tricks"),
}


# -- texts marked where they are written -------------------------------------------------------
#
# A game's title and its options' labels, help and choices' words are marked the same way as the
# templates above, where the game declares them (``options.option``), and kept as the marked
# text itself rather than by code: they are rendered by ``render_text``.


def render_text(
    marked: str | Term,
    *,
    gettext: Callable[[str], str] = gettext,
    pgettext: Callable[[str, str], str] = pgettext,
) -> str:
    """A marked text (``gettext_noop`` a text, ``pgettext_lazy`` a word that needs its context)
    in the language of the functions given."""
    if isinstance(marked, Term):
        return pgettext(marked.context, marked.message)
    return gettext(marked)
