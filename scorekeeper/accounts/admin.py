from django.contrib import admin

from scorekeeper.admin_base import ReadOnlyAdmin

from .models import PendingInvitation, Preference


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "language", "time_zone"]
    list_filter = ["language"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(PendingInvitation)
class PendingInvitationAdmin(ReadOnlyAdmin):
    """Who signed up from which invitation, and whether it was applied (support: "why is she not
    in the club?")."""

    list_display = ["user", "invitation", "created_at", "applied_at", "refused_at"]
    search_fields = ["user__username"]
