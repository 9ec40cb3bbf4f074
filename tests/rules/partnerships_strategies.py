"""Hypothesis strategies for the multi-player piquet variants (voleur, normand)."""

from __future__ import annotations

from hypothesis import strategies as st

from .json_strategies import arbitrary_json, json_scalars

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
PIPS = {2: (15, 21), 3: (24, 31), 4: (34, 41), 5: (44, 51), 6: (54, 60), 7: (64, 68), 8: (75, 75)}

json_values = arbitrary_json(
    json_scalars(-5, 20, text_size=4, allow_nan=True), max_size=5, key_size=12, max_leaves=20
)


@st.composite
def point(draw, players, min_cards):
    if draw(st.booleans()):
        return None
    cards = draw(st.integers(min_cards, 8))
    low, high = PIPS[cards]
    scorer = draw(st.sampled_from([*players, None]))
    return {"scorer": scorer, "cards": cards, "pips": draw(st.integers(low, high))}


@st.composite
def sequences(draw, players, limit):
    if draw(st.booleans()):
        return None
    runs, used = [], 0
    for _ in range(draw(st.integers(1, 3))):
        length = draw(st.integers(3, 8))
        if used + length > limit:
            break
        used += length
        top = draw(st.sampled_from(RANKS[length - 1 :]))
        runs.append({"length": length, "top": top})
    if not runs:
        runs = [{"length": 3, "top": "A"}]
    scorer = draw(st.sampled_from([*players, None]))
    return {"scorer": scorer, "runs": runs}


@st.composite
def sets(draw, players, limit):
    if draw(st.booleans()):
        return None
    ranks = draw(st.lists(st.sampled_from(("10", "J", "Q", "K", "A")), min_size=1, max_size=4, unique=True))
    chosen, used = [], 0
    for rank in ranks:
        count = draw(st.sampled_from((3, 4)))
        if used + count > limit:
            break
        used += count
        chosen.append({"rank": rank, "count": count})
    return {"scorer": draw(st.sampled_from(players)), "sets": chosen or [{"rank": "A", "count": 3}]}


@st.composite
def records(draw, seats, *, players=None, tricks=None, dealer=None):
    """A structurally valid record for ``seats`` (4: voleur; 3: normand phase 1; or two ``players``
    of a 3-seat phase 2), with every trick listed and declared scores of zero."""
    players = list(range(seats)) if players is None else list(players)
    two_hand = len(players) == 2
    limit = 12 if two_hand else (16 if seats == 4 else 10)
    count = tricks if tricks is not None else (12 if two_hand else (8 if seats == 4 else 10))
    if two_hand:
        blanche = draw(st.sampled_from([None, *players]))
    else:
        blanche = draw(st.none() | st.lists(st.sampled_from(players), max_size=2, unique=True))
    return {
        "dealer": draw(st.sampled_from(players)) if dealer is None else dealer,
        "carte_blanche": blanche,
        "point": draw(point(players, 2 if seats == 4 else 3)),
        "sequences": draw(sequences(players, limit)),
        "sets": draw(sets(players, limit)),
        "tricks": draw(st.lists(st.sampled_from(players), min_size=count, max_size=count)),
        "declared": [0] * seats,
    }


@st.composite
def mutated(draw, base):
    """A valid record with one field (or one nested field) replaced by arbitrary JSON or removed."""
    record = draw(base)
    key = draw(st.sampled_from([*sorted(record), "play", "hands", "extra"]))
    if draw(st.booleans()) and isinstance(record.get(key), dict):
        inner = dict(record[key])
        inner_key = draw(st.sampled_from(sorted(inner)))
        inner[inner_key] = draw(json_values)
        record[key] = inner
    elif draw(st.booleans()):
        record.pop(key, None)
    else:
        record[key] = draw(json_values)
    return record
