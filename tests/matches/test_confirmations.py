"""The other side's word on each hand and the player ↔ account link (scorekeeper/matches/
confirmations.py; the rules are in docs/recording.md, "Confirmation by the other side")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scorekeeper.matches import confirmations, errors, player_accounts, selectors, signals
from scorekeeper.matches.models import AuditEntry, HandConfirmation, Match, PlayerClaimCode
from scorekeeper.matches.services import hand_correct, hand_record, match_create, match_void
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tally, django_user_model, make_players):
    """Ada (account ``ada``, the scorer) against Bea (account ``bea``) at tally to 10; Cid has
    no account and sits at no seat."""
    ada_user = django_user_model.objects.create_user("ada")
    bea_user = django_user_model.objects.create_user("bea")
    ada, bea, cid = make_players("Ada", "Bea", "Cid")
    player_accounts.player_link(player=ada, user=ada_user, by=None)
    player_accounts.player_link(player=bea, user=bea_user, by=None)
    match = match_create(game="tally", players=[ada, bea], by=ada_user)
    return {"ada": ada, "bea": bea, "cid": cid, "ada_user": ada_user, "bea_user": bea_user, "match": match}


def record(t, points=(3, 1), by=None):
    match = Match.objects.get(pk=t["match"].pk)
    return hand_record(
        match=match, record=hand(list(points), dealer=match.hand_count % 2), by=by or t["ada_user"]
    )


def sheet_states(match):
    return [
        h["confirmation"] for h in selectors.match_score_sheet(match=Match.objects.get(pk=match.pk))["hands"]
    ]


# -- who may answer ----------------------------------------------------------------------------
def test_the_other_side_confirms_on_its_own_account(table):
    record(table)

    row = confirmations.hand_confirm(match=table["match"].pk, number=1, by=table["bea_user"])

    assert (row.answer, row.player, row.at_table, row.by, row.hand.version) == (
        "confirmed", table["bea"], False, table["bea_user"], 1
    )  # fmt: skip
    assert sheet_states(table["match"]) == ["confirmed"]
    entry = AuditEntry.objects.get(action=AuditEntry.Action.HAND_CONFIRM)
    assert (entry.actor, entry.player, entry.hand_id) == (table["bea_user"], table["bea"], row.hand_id)
    assert entry.payload == {"number": 1, "version": 1, "player": table["bea"].pk, "player_name": "Bea",
                             "at_table": False, "reason": ""}  # fmt: skip


def test_the_scorer_records_a_confirmation_at_the_table_naming_the_player(table):
    record(table)

    row = confirmations.hand_confirm(
        match=table["match"], number=1, by=table["ada_user"], player=table["bea"].pk
    )

    assert (row.player, row.at_table, row.by) == (table["bea"], True, table["ada_user"])


def test_the_side_that_recorded_a_hand_cannot_answer_it(table):
    record(table)

    with pytest.raises(errors.NotAllowed) as own:
        confirmations.hand_confirm(match=table["match"], number=1, by=table["ada_user"])
    with pytest.raises(errors.NotAllowed) as named:
        confirmations.hand_confirm(
            match=table["match"], number=1, by=table["ada_user"], player=table["ada"].pk
        )

    assert own.value.code == named.value.code == "same_side"
    assert not HandConfirmation.objects.exists()


def test_a_hand_bea_recorded_is_answered_by_ada(table):
    table["match"].scorers.add(table["bea_user"])
    record(table, by=table["bea_user"])

    with pytest.raises(errors.NotAllowed):
        confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"])
    assert (
        confirmations.hand_confirm(match=table["match"], number=1, by=table["ada_user"]).player
        == table["ada"]
    )


def test_a_user_who_plays_no_seat_of_the_match_may_not_answer(table, django_user_model):
    record(table)
    stranger = django_user_model.objects.create_user("eve")
    player_accounts.player_link(player=table["cid"], user=stranger, by=None)

    with pytest.raises(errors.NotAllowed) as own:
        confirmations.hand_confirm(match=table["match"], number=1, by=stranger)
    with pytest.raises(errors.NotAllowed) as naming:  # naming a player needs a scorer
        confirmations.hand_confirm(match=table["match"], number=1, by=stranger, player=table["bea"].pk)

    assert (own.value.code, naming.value.code) == ("not_a_player", "not_a_scorer")


def test_naming_a_player_who_plays_no_seat_is_refused(table):
    record(table)

    with pytest.raises(errors.Invalid) as refused:
        confirmations.hand_confirm(
            match=table["match"], number=1, by=table["ada_user"], player=table["cid"].pk
        )

    assert (refused.value.code, refused.value.field) == ("player_not_seated", "player")


def test_a_hand_recorded_by_a_scorer_who_plays_no_seat_may_be_answered_by_every_seat(
    table, django_user_model
):
    club = django_user_model.objects.create_user("club")
    table["match"].scorers.add(club)
    record(table, by=club)

    confirmations.hand_confirm(match=table["match"], number=1, by=table["ada_user"])

    assert sheet_states(table["match"]) == ["confirmed"]


def test_partners_are_one_side(tally, django_user_model, make_players):
    """In a partnership game the recorder's partner is on the recording side too."""
    from tests.fakes import Tally

    users = [django_user_model.objects.create_user(name) for name in ("u0", "u1", "u2", "u3")]
    seated = make_players("P0", "P1", "P2", "P3")
    for player, account in zip(seated, users, strict=True):
        player_accounts.player_link(player=player, user=account, by=None)
    # The tally game with fixed partnerships, as piquet-voleur has: seats 0+2 against 1+3.
    Voleur = type("TallyTeams", (Tally,), {"partnerships": (0, 1, 0, 1), "seat_counts": (4,)})
    from scorekeeper.rules import RULESETS

    RULESETS["tally"] = Voleur
    match = match_create(game="tally", players=seated, by=users[0])
    hand_record(match=match, record=hand([1, 1, 1, 1]), by=users[0])

    with pytest.raises(errors.NotAllowed):
        confirmations.hand_confirm(match=match, number=1, by=users[2])
    assert confirmations.hand_confirm(match=match, number=1, by=users[3]).player == seated[3]


