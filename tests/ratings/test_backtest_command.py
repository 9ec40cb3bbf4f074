"""`manage.py ratings_backtest`: a thin wrapper over ratings/backtest/."""

import json
import sys

import pytest
from django.core.management import CommandError, call_command

from ratings.services import rating_events_process_all
from scorekeeper.matches.services import hand_record, match_create
from tests.fakes import hand

LINES = [
    {"game": "g", "sides": [["a"], ["b"]], "places": [1, 2]},
    {"game": "g", "sides": [["a", "c"], ["b", "d"]], "places": [2, 1]},
    {"game": "g", "sides": [["a"], ["b"], ["c"]], "places": [1, 1, 3]},
]


def test_it_reports_every_candidate_and_writes_one_prediction_per_match_in_input_order(tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in LINES))
    out = tmp_path / "out.jsonl"

    call_command("ratings_backtest", "--input", str(source), "--predictions", str(out))

    report = capsys.readouterr().out
    assert "3 matches" in report and "| default " in report and "winner accuracy" in report
    assert "calibration of default" in report
    predictions = [json.loads(line) for line in out.read_text().splitlines()]
    assert [len(p["win_probabilities"]) for p in predictions] == [2, 2, 3]
    assert predictions[0] == {"win_probabilities": [0.5, 0.5]}
    assert all(sum(p["win_probabilities"]) == pytest.approx(1) for p in predictions)


def test_lines_with_scores_are_rated_by_the_marked_margin_aware_candidate_too(tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    lines = [dict(line, scores=[100 - 10 * p for p in line["places"]]) for line in LINES]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))

    call_command("ratings_backtest", "--input", str(source))

    report = capsys.readouterr().out
    assert "| margin-aware * " in report and "| default " in report
    assert "* reads the matches' points" in report


def test_a_bad_line_is_refused_with_its_number(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(LINES[0]) + "\n" + '{"game": "g", "sides": [["a"]], "places": [1]}\n')
    with pytest.raises(CommandError, match="line 2"):
        call_command("ratings_backtest", "--input", str(source))


@pytest.fixture
def without_openskill(monkeypatch):
    """openskill not installed (only requirements.txt): importing it fails."""
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)


def test_without_openskill_the_report_is_refused_with_what_to_install(tmp_path, without_openskill):
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in LINES))
    out = tmp_path / "out.jsonl"

    with pytest.raises(CommandError, match=r"pip install -r requirements-dev\.txt"):
        call_command("ratings_backtest", "--input", str(source), "--predictions", str(out))
    assert not out.exists()  # refused before any work


def test_without_openskill_the_predictions_alone_are_written(tmp_path, capsys, without_openskill):
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in LINES))
    out = tmp_path / "out.jsonl"

    call_command("ratings_backtest", "--input", str(source), "--predictions", str(out), "--no-report")

    assert [len(json.loads(line)["win_probabilities"]) for line in out.read_text().splitlines()] == [2, 2, 3]
    assert capsys.readouterr().out == ""


@pytest.mark.django_db
def test_it_replays_the_stored_matches_of_a_pool(tally, make_players, user, capsys):
    players = make_players("Ada", "Bea")
    for points in ([10, 2], [3, 10]):
        match = match_create(game="tally", players=players, by=user)
        hand_record(match=match, record=hand(points), by=user)
    rating_events_process_all()

    call_command("ratings_backtest", "--game", "tally")

    assert "2 matches" in capsys.readouterr().out


@pytest.mark.django_db
def test_an_unknown_game_is_refused():
    with pytest.raises(CommandError, match="chess"):
        call_command("ratings_backtest", "--game", "chess")
