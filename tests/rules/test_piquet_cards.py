"""The piquet card level (spec 2.6), tested on the module directly: every code with its path."""

from __future__ import annotations

import copy
import random

import pytest

from scorekeeper.rules import find_ruleset
from scorekeeper.rules.cards import Card
from scorekeeper.rules.errors import CardInvalid
from scorekeeper.rules.piquet.cards import (
    CARD_NAMES,
    RECORD_SCHEMA_PROPERTIES,
    best_point,
    best_run,
    best_set,
    check_card_level,
    hand_mask,
    mask_cards,
    maximal_declarations,
    parse_card,
)
from scorekeeper.rules.result import Evaluation

from .deals import deal_cards, random_exchange, random_play, random_real_deal

# Hoffmann's full deal (conformance P11-cards): elder is seat 0, younger (the dealer) seat 1.
ELDER_HAND = ["AD", "JD", "10D", "9D", "8D", "7D", "JC", "10C", "9C", "AS", "AH", "7H"]
YOUNGER_HAND = ["QD", "KD", "AC", "KC", "QC", "8C", "7C", "KS", "QS", "7S", "QH", "8H"]
TRICK_CARDS = [
    ["AD", "QD"], ["7D", "KD"], ["AC", "9C"], ["KC", "10C"], ["QC", "JC"], ["8C", "7H"],
    ["KS", "AS"], ["AH", "8H"], ["JD", "7C"], ["10D", "7S"], ["9D", "QS"], ["8D", "QH"],
]  # fmt: skip
WINNERS = [0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
# Dealt cards from which that exchange is legal (constructed): elder discarded 8S 9H JH and drew
# AS AH 7H; younger discarded 9S 10S and drew QC 7C; JS KH 10H stayed in the talon.
ELDER_DEALT = ["AD", "JD", "10D", "9D", "8D", "7D", "JC", "10C", "9C", "8S", "9H", "JH"]
YOUNGER_DEALT = ["QD", "KD", "AC", "KC", "9S", "8C", "10S", "KS", "QS", "7S", "QH", "8H"]


def record(**changes) -> dict:
    base = {
        "dealer": 1,
        "carte_blanche": None,
        "point": {"scorer": 0, "cards": 6, "pips": 55},
        "sequences": {"scorer": 0, "runs": [{"length": 5, "top": "J"}, {"length": 3, "top": "J"}]},
        "sets": {"scorer": 1, "sets": [{"rank": "Q", "count": 4}, {"rank": "K", "count": 3}]},
        "hands": [list(ELDER_HAND), list(YOUNGER_HAND)],
        "trick_cards": copy.deepcopy(TRICK_CARDS),
        "declared": [43, 23],
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not _DROP}


_DROP = object()


def check(rec: dict, *, elder: int = 0, sets_exclude_aces: bool = False):
    ev = Evaluation()
    winners = check_card_level(rec, ev, elder=elder, sets_exclude_aces=sets_exclude_aces)
    return winners, [(p.code, p.path) for p in ev.errors], [(p.code, p.path) for p in ev.warnings]


def errors_of(rec: dict, **kw):
    return check(rec, **kw)[1]


def warnings_of(rec: dict, **kw):
    return check(rec, **kw)[2]


# -- the good deal -------------------------------------------------------------------------------
def test_it_accepts_hoffmanns_deal_and_derives_the_winners():
    assert check(record()) == (WINNERS, [], [])


def test_it_accepts_recorded_tricks_that_agree_with_the_cards():
    assert check(record(tricks=list(WINNERS))) == (WINNERS, [], [])


def test_it_returns_no_winners_without_trick_cards():
    assert check(record(trick_cards=_DROP)) == (None, [], [])


def test_an_empty_trick_list_derives_no_winners():
    assert check(record(trick_cards=[])) == ([], [], [])


def test_a_short_trick_list_is_checked_as_far_as_it_goes():
    """Au cent's target stop (spec 2.5) may leave the play unfinished."""
    assert check(record(trick_cards=TRICK_CARDS[:5])) == (WINNERS[:5], [], [])


def test_it_reads_every_notation_of_the_spec():
    hands = [[f" {c.replace('10', 't').lower()} " for c in ELDER_HAND], list(YOUNGER_HAND)]
    hands[1][0] = "q♦"
    assert check(record(hands=hands)) == (WINNERS, [], [])


def test_the_dealt_cards_of_a_legal_exchange_raise_nothing():
    assert check(record(dealt=[ELDER_DEALT, YOUNGER_DEALT])) == (WINNERS, [], [])


# -- shape: card_invalid, hand_size, card_duplicate, hands_required ------------------------------
def _with(cards: list, index: int, value) -> list:
    cards = list(cards)
    cards[index] = value
    return cards


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        pytest.param(
            {"hands": [ELDER_HAND, _with(YOUNGER_HAND, 4, "1H")]},
            [("card_invalid", "hands[1][4]")],
            id="not-a-card",
        ),
        pytest.param(
            {"hands": [ELDER_HAND, _with(YOUNGER_HAND, 4, "6H")]},
            [("card_invalid", "hands[1][4]")],
            id="outside-the-piquet-pack",
        ),
        pytest.param(
            {"hands": [ELDER_HAND, _with(YOUNGER_HAND, 4, 12)]},
            [("card_invalid", "hands[1][4]")],
            id="a-number",
        ),
        pytest.param(
            {"hands": [ELDER_HAND, _with(YOUNGER_HAND, 4, None)]},
            [("card_invalid", "hands[1][4]")],
            id="null",
        ),
        pytest.param(
            {"dealt": [_with(ELDER_DEALT, 0, "2S"), YOUNGER_DEALT]},
            [("card_invalid", "dealt[0][0]")],
            id="dealt-card",
        ),
        pytest.param(
            {"hands": [ELDER_HAND[:11], YOUNGER_HAND]}, [("hand_size", "hands[0]")], id="eleven-cards"
        ),
        pytest.param(
            {"hands": [[*ELDER_HAND, "KH"], YOUNGER_HAND]}, [("hand_size", "hands[0]")], id="thirteen-cards"
        ),
        pytest.param(
            {"dealt": [ELDER_DEALT, YOUNGER_DEALT[:-1]]}, [("hand_size", "dealt[1]")], id="dealt-eleven"
        ),
        pytest.param(
            {"hands": [ELDER_HAND, _with(YOUNGER_HAND, 4, "AD")]},
            [("card_duplicate", "hands[1][4]")],
            id="across-hands",
        ),
        pytest.param(
            {"hands": [_with(ELDER_HAND, 5, "ad"), YOUNGER_HAND]},
            [("card_duplicate", "hands[0][5]")],
            id="within-a-hand-any-notation",
        ),
        pytest.param(
            {"dealt": [ELDER_DEALT, _with(YOUNGER_DEALT, 11, "8S")]},
            [("card_duplicate", "dealt[1][11]")],
            id="within-dealt",
        ),
        pytest.param({"hands": "AS KS"}, [("field_invalid", "hands")], id="hands-not-a-list"),
        pytest.param({"hands": [ELDER_HAND]}, [("array_length", "hands")], id="one-hand"),
        pytest.param({"hands": [ELDER_HAND, "KS"]}, [("field_invalid", "hands[1]")], id="a-hand-not-a-list"),
        pytest.param({"dealt": {"0": ELDER_DEALT}}, [("field_invalid", "dealt")], id="dealt-not-a-list"),
        pytest.param({"hands": _DROP}, [("hands_required", "trick_cards")], id="trick-cards-without-hands"),
        pytest.param({"hands": None}, [("hands_required", "trick_cards")], id="trick-cards-with-null-hands"),
        pytest.param(
            {"trick_cards": "AD QD"}, [("field_invalid", "trick_cards")], id="trick-cards-not-a-list"
        ),
        pytest.param(
            {"trick_cards": [["AD", "QD", "KD"]]},
            [("field_invalid", "trick_cards[0]")],
            id="three-card-trick",
        ),
        pytest.param(
            {"trick_cards": [["AD", "QD"], ["7D", "XX"]]},
            [("card_invalid", "trick_cards[1][1]")],
            id="trick-card-invalid",
        ),
    ],
)
def test_it_rejects_bad_card_fields_with_the_exact_path(changes, expected):
    assert errors_of(record(**changes)) == expected


