"""Properties of the piquet card level (spec 2.6) on random real deals.

A real deal is shuffled, dealt 12/12/8, exchanged legally (elder 1–5, younger up to the rest)
and played legally (follow suit); its declarations are the maximal ones of spec 2.6.
"""

from __future__ import annotations

import copy
import json
import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import find_ruleset
from scorekeeper.rules.piquet.cards import (
    CARD_NAMES,
    best_point,
    best_run,
    best_set,
    check_card_level,
    hand_mask,
    maximal_declarations,
)
from scorekeeper.rules.result import Evaluation

from .deals import random_real_deal
from .json_strategies import arbitrary_json, json_scalars

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CARD_FIELDS = ("dealt", "hands", "trick_cards")
CATEGORIES = ("carte_blanche", "point", "sequences", "sets")
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
PIPS = {"7": 7, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 11}

seeds = st.randoms(use_true_random=False)
dealers = st.sampled_from([0, 1])
twelve_of_each = st.permutations(CARD_NAMES).map(lambda pack: [pack[:12], pack[12:24]])


def real_deal(rng: random.Random, dealer: int, sets_exclude_aces: bool = False) -> dict:
    return random_real_deal(rng, dealer=dealer, sets_exclude_aces=sets_exclude_aces)


def card_check(rec: dict, sets_exclude_aces: bool = False):
    ev = Evaluation()
    winners = check_card_level(rec, ev, elder=1 - rec["dealer"], sets_exclude_aces=sets_exclude_aces)
    return winners, ev


# -- the module alone ----------------------------------------------------------------------------
@FAST
@given(seeds, dealers, st.booleans())
def test_the_maximal_declarations_of_a_real_deal_are_supported_and_warn_nothing(rng, dealer, no_aces):
    rec = real_deal(rng, dealer, no_aces)
    winners, ev = card_check(rec, no_aces)
    assert ev.errors == [] and ev.warnings == []
    assert winners == rec["tricks"]


def _split(card: str) -> tuple[str, str]:
    return card[:-1], card[-1]


def _naive_best_point(cards: list[str]) -> tuple[int, int]:
    by_suit: dict[str, list[str]] = {}
    for card in cards:
        rank, suit = _split(card)
        by_suit.setdefault(suit, []).append(rank)
    return max((len(ranks), sum(PIPS[r] for r in ranks)) for ranks in by_suit.values())


def _naive_runs(cards: list[str]) -> list[tuple[int, int]]:
    held = {_split(c) for c in cards}
    runs = []
    for suit in "SHDC":
        length = 0
        for i, rank in enumerate([*RANKS, None]):
            if rank is not None and (rank, suit) in held:
                length += 1
                continue
            if length >= 3:
                runs.append((length, i - 1))
            length = 0
    return runs


def _naive_best_set(cards: list[str], no_aces: bool) -> tuple[int, int] | None:
    allowed = ("10", "J", "Q", "K") if no_aces else ("10", "J", "Q", "K", "A")
    counts = [(sum(_split(c)[0] == r for c in cards), RANKS.index(r)) for r in allowed]
    found = [c for c in counts if c[0] >= 3]
    return max(found) if found else None


@FAST
@given(twelve_of_each, st.booleans())
def test_the_hand_tables_agree_with_a_naive_count(hands, no_aces):
    for cards in hands:
        mask = hand_mask(cards)
        assert divmod(best_point(mask), 128) == _naive_best_point(cards)
        runs = _naive_runs(cards)
        assert best_run(mask) == max((length * 8 + top for length, top in runs), default=-1)
        naive_set = _naive_best_set(cards, no_aces)
        assert best_set(mask, no_aces) == (-1 if naive_set is None else naive_set[0] * 8 + naive_set[1])


