from django.contrib import admin

from scorekeeper.matches.admin import ReadOnlyAdmin

from .models import RatingChange


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["player", "game", "match", "placement", "before", "after", "created_at"]
    list_filter = ["game"]
    list_select_related = ["player", "match"]
