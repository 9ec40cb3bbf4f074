"""The result of a finished match in words, for each game (results as the engine stores them:
scorekeeper/rules/*, tests/data/conformance/*.json), and a match page that shows them."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from scorekeeper.devtools import DEMO_DATA
from scorekeeper.matches.results import names_and, result_summary


@pytest.fixture(autouse=True)
def english():
    """The sentences in English, whatever language an earlier test's request left active."""
    with translation.override("en"):
        yield


def seats(*names, teams=None):
    return [{"name": name, "team": teams[i] if teams else None} for i, name in enumerate(names)]


CASES = [
    pytest.param(
        "piquet",
        {
            "placements": [2, 1],
            "totals": [88, 126],
            "winner": 1,
            "rubiconed": True,
            "points_won": 314,
            "settlement": [-314, 314],
        },
        seats("Ada", "Bea"),
        ["Bea wins 314 points: Ada is rubiconed (under 100)."],
        [(1, "Bea", [126, "+314"]), (2, "Ada", [88, "−314"])],
        id="piquet-rubiconed",
    ),
    pytest.param(
        "piquet",
        {
            "placements": [2, 1],
            "totals": [120, 126],
            "winner": 1,
            "rubiconed": False,
            "points_won": 106,
            "settlement": [-106, 106],
        },
        seats("Ada", "Bea"),
        ["Bea wins 106 points; Ada passed the Rubicon."],
        [(1, "Bea", [126, "+106"]), (2, "Ada", [120, "−106"])],
        id="piquet-over-the-rubicon",
    ),
    pytest.param(
        "piquet",
        {
            "placements": [1, 1],
            "totals": [188, 188],
            "winner": None,
            "rubiconed": False,
            "points_won": 0,
            "settlement": [0, 0],
        },
        seats("Ada", "Bea"),
        ["Drawn at 188 points each: nothing is settled."],
        [(1, "Ada", [188, "0"]), (1, "Bea", [188, "0"])],
        id="piquet-drawn",
    ),
    pytest.param(
        "piquet-auction",
        {
            "placements": [2, 1],
            "totals": [143, 170],
            "winner": 1,
            "rubiconed": True,
            "points_won": 463,
            "settlement": [-463, 463],
        },
        seats("Ada", "Bea"),
        ["Bea wins 463 points: Ada is rubiconed (under 100)."],
        [(1, "Bea", [170, "+463"]), (2, "Ada", [143, "−463"])],
        id="piquet-auction",
    ),
    pytest.param(
        "piquet-au-cent",
        {
            "placements": [1, 2],
            "totals": [100, 48],
            "winner": 0,
            "double": True,
            "points_won": 104,
            "settlement": [104, -104],
        },
        seats("Ada", "Bea"),
        ["Ada wins 104 points: a double game."],
        [(1, "Ada", [100, "+104"]), (2, "Bea", [48, "−104"])],
        id="piquet-au-cent-double",
    ),
    pytest.param(
        "piquet-au-cent",
        {
            "placements": [1, 2],
            "totals": [100, 64],
            "winner": 0,
            "double": False,
            "points_won": 36,
            "settlement": [36, -36],
        },
        seats("Ada", "Bea"),
        ["Ada wins 36 points."],
        [(1, "Ada", [100, "+36"]), (2, "Bea", [64, "−36"])],
        id="piquet-au-cent-single",
    ),
    pytest.param(
        "piquet-voleur",
        {
            "placements": [1, 2, 1, 2],
            "totals": [130, 55, 130, 55],
            "winning_team": 0,
            "points_won": 75,
            "settlement": [75, -75, 75, -75],
        },
        seats("Ada", "Bea", "Cid", "Dan", teams=[0, 1, 0, 1]),
        ["Ada and Cid win: 75 points each, paid by Bea and Dan."],
        [
            (1, "Ada", [130, "+75"]),
            (1, "Cid", [130, "+75"]),
            (2, "Bea", [55, "−75"]),
            (2, "Dan", [55, "−75"]),
        ],
        id="piquet-voleur",
    ),
    pytest.param(
        "piquet-voleur",
        {
            "placements": [1, 1, 1, 1],
            "totals": [100, 100, 100, 100],
            "winning_team": None,
            "points_won": 0,
            "settlement": [0, 0, 0, 0],
        },
        seats("Ada", "Bea", "Cid", "Dan", teams=[0, 1, 0, 1]),
        ["Drawn: the teams are level, nothing is settled."],
        None,
        id="piquet-voleur-drawn",
    ),
    pytest.param(
        "piquet-normand",
        {
            "placements": [1, 3, 2],
            "totals": [136, 77, 100],
            "finish_order": [0, 2, 1],
            "settlement": [59, -82, 23],
        },
        seats("Ada", "Bea", "Cid"),
        ["Ada finished first, Cid second, Bea last.", "Bea pays Ada 59 points and Cid 23 points."],
        [(1, "Ada", [136, "+59"]), (2, "Cid", [100, "+23"]), (3, "Bea", [77, "−82"])],
        id="piquet-normand",
    ),
    pytest.param(
        "cul",
        {"placements": [1, 2], "banks": [0, 5], "rating_pct": [157.7, -5.6]},
        seats("Ada", "Bea"),
        ["Ada wins with 0 banks left.", "Bea is the cul, with 5 banks."],
        [(1, "Ada", [0, "157.7 %"]), (2, "Bea", [5, "-5.6 %"])],
        id="cul",
    ),
    pytest.param(
        "cul",
        {"placements": [1, 1, 3], "banks": [1, 1, 6], "rating_pct": [12.0, None, -40.5]},
        seats("Ada", "Bea", "Cid"),
        ["Ada and Bea share the first place with 1 bank left.", "Cid is the cul, with 6 banks."],
        [(1, "Ada", [1, "12.0 %"]), (1, "Bea", [1, "—"]), (3, "Cid", [6, "-40.5 %"])],
        id="cul-shared-first",
    ),
    pytest.param(
        "bank",
        {"placements": [2, 1, 3], "totals": [279, 314, 212], "winner": 1},
        seats("Ada", "Bea", "Cid"),
        ["Bea wins with 314 points."],
        [(1, "Bea", [314]), (2, "Ada", [279]), (3, "Cid", [212])],
        id="bank",
    ),
    pytest.param(
        "bastard",
        {"placements": [1, 2, 3], "totals": [51, 45, -9]},
        seats("Ada", "Bea", "Cid"),
        ["Ada wins with 51 points."],
        [(1, "Ada", [51]), (2, "Bea", [45]), (3, "Cid", [-9])],
        id="bastard",
    ),
    pytest.param(
        "bastard",
        {"placements": [1, 1, 3], "totals": [30, 30, 2]},
        seats("Ada", "Bea", "Cid"),
        ["Ada and Bea share the first place."],
        None,
        id="bastard-shared-first",
    ),
]


