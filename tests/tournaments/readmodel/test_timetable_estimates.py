"""Issue #25.5: an estimate in the past is no estimate. A round still being played past its expected end
moves the rounds after it to "now + what is left" (in whole minutes), on the pair page, the schedule, the
hall screen and the JSON API alike; a round that has begun says so instead of showing its start. The
pages take the time as an input at page level (the snapshot, cached per results version, knows no
clock), and their ETags follow the estimates they show.

The event: one group of five pairs, 12 deals a match (65 minutes a round with its break), on Saturday
12 December 2026 from 11.15; round 1 is played on time, round 2 runs late."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from tests.clock import HELSINKI
from tests.support.results_helpers import one_group_event, rami, store
from tournaments.models import Match

POLL = {"HTTP_HX_REQUEST": "true"}


def at(hh: int, mm: int, ss: int = 0) -> dt.datetime:
    return dt.datetime(2026, 12, 12, hh, mm, ss, tzinfo=HELSINKI)


def shown_times(html: str) -> list[dt.datetime]:
    """Every "noin HH.MM" a page shows, as times of the event's day."""
    return [at(int(h), int(m)) for h, m in re.findall(r"noin (?:klo )?(\d{1,2})\.(\d{2})", html)]


def deals(match: Match, count: int) -> Match:
    """``count`` deals on the sheet, the rise kept low (each pair makes its rami in turn)."""
    return store(match, [rami("A" if i % 2 == 0 else "B", 8) for i in range(count)])


def finished(match: Match) -> Match:
    return store(match, [rami("B", 0)])  # a nälsytuppi (A robs B's rami): over


@pytest.fixture
def late_day(make_event, organiser, clock):
    """Round 1 in on time (12.20); of round 2 (planned 12.20–13.25) one match in at 13.20, the other with 9
    of its 12 deals on the sheet at 14.00: it has three deals, 15 minutes, left."""
    event, _group, pairs = one_group_event(make_event, organiser, 5, name="Myöhäinen tuppi", slug="myohainen")
    clock.set(at(12, 20))
    for match in Match.objects.filter(event=event, round=1):
        finished(match)
    first, second = Match.objects.filter(event=event, round=2).order_by("table")
    clock.set(at(13, 20))
    finished(first)
    deals(second, 9)
    clock.set(at(14, 0, 30))
    return event, second


def test_the_pair_page_never_shows_a_time_already_past(client, late_day):
    event, running = late_day
    # a pair of the late match: its next match is in round 3, expected at 14.00 + 15 minutes
    pair = running.pair_a
    html = client.get(reverse("pair", args=[event.slug, pair.number])).content.decode()
    box = html.split('class="next-table card')[1].split("</div>")[0]
    assert "kierros 2" in box and "käynnissä" in box  # its match of round 2 is still to finish: under way
    assert "noin 13.25" not in html  # round 3's planned start, long past
    assert all(t >= at(14, 0) for t in shown_times(html)) and at(14, 15) in shown_times(html)
    # every pair of the event: no time before 14.00 anywhere on its page
    for match in Match.objects.filter(event=event, round=3):
        for pair in (match.pair_a, match.pair_b):
            html = client.get(reverse("pair", args=[event.slug, pair.number])).content.decode()
            assert all(t >= at(14, 0) for t in shown_times(html)), pair
            box = html.split('class="next-table card')[1].split("</div>")[0]
            if pair.pk not in (running.pair_a_id, running.pair_b_id):
                assert "kierros 3" in box and "noin 14.15" in box  # waiting for round 3, now at 14.15
    # the pair resting in round 2 rests until about then
    playing = {p for m in Match.objects.filter(event=event, round=2) for p in (m.pair_a_id, m.pair_b_id)}
    (resting,) = [p for p in event.pairs.all() if p.pk not in playing]
    html = client.get(reverse("pair", args=[event.slug, resting.number])).content.decode()
    assert "Lepovuoro nyt" in html and "noin klo 14.15 asti" in html


def test_the_estimate_moves_with_the_clock_and_so_does_the_etag(client, late_day, clock):
    event, running = late_day
    url = reverse("pair", args=[event.slug, running.pair_a.number])
    first = client.get(url, **POLL)
    assert "noin 14.15" in first.content.decode()
    # the same minute: nothing moved, the browser keeps its copy
    clock.set(at(14, 0, 50))
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **POLL).status_code == 304
    # 14.20: the match is still being played; round 3 is now expected at 14.35 (never 14.15, in the past)
    clock.set(at(14, 20, 10))
    later = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **POLL)
    assert later.status_code == 200 and later["ETag"] != first["ETag"]
    html = later.content.decode()
    assert "noin 14.35" in html and "noin 14.15" not in html
    assert client.get(url, HTTP_IF_NONE_MATCH=later["ETag"], **POLL).status_code == 304
    # the last deals come in at 14.25: round 3 starts, and says so
    clock.set(at(14, 25))
    store(running, [rami("A", 8), rami("B", 8), rami("A", 8)])
    clock.set(at(14, 26))
    html = client.get(url, **POLL).content.decode()
    assert "kierros 3" in html.split('class="next-table card')[1] and "käynnissä" in html
    assert all(t >= at(14, 26) for t in shown_times(html))


def test_the_schedule_and_the_hall_follow_the_clock(client, late_day):
    event, _running = late_day
    schedule = reverse("schedule", args=[event.slug])
    html = client.get(schedule + "?kierros=3").content.decode()
    assert "Arvioitu alku" in html and "noin 14.15" in html
    assert "Kierros on käynnissä." in client.get(schedule + "?kierros=2").content.decode()
    html = client.get(reverse("hall", args=[event.slug])).content.decode()
    tables = html.split('data-panel="tables-saturday-2-1"')[1].split("</h2>")[0]
    assert "käynnissä" in tables and "seuraava kierros noin 14.15" in tables
    assert all(t >= at(14, 0) for t in shown_times(html))


def test_the_api_timetable_follows_the_clock(client, late_day, clock):
    event, _running = late_day
    url = reverse("api_event", args=[event.slug])
    first = client.get(url)
    rounds = {r["round"]: r for r in first.json()["timetable"]["rounds"]}
    assert rounds[2]["started"] and not rounds[2]["finished"] and rounds[2]["estimated_end"] == at(14, 15).isoformat()
    assert not rounds[3]["started"] and rounds[3]["estimated"] == at(14, 15).isoformat()
    assert rounds[3]["planned"] == at(13, 25).isoformat()
    assert rounds[4]["estimated"] == at(15, 20).isoformat()
    clock.set(at(14, 20, 5))
    later = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert later.status_code == 200
    assert {r["round"]: r for r in later.json()["timetable"]["rounds"]}[3]["estimated"] == at(14, 35).isoformat()
