"""The web pages, made for a phone at the card table.

Anyone may read (home, score sheets, hands and their history, players). Signed-in users
create matches; only a match's scorers record, correct, void or reopen it: the others get
read-only pages, and a 403 page if they post anyway. Every write goes through the services;
their domain errors become messages on the page, and a rejected hand is shown again exactly
as typed, with the engine's errors next to their fields (never lose a hand).

Optimistic concurrency as in the API: each write form carries the match ``version``; a stale
one re-shows the form with what happened meanwhile and the current score sheet, and takes
the new version so that sending again is a deliberate act.
"""

from __future__ import annotations

import json
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_noop, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorekeeper.clubs.models import RANKS, Club, Role
from scorekeeper.clubs.selectors import is_site_wide, open_memberships
from scorekeeper.rules import RULESETS, UnknownGame, find_ruleset

from .. import errors, i18n, selectors, services
from ..forms import HAND_FORMS, MatchCreateForm, ReasonForm, ScorerAddForm, hand_form_class
from ..models import AuditEntry, Match
from ..results import result_summary
from ..terms import PRESET_LABELS, PRESET_NAMES, breakdown_item, describe_game, option_rows


# -- reading ---------------------------------------------------------------------------------
def home(request):
    context = {
        "matches": selectors.match_list()[:20],
        "players": selectors.player_list()[:50],
    }
    if request.user.is_authenticated:
        # At the table the first thing wanted is the match being scored.
        scoring = selectors.match_list(status=Match.Status.IN_PROGRESS).filter(scorers=request.user)
        context["scoring"] = scoring[:10]
    return render(request, "matches/home.html", context)


def match_detail(request, pk: int):
    match = get_object_or_404(selectors.match_list(), pk=pk)
    context = {
        "match": match,
        "match_title": match.display_title,  # said twice, and each time its names and day made again
        **sheet_context(match),
        "can_write": is_scorer(request.user, match),
        "scorers": match.scorers.all(),  # read with the match, by user name (selectors.match_list)
        "scorer_form": ScorerAddForm(),
        "preset_label": PRESET_LABELS.get(match.preset, match.preset),
        "preset_name": PRESET_NAMES.get(match.preset, match.preset),
        "options": option_rows(match.game, match.options),
    }
    return render(request, "matches/match_detail.html", context)


def sheet_context(match: Match) -> dict[str, Any]:
    """The score sheet with one cell per seat and hand, the dealer of each hand, each hand's
    notes said once, and the result in words when the match is over."""
    sheet = selectors.match_score_sheet(match=match)
    names = [seat["name"] for seat in sheet["seats"]]
    n = len(names)
    # Numbers as text and each hand's link made here, once: a 60-hand sheet has 500 cells, and
    # the template's per-value localisation and URL reversing were most of its time.
    hand_url = reverse("hand-detail", args=[match.pk, 0]).removesuffix("0/")
    for hand in sheet["hands"]:
        # A seat's claim is shown only where it differs from the rules: cul declares banks,
        # not the hand's score, so a plain declared column would mislead there.
        claims = {m["seat"]: m["declared"] for m in hand["mismatches"]}
        hand["label"] = str(hand["number"])
        hand["url"] = f"{hand_url}{hand['label']}/"
        hand["cells"] = [
            {
                "computed": _text(_at(hand["computed"], i), "–"),
                "running": _text(_at(hand["running"], i), ""),
                "claim": _text(claims.get(i), None),
            }
            for i in range(n)
        ]
        dealer = hand["dealer"]
        hand["dealer_name"] = names[dealer] if isinstance(dealer, int) and 0 <= dealer < n else None
        # The cell already shows the claim beside the rules' score: the note says why, once.
        hand["notes"] = [
            {"who": names[m["seat"]] if _at(names, m.get("seat")) else "?", "why": _explanation(m)}
            for m in hand["mismatches"]
        ]
        hand["has_notes"] = bool(hand["errors"] or hand["notes"] or hand["reason"])
    sheet["columns"] = n + 1
    return {
        "sheet": sheet,
        "result": result_summary(game=match.game, result=sheet["result"], seats=sheet["seats"],
                                 options=match.options),
    }  # fmt: skip


def _text(value: Any, none: str | None) -> str | None:
    return none if value is None else str(value)


def _at(values, i: int):
    """The i-th per-seat value, or None when the hand has none (errors) or another shape."""
    ok = isinstance(values, list) and isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(values)
    return values[i] if ok else None