def test_it_reports_every_bad_card_in_one_pass():
    hands = [_with(_with(ELDER_HAND, 0, "ZZ"), 3, "1S"), _with(YOUNGER_HAND, 11, "JD")]
    assert errors_of(record(hands=hands, trick_cards=_DROP)) == [
        ("card_invalid", "hands[0][0]"),
        ("card_invalid", "hands[0][3]"),
        ("card_duplicate", "hands[1][11]"),
    ]


def test_invalid_hands_stop_the_trick_check_without_a_second_error():
    hands = [ELDER_HAND, _with(YOUNGER_HAND, 0, "XX")]
    assert check(record(hands=hands)) == (None, [("card_invalid", "hands[1][0]")], [])


# -- carte blanche ----------------------------------------------------------------------------
BLANK = ["AS", "10S", "9S", "8S", "7S", "10H", "9H", "8H", "7H", "10D", "9D", "8D"]
FACES = ["KS", "QS", "JS", "AH", "KH", "QH", "JH", "AD", "KD", "QD", "JD", "AC"]


def test_it_rejects_carte_blanche_when_a_face_card_was_dealt():
    rec = record(carte_blanche=0, dealt=[_with(BLANK, 0, "KC"), FACES], hands=_DROP, trick_cards=_DROP)
    assert check(rec) == (None, [("carte_blanche_unsupported", "carte_blanche")], [])


