"""Live pages for polling phones (tournaments/readmodel/live.py, readmodel.py, caching.py): conditional GET, and no
page or API answer ever stale after any kind of change.

"Not stale" is checked the strict way: after a change, every public page's live part and the API answer
what they would answer with every cache emptied, and a browser holding an old ETag gets 304 only for a
page whose answer is exactly what it had (each page's ETag names what that page shows).
"""

from __future__ import annotations

import json
import random
import re
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from lib import caching
from teams.actions import common, orders, substitutes
from tests.support.builders import add_pairs
from tests.support.results_helpers import entry_data, paper, rami, tie_group
from tests.teams.builders import declare, drawn_event, players, row
from tournaments.actions import draw, entries, sunday
from tournaments.actions import results as result_actions
from tournaments.actions.simulation import confirm_all, play_matches, settle_playoffs
from tournaments.models import Event, Match
from tournaments.readmodel import build

POLL = {"HTTP_HX_REQUEST": "true"}
ORGANISER = result_actions.Actor(user=None)


def public_urls(event) -> list[str]:
    event = Event.objects.get(pk=event.pk)
    if event.kind == Event.Kind.SM_TEAM:
        urls = [reverse(f"teams:{name}", args=[event.slug]) for name in ("bracket", "teams", "final_places")]
        return [*urls, reverse("api_event", args=[event.slug])]
    urls = [
        reverse(name, args=[event.slug])
        for name in ("event", "schedule", "sunday", "final_places", "hall", "api_event")
    ]
    urls += [reverse("group", args=[event.slug, g.name]) for g in event.groups.all()]
    urls += [reverse("pair", args=[event.slug, p.number]) for p in event.pairs.all()[:3]]
    urls += [reverse("match", args=[event.slug, m.pk]) for m in event.matches.order_by("pk")[:3]]
    return urls


CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')


def answers(client, urls) -> dict[str, tuple[int, str, bytes]]:
    """Each URL's answer to a poll; a page without a live part is whole, and its form token (different
    on every rendering) is left out."""
    out = {}
    for url in urls:
        response = client.get(url, **POLL)
        out[url] = (response.status_code, response.get("ETag", ""), CSRF.sub(b"", response.content))
    return out


def assert_fresh(client, event, before: dict) -> None:
    """Every page answers as it would with no cache at all, and an old ETag gets 304 only where the page
    is exactly as it was."""
    urls = public_urls(event)
    now = answers(client, urls)
    for url, (status, tag, content) in before.items():
        if url in now and status == 200:
            again = client.get(url, HTTP_IF_NONE_MATCH=tag, **POLL)
            if again.status_code == 304:
                assert now[url] == (200, tag, content), f"{url}: 304 for a page that changed"
            else:
                assert again.status_code == now[url][0], url
    cache.clear()
    caching.clear_local()
    assert answers(client, urls) == now


def change_and_check(client, event, change) -> None:
    before = answers(client, public_urls(event))
    change()
    assert_fresh(client, event, before)


@pytest.fixture
def drawn(make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    pairs = add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=5)
    return event, pairs


def first_match(event) -> Match:
    return Match.objects.filter(event=event, stage="saturday").order_by("round", "table").first()


def test_unchanged_poll_is_304_with_one_query(client, drawn):
    event, _pairs = drawn
    for url in public_urls(event):
        response = client.get(url, **POLL)
        assert response.status_code == 200 and response["ETag"].startswith('W/"'), url
        assert "no-cache" in response["Cache-Control"] and "HX-Request" in response["Vary"]
        with CaptureQueriesContext(connection) as ctx:
            again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"], **POLL)
        assert again.status_code == 304 and again.content == b"", url
        # at most the event's version (it is in the shared cache after the first answer: no query at all)
        assert len(ctx.captured_queries) <= 1, (url, [q["sql"] for q in ctx.captured_queries])


def test_a_changed_page_costs_one_snapshot_shared_by_every_process(client, drawn):
    """After a change, the first request computes the snapshot once; another process (its own memory
    empty, the shared cache full) serves the same pages without computing or loading anything."""
    event, _pairs = drawn
    urls = [u for u in public_urls(event) if "/api/" not in u]
    answers(client, urls)
    result_actions.add_entry(first_match(event), entry_data(rami("A", 9)), version=None, actor=ORGANISER)
    computed = caching.stats["computed"]
    first = answers(client, urls)
    snapshots = caching.stats["computed"] - computed
    assert snapshots >= 1  # the snapshot and each page's live part, once each
    caching.clear_local()  # "another process": only the shared cache is left
    computed = caching.stats["computed"]
    for url in urls:
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url, **POLL)
        assert (response.status_code, response["ETag"], response.content) == first[url]
        assert len(ctx.captured_queries) <= 1, url  # the version at most: nothing loaded again
    assert caching.stats["computed"] == computed


