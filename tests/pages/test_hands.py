"""Recording, correcting and reading hands on the pages, with the ``tally`` test game.

``tally`` has no form of its own, so its record is typed in the JSON area: the workflow
(errors, mismatches, accept-declared, stale versions, permissions) is the same for every game.
"""

import json

import pytest
from django.urls import reverse

from scorekeeper.matches.models import AuditEntry, Hand, Match
from scorekeeper.matches.services import hand_correct, hand_record, match_void
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def post_hand(client, match, record, *, version=None, number=None, **extra):
    url = (
        reverse("hand-new", args=[match.pk])
        if number is None
        else reverse("hand-correct", args=[match.pk, number])
    )
    data = {
        "version": match.version if version is None else version,
        "record_json": record if isinstance(record, str) else json.dumps(record),
        **extra,
    }
    return client.post(url, data)


@pytest.fixture
def scorer(client, user):
    client.force_login(user)
    return client


# -- recording ---------------------------------------------------------------------------------
def test_the_record_page_carries_the_match_version(scorer, tally_match):
    response = scorer.get(reverse("hand-new", args=[tally_match.pk]))

    assert response.status_code == 200
    assert response.context["form"]["version"].value() == tally_match.version
    assert "Record hand 1" in response.content.decode()


def test_a_valid_hand_is_stored_and_its_breakdown_shown(scorer, tally_match):
    response = post_hand(scorer, tally_match, hand([3, 1]), follow=False)

    assert response.status_code == 302
    assert response.url == reverse("hand-detail", args=[tally_match.pk, 1])
    stored = Hand.objects.get(match=tally_match)
    assert (stored.number, stored.status, stored.computed) == (1, "valid", [3, 1])
    page = scorer.get(response.url)
    body = page.content.decode()
    assert "Hand 1 recorded." in body
    assert "3 points" in body  # a breakdown line's note
    assert page.context["evaluation"]["seats"][0]["score"] == 3
    assert page.context["score_rows"][1] == {"name": "Bea", "score": 1, "declared": 1, "after": 1}


def test_a_hand_with_errors_shows_each_error_and_stores_nothing(scorer, tally_match):
    typed = json.dumps({"dealer": 7, "points": [1], "declared": "x"})

    response = post_hand(scorer, tally_match, typed)

    assert response.status_code == 400
    body = response.content.decode()
    for code, path in [
        ("seat_out_of_range", "dealer"),
        ("array_length", "points"),
        ("field_invalid", "declared"),
    ]:
        assert f"<code>{code}</code> at <code>{path}</code>" in body
    assert not Hand.objects.exists()
    assert response.context["form"]["record_json"].value() == typed  # what was typed is kept
    assert Match.objects.get(pk=tally_match.pk).version == tally_match.version


def test_a_mismatch_names_the_seat_the_claim_the_rule_and_offers_to_accept(scorer, tally_match):
    response = post_hand(scorer, tally_match, hand([3, 1], declared=[4, 1]))

    assert response.status_code == 400
    body = response.content.decode()
    assert "seat 1 (Ada) declared 4, rules give 3: seat 0 scored 3, not 4" in body
    assert "Accept the declared scores" in body and 'name="reason"' in body
    assert not Hand.objects.exists()


def test_accepting_declared_scores_needs_a_reason(scorer, tally_match):
    response = post_hand(scorer, tally_match, hand([3, 1], declared=[4, 1]), accept_declared="on", reason=" ")

    assert response.status_code == 400
    assert "needs a reason" in response.content.decode()
    assert response.context["form"].errors["reason"]
    assert not Hand.objects.exists()


def test_accepted_declared_scores_store_a_disputed_hand_with_the_reason(scorer, tally_match):
    response = post_hand(
        scorer, tally_match, hand([3, 1], declared=[4, 1]), accept_declared="on", reason="we agreed on 4"
    )

    assert response.status_code == 302
    stored = Hand.objects.get(match=tally_match)
    assert (stored.status, stored.accepted_declared, stored.reason) == ("disputed", True, "we agreed on 4")
    assert Match.objects.get(pk=tally_match.pk).state["totals"] == [4, 1]
    audit = AuditEntry.objects.get(action="hand_record")
    assert audit.payload["reason"] == "we agreed on 4"
    body = scorer.get(response.url).content.decode()
    assert "as disputed" in body and "we agreed on 4" in body


@pytest.fixture
def bob_scores(tally_match, other_user):
    """bob scores the same match on another phone."""
    tally_match.scorers.add(other_user)
    return other_user


