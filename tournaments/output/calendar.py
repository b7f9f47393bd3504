"""iCalendar files (RFC 5545, the ``icalendar`` package): a pair's matches and the federation's events.

What a file holds is computed elsewhere as plain values (:class:`Entry`, :class:`Calendar`); this module
only writes them out, so the same values always give the same bytes (no clock is read here: DTSTAMP is
the values' ``stamp``, the time of the last change of the facts they show). Times are written in
Europe/Helsinki (the site's time zone) with its VTIMEZONE; all-day events as dates.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import icalendar
from django.utils import timezone

PRODID = "-//Suomen Tuppiliitto//Tuppi//FI"


@dataclass(frozen=True)
class Entry:
    """One VEVENT: ``start`` and ``end`` aware datetimes, or dates for an all-day event (``end`` the day
    after the last one, as iCalendar counts). ``sequence``: the revision number a calendar app compares."""

    uid: str
    start: dt.datetime | dt.date
    end: dt.datetime | dt.date
    summary: str
    location: str = ""
    description: str = ""
    url: str = ""
    sequence: int = 0
    cancelled: bool = False


@dataclass(frozen=True)
class Calendar:
    """A calendar file: its name (X-WR-CALNAME), the time of the last change of what it shows (every
    DTSTAMP), its entries and the file name it is offered under."""

    name: str
    stamp: dt.datetime
    entries: tuple[Entry, ...]
    filename: str = "kalenteri.ics"


def ics(calendar: Calendar) -> bytes:
    """The calendar as an iCalendar file (CRLF lines, folded at 75 octets, UTF-8)."""
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", calendar.name)
    cal.add("x-wr-timezone", str(timezone.get_default_timezone()))
    stamp = calendar.stamp.astimezone(dt.UTC)
    for entry in calendar.entries:
        cal.add_component(_event(entry, stamp))
    years = [e.start.year for e in calendar.entries]
    if years:  # the zone's rules over the years the entries fall in (not 1970–2038: a short file)
        cal.add_missing_timezones(dt.date(min(years) - 1, 1, 1), dt.date(max(years) + 2, 1, 1))
    return cal.to_ical()


def _event(entry: Entry, stamp: dt.datetime) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", entry.uid)
    event.add("dtstamp", stamp)
    event.add("sequence", entry.sequence)
    event.add("dtstart", _local(entry.start))
    event.add("dtend", _local(entry.end))
    event.add("summary", entry.summary)
    if entry.location:
        event.add("location", entry.location)
    if entry.description:
        event.add("description", entry.description)
    if entry.url:
        event.add("url", entry.url)
    event.add("status", "CANCELLED" if entry.cancelled else "CONFIRMED")
    event.add("transp", "OPAQUE")
    return event


def _local(value: dt.datetime | dt.date) -> dt.datetime | dt.date:
    """A time in the site's zone (Europe/Helsinki), to the minute; a date as it is."""
    if isinstance(value, dt.datetime):
        return timezone.localtime(value, timezone.get_default_timezone()).replace(second=0, microsecond=0)
    return value
