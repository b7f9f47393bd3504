"""The cache is a cache (issue #23): with the shared cache unreachable (Redis not answering) or not
writable (a file cache whose folder cannot be created), every public page, PDF and API answer is
computed without it, a scoresheet line saved through the secret link is stored and shows on the public
pages, the results desk works, and the readiness check says ``"cache": "down"`` with 200.

The backends are the ones ``CACHE_URL`` selects (``lib/env.py``), with the circuit breaker off
(``BREAK_SECONDS`` 0), so every cache call of the site meets the failing backend itself."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse

import lib.cache
from lib import caching
from lib.env import cache_from_env
from tests.support.results_helpers import link_url, one_group_event, post_line, rami, sheet_lines
from tournaments.models import Match


def unreachable_redis(tmp_path) -> str:
    return "redis://127.0.0.1:1/0"  # nothing listens on port 1: the connection is refused at once


def unwritable_file_cache(tmp_path) -> str:
    (tmp_path / "file").write_text("a regular file, so no folder can be made under it (even as root)")
    return f"file://{tmp_path / 'file' / 'cache'}"


@pytest.fixture(params=[unreachable_redis, unwritable_file_cache], ids=["redis-down", "file-unwritable"])
def cache_down(request, settings, monkeypatch, tmp_path, caplog):
    """``settings.CACHES`` as ``CACHE_URL`` would make it for a cache that does not answer."""
    monkeypatch.setenv("CACHE_URL", request.param(tmp_path))
    monkeypatch.setattr(lib.cache, "BREAK_SECONDS", 0.0)
    lib.cache.forget_outages()
    settings.CACHES = {"default": cache_from_env(settings.BASE_DIR, settings.DATABASES)}
    caching.clear_local()  # nothing computed before the outage is at hand in this process either
    caplog.set_level(logging.WARNING, logger="lib.cache")
    yield caplog
    lib.cache.forget_outages()


@pytest.fixture
def live_event(make_event, organiser):
    """A drawn one-group event of five pairs (made before the outage when a test asks for ``live_event``
    first, during it when ``cache_down`` comes first)."""
    event, group, pairs = one_group_event(make_event, organiser, 5, name="Katkokisa", slug="katkokisa")
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    return event, group, pairs, match


def ok(client, url: str, **headers) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode() if response["Content-Type"].startswith(("text/", "application/json")) else ""


def test_public_pages_answer_without_the_cache(client, live_event, cache_down):
    """The cache goes down during a live event: every page is computed from the database."""
    event, group, pairs, match = live_event
    slug = event.slug
    for html in (
        ok(client, reverse("event", args=[slug])),
        ok(client, reverse("group", args=[slug, group.name])),
        ok(client, reverse("schedule", args=[slug])),
    ):
        assert "Katkokisa" in html and pairs[0].name in html
    assert match.pair_a.full_name in ok(client, reverse("match", args=[slug, match.pk]))
    assert pairs[2].full_name in ok(client, reverse("pair", args=[slug, pairs[2].number]))
    assert "0/10" in ok(client, reverse("event", args=[slug]), HTTP_HX_REQUEST="true")  # the live part
    api = client.get(reverse("api_event", args=[slug])).json()
    assert api["slug"] == slug and [p["id"] for p in api["groups"][0]["pairs"]] == [p.pk for p in pairs]
    pdf = client.get(reverse("group_tables_pdf", args=[slug]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert ok(client, reverse("cup:players", args=[event.season_id])) is not None
    assert ok(client, reverse("home")) and ok(client, reverse("api_events"))
    assert cache_down.get_records("setup") + cache_down.records, "the cache never failed: this proves nothing"


def test_a_line_saved_through_the_secret_link_is_stored_and_shown(client, cache_down, live_event, organiser):
    """The event is drawn and the line saved while the cache is down: every version bump, its head
    deleted inside the writing transaction and its after-commit prebuild meet the failing cache."""
    event, group, pairs, match = live_event
    ok(client, reverse("match", args=[event.slug, match.pk]))  # a phone watches the match
    version = event.results_version
    response = post_line(client, link_url(match), rami("A", 10), match=match)
    assert response.status_code == 302
    assert match.entries.count() == 1
    event.refresh_from_db()
    assert event.results_version > version
    html = ok(client, reverse("match", args=[event.slug, match.pk]))
    assert sheet_lines(html) == [["1", "R", "1", "10–3", "16 A", "16", ""]]
    api = client.get(reverse("api_event", args=[event.slug])).json()
    shown = {m["id"]: m for m in api["groups"][0]["matches"]}[match.pk]
    assert shown["totals"] == {"a": 16, "b": 0}
    client.force_login(organiser)
    assert match.pair_a.name in ok(client, reverse("organiser:results", args=[event.slug]))  # the results desk


def test_readiness_says_the_cache_is_down(client, cache_down, db):
    response = client.get("/terveys/valmis/")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "down"}
