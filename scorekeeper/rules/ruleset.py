"""The ruleset base class and the registry of rulesets by game key."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self

from . import messages
from .errors import HandRejected, UnknownGame
from .fields import INT_MAX, INT_MIN, limit_problems
from .messages import Message
from .options import GameOptions
from .result import Evaluation, Problem

RULESETS: dict[str, type[Ruleset]] = {}


def register(cls: type[Ruleset]) -> type[Ruleset]:
    RULESETS[cls.key] = cls
    return cls


def find_ruleset(key: str) -> type[Ruleset]:
    """The ruleset class for a game key; raises UnknownGame (a ValueError)."""
    try:
        return RULESETS[key]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULESETS))
        raise UnknownGame(Message("game.unknown", {"key": repr(key), "known": known})) from None


def points_more_is_better(points: Any, fewer_better: bool) -> list[float] | None:
    """``points`` as floats, negated if ``fewer_better``; None unless a list of finite numbers."""
    if not isinstance(points, list) or not points:
        return None
    out = []
    for value in points:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return None
        out.append(-float(value) if fewer_better else float(value))
    return out


def state_key_problems(state: dict[str, Any], keys: tuple[str, ...], *, closed: bool = True) -> list[Message]:
    """The state's missing keys and, when ``closed``, its keys the game does not know."""
    problems = [Message("state.key_missing", {"key": key}) for key in keys if key not in state]
    if closed:
        problems += [Message("state.key_unknown", {"key": str(key)}) for key in state if key not in keys]
    return problems


