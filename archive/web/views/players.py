"""The players' pages (issue #28): the search, a player's history and the head-to-head of two players."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from archive.readmodel import players as read
from archive.web.tables import PER_PAGE, PlayerTable
from archive.web.views import cached_body, found_or_404
from cup import services as cup
from registry.models import Player


@require_GET
def index(request):
    """Find a player by name (diacritics ignored) or member number; without a search, every player."""
    query = request.GET.get("q", "").strip()[:100]
    rows = read.players_with_events()
    if query:
        rows = rows.filter(pk__in=[p.pk for p in read.find_players(query)])
    table = PlayerTable(rows)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(request, "archive/players.html", {"query": query, "table": table})


def _key(kind: str, people) -> str:
    """The page's key: the players, their pairs' events at their versions, the seasons' cup keys (two
    light queries)."""
    rows = read.key_rows([p.pk for p in people])
    return f"{kind}:" + read.page_key(people, rows, cup.cup_keys({row[-1] for row in rows}))


@require_GET
def player(request, player_id: int):
    """A player's history; its body rendered once per change of what it shows (three queries warm)."""
    found = found_or_404(Player, player_id, select=("club",))
    body = cached_body(_key("player", [found]), "archive/_player_body.html",
                       lambda: {"history": read.history(found), "person": found})
    return render(request, "archive/player.html", {"person": found, "body": body})


@require_GET
def versus(request, player_id: int, other_id: int):
    person = found_or_404(Player, player_id, select=("club",))
    other = found_or_404(Player, other_id, select=("club",))
    body = cached_body(_key("versus", [person, other]), "archive/_versus_body.html",
                       lambda: {"h2h": read.head_to_head(person, other)})
    return render(request, "archive/versus.html", {"person": person, "other": other, "body": body})
