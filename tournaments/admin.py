"""Django admin for federation staff: the registry (clubs, players, seasons, transfers) and events."""

from django.contrib import admin

from tournaments import models


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "short_name", "town"]
    search_fields = ["name", "short_name", "town"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
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


class PairMemberInline(admin.TabularInline):
    model = models.PairMember
    raw_id_fields = ["player"]
    fields = ["position", "player"]
    extra = 0


@admin.register(models.Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "number", "club", "checked_in", "withdrawn_at"]
    list_filter = ["event"]
    inlines = [PairMemberInline]


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "kind", "format", "organising_club"]
    list_filter = ["season", "kind"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    readonly_fields = ["draw_seed", "drawn_at", "drawn_by"]
