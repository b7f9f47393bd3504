"""Django admin for federation staff: the registry (clubs, players, seasons, transfers) and events."""

from django.contrib import admin

from tournaments import models
from tournaments.validators import reject_formula


class NamesAreTextMixin:
    """Refuse names a spreadsheet would read as a formula (the workbooks write them as text anyway)."""

    name_fields: tuple[str, ...] = ()

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if field is not None and db_field.name in self.name_fields:
            field.validators = [*field.validators, reject_formula]
        return field


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
class EventAdmin(NamesAreTextMixin, admin.ModelAdmin):
    name_fields = ("name",)
    list_display = ["name", "starts_on", "kind", "format", "organising_club"]
    list_filter = ["season", "kind"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    readonly_fields = ["draw_seed", "drawn_at", "drawn_by"]