def test_it_accepts_carte_blanche_held_before_the_exchange():
    """Carte blanche is judged on the cards dealt: what the exchange brings does not matter."""
    rec = record(carte_blanche=0, dealt=[BLANK, FACES], hands=_DROP, trick_cards=_DROP)
    assert check(rec) == (None, [], [])


def test_it_warns_when_carte_blanche_was_not_declared():
    rec = record(carte_blanche=None, dealt=[FACES, BLANK], hands=_DROP, trick_cards=_DROP)
    assert check(rec) == (None, [], [("carte_blanche_not_declared", "carte_blanche")])


def test_the_list_form_of_carte_blanche_is_checked_holder_by_holder():
    rec = record(carte_blanche=[0, 1], dealt=[BLANK, FACES], hands=_DROP, trick_cards=_DROP)
    assert errors_of(rec) == [("carte_blanche_unsupported", "carte_blanche")]


# -- declarations: supported, sinking allowed ----------------------------------------------------
@pytest.mark.parametrize(
    ("point", "expected"),
    [
        pytest.param({"scorer": 0, "cards": 6, "pips": 55}, [], id="the-full-suit"),
        pytest.param({"scorer": 0, "cards": 5, "pips": 48}, [], id="sunk-to-five-without-the-seven"),
        pytest.param({"scorer": 0, "cards": 5, "pips": 45}, [], id="sunk-to-five-without-a-ten"),
        pytest.param(
            {"scorer": 0, "cards": 5, "pips": 50}, [("point_unsupported", "point")], id="no-five-make-50"
        ),
        pytest.param(
            {"scorer": 0, "cards": 7, "pips": 65}, [("point_unsupported", "point")], id="seven-cards"
        ),
        pytest.param(
            {"scorer": 1, "cards": 6, "pips": 55}, [("point_unsupported", "point")], id="wrong-player"
        ),
        pytest.param(
            {"scorer": None, "cards": 5, "pips": 44}, [("point_unsupported", "point")], id="tie-one-only"
        ),
    ],
)
def test_a_point_must_be_supported_by_the_scorers_cards(point, expected):
    assert errors_of(record(point=point)) == expected


def test_an_equal_point_is_supported_when_both_players_hold_it():
    point = {"scorer": None, "cards": 3, "pips": 25}  # elder 7D 8D 10D; younger 7C 8C QC
    assert errors_of(record(point=point)) == []