def hand_detail(request, pk: int, number: int):
    hand = selectors.match_hand(pk=pk, number=number)
    if hand is None:
        raise Http404(f"there is no match {pk} or it has no hand {number}")
    match = hand.match
    names = _seat_names(match)
    after = selectors.running_values(hand.state_after)
    score_rows = [
        {
            "name": name,
            "score": _at(hand.computed, i),
            "declared": _at(hand.declared, i),
            "after": _at(after, i),
        }
        for i, name in enumerate(names)
    ]
    context = {
        "match": match,
        "hand": hand,
        "names": names,
        "score_rows": score_rows,
        "evaluation": _outcome(hand.evaluation, names, match.game),
        "record_json": json.dumps(hand.record, ensure_ascii=False, indent=1),
        # Versions go 1, 2, … with each correction and the current one is the newest (the
        # model's constraints): its number is the count, with no query.
        "versions": hand.version,
        "match_title": match.display_title,  # said twice, and each time its names and day made again
        "can_write": is_scorer(request.user, match) and match.status != Match.Status.VOID,
    }
    return render(request, "matches/hand_detail.html", context)


def hand_history(request, pk: int, number: int):
    match = get_object_or_404(selectors.match_with_seats(), pk=pk)
    versions = list(selectors.hand_history(match=match, number=number))
    if not versions:
        raise Http404(f"the match has no hand {number}")
    names = _seat_names(match)
    rows = [
        {
            "hand": hand,
            "evaluation": _outcome(hand.evaluation, names, match.game),
            "record_json": json.dumps(hand.record, ensure_ascii=False, indent=1),
        }
        for hand in reversed(versions)
    ]
    return render(request, "matches/hand_history.html", {"match": match, "number": number, "rows": rows})


# -- permissions ----------------------------------------------------------------------------
def is_scorer(user, match: Match) -> bool:
    return selectors.user_scores_match(user=user, match=match)


def scorer_required(view):
    """For the pages that write to a match: the view takes the match instead of its ``pk``.

    An unknown match is a 404 for everyone; an anonymous visitor is sent to sign in, as by
    ``login_required``; a signed-in user who is not a scorer gets the 403 page.
    """

    @login_required
    def as_scorer(request, match: Match, **kwargs: Any):
        if not is_scorer(request.user, match):
            raise PermissionDenied(_("Only this match's scorers may record, correct, void or reopen it."))
        return view(request, match, **kwargs)

    @wraps(view)
    def with_match(request, pk: int, **kwargs: Any):
        return as_scorer(request, get_object_or_404(selectors.match_with_seats(), pk=pk), **kwargs)

    return with_match


# -- a new match ---------------------------------------------------------------------------
@login_required
def match_new(request):
    """Step 1: choose the game (each has its own options and seat counts)."""
    # The games the pages have a form for: a game scored by pasting JSON alone (a test game
    # registered on the fly) is not offered at the table.
    games = [describe_game(RULESETS[key]) for key in sorted(RULESETS) if key in HAND_FORMS]
    return render(request, "matches/match_new.html", {"games": games})


@login_required
def match_new_game(request, game: str):
    """Step 2: options and players in seat order; new players are created with the match."""
    try:
        find_ruleset(game)
    except UnknownGame:
        raise Http404(f"unknown game {game!r}") from None
    clubs = _clubs_to_start_in(request.user)
    home = next((c for c in clubs if c.slug == settings.HOME_CLUB_SLUG), None)
    form = MatchCreateForm(request.POST or None, game=game, clubs=clubs, club=home, viewer=request.user)
    status = 200
    chances_for = None
    if request.method == "POST":
        status = 400
        if form.is_valid() and "chances" in request.POST:
            # "Show the chances": the page shows the table's win probabilities (the ratings'
            # template tag reads them), nothing created yet.
            chances_for = form.cleaned_data["seats"]
            status = 200
        elif form.is_valid():
            try:
                match = _create_match(form, request.user)
            except errors.DomainError as exc:
                _match_error_to_form(form, exc)
            else:
                messages.success(
                    request, _("Match created. Deal the first hand! (%(match)s)") % {"match": match}
                )
                return redirect(match)
    context = {"form": form, "catalog": form.catalog, "chances_for": chances_for}
    if "chances" in request.POST and request.POST.get("fragment") == "chances":
        # The page's script asks for the chances alone as the seats change: the slot, without
        # the page around it (under half its Python calls: the form's fields are not drawn).
        return render(request, "matches/_match_chances.html", context, status=status)
    return render(request, "matches/match_form.html", context, status=status)


