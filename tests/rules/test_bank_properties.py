"""Properties of Bank (spec 9), checked with Hypothesis."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import find_ruleset
from scorekeeper.rules.bank import FLAGS, PACK_POINTS, card_points
from scorekeeper.rules.cards import SHORT_PACK, Card

from .json_strategies import arbitrary_json

Bank = find_ruleset("bank")
SORTED_PACK = sorted(map(str, SHORT_PACK))


def card_points_of(text: str) -> int:
    return card_points(Card.parse(text))


FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = arbitrary_json(max_size=5, key_size=12, max_leaves=16)

scoring_options = st.fixed_dictionaries(
    {
        "leftover_rule": st.sampled_from(["penalty", "none"]),
        "penalty_option": st.sampled_from(["cards", "flat", "per_card"]),
        "penalty_reading": st.sampled_from(["additive", "replace", "pointless_only"]),
        "penalty_flat": st.sampled_from([15, 23, 31, 40, 48, 56]),
        "penalty_per_card": st.sampled_from([3, 6]),
        "king_bonus": st.sampled_from(["additive", "replace"]),
        "tiebreak_players": st.sampled_from(["tied_only", "all"]),
    }
)


@st.composite
def finish_flags(draw) -> dict | None:
    """A consistent set of going-out flags, written in any of the accepted ways."""
    king = draw(st.booleans())
    four_kings = king and draw(st.booleans())
    true = {
        "king": king,
        "trump_king": king and draw(st.booleans()),
        "four_kings": four_kings,
        "four_of_kind": not four_kings and draw(st.booleans()),
        "four_run": draw(st.booleans()),
    }
    if not any(true.values()) and draw(st.booleans()):
        return None
    shown = draw(st.sets(st.sampled_from(FLAGS)))
    return {flag: value for flag, value in true.items() if value or flag in shown}


def participants(game, state) -> list[int]:
    tied = state["tiebreak_seats"]
    if tied is not None and game.options.tiebreak_players == "tied_only":
        return tied
    return list(range(game.seats))


@st.composite
def party(draw, game, state, *, deck_bound: bool = True) -> dict:
    """A party that passes validation (without ``declared``) for ``game`` in ``state``.

    With ``deck_bound`` false the captured points are drawn freely in 0 … 124 each.
    """
    n = game.seats
    playing = participants(game, state)
    penalty_rule = game.options.leftover_rule == "penalty"
    went_out = draw(st.integers(0, len(playing) - 1))
    order = draw(st.permutations(playing))
    finish: list[int | None] = [None] * n
    for position, seat in enumerate(order[:went_out], start=1):
        finish[seat] = position
    bonus = [draw(finish_flags()) if finish[p] is not None else None for p in range(n)]

    cards = iter(draw(st.permutations(SORTED_PACK)))
    left: list[list[str]] = [[] for _ in range(n)]
    for p in order[went_out:]:
        left[p] = [next(cards) for _ in range(draw(st.integers(1 if penalty_rule else 0, 5)))]
    held = sum(card_points_of(c) for hand in left for c in hand)

    record = {"dealer": draw(st.sampled_from(playing)), "finish": finish, "finish_bonus": bonus}
    if penalty_rule or draw(st.booleans()):
        record["left_cards"] = left
    else:
        held = 0  # under rule A the cards left in hand may go unrecorded
    if deck_bound and draw(st.booleans()):
        # Captured as cards: the rest of the pack goes to the participants' piles or stays in the bank.
        piles: list[list[str]] = [[] for _ in range(n)]
        for card in cards:
            owner = draw(st.sampled_from([*playing, None]))
            if owner is not None:
                piles[owner].append(card)
        record["captured"] = piles
        if draw(st.booleans()):
            record["captured_points"] = [sum(map(card_points_of, pile)) for pile in piles]
    else:
        budget = PACK_POINTS - held if deck_bound else PACK_POINTS
        points = [0] * n
        for p in draw(st.permutations(playing)):
            points[p] = draw(st.integers(0, budget))
            if deck_bound:
                budget -= points[p]
        record["captured_points"] = points
    return record


@st.composite
def game_and_state(draw):
    seats = draw(st.integers(2, 4))
    game = Bank.create("classic", draw(scoring_options), seats)
    kind = draw(st.sampled_from(["initial", "running", "tie-break"]))
    if kind == "initial":
        return game, game.initial_state()
    totals = draw(st.lists(st.integers(-100, 247), min_size=seats, max_size=seats))
    if kind == "tie-break":
        tied = sorted(draw(st.sets(st.integers(0, seats - 1), min_size=2)))
        top = draw(st.integers(248, 400))
        totals = [top if p in tied else min(t, top - 1) for p, t in enumerate(totals)]
    over, tiebreak = game.judge(totals)
    state = {
        "parties": draw(st.integers(1, 30)),
        "totals": totals,
        "last_dealer": draw(st.integers(0, seats - 1)),
        "last_loser": draw(st.none() | st.integers(0, seats - 1)),
        "tiebreak_seats": tiebreak,
        "over": over,
    }
    assert game.state_problems(state) == []
    return game, state


def with_computed_declared(game, state, record) -> dict:
    ev = game.evaluate(state, {**record, "declared": [0] * game.seats})
    assert not ev.errors, (record, ev.errors)
    return {**record, "declared": ev.scores}


# -- the deck bound -------------------------------------------------------------


@FAST
@given(data=st.data())
def test_card_points_above_the_pack_are_rejected_and_never_at_or_below(data):
    game, state = data.draw(game_and_state())
    record = data.draw(party(game, state, deck_bound=False))
    record["declared"] = [0] * game.seats
    held = sum(card_points_of(c) for hand in record.get("left_cards", []) for c in hand)
    total = sum(record["captured_points"]) + held
    ev = game.evaluate(state, record)
    codes = {e.code for e in ev.errors}
    assert codes <= {"points_exceed_deck"}, ev.errors
    assert ("points_exceed_deck" in codes) == (total > PACK_POINTS), (total, ev.errors)


@pytest.mark.parametrize(("captured", "rejected"), [(112, False), (113, True)])
def test_the_deck_bound_is_inclusive(captured, rejected):
    # C keeps AC 9D (12 points): 112 + 12 = 124 is the whole pack; one more point is impossible.
    record = {
        "dealer": 0,
        "captured_points": [captured - 60, 60, 0],
        "finish": [1, 2, None],
        "left_cards": [[], [], ["AC", "9D"]],
        "declared": [0, 0, 0],
    }
    ev = Bank.create("classic", {}, 3).evaluate(None, record)
    assert ("points_exceed_deck" in {e.code for e in ev.errors}) is rejected


# -- scoring ------------------------------------------------------------------


@FAST
@given(data=st.data())
def test_a_consistent_party_declared_as_computed_is_valid(data):
    game, state = data.draw(game_and_state())
    record = with_computed_declared(game, state, data.draw(party(game, state)))
    ev = game.evaluate(state, record)
    assert ev.valid, ev.to_dict()
    assert game.state_problems(ev.state_after) == []
    assert ev.state_after["totals"] == [t + s for t, s in zip(state["totals"], ev.scores, strict=True)]


@FAST
@given(data=st.data())
def test_the_breakdown_adds_up_to_the_scores(data):
    game, state = data.draw(game_and_state())
    ev = game.evaluate(state, with_computed_declared(game, state, data.draw(party(game, state))))
    sums = [0] * game.seats
    for line in ev.breakdown:
        sums[line.seat] += line.points
    assert sums == ev.scores


@FAST
@given(data=st.data())
def test_a_finisher_never_pays_a_penalty(data):
    game, state = data.draw(game_and_state())
    record = with_computed_declared(game, state, data.draw(party(game, state)))
    ev = game.evaluate(state, record)
    for seat, position in enumerate(record["finish"]):
        if position is None:
            continue
        items = [(line.item, line.points) for line in ev.breakdown if line.seat == seat]
        assert "penalty" not in {item for item, _ in items}
        assert all(points > 0 for item, points in items if item != "captured")
        assert ev.scores[seat] >= items[0][1]  # at least what was captured


@FAST
@given(data=st.data())
def test_non_participants_of_a_tie_break_score_nothing(data):
    game, state = data.draw(game_and_state())
    ev = game.evaluate(state, with_computed_declared(game, state, data.draw(party(game, state))))
    playing = participants(game, state)
    for seat in range(game.seats):
        if seat not in playing:
            assert ev.scores[seat] == 0
            assert not [line for line in ev.breakdown if line.seat == seat]


@FAST
@given(data=st.data(), seats=st.integers(2, 4), options=scoring_options)
def test_a_whole_match_ends_exactly_when_one_player_alone_leads_at_the_target(data, seats, options):
    game = Bank.create("classic", options | {"target": 150}, seats)
    state = game.initial_state()
    for _ in range(25):
        ev = game.evaluate(state, with_computed_declared(game, state, data.draw(party(game, state))))
        assert ev.valid, ev.to_dict()
        after = ev.state_after
        top = max(after["totals"])
        leaders = [p for p, t in enumerate(after["totals"]) if t == top]
        assert ev.match_over == (top >= 150 and len(leaders) == 1)
        assert after["tiebreak_seats"] == (leaders if top >= 150 and len(leaders) > 1 else None)
        if ev.match_over:
            assert ev.result["winner"] == leaders[0]
            assert ev.result["placements"][leaders[0]] == 1
            break
        state = after


@FAST
@given(data=st.data())
def test_a_disputed_party_counts_the_declared_scores(data):
    game, state = data.draw(game_and_state())
    record = data.draw(party(game, state))
    record["declared"] = data.draw(st.lists(st.integers(-200, 300), min_size=game.seats, max_size=game.seats))
    plain = game.evaluate(state, record)
    disputed = game.evaluate(state, record, accept_declared=True)
    assert disputed.scores == plain.scores
    assert disputed.mismatches == plain.mismatches
    counted = record["declared"] if plain.mismatches else plain.scores
    assert disputed.state_after["totals"] == [t + s for t, s in zip(state["totals"], counted, strict=True)]
    assert game.state_problems(disputed.state_after) == []


# -- robustness -------------------------------------------------------------------


def _check_never_raises(game, state, record):
    for accept in (False, True):
        ev = game.evaluate(state, record, accept_declared=accept)
        out = ev.to_dict()
        json.dumps(out)
        if ev.errors:
            assert out["scores"] is None and out["state_after"] is None
        assert all(e.code and isinstance(e.path, str) for e in ev.errors)


@settings(max_examples=100, deadline=None)
@given(
    seats=st.integers(1, 5),
    state=st.none() | json_values,
    record=json_values,
    options=scoring_options,
)
def test_arbitrary_json_never_raises(seats, state, record, options):
    _check_never_raises(Bank.create("classic", options, seats), state, record)


FIELDS = ("dealer", "captured_points", "captured", "finish", "finish_bonus", "left_cards", "declared")


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_a_party_with_any_field_garbled_never_raises(data):
    game, state = data.draw(game_and_state())
    record = with_computed_declared(game, state, data.draw(party(game, state)))
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(st.sampled_from(FIELDS))
        value = record.get(key)
        if isinstance(value, list) and value and data.draw(st.booleans()):
            value = list(value)
            value[data.draw(st.integers(0, len(value) - 1))] = data.draw(json_values)
            record[key] = value
        else:
            record[key] = data.draw(json_values)
    _check_never_raises(game, state, record)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_garbled_state_never_raises(data):
    game, state = data.draw(game_and_state())
    record = with_computed_declared(game, state, data.draw(party(game, state)))
    key = data.draw(st.sampled_from(sorted(state)))
    _check_never_raises(game, state | {key: data.draw(json_values)}, record)
