"""Typed options per game, the ``classic`` and ``seed`` presets (spec 1.2).

A game's options are a frozen dataclass whose fields are declared with
:func:`option`; the metadata drives validation and the catalog, words for people included
(each option's label and help, the words for its choices), marked for translation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from . import messages
from .errors import OptionsInvalid
from .fields import INT_MAX, describe, is_int, printable_key
from .messages import Message, Term
from .result import Problem

PRESETS = ("classic", "seed")
EFFECTS = ("scoring", "check", "recorded")
_SAME = object()


def option(
    classic: Any,
    *,
    seed: Any = _SAME,
    effect: str,
    label: str | None = None,
    help: str,
    choices: tuple[Any, ...] | Mapping[Any, str | Term] | None = None,
    minimum: int | None = None,
    auto: bool = False,
) -> Any:
    """Declare one option. ``label`` names it for people and ``help`` says what it does (texts
    marked with ``messages.gettext_noop``; an option without a label, a test game's, is named
    by its field name). ``choices`` lists allowed values (strings or ints), as a mapping of
    each to its words for people when a value is not a number (a ``gettext_noop`` text, or a
    ``pgettext_lazy`` word that needs a context); ``minimum`` bounds a free integer (1 when not
    given; at most ``INT_MAX``, as every integer of the engine); ``auto`` also admits the
    string ``"auto"``."""
    assert effect in EFFECTS
    meta = {
        "classic": classic,
        "seed": classic if seed is _SAME else seed,
        "effect": effect,
        "label": label,
        "help": help,
        "choices": None if choices is None else tuple(choices),
        "choice_labels": dict(choices) if isinstance(choices, Mapping) else {},
        "minimum": minimum,
        "auto": auto,
    }
    return dataclasses.field(default=classic, metadata=meta)


def name_label(name: str) -> str:
    """The label of an option declared without one: its field name as words."""
    return name.replace("_", " ").capitalize()


def choice_words(value: Any) -> str:
    """The words of a choice declared without any (a number stands for itself)."""
    return str(value).replace("_", " ")


def _kind(meta: Mapping[str, Any], default: Any) -> str:
    if isinstance(default, bool):
        return "bool"
    if meta["auto"]:
        return "auto_int"
    if meta["choices"] is not None:
        return "enum"
    return "int"


@dataclass(frozen=True)
class GameOptions:
    """Base of every game's options dataclass."""

    presets: ClassVar[tuple[str, ...]] = PRESETS

    @classmethod
    def specs(
        cls,
        *,
        gettext: Callable[[str], str] = messages.gettext,
        pgettext: Callable[[str, str], str] = messages.pgettext,
    ) -> list[dict[str, Any]]:
        """Catalog description of every option, in declaration order; its help, label and
        choices' words (``choice_labels``, in the order of ``choices``) in the language of
        the functions given (English unless given)."""

        def say(text: str | Term) -> str:
            return messages.render_text(text, gettext=gettext, pgettext=pgettext)

        out = []
        for f in dataclasses.fields(cls):
            meta = f.metadata
            spec = {
                "name": f.name,
                "type": _kind(meta, meta["classic"]),
                "effect": meta["effect"],
                "help": say(meta["help"]),
                "defaults": {"classic": meta["classic"], "seed": meta["seed"]},
            }
            if meta["choices"] is not None:
                spec["choices"] = list(meta["choices"])
            if spec["type"] in ("int", "auto_int"):
                spec["minimum"] = 1 if meta["minimum"] is None else meta["minimum"]
                spec["maximum"] = INT_MAX
            spec["label"] = say(meta["label"] or name_label(f.name))
            if meta["choices"] is not None:
                words = meta["choice_labels"]
                spec["choice_labels"] = [
                    say(words[c]) if c in words else choice_words(c) for c in meta["choices"]
                ]
            out.append(spec)
        return out

    @classmethod
    def preset(cls, name: str = "classic") -> Self:
        return cls.resolve(name)

    @classmethod
    def resolve(cls, preset: Any = "classic", overrides: Any = None) -> Self:
        """The preset's values with ``overrides`` applied one by one; raises OptionsInvalid."""
        problems: list[Problem] = []
        if preset is None:
            preset = "classic"
        if preset not in PRESETS:
            params = {"value": describe(preset)}
            problems.append(Problem("preset_invalid", "preset", "option.preset_invalid", params))
            raise OptionsInvalid(problems)
        if overrides is None:
            overrides = {}
        if not isinstance(overrides, dict):
            raise OptionsInvalid([Problem("field_invalid", "options", "option.not_an_object")])
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values = {name: f.metadata[preset] for name, f in fields.items()}
        for name, value in overrides.items():
            f = fields.get(name)
            if f is None:
                shown = printable_key(name) if isinstance(name, str) else repr(name)
                problems.append(
                    Problem("option_unknown", f"options.{shown}", "option.unknown", {"name": shown})
                )
                continue
            path = f"options.{name}"
            message = _check_value(f.metadata, value)
            if message:
                params = {"name": name, **message.params}
                problems.append(Problem("option_invalid", path, message.code, params))
                continue
            values[name] = value
        if problems:
            raise OptionsInvalid(problems)
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _check_value(meta: Mapping[str, Any], value: Any) -> Message | None:
    """Why ``value`` is not acceptable for the option described by ``meta`` (its message
    without the option's ``name``), or None."""
    kind = _kind(meta, meta["classic"])
    if kind == "bool":
        return None if isinstance(value, bool) else Message("option.not_boolean", {"value": describe(value)})
    if kind == "enum":
        if value in meta["choices"] and type(value) is type(meta["classic"]):
            return None
        allowed = ", ".join(str(c) for c in meta["choices"])
        return Message("option.not_a_choice", {"allowed": allowed, "value": describe(value)})
    if kind == "auto_int" and value == "auto":
        return None
    minimum = meta["minimum"] if meta["minimum"] is not None else 1
    if is_int(value) and minimum <= value <= INT_MAX:
        return None
    if is_int(value) and value > INT_MAX:
        return Message("option.integer_too_large", {"minimum": minimum, "maximum": INT_MAX})
    code = "option.not_auto_or_integer" if kind == "auto_int" else "option.not_integer"
    return Message(code, {"minimum": minimum, "value": describe(value)})