def _clubs_to_start_in(user) -> list[Club]:
    """The clubs where ``user`` may start a match: where he is a scorer (or more); staff: all."""
    if is_site_wide(user):
        return list(Club.objects.order_by("name", "id"))
    roles = [role for role, rank in RANKS.items() if rank >= RANKS[Role.SCORER]]
    held = open_memberships(user).filter(role__in=roles).values("club_id")
    return list(Club.objects.filter(pk__in=held).order_by("name", "id"))


def _create_match(form: MatchCreateForm, user) -> Match:
    data = form.cleaned_data
    club = data.get("club")
    # One transaction: a refused match leaves no new players behind, so sending again does
    # not create them twice.
    with transaction.atomic():
        players = [
            value if kind == "id" else services.player_create(name=value, by=user, club=club)
            for kind, value in data["seats"]
        ]
        return services.match_create(
            game=form.catalog["key"],
            players=players,
            by=user,
            preset=data["preset"] or None,
            options=data["overrides"],
            title=data["title"],
            played_at=data.get("played_at"),
            club=club,
            guests=data.get("guests", []),
        )


def _match_error_to_form(form: MatchCreateForm, exc: errors.DomainError) -> None:
    problems = i18n.problems(exc.extra.get("problems")) or [{"path": exc.field, "message": exc.message}]
    for problem in problems:
        path = str(problem.get("path") or "")
        name = None
        if path.startswith("options."):
            name = f"opt_{path.removeprefix('options.')}"
        elif path.startswith("players[") and path.endswith("]"):
            name = f"seat_{path[len('players[') : -1]}"
        elif path == "club":
            name = "club"
        elif path in ("preset", "played_at"):
            name = path
        form.add_error(name if name in form.fields else None, problem.get("message") or exc.message)


# -- hands -------------------------------------------------------------------------------------
@scorer_required
def hand_new(request, match: Match):
    return _hand_page(request, match, number=None)


@scorer_required
def hand_correct(request, match: Match, number: int):
    if not selectors.match_current_hands(match=match).filter(number=number).exists():
        raise Http404(f"the match has no hand {number}")
    return _hand_page(request, match, number=number)


def _hand_page(request, match: Match, *, number: int | None):
    """Record the next hand (``number`` None) or correct hand ``number``."""
    names = _seat_names(match)
    form_class = hand_form_class(match.game)
    kwargs = {"game": match.game, "seats": names, "options": match.options}
    context: dict[str, Any] = {"match": match, "number": number, "names": names}
    blocked = _blocked(match, correcting=number is not None)
    status = 200
    if request.method == "POST" and not blocked:
        form = form_class(request.POST, state=match.state if number is None else None, **kwargs)
        status, done = _submit(request, match, number, form, context)
        if done is not None:
            return done
        if context.get("conflict"):
            # Take the current version: sending again is now a deliberate act.
            data = request.POST.copy()
            data["version"] = str(match.version)
            form = form_class(data, **kwargs)
            form.is_valid()
    elif request.method == "POST":
        status = 409
        form = form_class(request.POST, **kwargs)
        form.is_valid()
    elif number is None:
        form = form_class(state=match.state, **kwargs)
        form.initial = {**form.suggested(), "version": match.version}
    else:
        hand = selectors.match_current_hands(match=match).get(number=number)
        initial = form_class.initial_from(hand.record, **kwargs)
        form = form_class(initial={**initial, "version": match.version}, **kwargs)
        context["corrected"] = hand
    outcome = context.get("outcome")
    context.update(
        form=form,
        # Made once here: the template asks for them more than once (a method each time).
        sections=form.sections(),
        match_title=match.display_title,
        blocked=blocked,
        next_number=match.hand_count + 1,  # the services keep the count of current hands on the row
        show_accept=bool(outcome and outcome["mismatches"]) or bool(form["accept_declared"].value()),
        trick_counts=_trick_counts(),
    )
    if context.get("conflict"):
        context.update(sheet_context(match))
    return render(request, "matches/hand_form.html", context, status=status)


def _trick_counts() -> list[str]:
    """ "0 tricks", "1 trick" … for the page's trick counter (JavaScript has no plural rules).
    Made once a language (41 plural lookups a hand form otherwise): the catalogs are read at
    start-up and do not change while the site runs."""
    language = get_language()
    counts = _TRICK_COUNTS.get(language)
    if counts is None:
        counts = _TRICK_COUNTS[language] = [
            ngettext("%(count)s trick", "%(count)s tricks", n) % {"count": n} for n in range(_MOST_TRICKS + 1)
        ]
    return counts


_TRICK_COUNTS: dict[str | None, list[str]] = {}


#: More than the tricks of any deal the pages score (twelve in two-hand piquet).
_MOST_TRICKS = 40


