"""Django admin for federation staff: events and pairs (the registry's clubs, players, seasons and
transfers: ``registry.admin``)."""

from django.contrib import admin

from lib.formulas import NamesAreTextMixin
from tournaments import models


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