# -- what an answer is -----------------------------------------------------------------------
def test_a_dispute_needs_a_reason_and_keeps_it(table):
    record(table)

    with pytest.raises(errors.ReasonRequired):
        confirmations.hand_dispute(match=table["match"], number=1, by=table["bea_user"], reason="  ")
    row = confirmations.hand_dispute(match=table["match"], number=1, by=table["bea_user"], reason="I had 4")

    assert (row.answer, row.reason) == ("disputed", "I had 4")
    sheet = selectors.match_score_sheet(match=table["match"])["hands"][0]
    assert (sheet["confirmation"], sheet["confirmed_by"], sheet["dispute_reason"]) == (
        "disputed",
        "Bea",
        "I had 4",
    )
    assert AuditEntry.objects.get(action=AuditEntry.Action.HAND_DISPUTE).payload["reason"] == "I had 4"


def test_the_same_answer_twice_is_a_conflict_and_another_answer_replaces_it_keeping_both(table):
    record(table)
    confirmations.hand_dispute(match=table["match"], number=1, by=table["bea_user"], reason="I had 4")

    with pytest.raises(errors.AnswerConflict) as twice:
        confirmations.hand_dispute(match=table["match"], number=1, by=table["bea_user"], reason="still")
    confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"])
    with pytest.raises(errors.AnswerConflict) as again:
        confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"])

    assert (twice.value.code, again.value.code) == ("already_disputed", "already_confirmed")
    assert list(HandConfirmation.objects.values_list("answer", flat=True)) == ["disputed", "confirmed"]
    assert sheet_states(table["match"]) == ["confirmed"]


def test_an_answer_to_a_version_that_is_no_longer_current_is_a_conflict(table):
    record(table)
    hand_correct(match=table["match"], number=1, record=hand([4, 1]), by=table["ada_user"])

    with pytest.raises(errors.AnswerConflict) as stale:
        confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"], hand_version=1)

    assert (stale.value.code, stale.value.extra["current_version"]) == ("hand_version_conflict", 2)
    assert confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"], hand_version=2)


