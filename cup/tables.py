"""The cup rankings as django-tables2 tables (issue #28.6): players, fixed pairs and clubs, each column
declared once with its translated header. The ranking's order is the default; a tap on a header sorts
by name, points or match wins (``?jarjestys=``), 50 rows a page (``?sivu=``), and the name search
(``?haku=``) keeps each row's rank in the whole ranking ("2.–3."). The rendering
(``templates/cup/_table.html``) is the site's scrolling table whose rank and name columns stay in view.

The default view (no sort, no search, page 1) is rendered once per change of the cup key into the caches
(``cup.views``); the other views are rendered per request from the cached season cup, without a query."""

from __future__ import annotations

import django_tables2 as tables
from django.http import HttpRequest, QueryDict
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import localize
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language, gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from cup.labels import folded, places, short_event
from lib import caching
from lib.tables import Table

PER_PAGE = 50
PARAMS = ("jarjestys", "sivu", "haku")  # a view with any of them is rendered per request
SEARCH_LENGTH = 100
NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
COUNTED = {"th": {"class": "num", "title": _("Otteluvoitot lasketuissa kisoissa")}, "td": {"class": "num"}}
PLACES = {"th": {"title": _("Lasketut sijat")}, "td": {"class": "meta places"}}


def _found_text(message: str):
    """A "found" count for ``static/js/filter.js`` (which fills in ``%(count)s``), under the msgid the
    templates gave it (their extraction doubles the %)."""
    return lazy(lambda: gettext(message).replace("%%", "%"), str)()


def _cell_class(value) -> str:
    if value is None:
        return "num meta"
    return "num counted" if value.counted else "num uncounted"


def _cell_title(value) -> str | None:
    if value is None:
        return None
    return _("%(place)s. sija, %(wins)s otteluvoittoa") % {"place": value.place, "wins": value.match_wins}


class EventColumn(tables.Column):
    """One counted event's points: the uncounted in brackets (and said so for screen readers), "–" where
    the player did not play it."""

    def __init__(self, index: int, column, **kwargs):
        header = format_html(
            '<abbr title="{}, {}">{}</abbr><br><small>{}{}</small>', column.event.name,
            f"{column.event.starts_on.day}.{column.event.starts_on.month}.{column.event.starts_on.year}",
            short_event(column.event.name), f"{column.event.starts_on.day}.{column.event.starts_on.month}.",
            " ½" if column.half else "")
        super().__init__(header, accessor=tables.A(f"cells__{index}"), orderable=False, default=None,
                         empty_values=(), attrs={"th": {"class": "num event"},
                                                 "td": {"class": lambda record: _cell_class(record.cells[index]),
                                                        "title": lambda record: _cell_title(record.cells[index])}}, **kwargs)

    def render(self, value):
        if value is None:
            return "–"
        if value.counted:
            return value.points
        return format_html('({})<span class="visually-hidden"> {}</span>', localize(value.points), _("ei lasketa"))


class _Ranking(Table):
    rank = tables.Column(_("Sija"), accessor="rank_label", order_by="rank",
                         attrs={"th": {"class": "num rank"}, "td": {"class": "num rank"}})

    class Meta:
        template_name = "cup/_table.html"
        orderable = True
        per_page = PER_PAGE

    def __init__(self, data, *, season, columns=(), **kwargs):
        self.season = season
        extra = [(f"event{i}", EventColumn(i, column)) for i, column in enumerate(columns)]
        kwargs.setdefault("per_page_field", "sivulla")
        sequence = [*self.base_columns_before, *[name for name, _c in extra], *self.base_columns_after]
        super().__init__(data, extra_columns=extra, sequence=sequence, **kwargs)

    base_columns_before: tuple[str, ...] = ()
    base_columns_after: tuple[str, ...] = ()

    def render_places(self, value):
        return places(value)

    def _player_link(self, person) -> str:
        return format_html('<a href="{}">{}</a>', reverse("cup:player", args=[self.season.pk, person.pk]),
                           person.full_name)


class PlayerTable(_Ranking):
    who = tables.Column(_("Pelaaja"), accessor="player", order_by=("player__last_name", "player__first_name"),
                        attrs={"td": {"class": "who"}, "th": {"class": "who"}})
    points = tables.Column(_("Pist."), accessor="points", attrs={"th": {"class": "num"}, "td": {"class": "num total"}})
    places = tables.Column(_("Sijat"), accessor="places", orderable=False, attrs=PLACES)
    wins = tables.Column(_("V"), accessor="match_wins", attrs=COUNTED)
    # while the season has legs to play (issue #28.5): the best and worst reachable position
    reach = tables.TemplateColumn(
        template_name="cup/_reach_cell.html", verbose_name=_("Paras / huonoin mahdollinen sija"), orderable=False,
        attrs={"th": {"class": "num reach", "title": _("Paras ja huonoin mahdollinen sija jäljellä olevien kisojen jälkeen")},
               "td": {"class": "num reach"}},
    )
    base_columns_before = ("rank", "who", "points")
    base_columns_after = ("places", "wins", "reach")

    class Meta(_Ranking.Meta):
        attrs = {"class": "cup-table players", "tbody": {
            "id": "cup-players-list", "data-found-one": _("1 pelaaja löytyi"), "data-found-many": _found_text(gettext_noop("%%(count)s pelaajaa löytyi"))}}
        empty_text = _("Haulla ei löytynyt ketään.")
        row_attrs = {"data-search": lambda record: search_text(record)}

    def render_who(self, record):
        club = record.club
        where = (club.short_name or club.name) if club else _("kerho tuntematon")
        return format_html('{}<br><span class="meta">{}</span>', self._player_link(record.player), where)