@FAST
@given(seeds, dealers, st.data())
def test_any_sunk_declaration_drawn_from_the_scorers_cards_is_supported(rng, dealer, data):
    """Players may sink (spec 2.6): a point from any cards of one suit, runs inside the held
    runs, sets of fewer cards than held are all supported."""
    rec = real_deal(rng, dealer)
    seat = data.draw(st.sampled_from([0, 1]), label="scorer")
    hand = rec["hands"][seat]
    suits = sorted({_split(c)[1] for c in hand})
    suit = data.draw(st.sampled_from(suits), label="suit")
    in_suit = [c for c in hand if _split(c)[1] == suit]
    chosen = data.draw(st.lists(st.sampled_from(in_suit), min_size=1, unique=True), label="point cards")
    pips = sum(PIPS[_split(c)[0]] for c in chosen)
    runs = []
    for length, top in _naive_runs(hand):
        sub = data.draw(st.integers(3, length), label="sunk length")
        shift = data.draw(st.integers(0, length - sub), label="sunk top")
        runs.append({"length": sub, "top": RANKS[top - shift]})
    sets = []
    for rank in ("10", "J", "Q", "K", "A"):
        held = sum(_split(c)[0] == rank for c in hand)
        if held >= 3:
            sets.append({"rank": rank, "count": data.draw(st.integers(3, held), label="sunk count")})
    rec["point"] = {"scorer": seat, "cards": len(chosen), "pips": pips}
    rec["sequences"] = {"scorer": seat, "runs": runs} if runs else None
    rec["sets"] = {"scorer": seat, "sets": sets} if sets else None
    _, ev = card_check(rec)
    assert ev.errors == []


@FAST
@given(seeds, dealers)
def test_a_declaration_stronger_than_the_cards_is_unsupported(rng, dealer):
    rec = real_deal(rng, dealer)
    point = rec["point"]
    scorer = point["scorer"] if point["scorer"] is not None else 0
    rec["point"] = {"scorer": scorer, "cards": point["cards"] + 1, "pips": point["pips"] + 10}
    _, ev = card_check(rec)
    assert "point_unsupported" in {p.code for p in ev.errors}


def _json_values():
    cards = st.sampled_from([*CARD_NAMES, "10h", "t♥", " qs ", "6S", "1H"])
    return arbitrary_json(json_scalars(-3, 40, text_size=4) | cards, key_size=3)


@st.composite
def mutated_records(draw, game_key: str = "piquet"):
    """A real deal's record with one to three faults planted in its card-level fields."""
    rec = real_deal(draw(seeds), draw(dealers))
    for _ in range(draw(st.integers(1, 3))):
        field = draw(st.sampled_from([*CARD_FIELDS, "tricks", *CATEGORIES]))
        kind = draw(st.sampled_from(["replace_card", "drop_card", "swap", "truncate", "extend", "field"]))
        value = rec.get(field)
        if kind == "field" or not isinstance(value, list) or not value:
            rec[field] = draw(st.one_of(st.just(None), _json_values()))
            continue
        outer = draw(st.integers(0, len(value) - 1))
        inner = value[outer]
        if kind == "truncate":
            rec[field] = value[: draw(st.integers(0, len(value)))]
        elif kind == "extend":
            value.append(draw(_json_values()))
        elif not isinstance(inner, list) or not inner:
            value[outer] = draw(_json_values())
        elif kind == "replace_card":
            inner[draw(st.integers(0, len(inner) - 1))] = draw(_json_values())
        elif kind == "drop_card":
            del inner[draw(st.integers(0, len(inner) - 1))]
        else:  # swap two entries, e.g. the order of a trick's cards
            i, j = draw(st.integers(0, len(inner) - 1)), draw(st.integers(0, len(inner) - 1))
            inner[i], inner[j] = inner[j], inner[i]
    return rec


@FAST
@given(mutated_records(), st.booleans())
def test_the_card_check_never_raises_on_mutated_records(rec, no_aces):
    ev = Evaluation()
    winners = check_card_level(rec, ev, elder=1, sets_exclude_aces=no_aces)
    assert winners is None or all(w in (0, 1) for w in winners)
    json.dumps(ev.to_dict())


# -- with the two-hand rulesets ---------------------------------------------------------------------
def _ruleset(key: str, **options):
    """The ruleset of ``key``; a missing one raises UnknownGame and fails the test."""
    return find_ruleset(key).create("classic", options, 2)


TWO_HAND = ["piquet", "piquet-au-cent", "piquet-auction"]


@st.composite
def scored_deals(draw, key: str):
    """(game, state, record) for a real deal of ``key`` with maximal declarations."""
    no_aces = draw(st.booleans())
    game = _ruleset(key, sets_exclude_aces=no_aces)
    dealer = draw(dealers)
    rec = real_deal(draw(seeds), dealer, no_aces)
    state = None
    if key == "piquet-au-cent":  # anywhere below the target, so the stop of 2.5 may cut the deal
        totals = [draw(st.integers(0, 99)), draw(st.integers(0, 99))]
        state = {"deals_played": 3, "totals": totals, "last_dealer": 1 - dealer, "over": False}
    if key == "piquet-auction":
        rec["contract"] = {
            "declarer": draw(st.sampled_from([0, 1])),
            "tricks": draw(st.integers(7, 12)),
            "sign": draw(st.sampled_from(["plus", "minus"])),
            "multiplier": draw(st.sampled_from([1, 2, 4])),
        }
    rec["declared"] = [0, 0]
    rec["declared"] = game.evaluate(state, rec).scores
    return game, state, rec


