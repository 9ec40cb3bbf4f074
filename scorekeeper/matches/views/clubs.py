"""The clubs' pages (issue 33): the list, a club's home, settings, members, invitations, join
requests, joining and leaving.

A club the viewer may not see (a private one he is not in) is the 404 page on every one of
them, exactly as a club that does not exist; a member lacking the role a page takes gets a
403 page that says which role; a visitor not signed in is sent to sign in. Every write goes
through ``services.py`` and its refusals are shown on the page, next to their field.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorekeeper.clubs import selectors, services
from scorekeeper.clubs.models import RANKS, Club, Invitation, JoinRequest, Membership, Role
from scorekeeper.errors import DomainError, NotAllowed, NotSignedIn
from scorekeeper.matches import selectors as match_selectors
from scorekeeper.matches.terms import game_title

from ..forms import club as forms

RECENT_MATCHES = 10
MATCHES_PER_PAGE = 25


# -- access --------------------------------------------------------------------------------
def _club(request, slug: str) -> Club:
    """The club of ``slug`` if the viewer may see it; the 404 page otherwise (private too)."""
    try:
        return selectors.club_seen(slug, request.user)
    except selectors.ClubNotFound:
        raise Http404(_("There is no club at this address.")) from None


def _refused(request, club: Club, message: str) -> HttpResponse:
    return render(request, "clubs/refused.html", {"club": club, "message": message}, status=403)


def _role_page(role: str):
    """For a club's pages that take ``role``: the view takes the club instead of its slug."""

    def wrap(view):
        def page(request, slug: str, **kwargs: Any):
            club = _club(request, slug)
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not selectors.has_role(club, request.user, role):
                return _refused(request, club, _role_message(club, role))
            return view(request, club, **kwargs)

        page.__name__ = view.__name__
        page.__doc__ = view.__doc__
        return page

    return wrap


def _role_message(club: Club, role: str) -> str:
    return _("This page takes the %(role)s role in %(club)s.") % {"role": Role(role).label, "club": club.name}


def _viewer(request, club: Club) -> dict[str, Any]:
    """What the club's pages show of the viewer's standing."""
    membership = selectors.membership_of(club, request.user)
    return {
        "club": club,
        "membership": membership,
        "is_admin": selectors.has_role(club, request.user, Role.ADMIN),
        "is_member": membership is not None or selectors.is_site_wide(request.user),
    }


def _write(request, form, write, *, fields=None) -> Any:
    """Run a service write; its refusal goes on the form (a 403 refusal raises)."""
    try:
        return write()
    except (NotAllowed, NotSignedIn) as exc:  # checked before the write: not seen in practice
        raise PermissionDenied(exc.message) from None
    except DomainError as exc:
        forms.add_domain_error(form, exc, fields)
        return None


# -- the list and a new club ---------------------------------------------------------------
def club_list(request):
    """``/clubs/``: the clubs the viewer may see, his own marked; "found a club" when signed in."""
    form = forms.ClubFoundForm()
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        form = forms.ClubFoundForm(request.POST)
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            club = _write(
                request,
                form,
                lambda: services.club_create(
                    by=request.user,
                    name=data["name"],
                    slug=data["slug"],
                    description=data["description"],
                    public=data["public"],
                ),
            )
            if club is not None:
                messages.success(
                    request, _("Club %(club)s founded: you are its admin.") % {"club": club.name}
                )
                return redirect(club)
    mine = set(selectors.clubs_of(request.user).values_list("pk", flat=True))
    context = {"clubs": selectors.club_list(request.user), "mine": mine, "form": form}
    return render(request, "clubs/club_list.html", context, status=status)


# -- a club's home and its matches ------------------------------------------------------------
def club_home(request, slug: str):
    club = _club(request, slug)
    context = {
        **_viewer(request, club),
        "matches": match_selectors.match_list(club=club)[:RECENT_MATCHES],
        "boards": [(game, game_title(game)) for game in match_selectors.club_games(club)],
        "members": selectors.club_members(club),
        "open_requests": JoinRequest.objects.filter(club=club, decided_at__isnull=True).count(),
    }
    return render(request, "clubs/club_home.html", context)