def test_no_such_hand_and_a_void_match_are_refused(table):
    record(table)
    with pytest.raises(errors.NotFound) as missing:
        confirmations.hand_confirm(match=table["match"], number=2, by=table["bea_user"])
    match_void(match=table["match"], by=table["ada_user"], reason="mistake")
    with pytest.raises(errors.MatchVoid):
        confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"])

    assert missing.value.code == "hand_not_found"


def test_an_anonymous_caller_is_asked_to_sign_in(table):
    from django.contrib.auth.models import AnonymousUser

    record(table)
    with pytest.raises(errors.NotSignedIn):
        confirmations.hand_confirm(match=table["match"], number=1, by=AnonymousUser())


def test_an_answer_leaves_the_match_version_alone(table):
    record(table)
    version = Match.objects.get(pk=table["match"].pk).version

    confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"])

    assert Match.objects.get(pk=table["match"].pk).version == version
    # The scorer's next save, with the version he had, is not a conflict.
    match = Match.objects.get(pk=table["match"].pk)
    hand_record(match=match, record=hand([1, 1], dealer=1), by=table["ada_user"], version=version)


# -- the match confirmed --------------------------------------------------------------------
def test_the_match_is_confirmed_when_every_current_hand_is_and_a_correction_needs_a_new_answer(table):
    record(table, (3, 1))
    record(table, (2, 2))
    confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"])
    assert Match.objects.get(pk=table["match"].pk).confirmed_at is None

    row = confirmations.hand_confirm(match=table["match"], number=2, by=table["bea_user"])
    assert Match.objects.get(pk=table["match"].pk).confirmed_at == row.at

    hand_correct(match=table["match"], number=1, record=hand([4, 1]), by=table["ada_user"])
    assert Match.objects.get(pk=table["match"].pk).confirmed_at is None
    # Hand 2 was re-evaluated into a new version (its totals moved): it waits again too.
    assert sheet_states(table["match"]) == ["waiting", "waiting"]
    assert HandConfirmation.objects.count() == 2  # the old versions' answers are kept

    record(table, (1, 0))
    confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"])
    confirmations.hand_confirm(match=table["match"], number=2, by=table["bea_user"])
    assert Match.objects.get(pk=table["match"].pk).confirmed_at is None  # hand 3 waits
    confirmations.hand_confirm(match=table["match"], number=3, by=table["bea_user"])
    assert Match.objects.get(pk=table["match"].pk).confirmed_at is not None


def test_a_match_with_no_hands_is_not_confirmed(table):
    assert not selectors.match_all_confirmed(match=table["match"])


def test_a_finished_match_announces_its_confirmation_and_its_loss(table):
    announced = []

    def listen(sender, match, kind, **kwargs):
        announced.append(kind)

    signals.match_changed.connect(listen, sender=Match)
    try:
        record(table, (6, 1))
        record(table, (6, 1))  # Ada reaches 12: over
        assert Match.objects.get(pk=table["match"].pk).status == "finished"
        confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"])
        confirmations.hand_confirm(match=table["match"], number=2, by=table["bea_user"])
        confirmations.hand_dispute(match=table["match"], number=2, by=table["bea_user"], reason="no")
    finally:
        signals.match_changed.disconnect(listen, sender=Match)

    assert announced == ["finish", "confirm", "unconfirm"]


def test_an_unfinished_match_announces_nothing_when_confirmed(table):
    announced = []

    def listen(sender, **kwargs):
        announced.append(kwargs["kind"])

    signals.match_changed.connect(listen, sender=Match)
    try:
        record(table)
        confirmations.hand_confirm(match=table["match"], number=1, by=table["bea_user"])
    finally:
        signals.match_changed.disconnect(listen, sender=Match)

    assert announced == []
    assert Match.objects.get(pk=table["match"].pk).confirmed_at is not None