def test_a_stale_version_says_who_recorded_meanwhile_and_keeps_the_typed_hand(
    client, scorer, tally_match, bob_scores
):
    seen = tally_match.version
    hand_record(match=tally_match, record=hand([2, 2]), by=bob_scores)  # another phone, first
    typed = json.dumps(hand([5, 0]))

    response = post_hand(scorer, tally_match, typed, version=seen)

    assert response.status_code == 409
    body = response.content.decode()
    assert "bob recorded hand 1 meanwhile." in body and "not saved" in body
    assert response.context["sheet"]["hands"][0]["computed"] == [2, 2]  # the current sheet
    form = response.context["form"]
    assert form["record_json"].value() == typed
    current = Match.objects.get(pk=tally_match.pk).version
    assert str(form["version"].value()) == str(current)
    assert Hand.objects.filter(match=tally_match).count() == 1

    again = post_hand(scorer, tally_match, typed, version=current)  # a deliberate resend

    assert again.status_code == 302
    assert Hand.objects.filter(match=tally_match).count() == 2


def test_a_second_tap_on_save_stores_one_hand_and_says_it_was_you(scorer, tally_match):
    first = post_hand(scorer, tally_match, hand([3, 1]))
    second = post_hand(scorer, tally_match, hand([3, 1]))  # the same version again

    assert first.status_code == 302 and second.status_code == 409
    assert "You recorded hand 1 meanwhile." in second.content.decode()
    assert Hand.objects.filter(match=tally_match).count() == 1


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("hand-new", []),
        ("hand-correct", [1]),
        ("match-void", []),
        ("match-reopen", []),
        ("match-scorer-add", []),
    ],
)
def test_every_write_page_refuses_a_post_from_someone_not_a_scorer(
    client, tally_match, user, other_user, name, args
):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    tally_match.refresh_from_db()
    client.force_login(other_user)
    before = (Hand.objects.count(), AuditEntry.objects.count())

    response = client.post(
        reverse(name, args=[tally_match.pk, *args]),
        {"version": tally_match.version, "reason": "mine", "username": "bob", "record_json": "{}"},
    )

    assert response.status_code == 403
    assert "Not allowed" in response.content.decode()
    assert (Hand.objects.count(), AuditEntry.objects.count()) == before


