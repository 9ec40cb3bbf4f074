"""The events in the admin, read-only: every change goes through the services (and their audit)."""

from django.contrib import admin

from scorekeeper.admin_base import ReadOnlyAdmin

from .models import Event, EventAuditEntry


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["name", "club", "game", "format", "rounds", "created_at", "finished_at"]
    list_filter = ["format", "game", "club"]
    search_fields = ["name", "club__name"]


@admin.register(EventAuditEntry)
class EventAuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "event", "actor", "action"]
    list_filter = ["action"]
