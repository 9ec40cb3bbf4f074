"""Hypothesis properties of the two-hand piquet rulesets and the reckoning-order engine."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import find_ruleset
from scorekeeper.rules.piquet.declarations import PIP_RANGE, PIQUET_RANKS

from .json_strategies import arbitrary_json, json_scalars

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KEYS = ("piquet", "piquet-au-cent", "piquet-auction")
SET_RANKS = ("A", "K", "Q", "J", "10")


# -- strategies ----------------------------------------------------------------------------------


@st.composite
def points(draw):
    cards = draw(st.integers(3, 8))
    low, high = PIP_RANGE[cards]
    scorer = draw(st.sampled_from([0, 1, None]))
    return {"scorer": scorer, "cards": cards, "pips": draw(st.integers(low, high))}


@st.composite
def sequences(draw):
    scorer = draw(st.sampled_from([0, 1, None]))
    runs, total = [], 0
    for _ in range(draw(st.integers(1 if scorer is not None else 0, 3))):
        length = draw(st.integers(3, 8))
        if total + length > 12:
            break
        top = draw(st.sampled_from(PIQUET_RANKS[length - 1 :]))
        runs.append({"length": length, "top": top})
        total += length
    if scorer is not None and not runs:
        runs = [{"length": 3, "top": "A"}]
    return {"scorer": scorer, "runs": runs}


@st.composite
def sets(draw):
    ranks = draw(st.lists(st.sampled_from(SET_RANKS), min_size=1, max_size=3, unique=True))
    return {
        "scorer": draw(st.sampled_from([0, 1])),
        "sets": [{"rank": r, "count": draw(st.sampled_from([3, 4]))} for r in ranks],
    }


def declarations():
    return st.fixed_dictionaries(
        {
            "dealer": st.sampled_from([0, 1]),
            "carte_blanche": st.sampled_from([None, None, None, 0, 1]),
            "point": st.none() | points(),
            "sequences": st.none() | sequences(),
            "sets": st.none() | sets(),
        }
    )


@st.composite
def records(draw, *, contract=False):
    record = draw(declarations())
    record["tricks"] = draw(st.lists(st.sampled_from([0, 1]), min_size=12, max_size=12))
    record["declared"] = [0, 0]
    if contract:
        record["contract"] = {
            "declarer": draw(st.sampled_from([0, 1])),
            "tricks": draw(st.integers(7, 12)),
            "sign": draw(st.sampled_from(["plus", "minus"])),
            "multiplier": draw(st.sampled_from([1, 2, 4])),
        }
    return record


json_values = arbitrary_json(json_scalars(-20, 20, text_size=4), key_size=6)

RECORD_KEYS = (
    "dealer",
    "carte_blanche",
    "point",
    "sequences",
    "sets",
    "tricks",
    "play",
    "declared",
    "contract",
    "dealt",
    "hands",
    "trick_cards",
)


def game(key="piquet", **options):
    return find_ruleset(key).create("classic", options, 2)


def play_lines(ev):
    return {
        item: sum(ln.points for ln in ev.breakdown if ln.item == item)
        for item in ("lead", "capture", "last_trick", "pique", "repique")
    }


def captures(record):
    leader, count = 1 - record["dealer"], 0
    for w in record["tricks"]:
        count += w != leader
        leader = w
    return count


# -- properties ------------------------------------------------------------------------------------


@FAST
@given(records())
def test_play_points_are_twelve_leads_plus_captures_plus_one_for_the_last(record):
    ev = game().evaluate(None, record)
    assert not ev.errors, ev.errors
    lines = play_lines(ev)
    assert lines["lead"] + lines["capture"] + lines["last_trick"] == 12 + captures(record) + 1


@FAST
@given(st.sampled_from(KEYS), records(contract=True))
def test_breakdown_adds_up_scores_are_never_negative_and_pique_excludes_repique(key, record):
    ev = game(key).evaluate(None, record)
    assert not ev.errors, ev.errors
    for seat in (0, 1):
        assert sum(ln.points for ln in ev.breakdown if ln.seat == seat) == ev.scores[seat] >= 0
    items = [ln.item for ln in ev.breakdown]
    assert items.count("pique") + items.count("repique") <= 1


@FAST
@given(st.sampled_from(KEYS), records(contract=True))
def test_declaring_the_computed_scores_makes_the_hand_valid(key, record):
    g = game(key)
    scores = g.evaluate(None, record).scores
    ev = g.evaluate(None, dict(record, declared=scores))
    assert ev.valid, (ev.errors, ev.mismatches)


@FAST
@given(st.sampled_from(("piquet", "piquet-auction")), records(contract=True))
def test_the_summary_of_a_played_deal_is_feasible_and_scores_the_same(key, record):
    g = game(key)
    full = g.evaluate(None, record)
    per_seat = [0, 0]
    for ln in full.breakdown:
        if ln.item in ("lead", "capture", "last_trick", "trick"):
            per_seat[ln.seat] += ln.points
    summary = {
        "tricks_won": [record["tricks"].count(0), record["tricks"].count(1)],
        "play_points": per_seat,
        "last_trick": record["tricks"][-1],
        "pique": any(ln.item == "pique" for ln in full.breakdown),
    }
    short = {k: v for k, v in record.items() if k != "tricks"}
    ev = g.evaluate(None, dict(short, play=summary))
    assert not ev.errors, ev.errors
    assert ev.scores == full.scores


@FAST
@given(records(), st.integers(0, 99), st.integers(0, 99))
def test_under_the_stop_rule_the_tricks_after_the_stop_change_nothing(record, a, b):
    g = game("piquet-au-cent")
    state = {"deals_played": 2, "totals": [a, b], "last_dealer": 1 - record["dealer"], "over": False}
    full = g.evaluate(state, record)
    assert not full.errors, full.errors
    totals = full.state_after["totals"]
    assert full.match_over == (max(totals) >= 100)
    if full.match_over:
        assert totals.count(max(totals)) == 1 and max(totals) >= 100
        # The stop happened at a step of trick k (or before the play): list only k tricks.
        lead_count = sum(ln.points for ln in full.breakdown if ln.item == "lead")
        cut = dict(record, tricks=record["tricks"][:lead_count])
        again = g.evaluate(state, cut)
        assert not again.errors, again.errors
        assert again.scores == full.scores


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(KEYS), json_values)
def test_the_engine_never_raises_on_arbitrary_json(key, value):
    ev = game(key).evaluate(None, value)
    assert ev.errors
    json.dumps(ev.to_dict())


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(KEYS),
    records(contract=True),
    st.dictionaries(st.sampled_from(RECORD_KEYS), json_values, min_size=1, max_size=3),
)
def test_the_engine_never_raises_on_a_mutated_record(key, record, changes):
    ev = game(key).evaluate(None, {**record, **changes})
    json.dumps(ev.to_dict())
    if ev.errors:
        assert ev.scores is None and ev.breakdown == []


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(KEYS),
    records(contract=True),
    st.sampled_from(("point", "sequences", "sets", "contract")),
    st.text(max_size=6),
    json_values,
)
def test_the_engine_never_raises_on_a_mutated_category(key, record, category, field, value):
    inner = record.get(category)
    if isinstance(inner, dict):
        record = dict(record, **{category: {**inner, field: value}})
    ev = game(key).evaluate(None, record)
    json.dumps(ev.to_dict())


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(KEYS), json_values)
def test_a_malformed_state_is_reported_not_raised(key, state):
    ev = game(key).evaluate(state, {"dealer": 0})
    assert ev.errors
