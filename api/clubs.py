"""``/api/v1/clubs``: the clubs, their settings, members, invitations, join requests and joining.

A private club is a 404 ``club_not_found`` to whoever is not its member (staff see every club),
on every URL here, exactly as a club that does not exist; a member without the role a write
takes gets 403 ``club_role_required``. The writes are the services of
``scorekeeper.clubs.services``; the club's board is ``api/club_boards.py``.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from scorekeeper.clubs import selectors, services
from scorekeeper.clubs.models import Club, Invitation, JoinRequest, Membership, Role
from scorekeeper.errors import NotFound

from . import schema
from .bodies import BodySerializer, _valid
from .idempotency import idempotent

ROLES = [role.value for role in Role]


# -- serializers ---------------------------------------------------------------------------
class ClubSerializer(serializers.ModelSerializer):
    member_count = serializers.SerializerMethodField(help_text=gettext_lazy("its current members"))
    your_role = serializers.SerializerMethodField(
        help_text=gettext_lazy("your role in it; null: you are not a member")
    )

    class Meta:
        model = Club
        fields = [
            "slug", "name", "description", "languages", "time_zone", "house_presets", "house_options",
            "public", "created_at", "member_count", "your_role",
        ]  # fmt: skip

    def get_member_count(self, club) -> int:
        counted = getattr(club, "member_count", None)
        return counted if counted is not None else club.memberships.filter(ended_at__isnull=True).count()

    def get_your_role(self, club) -> str | None:
        request = self.context.get("request")
        return selectors.role_of(club, request.user) if request is not None else None


class ClubCreateSerializer(BodySerializer):
    name = serializers.CharField(max_length=100)
    slug = serializers.RegexField(
        r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$",
        max_length=50,
        required=False,
        default="",
        help_text=gettext_lazy(
            "lowercase letters and digits, single hyphens between; made from the name when left out"
        ),
    )
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    languages = serializers.ListField(
        child=serializers.ChoiceField([code for code, _name in settings.LANGUAGES]),
        required=False,
        max_length=8,
    )
    # Not an enum: the zones are the machine's (zoneinfo and its tzdata), and some differ only
    # in signs that a client generator makes one name (GMT0, GMT+0, GMT-0).
    time_zone = serializers.CharField(
        required=False, max_length=64, help_text=gettext_lazy("an IANA time zone, e.g. Europe/Paris")
    )
    house_presets = serializers.DictField(child=serializers.CharField(max_length=16), required=False)
    house_options = serializers.DictField(child=serializers.DictField(), required=False)
    public = serializers.BooleanField(required=False)


class ClubUpdateSerializer(ClubCreateSerializer):
    name = serializers.CharField(max_length=100, required=False)
    slug = None  # type: ignore[assignment]  # a club's address does not change


class MemberSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    since = serializers.DateTimeField(source="started_at")

    class Meta:
        model = Membership
        fields = ["username", "role", "since"]


class MemberSetSerializer(BodySerializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(ROLES, default=Role.MEMBER)


class ClubJoinSerializer(BodySerializer):
    code = serializers.CharField(
        max_length=100, required=False, allow_blank=True, default="",
        help_text=gettext_lazy("an invitation's code; left out, a request to join that an admin decides"),
    )  # fmt: skip
    message = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class JoinRequestSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = JoinRequest
        fields = ["id", "username", "message", "created_at", "decided_at", "approved"]


class JoinAnswerSerializer(serializers.Serializer):
    status = serializers.ChoiceField(["joined", "member", "requested"])
    role = serializers.CharField(allow_null=True, help_text=gettext_lazy("your role; null while you wait"))
    request = JoinRequestSerializer(allow_null=True)


class InvitationCreateSerializer(BodySerializer):
    role = serializers.ChoiceField(ROLES, default=Role.MEMBER)
    max_uses = serializers.IntegerField(default=1, min_value=1, max_value=services.INVITATION_MAX_USES)
    days = serializers.IntegerField(default=services.INVITATION_DAYS, min_value=1, max_value=365)


class InvitationSerializer(serializers.ModelSerializer):
    uses = serializers.SerializerMethodField()
    usable = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = [
            "id",
            "hint",
            "role",
            "max_uses",
            "uses",
            "expires_at",
            "revoked_at",
            "created_at",
            "usable",
        ]

    def get_uses(self, invitation) -> int:
        return invitation.memberships.count()

    def get_usable(self, invitation) -> bool:
        return services.invitation_usable(invitation)


class NewInvitationSerializer(InvitationSerializer):
    code = serializers.CharField(help_text=gettext_lazy("shown only this once"))
    join_url = serializers.CharField(help_text=gettext_lazy("the page that joins with this code"))

    class Meta(InvitationSerializer.Meta):
        fields = [*InvitationSerializer.Meta.fields, "code", "join_url"]


class DecideSerializer(BodySerializer):
    approve = serializers.BooleanField()


# -- views ---------------------------------------------------------------------------------
def _club(request, slug: str) -> Club:
    return selectors.club_seen(slug, request.user)


class ClubList(generics.GenericAPIView):
    serializer_class = ClubSerializer

    @extend_schema(
        summary=gettext_lazy("The clubs you may see, by name"), responses={200: ClubSerializer(many=True)}
    )
    def get(self, request):
        page = self.paginate_queryset(selectors.club_list(request.user))
        return self.get_paginated_response(ClubSerializer(page, many=True, context={"request": request}).data)

    @extend_schema(
        summary=gettext_lazy("Found a club (signed in; you become its admin)"),
        request=ClubCreateSerializer,
        responses={201: ClubSerializer, **schema.errors(*schema.WRITE_ERRORS, 409)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request):
        data = _valid(ClubCreateSerializer, request.data)
        club = services.club_create(by=request.user, **data)
        location = reverse("api:club-detail", args=[club.slug], request=request)
        body = ClubSerializer(club, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})


class ClubDetail(APIView):
    @extend_schema(summary=gettext_lazy("A club"), responses={200: ClubSerializer, **schema.errors(404)})
    def get(self, request, slug: str):
        return Response(ClubSerializer(_club(request, slug), context={"request": request}).data)

    @extend_schema(
        summary=gettext_lazy("Change a club's name or settings (its admins)"),
        request=ClubUpdateSerializer,
        responses={200: ClubSerializer, **schema.errors(400, 401, 403, 404)},
    )
    def patch(self, request, slug: str):
        club = _club(request, slug)
        data = _valid(ClubUpdateSerializer, request.data)
        club = services.club_update(club=club, by=request.user, **data)
        return Response(ClubSerializer(club, context={"request": request}).data)


class ClubMembers(generics.GenericAPIView):
    serializer_class = MemberSerializer

    @extend_schema(
        summary=gettext_lazy("A club's members, admins first (its members and staff)"),
        responses={200: MemberSerializer(many=True), **schema.errors(401, 403, 404)},
    )
    def get(self, request, slug: str):
        club = _club(request, slug)
        services.require_role(club, request.user, Role.MEMBER)
        page = self.paginate_queryset(selectors.club_members(club))
        return self.get_paginated_response(MemberSerializer(page, many=True).data)

    @extend_schema(
        summary=gettext_lazy("Add a member or change his role (its admins)"),
        request=MemberSetSerializer,
        responses={200: MemberSerializer, **schema.errors(*schema.WRITE_ERRORS, 404, 409)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, slug: str):
        club = _club(request, slug)
        data = _valid(MemberSetSerializer, request.data)
        services.require_role(club, request.user, Role.ADMIN)
        user = services.user_named(data["username"])
        membership = services.member_set(club=club, user=user, role=data["role"], by=request.user)
        return Response(MemberSerializer(membership).data)


class ClubMember(APIView):
    @extend_schema(
        summary=gettext_lazy("Remove a member (its admins), or leave (yourself)"),
        responses={204: None, **schema.errors(401, 403, 404, 409)},
    )
    def delete(self, request, slug: str, username: str):
        club = _club(request, slug)
        services.require_role(club, request.user, Role.MEMBER)
        membership = selectors.club_members(club).filter(user__username=username).first()
        if membership is None:
            raise NotFound(_("%(user)s is not a member") % {"user": username[:150]}, code="member_not_found")
        services.member_remove(club=club, user=membership.user, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubJoin(APIView):
    @extend_schema(
        summary=gettext_lazy("Join a club with an invitation's code, or ask to join"),
        description=gettext_lazy(
            "With a `code`: 201 `joined` in the invitation's role (400 `invitation_invalid` for a "
            "code that is unknown, expired, revoked or used up). Without: 202 `requested`, a request "
            "its admins decide. Already a member: 200 `member`, as you are."
        ),
        request=ClubJoinSerializer,
        responses={
            200: JoinAnswerSerializer, 201: JoinAnswerSerializer, 202: JoinAnswerSerializer,
            **schema.errors(*schema.WRITE_ERRORS, 404),
        },
        parameters=[schema.IDEMPOTENCY_KEY],
    )  # fmt: skip
    @idempotent
    def post(self, request, slug: str):
        club = _club(request, slug)
        data = _valid(ClubJoinSerializer, request.data)
        was_member = selectors.membership_of(club, request.user) is not None
        outcome = services.club_join(club=club, by=request.user, code=data["code"], message=data["message"])
        if isinstance(outcome, JoinRequest):
            body = {"status": "requested", "role": None, "request": JoinRequestSerializer(outcome).data}
            return Response(body, status=status.HTTP_202_ACCEPTED)
        body = {"status": "member" if was_member else "joined", "role": outcome.role, "request": None}
        return Response(body, status=status.HTTP_200_OK if was_member else status.HTTP_201_CREATED)


class ClubInvitations(generics.GenericAPIView):
    serializer_class = InvitationSerializer

    @extend_schema(
        summary=gettext_lazy("A club's invitations, newest first (its admins; no codes)"),
        responses={200: InvitationSerializer(many=True), **schema.errors(401, 403, 404)},
    )
    def get(self, request, slug: str):
        club = _club(request, slug)
        services.require_role(club, request.user, Role.ADMIN)
        page = self.paginate_queryset(club.invitations.order_by("-created_at", "-id"))
        return self.get_paginated_response(InvitationSerializer(page, many=True).data)

    @extend_schema(
        summary=gettext_lazy("Make an invitation (its admins): its code is shown this once"),
        request=InvitationCreateSerializer,
        responses={201: NewInvitationSerializer, **schema.errors(*schema.WRITE_ERRORS, 404)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, slug: str):
        club = _club(request, slug)
        data = _valid(InvitationCreateSerializer, request.data)
        invitation, code = services.invitation_create(club=club, by=request.user, **data)
        join_url = request.build_absolute_uri(f"/clubs/{club.slug}/join/?code={code}")
        body = {**InvitationSerializer(invitation).data, "code": code, "join_url": join_url}
        return Response(body, status=status.HTTP_201_CREATED)


def _invitation(club: Club, pk: int) -> Invitation:
    invitation = club.invitations.filter(pk=pk).first()  # another club's id: not found here
    if invitation is None:
        raise NotFound(_("no invitation %(pk)s in this club") % {"pk": pk}, code="invitation_not_found")
    return invitation


class InvitationRevoke(APIView):
    @extend_schema(
        summary=gettext_lazy("Revoke an invitation (its admins)"),
        request=None,
        responses={200: InvitationSerializer, **schema.errors(*schema.WRITE_ERRORS, 404)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, slug: str, invitation: int):
        club = _club(request, slug)
        services.require_role(club, request.user, Role.ADMIN)
        revoked = services.invitation_revoke(invitation=_invitation(club, invitation), by=request.user)
        return Response(InvitationSerializer(revoked).data)


class ClubRequests(generics.GenericAPIView):
    serializer_class = JoinRequestSerializer

    @extend_schema(
        summary=gettext_lazy("The requests to join waiting for a decision (its admins)"),
        responses={200: JoinRequestSerializer(many=True), **schema.errors(401, 403, 404)},
    )
    def get(self, request, slug: str):
        club = _club(request, slug)
        services.require_role(club, request.user, Role.ADMIN)
        waiting = club.join_requests.filter(decided_at__isnull=True).select_related("user")
        page = self.paginate_queryset(waiting.order_by("created_at", "id"))
        return self.get_paginated_response(JoinRequestSerializer(page, many=True).data)


class RequestDecide(APIView):
    @extend_schema(
        summary=gettext_lazy("Approve or decline a request to join (its admins)"),
        request=DecideSerializer,
        responses={200: JoinRequestSerializer, **schema.errors(*schema.WRITE_ERRORS, 404, 409)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, slug: str, request_id: int):
        club = _club(request, slug)
        data = _valid(DecideSerializer, request.data)
        services.require_role(club, request.user, Role.ADMIN)
        asked = club.join_requests.filter(pk=request_id).first()  # another club's id: not here
        if asked is None:
            raise NotFound(_("no request %(pk)s in this club") % {"pk": request_id}, code="request_not_found")
        decided = services.join_request_decide(request=asked, by=request.user, approve=data["approve"])
        return Response(JoinRequestSerializer(decided).data)