def _without(rec: dict, *keys: str) -> dict:
    return {k: v for k, v in rec.items() if k not in keys}


@FAST
@pytest.mark.parametrize("key", TWO_HAND)
@given(data=st.data())
def test_a_real_deal_scored_from_its_cards_is_valid_and_warns_nothing(key, data):
    game, state, rec = data.draw(scored_deals(key))
    ev = game.evaluate(state, rec)
    assert ev.errors == [] and ev.mismatches == [] and ev.warnings == [], ev.to_dict()


@FAST
@pytest.mark.parametrize("key", TWO_HAND)
@given(data=st.data())
def test_trick_cards_and_the_derived_tricks_give_identical_scores(key, data):
    game, state, rec = data.draw(scored_deals(key))
    from_cards = game.evaluate(state, _without(rec, "tricks")).to_dict()
    from_winners = game.evaluate(state, _without(rec, "trick_cards")).to_dict()
    assert from_cards["valid"] and from_winners == from_cards


@FAST
@pytest.mark.parametrize("key", TWO_HAND)
@given(data=st.data())
def test_a_deal_scored_from_cards_agrees_with_its_maximal_declarations_alone(key, data):
    """The issue's property: the declaration-level record (no card fields) scores the same."""
    game, state, rec = data.draw(scored_deals(key))
    with_cards = game.evaluate(state, rec).to_dict()
    declarations_only = game.evaluate(state, _without(rec, *CARD_FIELDS)).to_dict()
    assert with_cards["valid"] and declarations_only == with_cards


@FAST
@given(data=st.data())
def test_play_points_are_twelve_plus_captures_plus_one(data):
    game, state, rec = data.draw(scored_deals("piquet"))
    ev = game.evaluate(state, rec)
    leaders = [1 - rec["dealer"], *rec["tricks"][:-1]]
    captures = sum(w != leader for w, leader in zip(rec["tricks"], leaders, strict=True))
    play = sum(line.points for line in ev.breakdown if line.item in ("lead", "capture", "last_trick"))
    assert play == 12 + captures + 1


@FAST
@given(data=st.data())
def test_maximal_declarations_match_the_record_helper(data):
    rec = real_deal(data.draw(seeds), data.draw(dealers))
    again = maximal_declarations(rec["dealt"], rec["hands"], sets_exclude_aces=False, elder=1 - rec["dealer"])
    assert again == {k: rec[k] for k in CATEGORIES}


@FAST
@pytest.mark.parametrize("key", TWO_HAND)
@given(rec=mutated_records(), data=st.data())
def test_the_engine_never_raises_on_mutated_card_level_records(key, rec, data):
    game = _ruleset(key)
    rec = copy.deepcopy(rec)
    rec["declared"] = data.draw(st.one_of(st.just([0, 0]), _json_values()))
    if key == "piquet-auction":
        rec["contract"] = {"declarer": 0, "tricks": 7, "sign": "plus", "multiplier": 1}
    ev = game.evaluate(None, rec)
    got = json.loads(json.dumps(ev.to_dict()))
    assert got["valid"] == (not got["errors"] and not got["mismatches"])
    if got["errors"]:
        assert got["scores"] is None


def test_two_tierces_inside_a_sixieme_fit_together_only_when_disjoint():
    """An exhaustive check beside the random ones: younger's sixième to the queen holds two
    tierces exactly when their tops are at least three ranks apart."""
    hands = [
        ["JD", "10D", "9D", "8D", "7D", "AS", "KS", "7H", "8H", "AC", "KC", "7C"],
        ["QD", "KD", "AD", "QS", "JS", "10S", "9S", "8S", "7S", "9H", "JH", "8C"],
    ]
    tops = ["Q", "J", "10", "9"]
    for a, b in combinations(range(len(tops)), 2):
        runs = [{"length": 3, "top": tops[a]}, {"length": 3, "top": tops[b]}]
        rec = {"dealer": 1, "point": None, "sets": None, "hands": hands, "carte_blanche": None}
        rec["sequences"] = {"scorer": 1, "runs": runs}
        _, ev = card_check(rec)
        assert ("sequence_unsupported" in {p.code for p in ev.errors}) == (b - a < 3), runs