@pytest.mark.parametrize(
    ("runs", "expected"),
    [
        pytest.param([{"length": 5, "top": "J"}], [], id="the-quint-alone"),
        pytest.param([{"length": 4, "top": "J"}, {"length": 3, "top": "J"}], [], id="quint-sunk-to-a-quart"),
        pytest.param([{"length": 3, "top": "10"}], [], id="a-tierce-inside-the-quint"),
        pytest.param([{"length": 3, "top": "t"}, {"length": 3, "top": "j"}], [], id="lenient-ranks"),
        pytest.param(
            [{"length": 5, "top": "J"}, {"length": 3, "top": "A"}],
            [("sequence_unsupported", "sequences.runs[1]")],
            id="a-tierce-not-held",
        ),
        pytest.param(
            [{"length": 6, "top": "Q"}],
            [("sequence_unsupported", "sequences.runs[0]")],
            id="a-sixieme-not-held",
        ),
        pytest.param(
            [{"length": 5, "top": "J"}, {"length": 3, "top": "9"}],
            [("sequence_unsupported", "sequences.runs")],
            id="two-runs-sharing-cards",
        ),
        pytest.param(
            [{"length": 3, "top": "J"}, {"length": 3, "top": "J"}, {"length": 3, "top": "J"}],
            [("sequence_unsupported", "sequences.runs")],
            id="three-tierces-to-the-jack-in-two-suits",
        ),
    ],
)
def test_sequences_must_fit_into_the_scorers_hand_as_disjoint_runs(runs, expected):
    assert errors_of(record(sequences={"scorer": 0, "runs": runs})) == expected


def test_an_equal_sequence_needs_the_first_run_in_both_hands():
    runs = [{"length": 3, "top": "A"}]  # elder holds no tierce major; younger's AC KC QC
    assert errors_of(record(sequences={"scorer": None, "runs": runs})) == [
        ("sequence_unsupported", "sequences.runs[0]")
    ]


def test_an_equal_sequence_held_by_both_is_supported():
    hands = [  # both hold a tierce major: elder in spades, younger in clubs
        ["JC", "10C", "9C", "AS", "KS", "QS", "7D", "8D", "7H", "8H", "AH", "KH"],
        ["JD", "10D", "9D", "AC", "KC", "QC", "8C", "7C", "JS", "10S", "9H", "10H"],
    ]
    sequences = {"scorer": None, "runs": [{"length": 3, "top": "A"}]}
    rec = record(hands=hands, sequences=sequences, trick_cards=_DROP, point=None, sets=None)
    assert errors_of(rec) == []


@pytest.mark.parametrize(
    ("sets", "expected"),
    [
        pytest.param([{"rank": "Q", "count": 4}], [], id="the-quatorze-alone"),
        pytest.param(
            [{"rank": "Q", "count": 3}, {"rank": "K", "count": 3}], [], id="quatorze-sunk-to-a-trio"
        ),
        pytest.param(
            [{"rank": "Q", "count": 4}, {"rank": "K", "count": 4}],
            [("set_unsupported", "sets.sets[1]")],
            id="three-kings-declared-as-four",
        ),
        pytest.param(
            [{"rank": "J", "count": 3}, {"rank": "A", "count": 3}],
            [("set_unsupported", "sets.sets[0]"), ("set_unsupported", "sets.sets[1]")],
            id="every-unsupported-set-is-reported",
        ),
    ],
)
def test_sets_must_be_held_by_the_scorer(sets, expected):
    assert errors_of(record(sets={"scorer": 1, "sets": sets})) == expected


# -- better_combination_held -------------------------------------------------------------------
def test_it_warns_when_the_opponent_holds_a_better_point_than_the_sunk_one():
    point = {"scorer": 0, "cards": 5, "pips": 44}  # younger's clubs: 5 cards, 46
    assert check(record(point=point)) == (WINNERS, [], [("better_combination_held", "point")])


def test_a_sunk_point_still_better_than_the_opponents_raises_no_warning():
    assert warnings_of(record(point={"scorer": 0, "cards": 5, "pips": 48})) == []


def test_it_warns_when_the_opponent_holds_a_better_set():
    sets = {"scorer": 0, "sets": [{"rank": "A", "count": 3}]}  # younger's quatorze of queens
    assert warnings_of(record(sets=sets)) == [("better_combination_held", "sets")]