# -- account codes ---------------------------------------------------------------------------
@pytest.fixture
def unlinked(tally, django_user_model, make_players):
    """A match of Ada (the scorer's account ``ann``) and Bea, neither linked; Bea's future
    account ``bea``."""
    scorer = django_user_model.objects.create_user("ann")
    ada, bea = make_players("Ada", "Bea")
    match = match_create(game="tally", players=[ada, bea], by=scorer)
    return {
        "scorer": scorer,
        "bea": bea,
        "match": match,
        "bea_user": django_user_model.objects.create_user("bea"),
    }


def test_a_scorer_gives_a_code_that_links_the_player_once(unlinked):
    row = player_accounts.player_claim_code_create(
        match=unlinked["match"], player=unlinked["bea"], by=unlinked["scorer"]
    )

    assert len(row.code) == 9 and row.code[4] == "-"
    assert row.code.replace("-", "") not in row.digest and len(row.digest) == 64  # only a digest kept
    player = player_accounts.player_claim(code=row.code.lower().replace("-", " "), by=unlinked["bea_user"])

    assert player == unlinked["bea"] and player.user == unlinked["bea_user"]
    stored = PlayerClaimCode.objects.get()
    assert (stored.used_by, stored.used_at is not None) == (unlinked["bea_user"], True)
    link = AuditEntry.objects.get(action=AuditEntry.Action.PLAYER_LINK)
    assert (link.actor, link.player, link.payload["how"]) == (unlinked["bea_user"], unlinked["bea"], "code")
    assert AuditEntry.objects.filter(
        action=AuditEntry.Action.CLAIM_CODE_CREATE, player=unlinked["bea"]
    ).exists()


def test_a_code_read_with_o_for_zero_and_l_for_one_still_works(unlinked, monkeypatch):
    monkeypatch.setattr(
        player_accounts.secrets, "choice", lambda alphabet: "0" if alphabet.startswith("0") else "1"
    )
    row = player_accounts.player_claim_code_create(
        match=unlinked["match"], player=unlinked["bea"], by=unlinked["scorer"]
    )
    assert row.code == "0000-0000"

    assert player_accounts.player_claim(code="oOoo-OOOo", by=unlinked["bea_user"]) == unlinked["bea"]


def test_only_a_scorer_gives_codes_and_only_for_a_seated_player_without_an_account(unlinked, make_players):
    with pytest.raises(errors.NotAllowed):
        player_accounts.player_claim_code_create(
            match=unlinked["match"], player=unlinked["bea"], by=unlinked["bea_user"]
        )
    (outsider,) = make_players("Cid")
    with pytest.raises(errors.NotFound) as not_seated:
        player_accounts.player_claim_code_create(
            match=unlinked["match"], player=outsider, by=unlinked["scorer"]
        )
    player_accounts.player_link(player=unlinked["bea"], user=unlinked["bea_user"], by=None)
    with pytest.raises(errors.AlreadyLinked) as linked:
        player_accounts.player_claim_code_create(
            match=unlinked["match"], player=unlinked["bea"], by=unlinked["scorer"]
        )

    assert (not_seated.value.code, linked.value.code) == ("player_not_seated", "player_already_linked")


def test_wrong_expired_and_used_codes_are_refused_each_with_its_code(unlinked, django_user_model):
    give = player_accounts.player_claim_code_create
    with pytest.raises(errors.ClaimCodeInvalid) as wrong:
        player_accounts.player_claim(code="ZZZZ-ZZZZ", by=unlinked["bea_user"])
    with pytest.raises(errors.ClaimCodeInvalid) as malformed:
        player_accounts.player_claim(code="abc", by=unlinked["bea_user"])
    old = give(match=unlinked["match"], player=unlinked["bea"], by=unlinked["scorer"])
    PlayerClaimCode.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(errors.ClaimCodeInvalid) as expired:
        player_accounts.player_claim(code=old.code, by=unlinked["bea_user"])
    fresh = give(match=unlinked["match"], player=unlinked["bea"], by=unlinked["scorer"])
    player_accounts.player_claim(code=fresh.code, by=unlinked["bea_user"])
    with pytest.raises(errors.ClaimCodeUsed) as used:
        player_accounts.player_claim(code=fresh.code, by=django_user_model.objects.create_user("cid"))

    codes = [e.value.code for e in (wrong, malformed, expired, used)]
    assert codes == ["claim_code_invalid", "claim_code_invalid", "claim_code_expired", "claim_code_used"]


