"""The calendar files (issue #28.4): a pair's matches at their estimated starts, following a late round
with stable UIDs and a growing SEQUENCE, served with ETags; the federation's events; the pair page's
"Lisää kalenteriin"."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import icalendar
import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from lib import caching
from tests.clock import HELSINKI
from tests.support.results_helpers import one_group_event, paper
from tournaments.models import Event, Match, Pair
from tournaments.readmodel import timetable as day_clock
from tournaments.readmodel.build import build

# A group of five plays 12 deals a match: 60 minutes and the break after deal 6, 65 minutes a round.
ROUND = dt.timedelta(minutes=65)
PLAY_START = dt.datetime(2026, 12, 12, 11, 15, tzinfo=HELSINKI)


@pytest.fixture
def setup(make_event, organiser, clock):
    clock.set(dt.datetime(2026, 12, 12, 10, 0, tzinfo=HELSINKI))  # the event's morning, before play
    event, _group, pairs = one_group_event(make_event, organiser, 5, venue="Kerhotalo")
    return event, pairs


def calendar_url(event, pair) -> str:
    return reverse("pair_calendar", args=[event.slug, pair.number])


def mine(pair) -> list[Match]:
    return list((Match.objects.filter(pair_a=pair) | Match.objects.filter(pair_b=pair)).order_by("round"))


def parse(response) -> icalendar.Calendar:
    assert response.status_code == 200
    return icalendar.Calendar.from_ical(response.content)


def events_by_uid(cal) -> dict[str, icalendar.Event]:
    return {str(e["UID"]): e for e in cal.walk("VEVENT")}


def a_pair_playing_round_2(pairs):
    return next(p for p in pairs if any(m.round == 2 for m in mine(p)))


def test_one_event_per_match_at_its_estimated_start(client, setup):
    event, pairs = setup
    pair = pairs[0]
    response = client.get(calendar_url(event, pair))
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"] == f'inline; filename="{event.slug}-pari-{pair.number}.ics"'
    cal = parse(response)
    assert [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")] == ["Europe/Helsinki"]
    found = events_by_uid(cal)
    matches = mine(pair)
    assert len(matches) == 4 and set(found) == {f"match-{m.pk}@testserver" for m in matches}
    for m in matches:
        entry = found[f"match-{m.pk}@testserver"]
        start, end = entry["DTSTART"].dt, entry["DTEND"].dt
        assert start == PLAY_START + (m.round - 1) * ROUND and end - start == ROUND
        assert str(start.tzinfo) == "Europe/Helsinki" and entry["DTSTART"].params["TZID"] == "Europe/Helsinki"
        other = m.pair_b if m.pair_a_id == pair.pk else m.pair_a
        assert str(entry["SUMMARY"]) == f"Lohko A, kierros {m.round}, vastassa {other.name}"
        assert str(entry["LOCATION"]) == f"Kerhotalo, pöytä {m.table}"
        url = f"http://testserver{reverse('match', args=[event.slug, m.pk])}"
        assert str(entry["URL"]) == url and url in str(entry["DESCRIPTION"])
        assert entry["SEQUENCE"] == 0
        # DTSTAMP: the last change of the facts (here the draw), not the wall clock
        assert entry["DTSTAMP"].dt == event.drawn_at.replace(microsecond=0)
    # English: the same events in the visitor's language
    client.cookies["django_language"] = "en"  # the language switch's choice
    english = parse(client.get(calendar_url(event, pair)))
    m = matches[0]
    other = m.pair_b if m.pair_a_id == pair.pk else m.pair_a
    summary = str(events_by_uid(english)[f"match-{m.pk}@testserver"]["SUMMARY"])
    assert summary == f"Group A, round {m.round}, against {other.name}"


def test_a_late_round_moves_the_estimate_and_the_sequence_with_the_same_uid(client, setup, clock):
    event, pairs = setup
    pair = a_pair_playing_round_2(pairs)
    url = calendar_url(event, pair)
    before = client.get(url)
    tag = before["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304  # nothing changed
    old = events_by_uid(parse(before))
    # round 1 was planned to end at 12.20; its results come in at 12.45
    late = dt.datetime(2026, 12, 12, 12, 45, tzinfo=HELSINKI)
    clock.set(late)
    for m in Match.objects.filter(event=event, round=1):
        paper(m, 40, 20)
    after = client.get(url, HTTP_IF_NONE_MATCH=tag)
    new = events_by_uid(parse(after))
    assert set(new) == set(old)  # the UIDs stay
    for m in mine(pair):
        entry, was = new[f"match-{m.pk}@testserver"], old[f"match-{m.pk}@testserver"]
        if m.round == 1:
            assert entry["DTSTART"].dt == was["DTSTART"].dt == PLAY_START and entry["SEQUENCE"] == 0
        else:  # 25 minutes late: five whole 5-minute steps
            assert entry["DTSTART"].dt == was["DTSTART"].dt + dt.timedelta(minutes=25)
            assert was["SEQUENCE"] == 0 and entry["SEQUENCE"] == 5
        assert entry["DTSTAMP"].dt.astimezone(HELSINKI).replace(second=0) == late
    assert new[f"match-{next(m for m in mine(pair) if m.round == 2).pk}@testserver"]["DTSTART"].dt == late
    assert after["ETag"] != tag and client.get(url, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304


def test_the_same_facts_give_the_same_file(client, setup):
    event, pairs = setup
    first = client.get(calendar_url(event, pairs[1]))
    cache.clear()
    caching.clear_local()
    again = client.get(calendar_url(event, pairs[1]))
    assert first.content == again.content and first["ETag"] == again["ETag"]


def test_an_unknown_pair_or_event_is_404(client, setup):
    event, _pairs = setup
    assert client.get(reverse("pair_calendar", args=[event.slug, 99])).status_code == 404
    assert client.get(reverse("pair_calendar", args=["ei-ole", 1])).status_code == 404


def test_the_federation_calendar_lists_the_events(client, make_event):
    first = make_event(name="Syyskisa", venue="Seurantalo")
    second = make_event(name="Joulukisa", starts_on=dt.date(2026, 12, 19))
    response = client.get(reverse("events_calendar"))
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    found = events_by_uid(parse(response))
    assert set(found) == {f"event-{first.pk}@testserver", f"event-{second.pk}@testserver"}
    entry = found[f"event-{first.pk}@testserver"]
    assert str(entry["SUMMARY"]) == "Syyskisa" and str(entry["LOCATION"]) == "Seurantalo"
    assert entry["DTSTART"].dt == dt.date(2026, 12, 12) and entry["DTEND"].dt == dt.date(2026, 12, 14)
    assert str(entry["URL"]) == f"http://testserver{first.get_absolute_url()}"
    assert found[f"event-{second.pk}@testserver"]["DTSTART"].dt == dt.date(2026, 12, 19)
    tag = response["ETag"]
    assert client.get(reverse("events_calendar"), HTTP_IF_NONE_MATCH=tag).status_code == 304
    second.venue = "Kirjasto"
    second.save()
    changed = client.get(reverse("events_calendar"), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert str(events_by_uid(parse(changed))[f"event-{second.pk}@testserver"]["LOCATION"]) == "Kirjasto"


def test_the_pair_page_and_the_home_page_offer_the_calendars(client, setup):
    event, pairs = setup
    link = f'href="{calendar_url(event, pairs[0])}"'
    html = client.get(reverse("pair", args=[event.slug, pairs[0].number])).content.decode()
    assert link in html and "Lisää kalenteriin" in html
    client.cookies["django_language"] = "en"  # the language switch's choice
    html = client.get(reverse("pair", args=[event.slug, pairs[0].number])).content.decode()
    assert link in html and "Add to calendar" in html
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("events_calendar")}"' in html


def test_a_warm_calendar_costs_at_most_one_query(client, setup):
    event, pairs = setup
    url = calendar_url(event, pairs[2])
    first = client.get(url)
    with CaptureQueriesContext(connection) as pair_queries:
        again = client.get(url)
    assert again.content == first.content and len(pair_queries) <= 1  # the event's head, at most
    client.get(reverse("events_calendar"))
    with CaptureQueriesContext(connection) as event_queries:
        client.get(reverse("events_calendar"))
    assert len(event_queries) == 1  # the events with their organisers, read on each request


@pytest.mark.slow
def test_the_whole_weekend_is_in_the_calendar(client, db):
    """Saturday group, Sunday group and placement matches: each one event at its round's estimate as the
    pair page has it, Saturday's from the play start, in playing order."""
    out = StringIO()
    call_command("simulate_event", "--pairs", "32", "--seed", "4", "--until", "all", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    snap = build(event.pk)
    winner = Pair.objects.get(pk=next(pid for place, pid in snap.final_places if place == 1))
    found = events_by_uid(parse(client.get(calendar_url(event, winner))))
    times = day_clock.on_clock(snap.timetable, day_clock.minute_now())
    matches = mine(winner)
    assert {m.stage for m in matches} == {"saturday", "sunday", "placement"}
    assert set(found) == {f"match-{m.pk}@testserver" for m in matches}
    starts = {m.stage: [] for m in matches}
    for m in matches:
        start = found[f"match-{m.pk}@testserver"]["DTSTART"].dt
        assert start == day_clock.round_time(times, m.stage, m.round).estimated
        starts[m.stage].append(start)
    assert min(starts["saturday"]) == dt.datetime.combine(event.starts_on, event.play_time, HELSINKI)
    assert max(starts["saturday"]) < min(starts["sunday"]) <= max(starts["sunday"]) < min(starts["placement"])
    placements = [str(found[f"match-{m.pk}@testserver"]["SUMMARY"]) for m in matches if m.stage == "placement"]
    assert all(summary.startswith("Sijoitusottelu: ") for summary in placements)