def test_aces_do_not_count_as_a_better_set_when_sets_exclude_aces():
    hands = [
        ["AS", "AH", "AD", "AC", "7S", "8S", "9S", "7H", "8H", "9H", "7D", "8D"],
        ["KS", "KH", "KD", "10S", "JS", "QS", "10H", "JH", "QH", "10D", "JD", "QD"],
    ]
    rec = record(hands=hands, trick_cards=_DROP, point=None, sequences=None)
    rec["sets"] = {"scorer": 1, "sets": [{"rank": "K", "count": 3}]}
    assert (
        warnings_of(rec, sets_exclude_aces=True)
        == [("better_combination_held", "point")] * 2 + [("better_combination_held", "sequences")] * 2
    )
    assert ("better_combination_held", "sets") in warnings_of(rec, sets_exclude_aces=False)


def test_it_warns_when_the_opponent_holds_a_better_sequence():
    sequences = {"scorer": 1, "runs": [{"length": 3, "top": "A"}]}  # elder's quint to the jack
    assert warnings_of(record(sequences=sequences)) == [("better_combination_held", "sequences")]


def test_an_equal_point_warns_when_either_player_holds_better():
    point = {"scorer": None, "cards": 3, "pips": 25}
    assert warnings_of(record(point=point)) == [
        ("better_combination_held", "point"),
        ("better_combination_held", "point"),
    ]


def test_an_equal_sequence_without_runs_is_consistent_only_with_equal_best_runs():
    unequal = record(sequences={"scorer": None, "runs": []})
    assert warnings_of(unequal) == [("better_combination_held", "sequences")]


def test_an_empty_category_warns_when_anyone_holds_a_combination():
    rec = record(point=None, sequences=None, sets=None)
    assert (
        warnings_of(rec)
        == [("better_combination_held", "point")] * 2
        + [("better_combination_held", "sequences")] * 2
        + [("better_combination_held", "sets")] * 2
    )


def test_the_scorer_may_hold_more_than_he_declares_without_a_warning():
    sequences = {"scorer": 0, "runs": [{"length": 4, "top": "J"}]}  # elder sinks his quint to a quart
    assert warnings_of(record(sequences=sequences)) == []


# -- tricks ------------------------------------------------------------------------------------
def _tricks(changes: dict[int, list[str]]) -> list[list[str]]:
    tricks = copy.deepcopy(TRICK_CARDS)
    for index, pair in changes.items():
        tricks[index] = pair
    return tricks


@pytest.mark.parametrize(
    ("trick_cards", "path"),
    [
        pytest.param(_tricks({0: ["QD", "AD"]}), "trick_cards[0][0]", id="younger-leads-the-first-trick"),
        pytest.param(_tricks({0: ["KH", "QD"]}), "trick_cards[0][0]", id="leader-lacks-the-card"),
        pytest.param(_tricks({0: ["AD", "KH"]}), "trick_cards[0][1]", id="follower-lacks-the-card"),
        pytest.param(_tricks({0: ["AD", "QS"]}), "trick_cards[0][1]", id="revoke"),
        pytest.param(_tricks({1: ["AD", "KD"]}), "trick_cards[1][0]", id="a-card-played-twice"),
        pytest.param(_tricks({6: ["AS", "KS"]}), "trick_cards[6][0]", id="the-loser-leads"),
        pytest.param([*TRICK_CARDS, ["AD", "QD"]], "trick_cards[12][0]", id="a-thirteenth-trick"),
    ],
)
def test_it_rejects_an_illegal_trick_at_its_card(trick_cards, path):
    assert check(record(trick_cards=trick_cards)) == (None, [("trick_illegal", path)], [])


def test_only_the_first_illegal_trick_is_reported():
    trick_cards = _tricks({0: ["AD", "QS"]})  # QS is played again at trick 11
    assert errors_of(record(trick_cards=trick_cards)) == [("trick_illegal", "trick_cards[0][1]")]


def test_a_discard_of_another_suit_is_legal_when_void():
    """Hoffmann's trick 6: elder, void of clubs, throws 7H on younger's 8C; younger wins it."""
    winners, errors, _ = check(record())
    assert errors == [] and winners[5] == 1


