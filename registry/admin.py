"""Django admin for federation staff: the registry (clubs, players, seasons, season clubs, transfers, bans)."""

from django.contrib import admin

from lib.formulas import NamesAreTextMixin
from registry import models


@admin.register(models.Club)
class ClubAdmin(NamesAreTextMixin, admin.ModelAdmin):
    name_fields = ("name", "short_name")
    list_display = ["name", "short_name", "town"]
    search_fields = ["name", "short_name", "town"]


@admin.register(models.Player)
class PlayerAdmin(NamesAreTextMixin, admin.ModelAdmin):
    name_fields = ("first_name", "last_name")
    list_display = ["last_name", "first_name", "member_number", "club"]
    list_filter = ["club"]
    search_fields = ["last_name", "first_name", "member_number"]


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["__str__", "start", "best_n"]


@admin.register(models.SeasonClub)
class SeasonClubAdmin(admin.ModelAdmin):
    list_display = ["player", "season", "club", "first_event"]
    list_filter = ["season", "club"]
    search_fields = ["player__last_name", "player__first_name"]
    raw_id_fields = ["player", "first_event"]


@admin.register(models.Transfer)
class TransferAdmin(admin.ModelAdmin):
    list_display = ["player", "season", "from_club", "to_club", "confirmed_on"]
    list_filter = ["season"]
    raw_id_fields = ["player"]


@admin.register(models.Ban)
class BanAdmin(admin.ModelAdmin):
    """Bans the federation's board gave (issue #29): federation staff record them; the entry services refuse
    a banned player (``registry.bans``)."""

    list_display = ["player", "starts_on", "ends_on", "decision", "decided_on", "created_by"]
    list_filter = ["ends_on", "starts_on", "decided_on"]
    search_fields = ["player__last_name", "player__first_name", "player__member_number", "decision"]
    date_hierarchy = "starts_on"
    raw_id_fields = ["player"]
    readonly_fields = ["created_at", "created_by"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