def _blocked(match: Match, *, correcting: bool) -> str:
    """Why no hand can be written now (empty if it can)."""
    if match.status == Match.Status.VOID:
        return _("This match is void: reopen it before recording or correcting hands.")
    if match.status == Match.Status.FINISHED and not correcting:
        return _(
            "This match is over: no more hands can be recorded (an earlier hand can still be corrected)."
        )
    return ""


def _submit(request, match: Match, number: int | None, form, context: dict[str, Any], *, announce=True):
    """Validate and send the hand to the service; returns (status, redirect or None). The
    saved hand is ``context["saved"]``; ``announce`` False leaves out the page's message (the
    offline queue says what became of each hand itself)."""
    if not form.is_valid():
        return 400, None
    data = form.cleaned_data
    write = services.hand_record if number is None else services.hand_correct
    extra = {} if number is None else {"number": number}
    try:
        hand = write(
            match=match,
            record=form.record(),
            by=request.user,
            version=data.get("version"),
            accept_declared=data.get("accept_declared", False),
            reason=data.get("reason", ""),
            **extra,
        )
    except errors.HandRefused as exc:
        context["outcome"] = _outcome(exc.evaluation, context["names"], match.game)
        form.attach_problems(i18n.problems(exc.evaluation["errors"]))
        return 400, None
    except errors.ReasonRequired as exc:
        form.add_error("reason", exc.message)
        mismatches = exc.extra.get("mismatches", [])
        context["outcome"] = _outcome({"mismatches": mismatches}, context["names"], match.game)
        return 400, None
    except errors.VersionConflict:
        match.refresh_from_db()
        context["conflict"] = _what_happened(match, request.user)
        return 409, None
    except errors.NotAllowed as exc:
        raise PermissionDenied(exc.message) from None
    except errors.DomainError as exc:  # over or void meanwhile, hand gone …
        match.refresh_from_db()
        context["refused"] = exc.message
        return (409 if isinstance(exc, errors.Conflict) else 400), None
    context["saved"] = hand
    done = {"number": hand.number}
    if not announce:
        pass
    elif hand.status == hand.Status.DISPUTED and number is None:
        messages.warning(
            request, _("Hand %(number)s recorded as disputed: the declared scores stand.") % done
        )
    elif hand.status == hand.Status.DISPUTED:
        messages.warning(
            request, _("Hand %(number)s corrected as disputed: the declared scores stand.") % done
        )
    elif number is None:
        messages.success(request, _("Hand %(number)s recorded.") % done)
    else:
        messages.success(request, _("Hand %(number)s corrected.") % done)
    return 302, redirect("hand-detail", pk=match.pk, number=hand.number)


def _what_happened(match: Match, user) -> str:
    """The last write to the match, for the stale-version message."""
    entry = (
        selectors.match_audit(match=match)
        .exclude(action=AuditEntry.Action.HAND_REEVALUATE)
        .order_by("-at", "-id")
        .first()
    )
    action = entry.action if entry else ""
    params = {
        "who": entry.actor.get_username() if entry and entry.actor else _("Someone"),
        "number": entry.payload.get("number") if entry else None,
    }
    # Most often a second tap on "Save", or the same hand sent from two tabs.
    you = bool(entry and entry.actor_id == user.pk)
    by_you, by_other = _DONE_MEANWHILE.get(action, _DONE_MEANWHILE[""])
    return _(by_you if you else by_other) % params


#: The stale-version message, by what was done last: (said to its author, said to another).
_DONE_MEANWHILE = {
    AuditEntry.Action.HAND_RECORD: (
        gettext_noop("You recorded hand %(number)s meanwhile."),
        gettext_noop("%(who)s recorded hand %(number)s meanwhile."),
    ),
    AuditEntry.Action.HAND_CORRECT: (
        gettext_noop("You corrected hand %(number)s meanwhile."),
        gettext_noop("%(who)s corrected hand %(number)s meanwhile."),
    ),
    AuditEntry.Action.MATCH_VOID: (
        gettext_noop("You voided the match meanwhile."),
        gettext_noop("%(who)s voided the match meanwhile."),
    ),
    AuditEntry.Action.MATCH_REOPEN: (
        gettext_noop("You reopened the match meanwhile."),
        gettext_noop("%(who)s reopened the match meanwhile."),
    ),
    AuditEntry.Action.SCORER_ADD: (
        gettext_noop("You added a scorer meanwhile."),
        gettext_noop("%(who)s added a scorer meanwhile."),
    ),
    "": (
        gettext_noop("You changed the match meanwhile."),
        gettext_noop("%(who)s changed the match meanwhile."),
    ),
}


