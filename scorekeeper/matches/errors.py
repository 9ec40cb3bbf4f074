"""Domain errors raised by the services, with stable machine codes (their common classes,
``DomainError``, ``Invalid``, ``NotFound`` and ``Conflict``, are ``scorekeeper.errors``'s and
stay importable from here).

Interfaces map them by class (the API: ``api/exceptions.py``): ``Invalid`` → 400,
``NotSignedIn`` → 401, ``NotAllowed`` → 403, ``NotFound`` → 404, ``Conflict`` → 409,
``TooManyAttempts`` → 429 (and the
idempotency app's ``IdempotencyKeyReused``, a ``DomainError`` too, → 422).
``code`` never changes once published; ``field`` is a path into the request
("options.target", "record.tricks[3]").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scorekeeper.errors import Conflict, DomainError, Invalid, NotAllowed, NotFound, NotSignedIn  # noqa: F401

from . import i18n

if TYPE_CHECKING:
    from scorekeeper.rules import OptionsInvalid, UnknownGame


class GameUnknown(Invalid):
    code = "game_unknown"


def game_unknown(exc: UnknownGame, *, field: str = "game", not_found: bool = False) -> DomainError:
    """The engine's ``UnknownGame`` in the request's language: 400 ``game_unknown`` for a game
    named in the request, or with ``not_found`` a 404 of that code (the game is the URL's)."""
    message = i18n.render(*exc.text)
    if not_found:
        return NotFound(message, field=field, code="game_unknown")
    return GameUnknown(message, field=field)


class OptionsRejected(Invalid):
    """Preset or option overrides refused by the engine; ``problems`` lists each one."""

    code = "options_invalid"


def options_rejected(exc: OptionsInvalid) -> OptionsRejected:
    """The engine's ``OptionsInvalid`` as the error every interface shows: ``field`` is the
    first problem's path, ``problems`` the engine's own, ``errors`` each as an error item."""
    problems = [p.to_dict() for p in exc.problems]
    return OptionsRejected(
        str(exc), field=problems[0]["path"], problems=problems, errors=rule_errors(problems, "")
    )


class SeatsInvalid(Invalid):
    """Wrong number of players for the game, a player twice, or bad teams."""

    code = "seats_invalid"


class ReasonRequired(Invalid):
    code = "reason_required"


def record_field(path: str, prefix: str = "record") -> str:
    """The request field of an engine path: ``"tricks[3]"`` → ``"record.tricks[3]"``.

    ``state`` and ``seats`` are the engine's own inputs (spec 1.5), not parts of the record.
    """
    if path in ("state", "seats") or not prefix:
        return path
    return f"{prefix}.{path}" if path else prefix


def rule_errors(problems: list[dict[str, Any]], prefix: str = "record") -> list[dict[str, Any]]:
    """Engine problems (``code``, ``path``, ``message``) as error-body items: ``field`` added."""
    return [{**p, "field": record_field(p.get("path", ""), prefix)} for p in problems]


class HandRefused(Invalid):
    """The service refuses to store the hand: the engine found errors or mismatches (the
    engine's own ``scorekeeper.rules.HandRejected`` is what ``Ruleset.score`` raises);
    ``evaluation`` is its full result (spec 1.5).

    ``code`` is ``hand_invalid`` for errors (never recordable) and ``score_mismatch`` for
    mismatches (recordable as disputed with ``accept_declared`` and a reason).
    """

    code = "hand_invalid"

    def __init__(self, message: str, *, evaluation: dict[str, Any], code: str, field: str = "record"):
        super().__init__(
            message,
            field=field,
            code=code,
            errors=rule_errors(evaluation["errors"]),
            mismatches=evaluation["mismatches"],
            evaluation=evaluation,
        )
        self.evaluation = evaluation


class ClaimCodeInvalid(Invalid):
    """A code that is no code of this site (``claim_code_invalid``) or is past its expiry
    (``claim_code_expired``)."""

    code = "claim_code_invalid"


# -- 429 ------------------------------------------------------------------------------
class TooManyAttempts(DomainError):
    """Too many failed tries of something guessable (an account code) in a while; ``retry_after``
    says how many seconds to wait."""

    code = "claim_throttled"


class UserUnknown(Invalid):
    code = "user_unknown"


# -- 409: the request is fine but the match is not in a state that accepts it ----------
class VersionConflict(Conflict):
    """The client's ``version`` is stale: someone else wrote first. Carries what is current."""

    code = "version_conflict"


class MatchOver(Conflict):
    code = "match_over"


class MatchVoid(Conflict):
    code = "match_void"


class AlreadyLinked(Conflict):
    """The player already has an account, or the user already is a player
    (``player_already_linked``, ``user_already_linked``)."""

    code = "player_already_linked"


class AnswerConflict(Conflict):
    """The hand's version already has this answer (``already_confirmed``, ``already_disputed``),
    or the answer names a version that is no longer current (``hand_version_conflict``)."""

    code = "already_confirmed"


class ClaimCodeUsed(Conflict):
    code = "claim_code_used"


class StatusConflict(Conflict):
    """A void of a void match, a reopen of a match that is not void."""

    code = "status_conflict"
