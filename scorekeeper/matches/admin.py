"""Admin: players are editable; matches only through the services (history is read-only)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db import transaction
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scorekeeper.admin_base import ReadOnlyAdmin
from scorekeeper.outbox.services import outbox_enqueue

from . import errors, player_accounts, services, terms
from .models import AuditEntry, Hand, HandConfirmation, Match, Player, PlayerClaimCode, Seat
from .tasks import match_recompute


class GameFilter(admin.SimpleListFilter):
    """The games by their titles in the admin's language (the field holds the engine's keys)."""

    title = _("game")
    parameter_name = "game"
    #: The lookup of the game key from the rows filtered (a hand's is its match's).
    field = "game"

    def lookups(self, request, model_admin):
        games = model_admin.get_queryset(request).order_by().values_list(self.field, flat=True).distinct()
        return sorted(((game, terms.game_title(game)) for game in games), key=lambda choice: choice[1])

    def queryset(self, request, queryset):
        return queryset.filter(**{self.field: self.value()}) if self.value() else queryset


class HandGameFilter(GameFilter):
    parameter_name = "match__game"
    field = "match__game"


class PresetFilter(admin.SimpleListFilter):
    title = _("preset")
    parameter_name = "preset"

    def lookups(self, request, model_admin):
        return list(terms.PRESET_NAMES.items())

    def queryset(self, request, queryset):
        return queryset.filter(preset=self.value()) if self.value() else queryset


class MergedFilter(admin.SimpleListFilter):
    title = _("merged")
    parameter_name = "merged"

    def lookups(self, request, model_admin):
        return [("no", _("not merged")), ("yes", _("merged into another"))]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(merged_into__isnull=self.value() == "no")
        return queryset


class PlayerMergeForm(forms.Form):
    into = forms.ModelChoiceField(
        label=_("Merge into"),
        queryset=Player.objects.none(),
        help_text=_("The real player: the selected duplicates' matches, ratings and account become his."),
    )

    def __init__(self, *args, exclude=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["into"].queryset = Player.objects.filter(merged_into__isnull=True).exclude(pk__in=exclude)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "merged_into", "created_at"]
    list_filter = [MergedFilter]
    search_fields = ["name"]
    raw_id_fields = ["user"]
    # Merged only by the action (the service moves the seats and audits it).
    readonly_fields = ["created_by", "created_at", "merged_into"]
    actions = ["merge"]

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        """Staff link a player to an account (or unlink him) here: in the audit log like a claim."""
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            if change and "user" in form.changed_data:
                before = form.initial.get("user")
                player_accounts.player_link_audit(player=obj, before=before, by=request.user)

    @admin.action(description=_("Merge the selected duplicates into another player"))
    def merge(self, request, queryset):
        """First a page to choose the real player; then each selected duplicate is merged into
        him (``services.player_merge``), each refusal shown with its reason."""
        duplicates = list(queryset.order_by("name", "id"))
        form = PlayerMergeForm(
            request.POST if "apply" in request.POST else None, exclude=[p.pk for p in duplicates]
        )
        if form.is_bound and form.is_valid():
            into = form.cleaned_data["into"]
            for duplicate in duplicates:
                try:
                    done = services.player_merge(player=duplicate, into=into, by=request.user)
                except errors.DomainError as exc:
                    self.message_user(request, f"{duplicate}: {exc.message}", messages.ERROR)
                    continue
                merged = ngettext(
                    "%(player)s merged into %(into)s: %(count)d match moved; ratings are recomputed.",
                    "%(player)s merged into %(into)s: %(count)d matches moved; ratings are recomputed.",
                    len(done["matches"]),
                ) % {"player": duplicate, "into": into, "count": len(done["matches"])}
                self.message_user(request, merged, messages.SUCCESS)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Merge players"),
            "opts": self.model._meta,
            "duplicates": duplicates,
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/matches/player/merge.html", context)


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
    readonly_fields = (
        "number",
        "version",
        "status",
        "dealer",
        "declared",
        "computed",
        "recorded_by",
        "recorded_at",
    )
    fields = readonly_fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game_title", "preset_name", "status", "version", "created_by", "created_at"]
    list_filter = [GameFilter, "status", PresetFilter]
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

    @admin.display(description=_("game"), ordering="game")
    def game_title(self, match):
        return terms.game_title(match.game)

    @admin.display(description=_("preset"), ordering="preset")
    def preset_name(self, match):
        return terms.PRESET_NAMES.get(match.preset, match.preset)

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
    list_filter = ["status", HandGameFilter]
    list_select_related = ["match", "recorded_by"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "action", "actor", "match", "hand"]
    list_filter = ["action"]
    list_select_related = ["actor", "match", "hand"]


@admin.register(HandConfirmation)
class HandConfirmationAdmin(ReadOnlyAdmin):
    list_display = ["at", "match", "hand", "answer", "player", "at_table", "by"]
    list_filter = ["answer", "at_table"]
    list_select_related = ["match", "hand", "player", "by"]


@admin.register(PlayerClaimCode)
class PlayerClaimCodeAdmin(ReadOnlyAdmin):
    list_display = ["player", "created_by", "created_at", "expires_at", "used_by", "used_at"]
    list_select_related = ["player", "created_by", "used_by"]
    exclude = ["digest"]
