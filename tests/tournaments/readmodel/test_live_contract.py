"""The contract of every cached answer (tournaments/readmodel/live.py): what is stored under a key, and the ETag a
phone keeps, name exactly the version of the facts it was made from, whichever snapshot a process has in
hand while another process computes the newest one."""

from __future__ import annotations

import json
import re
import time

import pytest
from django.core.cache import cache
from django.urls import reverse

from lib import caching
from tests.support.builders import add_pairs
from tests.support.results_helpers import entry_data, rami
from tournaments.actions import draw, results
from tournaments.models import Event, Match
from tournaments.readmodel import build, values
from tournaments.readmodel import snapshot as readmodel
from tournaments.web.views.public import EVENT, GROUP, MATCH, PAIR, SCHEDULE

POLL = {"HTTP_HX_REQUEST": "true"}
ORGANISER = results.Actor(user=None)


@pytest.fixture
def drawn(make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=5)
    return event


def first_match(event) -> Match:
    return Match.objects.filter(event=event, stage="saturday").order_by("round", "table").first()


CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')


def seen(response) -> tuple[str, bytes]:
    """The ETag and the content (without the form token, new on every rendering of a whole page)."""
    return response["ETag"], CSRF.sub(b"", response.content)


def fresh(client, url, **headers):
    """The answer with every cache emptied: what the database holds now."""
    cache.clear()
    caching.clear_local()
    return seen(client.get(url, **headers))


def another_process_computes_the_snapshot(event) -> None:
    """As if another worker had just taken the lock to compute the event's new snapshot."""
    found = Event.objects.get(pk=event.pk)
    cache.set(f"{values.key(found.pk, found.created_at, found.results_version)}:lock", time.time(), 20)


@pytest.mark.parametrize("poll", [True, False])
def test_while_another_process_computes_the_previous_version_is_served_whole(client, drawn, poll):
    """The API and a page answer the previous version under the previous version's ETag (never the new
    ETag over the old content, the fault the two-process run found), then the new one."""
    headers = POLL if poll else {}
    urls = [reverse("api_event", args=[drawn.slug]), reverse("match", args=[drawn.slug, first_match(drawn).pk])]
    before = {url: fresh(client, url, **headers) for url in urls}
    for url in urls:
        client.get(url, **headers)  # this process now holds the snapshot of the version before
    results.add_entry(first_match(drawn), entry_data(rami("A", 9)), version=None, actor=ORGANISER)
    another_process_computes_the_snapshot(drawn)
    for url in urls:
        response = client.get(url, **headers)
        assert seen(response) == before[url], url
        assert response["X-Tuppi-Version"] == str(Event.objects.get(pk=drawn.pk).results_version - 1)
    after = {url: fresh(client, url, **headers) for url in urls}
    for url in urls:
        assert after[url] != before[url]
        assert seen(client.get(url, **headers)) == after[url]


def test_a_lock_left_by_a_computation_that_died_is_not_waited_out(client, drawn, monkeypatch):
    """A lock older than a few seconds is no reason to serve the previous version or to wait: the
    request computes the snapshot itself (the staleness target holds even if a worker was killed)."""
    url = reverse("api_event", args=[drawn.slug])
    client.get(url)
    results.add_entry(first_match(drawn), entry_data(rami("A", 9)), version=None, actor=ORGANISER)
    found = Event.objects.get(pk=drawn.pk)
    cache.set(f"{values.key(found.pk, found.created_at, found.results_version)}:lock", time.time() - 60, 20)
    monkeypatch.setattr(caching, "WAIT", 60.0)  # were it waited out, the test would hang
    response = client.get(url)
    assert response["X-Tuppi-Version"] == str(found.results_version)
    assert seen(response) == fresh(client, url)


def test_the_version_header_names_the_content(client, drawn):
    url = reverse("api_event", args=[drawn.slug])
    for deals in range(3):
        response = client.get(url)
        body = json.loads(response.content)
        played = [m for g in body["groups"] for m in g["matches"] if m["totals"]["a"] or m["totals"]["b"]]
        assert len(played) == min(deals, 1)
        assert response["X-Tuppi-Version"] == str(Event.objects.get(pk=drawn.pk).results_version)
        results.add_entry(first_match(drawn), entry_data(rami("A", 9)), version=None, actor=ORGANISER)


@pytest.mark.parametrize("page", [EVENT, SCHEDULE, GROUP, MATCH, PAIR])
def test_what_a_page_shows_is_plain_values(drawn, page):
    """Every value a page shows can be digested (lib.fingerprint refuses anything it cannot name)."""
    from lib.fingerprint import digest

    snap = readmodel.snapshot(drawn)
    args = {
        "event": {}, "schedule": {"kierros": None}, "group": {"name": "A"},
        "match": {"match_id": first_match(drawn).pk}, "pair": {"number": 1},
    }[page.name]
    if page.clock is not None:
        args["now"] = page.clock()
    shown = page.build(snap, **args)
    assert digest(shown) == digest(page.build(build.build(drawn.pk), **args))


def test_a_page_keeps_its_etag_when_nothing_it_shows_changed(client, drawn):
    """A group page's ETag is the digest of what it shows: a result in another group leaves it."""
    match = first_match(drawn)
    other = next(g for g in drawn.groups.all() if g.pk != match.group_id)
    url = reverse("group", args=[drawn.slug, other.name])
    tag = client.get(url, **POLL)["ETag"]
    results.add_entry(match, entry_data(rami("A", 9)), version=None, actor=ORGANISER)
    assert client.get(url, HTTP_IF_NONE_MATCH=tag, **POLL).status_code == 304
    mine = reverse("group", args=[drawn.slug, match.group.name])
    assert client.get(mine, **POLL)["ETag"] != tag
