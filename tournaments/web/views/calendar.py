"""Calendar files (issue #28.4): a pair's matches (``kisat/<slug>/parit/<n>/kalenteri.ics``) for a phone to
subscribe to, and the federation's events (``/kalenteri.ics``).

The pair's calendar is an :class:`~tournaments.readmodel.live.Answer` of the event's snapshot, with the clock
as the pair page has it (``timetable.minute_now``): its ETag is the digest of the entries it holds, so a
phone polling it gets ``304`` until an estimate, an opponent or a result time changes.

**Decisions.** Each match is one VEVENT with the UID ``match-<id>@<host>`` (stable whatever happens to the
match; an annulled match stays, CANCELLED, so a calendar removes it). It starts at its round's estimated
start as the pair page shows it (``weekend``/``timetable.on_clock``) and lasts its planned length
(``scoring.timetable.match_minutes``). SEQUENCE is the number of whole 5 minutes its round is expected
to start later than planned: a pure function of the facts and the clock, never stored, growing as a day
falls behind (an estimate never goes before its plan, nor back with a later clock). DTSTAMP is the last
change of the event's facts (its creation, draw, end, and each result's time), not the wall clock, so
the same facts give the same file.
"""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from lib.http import public_url
from scoring.timetable import match_minutes
from tournaments.models import Event, Match
from tournaments.output.calendar import Calendar, Entry, ics
from tournaments.readmodel import timetable as day_clock
from tournaments.readmodel.heads import source
from tournaments.readmodel.live import Answer, serve_answer
from tournaments.readmodel.weekend import where

SEQUENCE_MINUTES = 5
EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)  # the stamp of a calendar with nothing in it


def _host(base: str) -> str:
    return urlsplit(base).hostname or "tuppiliitto"


def _last_change(snap) -> dt.datetime:
    """When the event's facts last changed, as far as they keep a time: its creation, draw and end, and
    every result's (entered, confirmed, corrected) and publication's time."""
    info = snap.event
    times = [info.created_at, info.drawn_at, info.finished_at, *(p.at for p in snap.publications)]
    for m in snap.matches:
        times += [m.finished_at, m.confirmed_at, m.corrected_at]
    return max((t for t in times if t is not None), default=EPOCH)


def _match_entry(snap, pair, m, times, base: str) -> Entry | None:
    found = day_clock.round_time(times, m.stage, m.round)
    if found is None:  # a round with nothing but annulled matches has no time
        return None
    opponent = m.pair_b if m.pair_a_id == pair.pk else m.pair_a
    url = base + reverse("match", args=[snap.event.slug, m.pk])
    table = _("pöytä %(table)s") % {"table": m.table}
    place = f"{snap.event.venue}, {table}" if snap.event.venue else table
    what = where(m)
    return Entry(
        uid=f"match-{m.pk}@{_host(base)}",
        start=found.estimated,
        end=found.estimated
        + dt.timedelta(minutes=match_minutes(m.deals_planned, snap.event.minutes_per_deal)),
        summary=_("%(where)s, vastassa %(opponent)s") % {"where": what, "opponent": opponent.name},
        location=place,
        description="\n".join(
            [
                f"{snap.event.name}: {what}",
                _("Pari %(number)s: %(names)s") % {"number": pair.number, "names": pair.full_name},
                _("Vastassa %(number)s: %(names)s")
                % {"number": opponent.number, "names": opponent.full_name},
                _("Alkamisaika on arvio, joka päivittyy tulosten mukaan."),
                url,
            ]
        ),
        url=url,
        sequence=max(0, found.delay_minutes) // SEQUENCE_MINUTES,
        cancelled=m.outcome.status == Match.Status.ANNULLED,
    )


def _pair_calendar(snap, number: int, base: str, now: dt.datetime) -> Calendar:
    """Every match of the pair (Saturday, Sunday group, placement) as it stands at ``now``."""
    pair = snap.pair_by_number(number)
    if pair is None:
        raise Http404
    times = day_clock.on_clock(snap.timetable, now)
    mine = [m for m in snap.matches if pair.pk in (m.pair_a_id, m.pair_b_id)]
    entries = [e for e in (_match_entry(snap, pair, m, times, base) for m in mine) if e is not None]
    return Calendar(
        name=_("%(event)s, pari %(number)s") % {"event": snap.event.name, "number": pair.number},
        stamp=_last_change(snap),
        entries=tuple(sorted(entries, key=lambda e: (e.start, e.uid))),
        filename=f"{snap.event.slug}-pari-{pair.number}.ics",
    )


def _events_calendar(_source, base: str) -> Calendar:
    """Every event of the federation, all-day from its first day to its last."""
    events = Event.objects.select_related("organising_club").order_by("starts_on", "name")
    entries, stamps = [], []
    for event in events:
        url = base + event.get_absolute_url()
        organiser = (
            _("Järjestäjä: %(club)s") % {"club": event.organising_club} if event.organising_club else ""
        )
        entries.append(
            Entry(
                uid=f"event-{event.pk}@{_host(base)}",
                start=event.starts_on,
                end=max(event.ends_on, event.starts_on) + dt.timedelta(days=1),
                summary=event.name,
                location=event.venue,
                description="\n".join(x for x in (organiser, url) if x),
                url=url,
            )
        )
        stamps += [t for t in (event.created_at, event.drawn_at, event.finished_at) if t is not None]
    return Calendar(
        _("Suomen Tuppiliiton kilpailut"), max(stamps, default=EPOCH), tuple(entries), "kalenteri.ics"
    )


CONTENT_TYPE = "text/calendar; charset=utf-8"
PAIR_CALENDAR = Answer(
    "pair_calendar",
    _pair_calendar,
    ics,
    CONTENT_TYPE,
    filename=lambda c: c.filename,
    disposition="inline",
    clock=day_clock.minute_now,
)
# Read on every request (one query): its ETag is the digest of what it lists.
EVENTS_CALENDAR = Answer(
    "events_calendar",
    _events_calendar,
    ics,
    CONTENT_TYPE,
    filename=lambda c: c.filename,
    disposition="inline",
    memo=False,
)


def pair_calendar(request, slug, number):
    return serve_answer(
        request, source(slug), PAIR_CALENDAR, {"number": number, "base": public_url(request, "")}
    )


def events_calendar(request):
    return serve_answer(request, None, EVENTS_CALENDAR, {"base": public_url(request, "")})
