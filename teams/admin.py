"""Django admin for federation staff: teams, the bracket's rounds and team matches (read mostly)."""

from django.contrib import admin

from lib.formulas import NamesAreTextMixin
from teams import models


class TeamPairInline(admin.TabularInline):
    model = models.TeamPair
    raw_id_fields = ["pair"]
    extra = 0


@admin.register(models.Team)
class TeamAdmin(NamesAreTextMixin, admin.ModelAdmin):
    name_fields = ("name", "leader_name")
    list_display = ["name", "event", "club", "leader_name", "substitute"]
    list_filter = ["event"]
    search_fields = ["name", "leader_name"]
    raw_id_fields = ["substitute"]
    inlines = [TeamPairInline]


@admin.register(models.TeamRound)
class TeamRoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "day"]
    list_filter = ["event"]


@admin.register(models.TeamMatch)
class TeamMatchAdmin(admin.ModelAdmin):
    list_display = ["event", "round", "slot", "third_place", "team_a", "team_b", "started_at"]
    list_filter = ["event"]
