"""Running one conformance case against the engine and comparing what spec 1.8 says to compare."""

from __future__ import annotations

from scorekeeper.rules import find_ruleset


def run_case(case: dict) -> None:
    game = find_ruleset(case["game"]).create("classic", case.get("options") or {}, case["seats"])
    if "hands" in case:
        _run_match_case(game, case)
    else:
        _run_hand_case(game, case)


def _run_hand_case(game, case: dict) -> None:
    expect = case["expect"]
    ev = game.evaluate(case["state"], case["hand"])
    got = ev.to_dict()
    context = f"{case['id']}: {got['errors'] or got['mismatches']}"
    assert got["valid"] == expect["valid"], context
    assert got["scores"] == expect["scores"], context
    if "errors" in expect:
        codes = {e["code"] for e in got["errors"]}
        missing = set(expect["errors"]) - codes
        assert not missing, f"{case['id']}: missing {missing}, got {got['errors']}"
        return
    assert not got["errors"], context
    assert sorted({m["seat"] for m in got["mismatches"]}) == expect.get("mismatch_seats", []), context
    assert {w["code"] for w in got["warnings"]} == set(expect.get("warnings", [])), got["warnings"]
    _assert_state_and_result(case["id"], got, expect)
    _assert_breakdown_adds_up(got, case["game"])


def _run_match_case(game, case: dict) -> None:
    expect = case["expect_result"]
    state = case["state"]
    scores = []
    for i, record in enumerate(case["hands"]):
        ev = game.evaluate(state, record)
        got = ev.to_dict()
        assert got["valid"], f"{case['id']} hand {i}: {got['errors'] or got['mismatches']}"
        assert not got["warnings"], f"{case['id']} hand {i}: {got['warnings']}"
        last = i == len(case["hands"]) - 1
        assert got["match_over"] == last, f"{case['id']}: match_over {got['match_over']} at hand {i}"
        scores.append(got["scores"])
        _assert_breakdown_adds_up(got, case["game"])
        state = got["state_after"]
    assert scores == expect["hand_scores"], case["id"]
    _assert_state_and_result(case["id"], got, expect)


def _assert_state_and_result(case_id: str, got: dict, expect: dict) -> None:
    assert got["state_after"] == expect["state_after"], case_id
    assert got["match_over"] == expect["match_over"], case_id
    expected_result = expect.get("result")
    if expected_result is None:
        assert got["result"] is None, case_id
        return
    assert got["result"] is not None, case_id
    assert set(got["result"]) == set(expected_result), case_id
    for key, value in expected_result.items():
        if key == "rating_pct":
            # Spec 1.8: cul ratings are compared unrounded within 0.05.
            for mine, theirs in zip(got["result"][key], value, strict=True):
                assert (mine is None) == (theirs is None) and (mine is None or abs(mine - theirs) <= 0.05), (
                    case_id,
                    got["result"][key],
                    value,
                )
        else:
            assert got["result"][key] == value, (case_id, key)


def _assert_breakdown_adds_up(got: dict, game: str) -> None:
    """Spec 1.5: for every seat the breakdown lines add up to its score; in piquet-voleur
    the lines of both partners add up to the team's score."""
    totals: dict[int, int] = {}
    for line in got["breakdown"]:
        totals[line["seat"]] = totals.get(line["seat"], 0) + line["points"]
    if game == "piquet-voleur":
        for team in (0, 1):
            assert totals.get(team, 0) + totals.get(team + 2, 0) == got["scores"][team], got["breakdown"]
        return
    for seat, score in enumerate(got["scores"]):
        assert totals.get(seat, 0) == score, (seat, got["breakdown"])
