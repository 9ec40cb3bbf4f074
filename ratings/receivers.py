"""The ratings' receivers of what the matches announce (``scorekeeper.matches.signals``),
connected in ``RatingsConfig.ready``."""

from __future__ import annotations

from .services import rating_event_record


def match_changed_record(sender, *, match, kind: str, **kwargs) -> None:
    """A change to what ``match`` counts for (``kind``: finish, correct, void, reopen, the
    values of ``RatingEvent.Kind``) becomes a rating event of its pool, with its outbox message,
    in the transaction of the write that sent it."""
    rating_event_record(match=match, kind=kind)
