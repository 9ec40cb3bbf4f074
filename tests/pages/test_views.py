"""The web pages: home, a match's score sheet, a player's matches."""

import json

import pytest
from django.urls import reverse

from scorekeeper.devtools import DEMO_DATA
from scorekeeper.matches.services import hand_record, match_create, match_void
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def test_the_home_page_lists_recent_matches_and_players(client, tally_match):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    body = response.content.decode()
    assert tally_match.get_absolute_url() in body
    assert "Ada" in body and "Bea" in body
    assert 'name="viewport"' in body  # usable on a phone


def test_the_home_page_works_with_nothing_recorded(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "No matches yet" in response.content.decode()


def test_the_match_page_shows_the_score_sheet_with_running_totals_and_the_result(client, tally_match, user):
    hand_record(match=tally_match, record=hand([6, 1]), by=user)
    hand_record(match=tally_match, record=hand([5, 3], dealer=1), by=user)

    response = client.get(tally_match.get_absolute_url())

    assert response.status_code == 200
    sheet = response.context["sheet"]
    assert [h["running"] for h in sheet["hands"]] == [[6, 1], [11, 4]]
    assert sheet["totals"] == [11, 4]
    body = response.content.decode()
    assert "Result" in body and "Ada wins with 11 points." in body
    assert "placements" not in body  # the engine's keys are not shown


def test_the_match_page_shows_a_disputed_hand_with_the_claim_and_the_reason(client, tally_match, user):
    hand_record(
        match=tally_match,
        record=hand([3, 1], declared=[4, 1]),
        by=user,
        accept_declared=True,
        reason="we agreed",
    )

    body = client.get(tally_match.get_absolute_url()).content.decode()

    assert "disputed" in body and "declared 4" in body and "we agreed" in body
    # The note says why once, beside the cell's claim: not "declared 4, rules give 3" again.
    assert body.count("seat 0 scored 3, not 4") == 1
    assert "rules give" not in body


def test_a_void_match_page_says_so(client, tally_match, user):
    match_void(match=tally_match, by=user, reason="wrong pack")
    assert "void" in client.get(tally_match.get_absolute_url()).content.decode()


def test_an_unknown_match_is_a_404(client, db):
    assert client.get(reverse("match-detail", args=[999])).status_code == 404


def test_the_player_page_lists_their_matches(client, tally_match):
    player = tally_match.seats.get(position=1).player

    response = client.get(player.get_absolute_url())

    assert response.status_code == 200
    assert tally_match.get_absolute_url() in response.content.decode()


def test_the_result_names_the_winner_instead_of_a_seat_number(client, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 10]), by=user)

    response = client.get(tally_match.get_absolute_url())

    assert response.context["result"]["winners"] == ["Bea"]
    assert "Bea wins with 10 points." in response.content.decode()


def test_the_result_of_a_partnership_game_names_the_players_of_the_winning_team(client, user, make_players):
    cases = json.loads((DEMO_DATA / "piquet-voleur.json").read_text())
    case = next(c for c in cases if c["id"] == "game-to-100")
    match = match_create(game="piquet-voleur", players=make_players("Ada", "Bea", "Cy", "Di"), by=user)
    for record in case["hands"]:
        hand_record(match=match, record=record, by=user)
    match.refresh_from_db()

    response = client.get(match.get_absolute_url())

    team = match.result["winning_team"]
    partners = {0: "Ada and Cy", 1: "Bea and Di"}[team]  # seats 0+2 against 1+3 (spec 6)
    assert response.context["result"]["sentences"][0].startswith(f"{partners} win: ")
    assert partners in response.content.decode()


def test_the_home_page_puts_the_matches_a_user_scores_first(client, tally_match, user, other_user):
    client.force_login(user)
    assert list(client.get(reverse("home")).context["scoring"]) == [tally_match]

    client.force_login(other_user)
    assert list(client.get(reverse("home")).context["scoring"]) == []
