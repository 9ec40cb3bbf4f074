"""Admin: the ratings are derived data, shown read-only; a full recompute is an action on pools
(select all for everything), its progress on the recompute jobs' list."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scorekeeper.admin_base import ReadOnlyAdmin

from . import services
from .models import PlayerRating, RatingEvent, RatingHistory, RatingPool, RecomputeJob


@admin.register(RatingPool)
class RatingPoolAdmin(ReadOnlyAdmin):
    list_display = ["game", "matches", "last_match", "last_finished_at", "updated_at", "recomputed_at"]
    actions = ["recompute"]

    @admin.action(description=_("Recompute the selected pools from the recorded matches (background tasks)"))
    def recompute(self, request, queryset):
        job = services.rating_recompute_request(
            by=request.user, games=list(queryset.values_list("game", flat=True))
        )
        started = ngettext(
            "Recompute #%(job)s of %(count)s pool started: its progress is under Recompute jobs.",
            "Recompute #%(job)s of %(count)s pools started: its progress is under Recompute jobs.",
            job.total,
        )
        self.message_user(request, started % {"job": job.pk, "count": job.total}, messages.SUCCESS)


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "pool", "conservative", "mu", "sigma", "matches", "wins", "last_played_at"]
    list_filter = ["pool"]
    list_select_related = ["player", "pool"]
    search_fields = ["player__name"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnlyAdmin):
    list_display = [
        "player",
        "pool",
        "match",
        "played_at",
        "place",
        "mu_before",
        "mu_after",
        "win_probability",
    ]
    list_filter = ["pool"]
    list_select_related = ["player", "pool", "match"]
    search_fields = ["player__name"]


@admin.register(RatingEvent)
class RatingEventAdmin(ReadOnlyAdmin):
    list_display = ["id", "game", "kind", "match", "at", "processed_at"]
    list_filter = ["game", "kind", ("processed_at", admin.EmptyFieldListFilter)]
    list_select_related = ["match"]


@admin.register(RecomputeJob)
class RecomputeJobAdmin(ReadOnlyAdmin):
    list_display = ["id", "status", "progress", "requested_by", "created_at", "finished_at"]
    list_filter = ["status"]

    @admin.display(description=_("progress (pools)"))
    def progress(self, job):
        return f"{job.done}/{job.total}"
