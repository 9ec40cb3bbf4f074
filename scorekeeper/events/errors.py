"""The events' errors: ``ValueError`` subclasses with stable codes, as the rules engine's."""

from __future__ import annotations


class EventError(ValueError):
    code = "event_error"

    def __init__(self, message: str, *, code: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code


class PairingError(EventError):
    code = "pairing_error"


class StandingsError(EventError):
    code = "standings_error"
