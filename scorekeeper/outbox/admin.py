from django.contrib import admin

from scorekeeper.admin_base import ReadOnlyAdmin

from .models import OutboxMessage


@admin.register(OutboxMessage)
class OutboxMessageAdmin(ReadOnlyAdmin):
    list_display = ["id", "task", "kwargs", "created_at", "dispatched_at", "attempts", "alive_at", "done_at"]
    list_filter = ["task", ("done_at", admin.EmptyFieldListFilter)]