def test_bad_json_in_the_advanced_area_is_a_readable_message_not_a_500(scorer, tally_match):
    response = post_hand(scorer, tally_match, '{"dealer": 0, "points": [1, 2]')

    assert response.status_code == 400
    assert "this is not valid JSON" in response.content.decode()
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ('{"dealer": NaN}', "NaN is not a JSON number"),
        ('{"dealer": -Infinity}', "-Infinity is not a JSON number"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_what_python_reads_but_json_does_not_is_refused(scorer, tally_match, typed, message):
    response = post_hand(scorer, tally_match, typed)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Hand.objects.exists()


@pytest.mark.parametrize("typed", ["[1, 2]", '"a hand"', "null", "3"])
def test_json_that_is_not_an_object_is_refused_with_an_example(scorer, tally_match, typed):
    response = post_hand(scorer, tally_match, typed)

    assert response.status_code == 400
    assert "the JSON must be an object" in response.content.decode()


def test_a_finished_match_takes_no_more_hands(scorer, tally_match, user):
    hand_record(match=tally_match, record=hand([10, 0]), by=user)
    tally_match.refresh_from_db()

    page = scorer.get(reverse("hand-new", args=[tally_match.pk]))
    posted = post_hand(scorer, tally_match, hand([1, 1]))

    assert page.status_code == 200 and "This match is over" in page.content.decode()
    assert posted.status_code == 409
    assert Hand.objects.filter(match=tally_match).count() == 1


def test_a_void_match_takes_no_hands_until_reopened(scorer, tally_match, user):
    match_void(match=tally_match, by=user, reason="wrong pack")
    tally_match.refresh_from_db()

    response = post_hand(scorer, tally_match, hand([1, 1]))

    assert response.status_code == 409
    assert "void" in response.content.decode()
    assert not Hand.objects.exists()


# -- permissions -----------------------------------------------------------------------------
def test_someone_not_a_scorer_gets_a_403_page_and_nothing_is_stored(client, tally_match, other_user):
    client.force_login(other_user)

    page = client.get(reverse("hand-new", args=[tally_match.pk]))
    posted = post_hand(client, tally_match, hand([1, 1]))

    assert page.status_code == 403 and posted.status_code == 403
    assert "Only this match&#x27;s scorers may record" in posted.content.decode()
    assert not Hand.objects.exists()


def test_the_match_page_is_read_only_for_others(client, tally_match, other_user):
    client.force_login(other_user)

    body = client.get(tally_match.get_absolute_url()).content.decode()

    assert reverse("hand-new", args=[tally_match.pk]) not in body
    assert reverse("match-void", args=[tally_match.pk]) not in body


def test_the_match_page_offers_the_next_hand_to_a_scorer(scorer, tally_match):
    body = scorer.get(tally_match.get_absolute_url()).content.decode()

    assert reverse("hand-new", args=[tally_match.pk]) in body and "Record hand 1" in body


@pytest.mark.parametrize("name", ["hand-new", "match-void", "match-reopen"])
def test_an_anonymous_visitor_is_sent_to_sign_in(client, tally_match, name):
    url = reverse(name, args=[tally_match.pk])

    response = client.get(url)

    assert response.status_code == 302
    assert response.url.startswith(reverse("login")) and "next=" in response.url


@pytest.mark.parametrize("name", ["hand-new", "match-void", "match-reopen"])
def test_an_unknown_match_is_a_404_for_an_anonymous_visitor_too(client, db, name):
    assert client.get(reverse(name, args=[999])).status_code == 404


def test_an_anonymous_post_stores_nothing(client, tally_match):
    response = post_hand(client, tally_match, hand([1, 1]))

    assert response.status_code == 302
    assert not Hand.objects.exists()


def test_a_scorer_can_add_another_scorer_who_may_then_record(client, scorer, tally_match, other_user):
    response = scorer.post(reverse("match-scorer-add", args=[tally_match.pk]), {"username": "bob"})

    assert response.status_code == 302
    assert tally_match.scorers.filter(pk=other_user.pk).exists()
    client.force_login(other_user)
    assert post_hand(client, tally_match, hand([1, 1])).status_code == 302


def test_adding_an_unknown_user_as_scorer_says_so(scorer, tally_match):
    response = scorer.post(
        reverse("match-scorer-add", args=[tally_match.pk]), {"username": "nobody"}, follow=True
    )

    assert "There is no user &#x27;nobody&#x27;" in response.content.decode()
    assert tally_match.scorers.count() == 1


def test_adding_an_inactive_user_as_scorer_is_refused_as_in_the_api(scorer, tally_match, other_user):
    other_user.is_active = False
    other_user.save()

    response = scorer.post(
        reverse("match-scorer-add", args=[tally_match.pk]), {"username": "bob"}, follow=True
    )

    assert "There is no user &#x27;bob&#x27;" in response.content.decode()
    assert not tally_match.scorers.filter(pk=other_user.pk).exists()
    assert not AuditEntry.objects.filter(action="scorer_add").exists()


def test_only_scorers_may_add_scorers(client, tally_match, other_user):
    client.force_login(other_user)

    response = client.post(reverse("match-scorer-add", args=[tally_match.pk]), {"username": "bob"})

    assert response.status_code == 403
    assert not tally_match.scorers.filter(pk=other_user.pk).exists()


# -- corrections and history --------------------------------------------------------------------
def test_the_correction_page_is_prefilled_from_the_stored_record(scorer, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1], dealer=1), by=user)

    response = scorer.get(reverse("hand-correct", args=[tally_match.pk, 1]))

    assert response.status_code == 200
    assert json.loads(response.context["form"]["record_json"].value()) == hand([3, 1], dealer=1)
    assert "Correct hand 1" in response.content.decode()


