"""Admin: players are editable; matches only through the services (history is read-only)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scorekeeper.outbox.services import outbox_enqueue

from .models import AuditEntry, Hand, Match, Player, Seat
from .tasks import match_recompute


class ReadOnlyAdmin(admin.ModelAdmin):
    """History rows: visible, never added, changed or deleted from the admin."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]
    raw_id_fields = ["user"]
    readonly_fields = ["created_by", "created_at"]

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ["position", "player", "team"]

    def has_add_permission(self, request, obj=None):
        return False


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    can_delete = False
    fields = ["number", "version", "status", "dealer", "declared", "computed", "recorded_by", "recorded_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game", "preset", "status", "version", "created_by", "created_at"]
    list_filter = ["game", "status", "preset"]
    search_fields = ["title"]
    inlines = [SeatInline, HandInline]
    # Only the title is editable here: everything else changes through the services, audited.
    readonly_fields = [
        "game",
        "preset",
        "options",
        "status",
        "created_by",
        "scorers",
        "created_at",
        "updated_at",
        "version",
        "state",
        "result",
    ]
    actions = ["recompute"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Recompute the selected matches (background task)"))
    def recompute(self, request, queryset):
        # Through the outbox: with Redis down the request still answers at once, and the
        # beat sweep hands the work over once Redis is back.
        ids = list(queryset.values_list("pk", flat=True))
        with transaction.atomic():
            for pk in ids:
                outbox_enqueue(task=match_recompute.name, kwargs={"match_id": pk})
        queued = ngettext("%(count)d recompute task queued.", "%(count)d recompute tasks queued.", len(ids))
        self.message_user(request, queued % {"count": len(ids)}, messages.SUCCESS)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["match", "position", "player", "team"]
    list_select_related = ["match", "player"]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["match", "number", "version", "status", "dealer", "recorded_by", "recorded_at"]
    list_filter = ["status", "match__game"]
    list_select_related = ["match", "recorded_by"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "action", "actor", "match", "hand"]
    list_filter = ["action"]
    list_select_related = ["actor", "match", "hand"]