class PairTable(PlayerTable):
    who = tables.Column(_("Pari"), accessor="name", attrs={"td": {"class": "who"}, "th": {"class": "who"}})

    class Meta(PlayerTable.Meta):
        attrs = {"class": "cup-table pairs", "tbody": {
            "id": "cup-pairs-list", "data-found-one": _("1 pari löytyi"), "data-found-many": _found_text(gettext_noop("%%(count)s paria löytyi"))}}

    def render_who(self, record):
        links = format_html_join(" / ", "{}", ((self._player_link(p),) for p in record.players))
        clubs = ", ".join(c.short_name or c.name for c in record.clubs)
        return format_html('{}<br><span class="meta">{}</span>', links, clubs)


class ClubTable(_Ranking):
    who = tables.Column(_("Kerho"), accessor="club__name", attrs={"td": {"class": "who"}, "th": {"class": "who"}})
    points = tables.Column(_("Pist."), accessor="points", attrs={"th": {"class": "num"}, "td": {"class": "num total"}})
    members = tables.Column(_("Pelaajia"), accessor="members", orderable=False, attrs=NUM)
    places = tables.Column(_("Sijat"), accessor="places", orderable=False, attrs=PLACES)
    wins = tables.Column(_("V"), accessor="match_wins", attrs=COUNTED)
    base_columns_before = ("rank", "who", "points", "members", "places", "wins")

    class Meta(_Ranking.Meta):
        attrs = {"class": "cup-table clubs"}

    def render_members(self, value):
        return len(value)


def search_text(row) -> str:
    """A row's words as the name search compares them (names and clubs, folded)."""
    clubs = row.clubs or ((row.club,) if row.club else ())
    words = [p.full_name for p in row.players] + [n for c in clubs for n in (c.name, c.short_name or "")]
    return folded(" ".join(words))


def found(rows, query: str):
    """The rows whose names or clubs contain every word of ``query`` (diacritics ignored)."""
    words = folded(query).split()
    return [row for row in rows if all(word in search_text(row) for word in words)] if words else list(rows)


KINDS = {"players": PlayerTable, "pairs": PairTable, "clubs": ClubTable}


def _request(params: dict) -> HttpRequest:
    """A request asking only for ``params`` (those given): what the table's links carry."""
    request = HttpRequest()
    request.GET = QueryDict(mutable=True)
    request.GET.update({name: value for name, value in params.items() if value})
    return request


LABELS = {"players": _("Pelaajien cup-pisteet"), "pairs": _("Parien cup-pisteet"), "clubs": _("Kerhojen cup-pisteet")}


def rendered(cup, kind: str, request: HttpRequest | None = None) -> str:
    """The ranking ``kind`` of ``cup`` as HTML: as ``request`` asks (sorted, searched, a page), or
    without it the default view (the one rendered once into the caches with the page).

    Only the table's own parameters are read, checked by the table (an unknown column sorts nothing, a
    page out of range is the nearest one), and its links carry only them. A sorted view or a later page
    is rendered once per cup key, sort, page and language into the caches; a search (few rows, any text)
    is rendered each time."""
    asked = request.GET if request is not None else QueryDict("")
    query = asked.get("haku", "").strip()[:SEARCH_LENGTH]
    rows = getattr(cup, kind)
    reach = kind != "clubs" and getattr(cup, "has_reach", False)
    table = KINDS[kind](found(rows, query) if kind != "clubs" else rows, season=cup.season,
                        columns=cup.columns if kind != "clubs" else (), exclude=() if reach else ("reach",))
    tables.RequestConfig(_request({"jarjestys": asked.get("jarjestys", "")[:40], "sivu": asked.get("sivu", "")[:10]}),
                         paginate={"per_page": PER_PAGE}).configure(table)
    order, page = ",".join(table.order_by or ()), table.page.number
    shown = _request({"haku": query, "jarjestys": order, "sivu": str(page) if page > 1 else ""})

    def render() -> str:
        return render_to_string("cup/_table.html", {"table": table, "request": shown, "table_label": LABELS[kind],
                                                    "query": query, "searchable": kind != "clubs"})

    if request is None or query or not cup.key or not getattr(cup, "cacheable", True):
        return render()
    key = f"cup-table:{cup.key}:{cup.season.pk}:{kind}:{get_language()}:{order}:{page}:{PER_PAGE}"
    return caching.versioned(key, render, lock=False)