@pytest.mark.parametrize(("game", "result", "seat_list", "sentences", "rows"), CASES)
def test_the_result_in_words(game, result, seat_list, sentences, rows):
    summary = result_summary(game=game, result=result, seats=seat_list, options={"rubicon": 100})

    assert summary["sentences"] == sentences
    if rows is not None:
        assert [(r["place"], r["name"], [str(v) if isinstance(v, str) else v for v in r["values"]])
                for r in summary["rows"]] == rows  # fmt: skip
    # no engine key is shown as such
    assert not {"placements", "rating_pct", "winning_team", "finish_order"} & set(
        map(str, summary["columns"])
    )


def test_the_columns_are_labelled_for_people():
    summary = result_summary(
        game="cul", result={"placements": [1, 2], "banks": [0, 5], "rating_pct": [1.0, 2.0]},
        seats=seats("Ada", "Bea"),
    )  # fmt: skip
    assert [str(c) for c in summary["columns"]] == ["Banks", "Match rating"]


def test_no_result_before_the_end_and_odd_results_do_not_break():
    assert result_summary(game="piquet", result=None, seats=seats("Ada", "Bea")) is None
    odd = result_summary(game="piquet", result={"winner": 7, "placements": "x"}, seats=seats("Ada", "Bea"))
    assert odd["sentences"] == ["Drawn: nothing is settled."]


def test_names_are_joined_with_and():
    assert [names_and(n) for n in (["A"], ["A", "B"], ["A", "B", "C"])] == ["A", "A and B", "A, B and C"]


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["piquet", "piquet-normand", "cul", "bank", "bastard"])
def test_a_demo_match_page_says_its_result_in_words(client, user, make_players, game):
    from scorekeeper.matches.services import hand_record, match_create

    case = next(c for c in json.loads((DEMO_DATA / f"{game}.json").read_text()) if c.get("hands"))
    count = case.get("seats") or len(case.get("players", [])) or 2
    match = match_create(
        game=game, players=make_players(*[f"P{i}" for i in range(count)]), by=user,
        options=case.get("options") or {}, preset=case.get("preset", "classic"),
    )  # fmt: skip
    for record in case["hands"]:
        match = hand_record(match=match, record=record, by=user).match
    if match.result is None:
        pytest.skip("this demo case does not finish its match")

    response = client.get(match.get_absolute_url())

    assert response.context["result"]["sentences"]
    body = response.content.decode()
    for sentence in response.context["result"]["sentences"]:
        assert str(sentence) in body
    assert "placements" not in body and "rating_pct" not in body
