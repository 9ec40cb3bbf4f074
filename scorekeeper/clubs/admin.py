"""The clubs in the admin, read-only: every change goes through the services (and their audit)."""

from django.contrib import admin

from scorekeeper.admin_base import ReadOnlyAdmin

from .models import Club, ClubAuditEntry, Invitation, JoinRequest, Membership


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ["name", "slug", "public", "time_zone", "created_at"]
    search_fields = ["name", "slug"]
    list_filter = ["public"]


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ["club", "user", "role", "started_at", "ended_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ["club", "hint", "role", "max_uses", "expires_at", "revoked_at"]
    list_filter = ["club"]


@admin.register(JoinRequest)
class JoinRequestAdmin(ReadOnlyAdmin):
    list_display = ["club", "user", "created_at", "decided_at", "approved"]
    list_filter = ["club"]


@admin.register(ClubAuditEntry)
class ClubAuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "club", "actor", "action"]
    list_filter = ["action", "club"]