def test_a_correction_makes_a_new_version_and_the_history_shows_both(scorer, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    hand_record(match=tally_match, record=hand([2, 2], dealer=1), by=user)
    tally_match.refresh_from_db()

    response = post_hand(scorer, tally_match, hand([1, 3]), number=1, reason="points swapped")

    assert response.status_code == 302
    versions = Hand.objects.filter(match=tally_match, number=1).order_by("version")
    assert [(h.version, h.status) for h in versions] == [(1, "superseded"), (2, "valid")]
    assert versions[1].reason == "points swapped"
    assert Match.objects.get(pk=tally_match.pk).state["totals"] == [3, 5]  # later hands re-counted
    history = scorer.get(reverse("hand-history", args=[tally_match.pk, 1]))
    body = history.content.decode()
    assert history.status_code == 200
    assert "Version 2" in body and "Version 1" in body and "points swapped" in body


def test_a_correction_with_a_mismatch_is_refused_like_a_new_hand(scorer, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    tally_match.refresh_from_db()

    response = post_hand(scorer, tally_match, hand([1, 3], declared=[1, 4]), number=1)

    assert response.status_code == 400
    assert "seat 2 (Bea) declared 4, rules give 3" in response.content.decode()
    assert Hand.objects.filter(match=tally_match).count() == 1


def test_a_stale_correction_is_a_conflict(scorer, tally_match, user, bob_scores):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    tally_match.refresh_from_db()
    seen = tally_match.version
    hand_correct(match=tally_match, number=1, record=hand([2, 1]), by=bob_scores)

    response = post_hand(scorer, tally_match, hand([1, 3]), number=1, version=seen)

    assert response.status_code == 409
    assert "bob corrected hand 1 meanwhile." in response.content.decode()
    assert Hand.objects.filter(match=tally_match, number=1).count() == 2


def test_correcting_a_hand_that_does_not_exist_is_a_404(scorer, tally_match):
    assert scorer.get(reverse("hand-correct", args=[tally_match.pk, 4])).status_code == 404


def test_hand_pages_of_unknown_hands_are_404(client, tally_match):
    assert client.get(reverse("hand-detail", args=[tally_match.pk, 1])).status_code == 404
    assert client.get(reverse("hand-history", args=[tally_match.pk, 1])).status_code == 404


def test_anyone_may_read_a_hand_and_its_history(client, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)

    detail = client.get(reverse("hand-detail", args=[tally_match.pk, 1]))
    history = client.get(reverse("hand-history", args=[tally_match.pk, 1]))

    assert detail.status_code == 200 and history.status_code == 200
    assert reverse("hand-correct", args=[tally_match.pk, 1]) not in detail.content.decode()


# -- void and reopen ------------------------------------------------------------------------------
def test_voiding_needs_a_reason(scorer, tally_match):
    url = reverse("match-void", args=[tally_match.pk])

    response = scorer.post(url, {"version": tally_match.version, "reason": ""})

    assert response.status_code == 400
    assert Match.objects.get(pk=tally_match.pk).status == "in_progress"


def test_void_then_reopen_with_reasons_in_the_audit_log(scorer, tally_match):
    voided = scorer.post(reverse("match-void", args=[tally_match.pk]), {"version": 0, "reason": "wrong pack"})
    match = Match.objects.get(pk=tally_match.pk)
    reopened = scorer.post(
        reverse("match-reopen", args=[tally_match.pk]), {"version": match.version, "reason": "pack was fine"}
    )

    assert voided.status_code == 302 and reopened.status_code == 302
    assert Match.objects.get(pk=tally_match.pk).status == "in_progress"
    payloads = [
        e.payload["reason"] for e in AuditEntry.objects.filter(action__in=["match_void", "match_reopen"])
    ]
    assert sorted(payloads) == ["pack was fine", "wrong pack"]


def test_reopening_a_match_that_is_not_void_is_refused(scorer, tally_match):
    response = scorer.post(
        reverse("match-reopen", args=[tally_match.pk]), {"version": 0, "reason": "why not"}
    )

    assert response.status_code == 409
    assert "only a void match can be reopened" in response.content.decode()


def test_a_stale_void_is_a_conflict(scorer, tally_match, user):
    hand_record(match=tally_match, record=hand([1, 1]), by=user)

    response = scorer.post(reverse("match-void", args=[tally_match.pk]), {"version": 0, "reason": "stop"})

    assert response.status_code == 409
    assert "You recorded hand 1 meanwhile." in response.content.decode()
    assert Match.objects.get(pk=tally_match.pk).status == "in_progress"
    assert str(response.context["form"]["version"].value()) == str(
        Match.objects.get(pk=tally_match.pk).version
    )


def test_only_scorers_may_void(client, tally_match, other_user):
    client.force_login(other_user)

    response = client.post(reverse("match-void", args=[tally_match.pk]), {"version": 0, "reason": "mine now"})

    assert response.status_code == 403
    assert Match.objects.get(pk=tally_match.pk).status == "in_progress"


def test_the_hand_pages_read_the_seats_and_their_players_once(scorer, tally, user, make_players):
    """The title names the players and the form the seats: one query for both, whatever the seats."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scorekeeper.matches.services import match_create

    match = match_create(game="tally", players=make_players("A", "B", "C", "D"), by=user)
    hand_record(match=match, record=hand([3, 1, 0, 0]), by=user)
    for url in (reverse("hand-new", args=[match.pk]), reverse("hand-detail", args=[match.pk, 1])):
        with CaptureQueriesContext(connection) as queries:
            assert scorer.get(url).status_code == 200
        reads = [q["sql"] for q in queries if '"matches_player"' in q["sql"] or '"matches_seat"' in q["sql"]]
        assert len(reads) == 1, reads


def test_the_score_sheet_lists_its_scorers_by_user_name_as_read_with_the_match(
    scorer, tally_match, django_user_model
):
    """The scorers come with the match (selectors.match_list), in the sheet's order: no second read."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for name in ("zoe", "Bea", "cid"):
        tally_match.scorers.add(django_user_model.objects.create_user(name))
    expected = list(tally_match.scorers.order_by("username").values_list("username", flat=True))

    with CaptureQueriesContext(connection) as queries:
        response = scorer.get(reverse("match-detail", args=[tally_match.pk]))

    assert [u.get_username() for u in response.context["scorers"]] == expected
    assert ", ".join(expected) in response.content.decode()
    reads = [q["sql"] for q in queries if '"matches_match_scorers"' in q["sql"]]
    assert len(reads) == 1, reads
