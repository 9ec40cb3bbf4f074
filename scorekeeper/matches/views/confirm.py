"""The pages of the other side's answers and of the player ↔ account link (the rules:
scorekeeper/matches/confirmations.py and player_accounts.py; docs/pages.md, "Confirmation by the other side").

Plain forms that work without JavaScript: a hand's page and a match's page post here (their
buttons come from the ``confirmations`` template tags), and each answer comes back to the page it
was given on with a message; a refusal is said in words there, never a 500.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from .. import confirmations, errors, player_accounts
from ..forms import PlayerClaimForm
from ..models import Match
from .matches import scorer_required


def _id(value: str | None) -> int | None:
    """A player id from a form (None when none was sent); anything else is refused."""
    if value is None or value == "":
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 18:
        raise errors.Invalid(_("choose a player of this match"), field="player", code="player_not_seated")
    return int(value)


@require_POST
@login_required
def hand_answer(request, pk: int, number: int):
    """Confirm or dispute hand ``number``: as the reader's own player, or at the table on a
    scorer's device (``confirm_player`` / ``dispute_player`` name who answers)."""
    match = get_object_or_404(Match, pk=pk)
    data = request.POST
    back = match.get_absolute_url() if data.get("back") == "match" else None
    try:
        version = _id(data.get("hand_version"))
        common = {"match": match, "number": number, "by": request.user, "hand_version": version}
        if data.get("confirm_player"):
            row = confirmations.hand_confirm(player=_id(data["confirm_player"]), **common)
        elif data.get("answer") == "dispute":
            row = confirmations.hand_dispute(
                player=_id(data.get("dispute_player")), reason=data.get("reason", ""), **common
            )
        elif data.get("answer") == "confirm":
            row = confirmations.hand_confirm(**common)
        else:
            raise errors.Invalid(_("choose to confirm or to dispute the hand"), field="answer")
    except errors.NotFound:
        raise Http404(f"the match has no hand {number}") from None
    except errors.NotAllowed as exc:
        raise PermissionDenied(exc.message) from None
    except errors.DomainError as exc:
        messages.error(request, exc.message)
    else:
        params = {"number": row.hand.number, "name": row.player.name}
        if row.answer == row.Answer.CONFIRMED and row.at_table:
            messages.success(request, _("Hand %(number)s confirmed at the table by %(name)s.") % params)
        elif row.answer == row.Answer.CONFIRMED:
            messages.success(request, _("Hand %(number)s confirmed by %(name)s.") % params)
        else:
            messages.warning(
                request, _("Hand %(number)s disputed by %(name)s: the scorers will see why.") % params
            )
    return redirect(back or f"{match.get_absolute_url()}hands/{number}/#confirmation")


@require_POST
@never_cache  # the code is shown this once
@scorer_required
def player_claim_code(request, match: Match, player: int):
    """A scorer gives a seated player a one-time code to link his account: shown once, here."""
    try:
        row = player_accounts.player_claim_code_create(match=match, player=player, by=request.user)
    except errors.NotFound:
        raise Http404(f"player {player} does not play in this match") from None
    except errors.DomainError as exc:
        messages.error(request, exc.message)
        return redirect(match)
    return render(request, "matches/claim_code.html", {"match": match, "row": row})


@login_required
def player_claim(request):
    """A user types the code a scorer gave him: his account is then his player's."""
    form = PlayerClaimForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                player = player_accounts.player_claim(code=form.cleaned_data["code"], by=request.user)
            except errors.TooManyAttempts as exc:
                form.add_error("code", exc.message)
                status = 429
            except errors.DomainError as exc:
                form.add_error("code", exc.message)
                status = 409 if isinstance(exc, errors.Conflict) else 400
            else:
                messages.success(
                    request,
                    _("Your account is now %(name)s's: you can confirm the hands of his matches.")
                    % {"name": player.name},
                )
                return redirect(player)
    return render(request, "matches/player_claim.html", {"form": form}, status=status)