def test_a_player_already_linked_and_a_user_already_linked_are_refused(
    unlinked, make_players, django_user_model
):
    first = player_accounts.player_claim_code_create(
        match=unlinked["match"], player=unlinked["bea"], by=unlinked["scorer"]
    )
    second = player_accounts.player_claim_code_create(
        match=unlinked["match"], player=unlinked["bea"], by=unlinked["scorer"]
    )
    player_accounts.player_claim(code=first.code, by=unlinked["bea_user"])
    with pytest.raises(errors.AlreadyLinked) as player_linked:
        player_accounts.player_claim(code=second.code, by=django_user_model.objects.create_user("cid"))

    ada = unlinked["match"].seats.get(position=0).player
    for_ada = player_accounts.player_claim_code_create(
        match=unlinked["match"], player=ada, by=unlinked["scorer"]
    )
    with pytest.raises(errors.AlreadyLinked) as user_linked:
        player_accounts.player_claim(code=for_ada.code, by=unlinked["bea_user"])

    assert (player_linked.value.code, user_linked.value.code) == (
        "player_already_linked",
        "user_already_linked",
    )
    assert PlayerClaimCode.objects.get(pk=for_ada.pk).used_at is None  # still Ada's to use


def test_claiming_is_throttled_after_too_many_wrong_codes(unlinked, settings):
    settings.PLAYER_CLAIM_ATTEMPTS = 3
    row = player_accounts.player_claim_code_create(
        match=unlinked["match"], player=unlinked["bea"], by=unlinked["scorer"]
    )
    for _ in range(3):
        with pytest.raises(errors.ClaimCodeInvalid):
            player_accounts.player_claim(code="ZZZZ-ZZZZ", by=unlinked["bea_user"])

    with pytest.raises(errors.TooManyAttempts) as throttled:  # even the right code, for a while
        player_accounts.player_claim(code=row.code, by=unlinked["bea_user"])

    assert throttled.value.extra["retry_after"] == settings.PLAYER_CLAIM_WINDOW_SECONDS
    assert unlinked["bea"].__class__.objects.get(pk=unlinked["bea"].pk).user is None


def test_staff_link_and_unlink_a_player_with_an_audit_entry(unlinked, django_user_model):
    staff = django_user_model.objects.create_user("staff", is_staff=True)

    player_accounts.player_link(player=unlinked["bea"], user=unlinked["bea_user"], by=staff)
    player_accounts.player_link(player=unlinked["bea"], user=None, by=staff)

    payloads = [
        e.payload for e in AuditEntry.objects.filter(action=AuditEntry.Action.PLAYER_LINK).order_by("id")
    ]
    assert payloads == [
        {"user": unlinked["bea_user"].pk, "before": None, "how": "staff"},
        {"user": None, "before": unlinked["bea_user"].pk, "how": "staff"},
    ]


def test_staff_link_a_player_in_the_admin_with_an_audit_entry(unlinked, admin_client, admin_user):
    bea = unlinked["bea"]

    response = admin_client.post(
        f"/admin/matches/player/{bea.pk}/change/", {"name": "Bea", "user": unlinked["bea_user"].pk}
    )

    assert response.status_code == 302, response.content
    bea.refresh_from_db()
    assert bea.user == unlinked["bea_user"]
    entry = AuditEntry.objects.get(action=AuditEntry.Action.PLAYER_LINK)
    assert (entry.actor, entry.player, entry.payload) == (
        admin_user, bea, {"user": unlinked["bea_user"].pk, "before": None, "how": "staff"}
    )  # fmt: skip
