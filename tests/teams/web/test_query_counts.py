"""The team competition's pages and API cost a fixed number of queries, whatever the number of teams."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from teams import results
from teams.api import event_extra
from tests.teams.builders import drawn_event, play
from tournaments.readmodel import build


def half_played(make_event, organiser, n):
    event, _teams = drawn_event(make_event, organiser, n)
    for r in results.load(event).rows:
        if not r.bye:
            play(r, r.team_a)
    return event


def count(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


@pytest.mark.parametrize("name", ["bracket", "teams", "final_places"])
@pytest.mark.slow
def test_public_pages(client, make_event, organiser, name):
    small = half_played(make_event, organiser, 4)
    large = half_played(make_event, organiser, 16)
    counts = [count(lambda e=e: client.get(reverse(f"teams:{name}", args=[e.slug]))) for e in (small, large)]
    assert counts[0] == counts[1], counts


@pytest.mark.slow
def test_api_and_organiser_desk(client, make_event, organiser):
    small = half_played(make_event, organiser, 4)
    large = half_played(make_event, organiser, 16)
    assert count(lambda: event_extra(build.build(small.pk))) == count(lambda: event_extra(build.build(large.pk)))
    client.force_login(organiser)
    desk = [
        count(lambda e=e: client.get(reverse("teams_organiser:rounds", args=[e.slug])))
        for e in (small, large)
    ]
    assert desk[0] == desk[1], desk
