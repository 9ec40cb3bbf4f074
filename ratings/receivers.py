"""The ratings' receivers of what the matches announce (``scorekeeper.matches.signals``),
connected in ``RatingsConfig.ready``."""

from __future__ import annotations

from django.conf import settings

from scorekeeper.matches import signals

from .services import rating_event_record, rating_player_merged


def match_changed_record(sender, *, match, kind: str, **kwargs) -> None:
    """A change to what ``match`` counts for (``kind``: finish, correct, void, reopen, confirm,
    unconfirm, the values of ``RatingEvent.Kind``) becomes a rating event of its pool, with its
    outbox message, in the transaction of the write that sent it.

    Whether a finished match is confirmed matters only while RATINGS_WAIT_FOR_CONFIRMATION is
    on: otherwise a confirmation changes nothing the pool rates, and is no event."""
    if kind in (signals.CONFIRM, signals.UNCONFIRM) and not settings.RATINGS_WAIT_FOR_CONFIRMATION:
        return
    rating_event_record(match=match, kind=kind)


def player_merged_replay(sender, *, player, into, games, by=None, **kwargs):
    """A duplicate merged into ``into``: his ratings go and the pools of ``games`` (where his
    finished matches are) are recomputed, after the merge commits. Returns the recompute job
    (the merge's caller shows it), or None."""
    return rating_player_merged(player=player, into=into, games=games, by=by)