def test_a_page_keeps_its_etag_while_another_group_changes(client, drawn):
    """Each page's ETag names what it shows: a phone on group A gets 304 while results come in from group
    C, and the page of group C changes at once."""
    event, _pairs = drawn
    group_a, group_c = (reverse("group", args=[event.slug, name]) for name in ("A", "C"))
    a, c = client.get(group_a, **POLL), client.get(group_c, **POLL)
    in_c = Match.objects.get(event=event, group__name="C")
    result_actions.add_entry(in_c, entry_data(rami("A", 9)), version=None, actor=ORGANISER)
    assert client.get(group_a, HTTP_IF_NONE_MATCH=a["ETag"], **POLL).status_code == 304
    changed = client.get(group_c, HTTP_IF_NONE_MATCH=c["ETag"], **POLL)
    assert changed.status_code == 200 and changed["ETag"] != c["ETag"]


def test_whole_page_and_live_part(client, drawn, organiser):
    event, _pairs = drawn
    url = reverse("group", args=[event.slug, "A"])
    page = client.get(url)
    part = client.get(url, **POLL)
    assert page["ETag"] != part["ETag"]  # the same URL answers two things: each has its own ETag
    assert b"<html" in page.content and b"<html" not in part.content
    assert part.content.decode().strip().startswith('<div id="live"')
    assert part.content in page.content  # the whole page carries exactly the live part it polls
    assert f'data-etag="{part["ETag"].replace(chr(34), "&quot;")}"'.encode() in part.content
    client.force_login(organiser)
    assert client.get(url)["ETag"] != page["ETag"]  # a whole page is rendered for its visitor


def test_the_api_is_conditional_and_equals_a_fresh_build(client, drawn):
    event, _pairs = drawn
    url = reverse("api_event", args=[event.slug])
    first = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    paper(first_match(event), 40, 20)
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    from tournaments.web.views.api import event_json

    assert json.loads(second.content) == json.loads(json.dumps(event_json(build.build(event.pk))))


@pytest.mark.slow
def test_results_never_stale(client, drawn, organiser):
    event, _pairs = drawn
    match = first_match(event)
    line = entry_data(rami("A", 9))
    change_and_check(client, event, lambda: result_actions.add_entry(match, line, version=None, actor=ORGANISER))
    line = entry_data(rami("B", 10))
    change_and_check(client, event, lambda: result_actions.replace_entry(match, 1, line, version=None, actor=ORGANISER))
    change_and_check(client, event, lambda: result_actions.delete_last_entry(match, version=None, actor=ORGANISER))
    change_and_check(client, event, lambda: paper(match, 60, 20))
    change_and_check(client, event, lambda: result_actions.set_confirmed(match, True, version=None, user=organiser))
    change_and_check(client, event, lambda: result_actions.clear_paper(match, version=None, actor=organiser_actor(organiser)))


def organiser_actor(user):
    return result_actions.Actor(user=user)


@pytest.mark.slow
def test_draw_swap_withdrawal_and_edits_never_stale(client, drawn, organiser):
    event, pairs = drawn
    change_and_check(client, event, lambda: draw.draw_groups(event, organiser, seed=8))
    groups = draw.current_groups(event)
    x, y = (event.pairs.get(pk=groups[0][0]), event.pairs.get(pk=groups[1][0]))
    change_and_check(client, event, lambda: draw.swap_pairs(event, x, y, organiser))
    change_and_check(client, event, lambda: entries.withdraw_pair(pairs[3]))

    def rename():
        found = Event.objects.get(pk=event.pk)
        found.name, found.venue = "Uusi nimi", "Uusi paikka"
        found.save()

    change_and_check(client, event, rename)
    assert "Uusi paikka" in client.get(reverse("event", args=[event.slug])).content.decode()


def test_play_off_never_stale(client, make_event, organiser):
    event, group, pairs = tie_group(make_event, organiser)
    order = [pairs[2].pk, pairs[0].pk, pairs[1].pk]
    change_and_check(client, event, lambda: result_actions.record_playoff(group, order, user=organiser))


@pytest.mark.slow
def test_sunday_never_stale(client, db):
    out = StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", "4", "--until", "groups", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    rng = random.Random(4)
    change_and_check(client, event, lambda: sunday.advance(event, None))
    seeding = sunday.current_seeding(event)
    seeding[0][0], seeding[1][0] = seeding[1][0], seeding[0][0]
    change_and_check(client, event, lambda: sunday.correct_seeding(event, seeding, None))

    def sunday_results():
        play_matches(event.matches.filter(stage="sunday"), rng)
        settle_playoffs(event, rng, "sunday")
        sunday.create_placements(event)

    change_and_check(client, event, sunday_results)
    semi = Match.objects.filter(event=event, stage="placement").first()
    change_and_check(client, event, lambda: paper(semi, 40, 20))
    for _round in ("semi", "final"):
        play_matches(event.matches.filter(stage="placement"), rng)
        sunday.create_placements(event)
    change_and_check(client, event, lambda: (confirm_all(event), sunday.publish(event, None)))


def test_team_declarations_and_substitutes_never_stale(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)
    first = row(event, 1, 1)
    change_and_check(client, event, lambda: declare(first, first.team_a))
    change_and_check(client, event, lambda: declare(first, first.team_b))
    substitute = players(1)[0]
    team = row(event, 1, 2).team_a
    actor = common.Actor(user=organiser)
    change_and_check(client, event, lambda: substitutes.name_substitute(team, substitute, actor))
    change_and_check(client, event, lambda: orders.start_team_match(first, organiser))