def test_the_follower_wins_only_with_a_higher_card_of_the_suit_led():
    hands = [
        ["7S", "8S", "9S", "10S", "7H", "8H", "9H", "10H", "7D", "8D", "9D", "10D"],
        ["JS", "QS", "KS", "AS", "JH", "QH", "KH", "AH", "JD", "QD", "KD", "AD"],
    ]
    trick_cards = [["7S", "JS"], ["QS", "8S"], ["KH", "7H"]]
    rec = record(hands=hands, trick_cards=trick_cards, point=None, sequences=None, sets=None)
    assert check(rec)[0] == [1, 1, 1]


def test_it_rejects_recorded_winners_that_contradict_the_cards():
    tricks = list(WINNERS)
    tricks[11] = 1
    assert check(record(tricks=tricks)) == (WINNERS, [("trick_winner_mismatch", "tricks[11]")], [])


def test_it_rejects_a_recorded_trick_list_of_another_length():
    assert errors_of(record(tricks=WINNERS[:11])) == [("trick_winner_mismatch", "tricks")]


def test_it_leaves_non_seat_winners_to_the_play_validation():
    tricks = [*WINNERS[:11], True]
    assert errors_of(record(tricks=tricks)) == []


# -- maximal declarations -----------------------------------------------------------------------
def test_the_maximal_declarations_of_hoffmanns_deal_are_the_books():
    got = maximal_declarations(None, [ELDER_HAND, YOUNGER_HAND], sets_exclude_aces=False, elder=0)
    expected = {key: record()[key] for key in ("carte_blanche", "point", "sequences", "sets")}
    assert got == expected


def test_maximal_declarations_give_equal_combinations_to_nobody():
    hands = [
        ["AS", "KS", "QS", "9S", "7H", "8H", "9D", "7D", "8D", "7C", "8C", "9C"],
        ["AH", "KH", "QH", "9H", "JS", "10S", "JD", "10D", "JC", "10C", "QC", "KC"],
    ]
    got = maximal_declarations(None, hands, sets_exclude_aces=False, elder=1)
    assert got["point"] == {"scorer": None, "cards": 4, "pips": 40}
    assert got["sequences"] == {"scorer": 1, "runs": [{"length": 4, "top": "K"}, {"length": 3, "top": "A"}]}
    assert got["sets"] == {"scorer": 1, "sets": [{"rank": "J", "count": 3}, {"rank": "10", "count": 3}]}


def test_maximal_declarations_find_carte_blanche_in_the_dealt_cards():
    got = maximal_declarations([BLANK, FACES], [ELDER_HAND, YOUNGER_HAND], sets_exclude_aces=True, elder=0)
    assert got["carte_blanche"] == 0
    assert got["sets"] == {"scorer": 1, "sets": [{"rank": "Q", "count": 4}, {"rank": "K", "count": 3}]}


def test_maximal_declarations_are_null_where_nobody_holds_a_combination():
    hands = [
        ["7S", "10S", "QS", "AS", "8H", "JH", "KH", "AH", "10D", "QD", "JC", "KC"],
        ["8S", "JS", "KS", "9H", "10H", "QH", "7D", "JD", "KD", "AD", "10C", "QC"],
    ]
    got = maximal_declarations(None, hands, sets_exclude_aces=True, elder=0)
    assert got["sequences"] is None and got["sets"] is None and got["carte_blanche"] is None


def test_maximal_declarations_reject_cards_outside_the_pack():
    with pytest.raises(CardInvalid):
        maximal_declarations(None, [["6S"], ["AS"]], sets_exclude_aces=False, elder=0)


# -- the card representation and the real-deal helpers --------------------------------------------
def test_every_card_parses_to_its_index_and_back():
    for index, name in enumerate(CARD_NAMES):
        assert parse_card(name) == index
        assert str(Card.parse(name)) == name
    assert mask_cards(hand_mask(CARD_NAMES)) == sorted(
        CARD_NAMES, key=lambda c: ("SHDC".index(c[-1]), -"78910JQKA".index(c[:-1]))
    )


@pytest.mark.parametrize("text", ["6S", "2H", "AX", "", "10", 10, None, ["AS"], "A S S"])
def test_parse_card_rejects_what_is_not_a_piquet_card(text):
    with pytest.raises(CardInvalid):
        parse_card(text)