def _seat_names(match: Match) -> list[str]:
    # The seats as read with the match (selectors.match_with_seats), in order: the page's title
    # (Match.display_title) reads the same ones instead of its own two queries a seat.
    return [seat.player.name for seat in match.seats.all()]


def _posted_hand_form(request, match: Match, number: int | None) -> tuple[list[str], Any]:
    """The seats' names and the match's hand form bound to the POST: a new hand (``number``
    None, judged against the match's state) or a correction of hand ``number``. The live check
    and the offline queue's send read a posted hand as the form's own save does."""
    names = _seat_names(match)
    form = hand_form_class(match.game)(
        request.POST,
        game=match.game,
        seats=names,
        options=match.options,
        state=match.state if number is None else None,
    )
    return names, form


def _outcome(
    evaluation: dict[str, Any], names: list[str], game: str, *, breakdown: bool = True
) -> dict[str, Any]:
    """An engine result (spec 1.5) for the page: per-seat breakdown, named mismatches; the
    engine's messages and the breakdown's items in the reader's language. ``breakdown`` False
    leaves out the seats and their breakdown (the live check, which shows neither: putting a
    breakdown's items in words was a twentieth of its work)."""
    if not breakdown and evaluation:
        evaluation = {key: value for key, value in evaluation.items() if key != "breakdown"}
    evaluation = i18n.evaluation(evaluation)

    def who(seat: Any) -> str:
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        # Seats counted from 1, as people number them (the record's are from 0).
        number = seat + 1 if isinstance(seat, int) else "?"
        return _("seat %(seat)s (%(name)s)") % {"seat": number, "name": name}

    scores = evaluation.get("scores")
    seats = []
    for i, name in enumerate(names if breakdown else []):
        lines = [
            {**line, "label": breakdown_item(game, str(line.get("item", "")))}
            for line in evaluation.get("breakdown") or []
            if line.get("seat") == i
        ]
        seats.append({"name": name, "seat": i, "number": i + 1, "lines": lines, "score": _at(scores, i)})
    return {
        "errors": evaluation.get("errors") or [],
        "mismatches": [
            {**m, "who": who(m.get("seat")), "explanation": _explanation(m)}
            for m in evaluation.get("mismatches") or []
        ],
        "warnings": evaluation.get("warnings") or [],
        "seats": seats if scores is not None else [],
        "match_over": evaluation.get("match_over"),
    }


def _explanation(m: dict[str, Any]) -> str:
    # The page already says "rules give N": do not repeat the engine's own opening.
    return i18n.explanation_detail(m)


# -- void, reopen, scorers ----------------------------------------------------------------
@scorer_required
def match_void(request, match: Match):
    return _reason_page(request, match, void=True)


@scorer_required
def match_reopen(request, match: Match):
    return _reason_page(request, match, void=False)


def _reason_page(request, match: Match, *, void: bool):
    status = 200
    refused = ""
    if request.method == "POST":
        form = ReasonForm(request.POST)
        status = 400
        if form.is_valid():
            write = services.match_void if void else services.match_reopen
            try:
                write(match=match, by=request.user, reason=form.cleaned_data["reason"],
                      version=form.cleaned_data.get("version"))  # fmt: skip
            except errors.VersionConflict:
                match.refresh_from_db()
                refused = _("%(what)s Check the match, then confirm again.") % {
                    "what": _what_happened(match, request.user)
                }
                data = request.POST.copy()
                data["version"] = str(match.version)
                form = ReasonForm(data)
                status = 409
            except errors.NotAllowed as exc:
                raise PermissionDenied(exc.message) from None
            except errors.DomainError as exc:
                refused = exc.message
                status = 409 if isinstance(exc, errors.Conflict) else 400
            else:
                messages.success(request, _("The match is void.") if void else _("The match is open again."))
                return redirect(match)
    else:
        form = ReasonForm(initial={"version": match.version})
    context = {"match": match, "form": form, "void": void, "refused": refused}
    return render(request, "matches/match_reason.html", context, status=status)


@require_POST
@scorer_required
def match_scorer_add(request, match: Match):
    form = ScorerAddForm(request.POST)
    if form.is_valid():
        # Only an active user, as in the API: an inactive one reads as unknown there too.
        user = selectors.user_by_username(username=form.cleaned_data["username"].strip())
        if user is None:
            messages.error(
                request, _("There is no user '%(name)s'.") % {"name": form.cleaned_data["username"]}
            )
        else:
            services.match_scorer_add(match=match, user=user, by=request.user)
            messages.success(request, _("%(name)s may now score this match.") % {"name": user.get_username()})
    return redirect(match)