def club_matches(request, slug: str):
    """The club's matches, newest first, paged."""
    club = _club(request, slug)
    page = Paginator(match_selectors.match_list(club=club), MATCHES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(request, "clubs/club_matches.html", {**_viewer(request, club), "page": page,
                                                        "matches": page.object_list})  # fmt: skip


# -- settings ---------------------------------------------------------------------------------
@_role_page(Role.ADMIN)
def club_settings(request, club: Club):
    form = forms.ClubSettingsForm(request.POST if request.method == "POST" else None, club=club)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            fields = {
                key: data[key]
                for key in ("name", "description", "languages", "time_zone", "public", "house_presets",
                            "house_options")
            }  # fmt: skip
            try:
                services.club_update(club=club, by=request.user, **fields)
            except DomainError as exc:
                if isinstance(exc, NotAllowed):
                    return _refused(request, club, exc.message)
                form.add_error(
                    form.field_of(exc.field) if form.field_of(exc.field) in form.fields else None, exc.message
                )
            else:
                messages.success(request, _("The club's settings are saved."))
                return redirect("club-settings", slug=club.slug)
    return render(
        request, "clubs/club_settings.html", {**_viewer(request, club), "form": form}, status=status
    )


# -- members ----------------------------------------------------------------------------------
@_role_page(Role.MEMBER)
def club_members(request, club: Club):
    """Members see the list; admins add members, change roles and remove them."""
    viewer = _viewer(request, club)
    form = forms.MemberAddForm()
    status = 200
    if request.method == "POST":
        if not viewer["is_admin"]:
            return _refused(request, club, _role_message(club, Role.ADMIN))
        form = forms.MemberAddForm(request.POST)
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            membership = _write(
                request,
                form,
                lambda: services.member_set(
                    club=club, user=services.user_named(data["username"]), role=data["role"], by=request.user
                ),
            )
            if membership is not None:
                messages.success(
                    request,
                    _("%(name)s is now %(role)s.")
                    % {"name": membership.user.get_username(), "role": Role(membership.role).label},
                )
                return redirect("club-members", slug=club.slug)
    context = {**viewer, "members": selectors.club_members(club), "form": form, "roles": Role.choices}
    return render(request, "clubs/club_members.html", context, status=status)


def _member(club: Club, username: str) -> Membership:
    membership = selectors.club_members(club).filter(user__username=username).first()
    if membership is None:
        raise Http404(_("%(name)s is not a member of this club.") % {"name": username})
    return membership


@require_POST
@_role_page(Role.ADMIN)
def club_member_role(request, club: Club, username: str):
    membership = _member(club, username)
    form = forms.RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the roles."))
        return redirect("club-members", slug=club.slug)
    try:
        services.member_set(club=club, user=membership.user, role=form.cleaned_data["role"], by=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        role = Role(form.cleaned_data["role"]).label
        messages.success(request, _("%(name)s is now %(role)s.") % {"name": username, "role": role})
    return redirect("club-members", slug=club.slug)


@require_POST
@_role_page(Role.ADMIN)
def club_member_remove(request, club: Club, username: str):
    membership = _member(club, username)
    try:
        services.member_remove(club=club, user=membership.user, by=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(name)s is no longer a member.") % {"name": username})
    return redirect("club-members", slug=club.slug)


# -- invitations --------------------------------------------------------------------------------
@_role_page(Role.ADMIN)
def club_invitations(request, club: Club):
    """Make an invitation (its code and link are shown this once), list and revoke them."""
    form = forms.InvitationForm()
    status = 200
    made = None
    if request.method == "POST":
        form = forms.InvitationForm(request.POST)
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            made = _write(
                request,
                form,
                lambda: services.invitation_create(
                    club=club,
                    by=request.user,
                    role=data["role"],
                    max_uses=data["max_uses"],
                    days=data["days"],
                ),
            )
            if made is not None:
                status = 201
                form = forms.InvitationForm()
    new = None
    if made is not None:
        invitation, code = made
        link = request.build_absolute_uri(reverse("club-join", args=[club.slug]) + f"?code={code}")
        new = {"invitation": invitation, "code": code, "link": link}
    now = timezone.now()
    invitations = [
        {
            "invitation": invitation,
            "uses": invitation.uses,
            "state": _invitation_state(invitation, now),
        }
        for invitation in _invitations(club)
    ]
    context = {**_viewer(request, club), "form": form, "new": new, "invitations": invitations}
    response = render(request, "clubs/club_invitations.html", context, status=status)
    response["Cache-Control"] = "no-store"  # the code is shown once
    return response


def _invitations(club: Club):
    return (
        Invitation.objects.filter(club=club)
        .annotate(uses=Count("memberships"))
        .order_by("-created_at", "-id")
    )


def _invitation_state(invitation: Invitation, now) -> str:
    if invitation.revoked_at is not None:
        return _("revoked")
    if invitation.expires_at <= now:
        return _("expired")
    if invitation.uses >= invitation.max_uses:  # type: ignore[attr-defined]  # annotated by _invitations
        return _("used up")
    return _("open")


@require_POST
@_role_page(Role.ADMIN)
def club_invitation_revoke(request, club: Club, pk: int):
    invitation = get_object_or_404(Invitation, club=club, pk=pk)
    services.invitation_revoke(invitation=invitation, by=request.user)
    messages.success(request, _("The invitation …%(hint)s is revoked.") % {"hint": invitation.hint})
    return redirect("club-invitations", slug=club.slug)


# -- join requests --------------------------------------------------------------------------------
@_role_page(Role.ADMIN)
def club_requests(request, club: Club):
    pending = JoinRequest.objects.filter(club=club, decided_at__isnull=True).select_related("user")
    decided = (
        JoinRequest.objects.filter(club=club, decided_at__isnull=False)
        .select_related("user", "decided_by")
        .order_by("-decided_at")[:20]
    )
    context = {**_viewer(request, club), "pending": pending, "decided": decided}
    return render(request, "clubs/club_requests.html", context)


@require_POST
@_role_page(Role.ADMIN)
def club_request_decide(request, club: Club, pk: int):
    join_request = get_object_or_404(JoinRequest, club=club, pk=pk)
    approve = request.POST.get("decision") == "approve"
    try:
        services.join_request_decide(request=join_request, by=request.user, approve=approve)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        name = join_request.user.get_username()
        if approve:
            messages.success(request, _("%(name)s joined as a member.") % {"name": name})
        else:
            messages.success(request, _("%(name)s's request is declined.") % {"name": name})
    return redirect("club-requests", slug=club.slug)


# -- joining and leaving ----------------------------------------------------------------------------
def club_join(request, slug: str):
    """``/clubs/<slug>/join/?code=…``: sign in first, then join with the code (or ask to join)."""
    code = request.GET.get("code", "")
    if code:
        # An invitation's link opens a private club's page to whoever holds a good code: the
        # club is found by its slug and the code, and shown only if the code is good.
        club = Club.objects.filter(slug=slug).first()
        if club is None or not _code_good(club, code):
            club = _club(request, slug)
    else:
        club = _club(request, slug)
    if not request.user.is_authenticated:
        if code:  # an invitation's link: create an account from it, or sign in and join
            return redirect(f"{reverse('account-invited')}?{urlencode({'club': slug, 'code': code})}")
        return redirect_to_login(request.get_full_path())
    viewer = _viewer(request, club)
    form = forms.JoinForm(request.POST if request.method == "POST" else None, initial={"code": code})
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            if not data["code"] and not club.public and not viewer["is_member"]:
                # Asking to join a private club takes its link: without one it is not there.
                raise Http404(_("There is no club at this address."))
            joined = _write(
                request,
                form,
                lambda: services.club_join(
                    club=club, by=request.user, code=data["code"], message=data["message"]
                ),
            )
            if isinstance(joined, Membership):
                messages.success(
                    request,
                    _("You are a member of %(club)s (%(role)s).")
                    % {"club": club.name, "role": Role(joined.role).label},
                )
                return redirect(club)
            if isinstance(joined, JoinRequest):
                messages.success(request, _("Your request to join is sent to the club's admins."))
                return redirect(club)
    asked = JoinRequest.objects.filter(club=club, user=request.user, decided_at__isnull=True).exists()
    context = {**viewer, "form": form, "asked": asked}
    return render(request, "clubs/club_join.html", context, status=status)


def _code_good(club: Club, code: str) -> bool:
    invitation = Invitation.objects.filter(club=club, digest=selectors.invitation_digest(code)).first()
    return invitation is not None and services.invitation_usable(invitation)


def club_leave(request, slug: str):
    club = _club(request, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    membership = selectors.membership_of(club, request.user)
    if membership is None:
        return _refused(request, club, _("You are not a member of %(club)s.") % {"club": club.name})
    refused = ""
    status = 200
    if request.method == "POST":
        try:
            services.member_remove(club=club, user=request.user, by=request.user)
        except DomainError as exc:
            refused, status = exc.message, 409
        else:
            messages.success(request, _("You left %(club)s.") % {"club": club.name})
            return redirect("club-list")
    context = {**_viewer(request, club), "refused": refused, "ranks": RANKS}
    return render(request, "clubs/club_leave.html", context, status=status)
