"""Schemathesis's hook and this project's one extra check, for every run over the API schema.

``schemathesis.toml`` (the project's root) names this module, so a ``schemathesis run … -c all``
from there loads them as tests/api/test_schemathesis.py does.

Schema-valid requests that the server still refuses with a 400 are the rules' business: a hand
record judged against the match's state, player ids that are no player, a username that is no
user, options a game does not have. OpenAPI cannot say those, so ``schemathesis.toml`` lets
``positive_data_acceptance`` take a 400 on the operations that judge them, and the check here
holds each such 400 to the codes below: a schema-valid request refused for its shape (a type,
a bound, a null, a missing field) still fails the run.
"""

from __future__ import annotations

import json
import re
import uuid

import schemathesis

#: The codes a schema-valid request may be refused with (400), by operation.
RULE_REJECTIONS: dict[str, frozenset[str]] = {
    # Credentials that are no user's (schemathesis' own rule for sign-in operations).
    "POST /api/v1/auth/token": frozenset({"authorization"}),
    # date_from after date_to.
    "GET /api/v1/matches": frozenset({"date_range"}),
    # A season whose "to" is before its "from", or that is longer than ten years.
    "GET /api/v1/leaderboards/{game}/season": frozenset({"period_inverted", "period_too_long"}),
    "POST /api/v1/matches": frozenset(
        {
            "player_unknown",
            "player_merged",
            "seat_count",
            "options_invalid",
            "seats_invalid",
            # A date played in the future or before 1900: a date-time the schema cannot bound.
            "played_at_future",
            "played_at_too_early",
        }
    ),
    "POST /api/v1/matches/{id}/hands": frozenset(
        {"hand_invalid", "score_mismatch", "reason_required", "version_required", "version_ambiguous"}
    ),
    "POST /api/v1/matches/{id}/hands/{number}/corrections": frozenset(
        {"hand_invalid", "score_mismatch", "reason_required", "version_required", "version_ambiguous"}
    ),
    "POST /api/v1/matches/{id}/void": frozenset({"version_ambiguous"}),
    "POST /api/v1/matches/{id}/reopen": frozenset({"version_ambiguous"}),
    "POST /api/v1/matches/{id}/scorers": frozenset({"user_unknown"}),
    # A player id that plays no seat of the match (at the table).
    "POST /api/v1/matches/{id}/hands/{number}/confirm": frozenset({"player_not_seated"}),
    "POST /api/v1/matches/{id}/hands/{number}/dispute": frozenset({"player_not_seated"}),
    # A code of the right shape that is no live code.
    "POST /api/v1/players/claim": frozenset({"claim_code_invalid", "claim_code_expired"}),
    "POST /api/v1/matches/import": frozenset(
        {
            "player_unknown",
            "player_ambiguous",
            # The same player id on two seats: the objects differ, so no uniqueItems can say it.
            "player_twice",
            "name_missing",
            "seat_count",
            "seats_invalid",
            "options_invalid",
            "hand_invalid",
            "score_mismatch",
            "reason_required",
            # As starting a match (the import does): a date-time the schema cannot bound.
            "played_at_future",
            "played_at_too_early",
        }
    ),
    # Into himself, or into an id that is no player.
    "POST /api/v1/players/{id}/merge": frozenset({"merge_into_self", "player_unknown"}),
    "POST /api/v1/predict": frozenset({"player_unknown", "seat_count", "teams_length", "teams_one_side"}),
    "POST /api/v1/rules/{game}/score": frozenset({"options_invalid"}),
    # A name of spaces only; a time zone this machine does not know (the schema cannot list
    # them); house rules for a game that is none, or that the engine refuses.
    "POST /api/v1/clubs": frozenset(
        {"name_missing", "time_zone_unknown", "game_unknown", "house_rules_invalid"}
    ),
    "PATCH /api/v1/clubs/{slug}": frozenset(
        {"name_missing", "time_zone_unknown", "game_unknown", "house_rules_invalid"}
    ),
    "POST /api/v1/clubs/{slug}/members": frozenset({"user_unknown"}),
    # An event's choices that depend on the game (its seat counts) and on each other; a league's
    # first day too late for its fixtures (a date the schema cannot bound).
    "POST /api/v1/clubs/{slug}/events": frozenset(
        {
            "table_size_invalid",
            "format_for_two",
            "format_for_tables",
            "rounds_required",
            "points_invalid",
            "starts_on_invalid",
        }
    ),
    # The pairing judged against the event: its format, its entrants, the tables still playing.
    "POST /api/v1/events/{id}/rounds": frozenset(
        {
            "tables_required",
            "tables_not_taken",
            "table_size_invalid",
            "not_an_entrant",
            "too_few_entrants",
            "tables_do_not_fit",
            "entrant_twice",
        }
    ),
    # Players who have no seat in the round, or sit at the same table.
    "POST /api/v1/events/{id}/rounds/{number}/swap": frozenset({"same_player", "not_seated", "same_table"}),
    # Places for another number of seats than the table has.
    "POST /api/v1/events/{id}/rounds/{number}/tables/{table}/forfeit": frozenset(
        {"places_invalid", "reason_required"}
    ),
}
#: A rule rejection whose ``errors`` are the engine's problems, not the request's shape.
ENGINE_REJECTIONS = frozenset({"hand_invalid", "score_mismatch", "options_invalid"})
#: The body's limits (api/parsers.py), which hold at any depth. The schema gives every integer
#: it names the 64-bit bounds and no string is drawn with a U+0000 (schemathesis.toml), so a
#: schema-valid body breaks them only within a free-form value (a record, a state, options) or
#: a property no schema names (the server ignores it, but parses it first): neither can OpenAPI
#: 3.0 bound.
BODY_LIMITS = frozenset({"number_out_of_range", "string_invalid", "too_deep"})

#: What scorekeeper.idempotency takes as a key (api/schema.py's pattern).
_KEY = re.compile(r"[ \t]*[!-~](?:[ -~]{0,253}[!-~])?[ \t]*")


@schemathesis.hook
def before_call(ctx, case, kwargs):
    """A fresh Idempotency-Key for every request that sends a valid one, as a client does.

    Hypothesis draws the same few keys again and again with other bodies (every phase), and the
    same key with another request is a 422 by design; an invalid key is left as it is, to be
    refused.
    """
    key = (case.headers or {}).get("Idempotency-Key")
    if isinstance(key, str) and _KEY.fullmatch(key):
        case.headers["Idempotency-Key"] = str(uuid.uuid4())


@schemathesis.check
def valid_requests_are_refused_only_by_the_rules(ctx, response, case):
    """A schema-valid request answered 400 names one of the operation's rule rejections."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    try:
        body = json.loads(response.content)
    except ValueError:
        raise AssertionError("a 400 without the JSON error body") from None
    allowed = RULE_REJECTIONS.get(f"{case.method.upper()} {case.path}", frozenset())
    code = body.get("code")
    items = [] if code in ENGINE_REJECTIONS else body.get("errors") or []
    refused = {(code, body.get("field", ""))} | {(e.get("code"), e.get("field", "")) for e in items}
    shape = sorted(f"{c} at {f!r}" for c, f in refused if c not in allowed | BODY_LIMITS)
    if shape:
        raise AssertionError(
            f"a schema-valid request was refused for its shape, not by the rules: {', '.join(shape)}"
        )
    return None