def test_hand_queries_on_a_known_hand():
    elder = hand_mask(ELDER_HAND)
    assert divmod(best_point(elder), 128) == (6, 55)
    assert divmod(best_run(elder), 8) == (5, 4)  # quint to the jack
    assert divmod(best_set(elder, False), 8) == (3, 7)  # trio of aces
    assert best_set(elder, True) == -1


def test_a_dealt_exchanged_and_played_deal_is_legal():
    rng = random.Random(3)
    dealt, talon = deal_cards(rng)
    assert sorted(map(len, dealt)) == [12, 12] and len(talon) == 8
    assert set(dealt[0]) | set(dealt[1]) | set(talon) == set(CARD_NAMES)
    hands = random_exchange(rng, dealt, talon, elder=1)
    assert sorted(map(len, hands)) == [12, 12]
    assert 7 <= len(set(hands[1]) & set(dealt[1])) <= 11  # elder exchanges 1–5
    assert not set(hands[0]) & set(dealt[1]) and not set(hands[1]) & set(dealt[0])
    trick_cards, winners = random_play(rng, hands, elder=1)
    rec = record(hands=hands, trick_cards=trick_cards, tricks=winners, point=None, sequences=None, sets=None)
    assert check(rec, elder=1)[:2] == (winners, [])


def test_a_random_real_deal_is_a_complete_clean_record():
    rec = random_real_deal(random.Random(7), dealer=0)
    assert {"dealer", "carte_blanche", "point", "sequences", "sets", "dealt", "hands", "trick_cards"} <= set(
        rec
    )
    assert check(rec, elder=1) == (rec["tricks"], [], [])


def test_the_schema_fragment_describes_the_three_card_fields():
    assert set(RECORD_SCHEMA_PROPERTIES) == {"dealt", "hands", "trick_cards"}


@pytest.mark.parametrize("value", [{}, "", 0, {"AS": "KS"}, [{"AD": 1, "QD": 2}], [("AD", "QD")]])
def test_trick_cards_of_another_shape_are_invalid_even_when_empty(value):
    assert errors_of(record(trick_cards=value))[0][0] == "field_invalid"


# -- through the rulesets: the engine passes the card level on, with its paths --------------------
@pytest.mark.parametrize(
    ("key", "changes", "expected"),
    [
        ("piquet", {"hands": [ELDER_HAND, _with(YOUNGER_HAND, 4, "1H")]}, ("card_invalid", "hands[1][4]")),
        ("piquet", {"trick_cards": _tricks({3: ["KC", "AD"]})}, ("trick_illegal", "trick_cards[3][1]")),
        ("piquet", {"tricks": [*WINNERS[:11], 1]}, ("trick_winner_mismatch", "tricks[11]")),
        (
            "piquet-au-cent",
            {"sets": {"scorer": 1, "sets": [{"rank": "J", "count": 3}]}},
            ("set_unsupported", "sets.sets[0]"),
        ),
        ("piquet-auction", {"hands": _DROP}, ("hands_required", "trick_cards")),
    ],
)
def test_the_two_hand_rulesets_report_card_level_errors(key, changes, expected):
    game = find_ruleset(key).create("classic", {}, 2)
    rec = record(**changes)
    if key == "piquet-auction":
        rec["contract"] = {"declarer": 0, "tricks": 7, "sign": "plus", "multiplier": 1}
    ev = game.evaluate(None, rec)
    assert expected in [(p.code, p.path) for p in ev.errors]
    assert ev.scores is None


def test_the_seed_preset_reaches_the_card_level_without_aces_in_sets():
    """Under ``sets_exclude_aces`` elder's trio of aces is no set: younger's sets stand alone."""
    game = find_ruleset("piquet").create("seed", {}, 2)
    rec = record(sets={"scorer": 0, "sets": [{"rank": "A", "count": 3}]})
    assert "set_rank_not_allowed" in {p.code for p in game.evaluate(None, rec).errors}
    rec = record(point={"scorer": 0, "cards": 5, "pips": 44})
    rec["declared"] = game.evaluate(None, rec).scores
    ev = game.evaluate(None, rec)
    assert ev.valid and [(w.code, w.path) for w in ev.warnings] == [("better_combination_held", "point")]
