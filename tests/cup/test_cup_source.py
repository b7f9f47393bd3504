"""The cup pages' source stands for the season's cup by its cup key (``cup.live.CupSource``): a page or
answer whose rendering is kept is served without reading the season's cup at all, so a process that has no
copy of its own (a new worker, or one whose copies gave way to a live event's) unpickles nothing large; a
change of the facts moves the key, and the page shows the change."""

from __future__ import annotations

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cup import services
from lib import caching


def kept_pages(season, someone) -> list[str]:
    return [
        reverse("cup:players", args=[season.pk]),
        reverse("cup:pairs", args=[season.pk]),
        reverse("cup:clubs", args=[season.pk]),
        reverse("cup:player", args=[season.pk, someone.pk]),
        reverse("api_season_cup", args=[season.pk]),
    ]


def shown(content: bytes) -> bytes:
    """The answer without the visitor's CSRF token (masked afresh in every response)."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", content)


def test_a_kept_page_is_served_without_the_season_cup(client, hand_season, monkeypatch):
    season = hand_season.season
    urls = kept_pages(season, hand_season.players["Aho"])
    first = {url: client.get(url).content for url in urls}
    caching.clear_local()  # this process's copies gone; the shared cache keeps the renderings

    def unread(*args, **kwargs):
        raise AssertionError("the season's cup was read for a page whose rendering is kept")

    monkeypatch.setattr(services, "season_cup", unread)
    queries = {}
    for url in urls:
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        queries[url] = len(ctx.captured_queries)
        assert response.status_code == 200, url
        assert shown(response.content) == shown(first[url]), url
    # the season, its cup key and the seasons with a cup (the player's page: the player too)
    assert list(queries.values()) == [3, 3, 3, 4, 3], queries


def test_a_change_of_the_facts_is_shown_after_a_kept_page(client, hand_season):
    season = hand_season.season
    url = reverse("api_season_cup", args=[season.pk])
    before = client.get(url).json()
    assert before["season"]["best_n"] == 2 and before["players"][0]["points"] == 47
    season.best_n = None  # every event counts: Aho's summer event's 10 points are added
    season.save()
    caching.clear_local()
    after = client.get(url).json()
    assert after["season"]["best_n"] is None and after["players"][0]["points"] == 57
