"""A club's Swiss night at phone size (issue 34), in Chromium: a director makes a three-round
Swiss of piquet parties on the club's events page, enters the eight players of the club's
roster, and pairs each round with the "pair" button; a projector opened at the start (its own
browser context, never reloaded) follows the night by polling and ends on the final standings,
the winner on top with 3 points. Every event page (list, event, projector, report) passes axe.

Two of the players have accounts (``Player.user``): the event makes them the scorers of their
tables' matches, and each round one of them, on his own phone, records his table's six deals
through the match's pages (the event page's "Score sheet" link, then the hand form, deal by
deal). A partie is six deals, so 4 tables × 3 rounds would be 72 hands through the browser: the
other three tables of each round are recorded from the test's thread with
``scorekeeper.matches.services.hand_record`` (the director, who may score every match of the
club), the same demo partie's hands. About 50 s on two cores.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.clubs.services import club_create
from scorekeeper.events import selectors
from scorekeeper.events.models import Event, Round
from scorekeeper.matches.models import Match
from scorekeeper.matches.services import hand_record, player_create

from .piquet_pages import demo_hands, fill_piquet_hand, save, sign_in, wait_checked
from .test_accessibility import axe_source  # noqa: F401  (the fixture)
from .test_clubs import no_axe_findings

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Anne", "Bruno", "Chloé", "David", "Élise", "Fabien", "Gaëlle", "Hugo"]
#: The players with accounts, and their passwords: they score their own tables.
ACCOUNTS = {"Anne": "anne-plays-42", "Bruno": "bruno-plays-42"}
#: The projector polls every 3 s and turns its slides every 10 s.
PROJECTOR_WAIT = 30_000


def record_on_the_phone(scorer, base: str, event: Event, table, number: int) -> None:
    """The scorer finds his seat on the event's page and records his table's partie there."""
    scorer.goto(f"{base}{event.get_absolute_url()}")
    expect(scorer.locator(".your-seat")).to_contain_text(f"You play at table {number}")
    scorer.locator(f'li[data-table-id="{table.pk}"]').get_by_role("link", name="Score sheet").click()
    expect(scorer).to_have_url(re.compile(rf"/matches/{table.match_id}/?$"))
    scorer.get_by_role("link", name="Record hand 1").click()
    hands = demo_hands("partie-1")
    for n, hand in enumerate(hands, 1):
        expect(scorer.locator("h1")).to_contain_text(f"Record hand {n}")
        fill_piquet_hand(scorer, hand)
        wait_checked(scorer)
        save(scorer)
        expect(scorer).to_have_url(re.compile(rf"/matches/{table.match_id}/hands/{n}/$"))
        if n < len(hands):
            scorer.get_by_role("link", name="Next hand").click()
    table.match.refresh_from_db()
    assert table.match.status == Match.Status.FINISHED


def record_by_service(match: Match, by) -> None:
    for hand in demo_hands("partie-1"):
        match = hand_record(match=match, record=hand, by=by).match
    assert match.status == Match.Status.FINISHED


def test_a_director_runs_a_three_round_swiss_the_projector_shows_the_final_standings(
    live_server,
    phone,
    django_user_model,
    axe_source,  # noqa: F811
):
    base = live_server.url
    dora = django_user_model.objects.create_user("dora", password="director-42")
    club = club_create(by=dora, name="Cercle du Piquet", slug="cercle")
    users = {
        name: django_user_model.objects.create_user(name.lower(), password=pw)
        for name, pw in ACCOUNTS.items()
    }
    players = {name: player_create(name=name, by=dora, club=club, user=users.get(name)) for name in NAMES}

    # The director makes the event on the club's events page.
    director = phone().new_page()
    sign_in(director, base, "dora", "director-42")
    director.goto(f"{base}/clubs/cercle/events/")
    expect(director.locator("main")).to_contain_text("No events yet.")
    no_axe_findings(director, axe_source, "event list, empty")
    director.fill("input[name=name]", "Swiss night")
    director.select_option("select[name=game]", "piquet")
    director.select_option("select[name=format]", Event.Format.SWISS.value)
    director.fill("input[name=rounds]", "3")
    director.get_by_role("button", name="Make the event").click()
    expect(director.locator(".alert.success")).to_contain_text("The event Swiss night is made.")
    event = Event.objects.get()
    assert (event.game, event.format, event.rounds, event.table_size) == ("piquet", "swiss", 3, 2)
    event_url = f"{base}{event.get_absolute_url()}"
    expect(director).to_have_url(event_url)

    # The projector: opened now, on its own screen, and never reloaded.
    projector = phone().new_page()
    projector.goto(f"{base}{event.get_absolute_url()}projector/")
    expect(projector.locator("h1")).to_have_text("Swiss night")
    expect(projector.locator(".slide.standings tbody tr")).to_have_count(0)
    projector.evaluate("window.sameDocument = true")  # gone if the page were ever reloaded

    # The eight players of the roster are entered.
    for name in NAMES:
        director.select_option("select[name=player]", label=name)
        director.get_by_role("button", name="Enter", exact=True).click()
        expect(director.locator(".alert.success")).to_contain_text(f"{name} is entered.")
    expect(director.locator(".entrants h2")).to_have_text("8 entrants")
    no_axe_findings(director, axe_source, "event page, entered")

    scorers = {}
    for name, password in ACCOUNTS.items():
        scorers[name] = phone().new_page()
        sign_in(scorers[name], base, name.lower(), password)

    for number in (1, 2, 3):
        director.goto(event_url)
        director.get_by_role("button", name="Pair the next round").click()
        expect(director.locator(".alert.success")).to_contain_text(f"Round {number} is paired.")
        expect(director.locator("section.round").first).to_have_attribute("data-round", str(number))
        round_ = Round.objects.get(event=event, number=number)
        tables = selectors.round_tables(round_)
        assert len(tables) == 4 and all(t.match is not None for t in tables)
        if number == 1:
            no_axe_findings(director, axe_source, "event page, round 1 paired")
        # This round's phone scorer: Anne, then Bruno, then Anne (whoever of them plays).
        order = ["Anne", "Bruno"] if number % 2 else ["Bruno", "Anne"]
        seats = selectors.seats_of(tables)
        by_phone = next((name, t) for name in order for t in tables if players[name].pk in seats[t.pk])
        name, phone_table = by_phone
        assert users[name] in phone_table.match.scorers.all()
        for table in tables:
            if table.pk != phone_table.pk:
                record_by_service(table.match, dora)
        record_on_the_phone(scorers[name], base, event, phone_table, phone_table.number)
        # The director's page, not reloaded, shows every table finished.
        for table in tables:
            badge = director.locator(f'li[data-table-id="{table.pk}"] [data-status]')
            expect(badge).to_have_text("finished")

    director.goto(event_url)
    expect(director.get_by_role("button", name="Pair the next round")).to_be_visible()
    director.get_by_role("button", name="Finish the event").click()
    expect(director.locator(".alert.success")).to_contain_text("The event is finished")
    event.refresh_from_db()
    assert event.finished_at is not None

    # Three rounds of eight, no draw: one player won all three.
    final = selectors.standings(event)
    winner = selectors.player_names(event)[final[0].player]
    assert final[0].values["points"] == 3 and final[1].values["points"] < 3

    # The projector followed by itself: the final standings, the winner on top with 3 points.
    top = projector.locator(".slide.standings tbody tr").first
    expect(top.locator("td").nth(1)).to_have_text(winner, timeout=PROJECTOR_WAIT)
    expect(top.locator("td").nth(2)).to_have_text("3", timeout=PROJECTOR_WAIT)
    expect(projector.locator(".slide.standings tbody tr")).to_have_count(8)
    expect(projector.locator(".slide.standings")).to_be_visible(timeout=PROJECTOR_WAIT)
    assert projector.evaluate("window.sameDocument") is True
    no_axe_findings(projector, axe_source, "projector")

    # The report: the final standings and every table's result.
    director.get_by_role("link", name="Report", exact=True).click()
    expect(director.locator("h2").first).to_have_text("Final standings")
    expect(director.locator("#standings-rows tr").first).to_contain_text(winner)
    expect(director.locator("table.results tbody.match")).to_have_count(12)
    no_axe_findings(director, axe_source, "report")

    director.goto(f"{base}/clubs/cercle/events/")
    expect(director.locator("ul.events")).to_contain_text("Swiss night")
    expect(director.locator("ul.events")).to_contain_text("8 entrants · 3 rounds")
    no_axe_findings(director, axe_source, "event list")
    director.goto(event_url)
    no_axe_findings(director, axe_source, "event page, finished")