class Ruleset:
    """One game with resolved options and a seat count.

    Subclasses set the class attributes and implement ``initial_state``,
    ``state_problems`` and ``_evaluate``; ``evaluate`` never raises on bad input,
    ``check`` lists every blocking problem, ``score`` raises ``HandRejected``.
    """

    key: ClassVar[str]
    title: ClassVar[str]
    seat_counts: ClassVar[tuple[int, ...]]
    Options: ClassVar[type[GameOptions]]
    #: JSON-schema-like description of a hand record, for the catalog.
    record_schema: ClassVar[dict[str, Any]] = {}
    #: Partnership games: the team of each seat position, fixed by the rules; None when
    #: every player plays for themselves. The one place the rest of the service learns teams.
    partnerships: ClassVar[tuple[int, ...] | None] = None
    #: The keys of a hand record that hold the players' declared scores, one value per seat
    #: (spec 1.3: ``declared``; a game that counts something else names its own).
    declared_keys: ClassVar[tuple[str, ...]] = ("declared",)
    #: The key of a finished match's result that holds each seat's (in a partnership game,
    #: each team's) points, and whether fewer of them are better (cul's banks).
    points_key: ClassVar[str] = "totals"
    fewer_points_better: ClassVar[bool] = False

    @classmethod
    def match_points(cls, result: Any) -> list[float] | None:
        """Each seat's (or team's) points in a finished match's ``result``, more is better (a
        game where fewer are better has them negated): what the ratings weigh beside the
        places. None when the result holds none (or not as a list of numbers)."""
        if not isinstance(result, dict):
            return None
        return points_more_is_better(result.get(cls.points_key), cls.fewer_points_better)

    @classmethod
    def side_points(cls, points: list[float] | None, seats: int) -> tuple[float, ...] | None:
        """``match_points`` per side of a match of ``seats`` seats, the sides as the ratings
        take them (each seat its own side, or a partnership game's teams in team order): one
        value per side as they are, or one per seat, a team taking its first seat's; None when
        they fit neither."""
        teams = cls.partnerships if cls.partnerships and len(cls.partnerships) == seats else None
        sides = len(set(teams)) if teams else seats
        if points is None:
            return None
        if len(points) == sides:
            return tuple(points)
        if teams and len(points) == seats:
            return tuple(points[teams.index(team)] for team in sorted(set(teams)))
        return None

    def __init__(self, options: GameOptions | None = None, seats: int | None = None):
        self.options = options if options is not None else self.Options.preset("classic")
        self.seats = self.seat_counts[0] if seats is None else seats

    @classmethod
    def create(
        cls, preset: str = "classic", options: dict[str, Any] | None = None, seats: int | None = None
    ) -> Self:
        """Resolve ``preset`` + ``options`` overrides; raises OptionsInvalid."""
        return cls(cls.Options.resolve(preset, options), seats)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r}, seats={self.seats})"

    # -- to implement ------------------------------------------------------
    def initial_state(self) -> dict[str, Any]:
        raise NotImplementedError

    def state_problems(self, state: dict[str, Any]) -> Sequence[str | Message]:
        """Why ``state`` is malformed or breaks the game's invariants (empty if fine): catalog
        messages, or plain texts (a test's fake game writes English)."""
        raise NotImplementedError

    def _evaluate(
        self, state: dict[str, Any], record: dict[str, Any], ev: Evaluation, accept_declared: bool
    ) -> None:
        """Validate and score ``record`` into ``ev`` (spec 1.4 steps 2–6).

        With ``accept_declared`` the state after the hand is built from the declared
        values when there are mismatches (spec 1.6).
        """
        raise NotImplementedError

    # -- public API ----------------------------------------------------------
    def evaluate(self, state: Any, record: Any, *, accept_declared: bool = False) -> Evaluation:
        ev = Evaluation()
        if self.seats not in self.seat_counts:
            allowed = ", ".join(map(str, self.seat_counts))
            ev.error(
                "seat_count", "seats", "game.seat_count", game=self.key, allowed=allowed, seats=self.seats
            )
            return ev
        if state is None:
            state = self.initial_state()
        elif not isinstance(state, dict):
            ev.error("state_invalid", "state", "state.not_an_object")
            return ev
        else:
            # The limits first: a game's own checks may count with the state's numbers.
            ev.errors.extend(limit_problems(state, "state"))
            if ev.errors:
                return ev
            reasons = self.state_problems(state)
            if reasons:
                ev.error("state_invalid", "state", "state.problems", reasons=reasons)
                return ev
        if state.get("over"):
            ev.error("match_already_over", "state", "state.match_over")
            return ev
        if not isinstance(record, dict):
            ev.error("field_invalid", "", "field.record_not_object")
            return ev
        ev.errors.extend(limit_problems(record))
        if ev.errors:
            return ev
        self._evaluate(state, record, ev, accept_declared)
        if not ev.errors:
            self._check_totals(ev)
        if ev.errors:
            ev.discard_scoring()
        return ev

    @staticmethod
    def _check_totals(ev: Evaluation) -> None:
        """Scores and totals stay 32-bit too: declared scores accepted at the limit, or a dry
        run's state near it, could carry a total past it, and the next hand's state with it."""
        if limit_problems([ev.scores, ev.state_after]):
            ev.error("total_out_of_range", "", "limit.total_out_of_range", minimum=INT_MIN, maximum=INT_MAX)

    def check(self, state: Any, record: Any) -> list[Problem]:
        """Every problem that stops the hand from being recorded: errors, then mismatches."""
        ev = self.evaluate(state, record)
        return ev.errors + [m.as_problem() for m in ev.mismatches]

    def score(self, state: Any, record: Any) -> Evaluation:
        """The evaluation of a valid hand; raises HandRejected otherwise."""
        ev = self.evaluate(state, record)
        if not ev.valid:
            raise HandRejected(ev)
        return ev

    def play(self, records: list[Any], state: Any = None) -> list[Evaluation]:
        """Score a sequence of hands from ``state``; raises HandRejected at the first bad one."""
        out = []
        for record in records:
            ev = self.score(state, record)
            out.append(ev)
            state = ev.state_after
        return out

    @classmethod
    def describe(
        cls,
        *,
        gettext: Callable[[str], str] = messages.gettext,
        pgettext: Callable[[str, str], str] = messages.pgettext,
    ) -> dict[str, Any]:
        """Catalog entry: seat counts, options with their defaults per preset, record schema;
        the title and the options' words in the language of the functions given (English
        unless given), as ``messages.render`` renders a message."""
        return {
            "key": cls.key,
            "title": messages.render_text(cls.title, gettext=gettext, pgettext=pgettext),
            "seats": list(cls.seat_counts),
            "presets": list(GameOptions.presets),
            "options": cls.Options.specs(gettext=gettext, pgettext=pgettext),
            "record_schema": cls.record_schema,
        }
