"""The other side's answers on the pages: what a hand's page and a match's page offer the reader
(scorekeeper/matches/confirmations.py has the rules; docs/pages.md, "Confirmation by the other
side"). Template tags, so that the pages' views stay as they are: each reads the request's user
from the template's context."""

from __future__ import annotations

from typing import Any

from django import template

from .. import selectors
from ..models import Hand, Match

register = template.Library()


def _answerers(match: Match, hand: Hand, sides: dict) -> list:
    """The seated players who may answer ``hand``: those of every side but its recorder's."""
    recorder = selectors.hand_recorder_side(match=match, hand=hand, sides=sides)
    return [
        seat.player for seat in match.seats.all() if recorder is None or sides[seat.player_id] != recorder
    ]


def _viewer(context) -> tuple[Any, bool]:
    """(the reader's linked player or None, whether he is a scorer), from the page's context."""
    request = context.get("request")
    user = getattr(request, "user", None)
    match = context["match"]
    scorer = selectors.user_scores_match(user=user, match=match)
    return selectors.seated_player_of(match=match, user=user), scorer


@register.inclusion_tag("matches/_hand_confirmation.html", takes_context=True)
def hand_confirmation(context, hand: Hand) -> dict[str, Any]:
    """A hand's answer, and the buttons of whoever may give one: the reader's own (a player of
    the other side, signed in), or one per player of the other side on a scorer's device."""
    match = context["match"]
    answer = selectors.hand_answers(match=match).get(hand.pk)
    own, scorer = _viewer(context)
    answerers = _answerers(match, hand, selectors.match_sides(match=match)) if match.status != "void" else []
    mine = own if own is not None and own in answerers else None
    at_table = [p for p in answerers if p != own] if scorer else []
    return {
        "match": match,
        "hand": hand,
        "answer": answer,
        "mine": mine,
        "at_table": at_table,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("matches/_match_confirmations.html", takes_context=True)
def match_confirmations(context) -> dict[str, Any]:
    """On a match's page: the hands waiting for the reader's answer (he plays on another side
    than their recorder), each with its Confirm button; and, for a scorer, the players without an
    account, each with the button that gives him a code to link one."""
    match = context["match"]
    own, scorer = _viewer(context)
    waiting = []
    if own is not None and match.status != "void":
        sides = selectors.match_sides(match=match)
        answers = selectors.hand_answers(match=match)
        for hand in selectors.match_current_hands(match=match).select_related("recorded_by"):
            if answers.get(hand.pk, {}).get("answer") is None and own in _answerers(match, hand, sides):
                waiting.append(hand)
    unlinked = [seat.player for seat in match.seats.all() if seat.player.user_id is None] if scorer else []
    return {
        "match": match,
        "waiting": waiting,
        "unlinked": unlinked,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("matches/_version_answers.html")
def version_answers(hand: Hand) -> dict[str, Any]:
    """Every answer the other side gave to this version of a hand, oldest first (a hand's
    history: nothing is overwritten, a later answer replaced an earlier one on the sheet)."""
    return {"answers": hand.confirmations.select_related("player", "by").order_by("at", "id")}
