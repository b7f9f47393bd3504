"""The archive's lists as django-tables2 tables (issue #28): each column declared once with its
translated header; sorting where a reader sorts (name, club, counts), pagination for long lists. The
rendering (``templates/archive/_table.html``) keeps the site's scrolling table: on a phone a wide table
scrolls sideways and its first column stays in view (``static/css/site.css``, ``.archive-table``)."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from lib.tables import Table

PER_PAGE = 50
TEMPLATE = "archive/_table.html"
NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


class _Table(Table):
    class Meta:
        template_name = TEMPLATE
        attrs = {"class": "archive-table"}
        orderable = True


class PlayerTable(_Table):
    name = tables.Column(_("Pelaaja"), accessor="full_name", order_by=("last_name", "first_name"),
                         linkify=("archive:player", {"player_id": tables.A("pk")}))
    club = tables.Column(_("Kotikerho"), accessor="club__name", linkify=("archive:club", {"club_id": tables.A("club_id")}),
                         default="")
    events = tables.Column(_("Kisoja"), attrs=NUM)

    class Meta(_Table.Meta):
        empty_text = _("Haulla ei löytynyt ketään.")


class ClubTable(_Table):
    name = tables.Column(_("Kerho"), linkify=("archive:club", {"club_id": tables.A("pk")}))
    town = tables.Column(_("Paikkakunta"), default="")
    members = tables.Column(_("Pelaajia"), attrs=NUM)
    organised = tables.Column(_("Järjestetyt kisat"), attrs=NUM)

    class Meta(_Table.Meta):
        empty_text = _("Haulla ei löytynyt ketään.")


def _players(rows) -> str:
    return format_html_join(", ", '<a href="{}">{}</a>',
                            ((reverse("archive:player", args=[r.player.pk]), r.player.full_name) for r in rows))


class SeasonTable(_Table):
    """Every season (a list of ``archive.readmodel.seasons.SeasonSummary``): events, cup winners, SM champions."""

    season = tables.Column(_("Kausi"), accessor="season__start", linkify=lambda record: reverse(
        "archive:season", args=[record.season.pk]))
    events = tables.Column(_("Kisat"), accessor="events", order_by="event_count", default="")
    cup = tables.Column(_("Tuppicupin voittaja"), accessor="cup_players", orderable=False, default="")
    champions = tables.Column(_("Suomen mestarit, parikisa"), accessor="champions", orderable=False, default="")

    class Meta(_Table.Meta):
        empty_text = _("Kausia ei ole vielä.")

    def render_season(self, record):
        return str(record.season)

    def render_events(self, value):
        return format_html_join(", ", '<a href="{}">{}</a>', ((line.event.get_absolute_url(), line.event.name) for line in value))

    def render_cup(self, value):
        return _players(value)

    def render_champions(self, value):
        pairs = [pair for line in value for pair in line.winners]
        return format_html_join("; ", "{}", ((format_html_join(" / ", '<a href="{}">{}</a>', (
            (reverse("archive:player", args=[p.pk]), p.full_name) for p in pair.players)),) for pair in pairs))
