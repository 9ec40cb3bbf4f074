"""Admin bases that several apps' admins share (matches, outbox, ratings): kept apart from any
one app so that an app's admin never imports another app's."""

from __future__ import annotations

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """History rows: visible, never added, changed or deleted from the admin."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
