"""Public pages: read-only, no login, made for a phone. Each is declared once (``tournaments.readmodel.live.Page``):
its template, its live part and what it shows, built from the event's snapshot (``tournaments.readmodel.snapshot``);
its ETag and cached renderings follow from exactly that."""

import re

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from lib.http import int_param
from tournaments import extensions
from tournaments.models import Event, Stage
from tournaments.readmodel import hall, outlook, weekend
from tournaments.readmodel import timetable as day_clock
from tournaments.readmodel.heads import source
from tournaments.readmodel.live import Page, Shown, event_page
from tournaments.readmodel.results import sheet
from tournaments.readmodel.search import find_pairs


def home(request):
    events = list(Event.objects.select_related("organising_club").order_by("starts_on", "name"))
    by_status = {"live": [], "upcoming": [], "finished": []}
    for event in events:
        by_status[event.status].append(event)
    by_status["finished"].reverse()  # the most recent first
    return render(request, "tournaments/public/home.html", {"by_status": by_status})



def _live(snap) -> bool:
    return snap.event.status == "live"


def _event(snap) -> Shown:
    played, total = snap.progress()
    return Shown(
        page={
            "event": snap.event,
            "groups": snap.stage_groups(Stage.SATURDAY),
            "swaps": snap.swaps,
            "pairs": sorted((p for p in snap.pairs.values() if p.active), key=lambda p: p.number),
            "kind_links": extensions.event_links(snap.event.kind, snap.event.slug),  # another app's pages
        },
        live={"event": snap.event, "current_round": snap.current_round(), "played": played, "total": total},
        url=reverse("event", args=[snap.event.slug]), poll=_live(snap),
    )


def _schedule(snap, kierros, now) -> Shown:
    """Who plays whom at which table, one round at a time (``?kierros=N``; default the current round,
    which the page then follows as the event goes on)."""
    rounds = snap.rounds(Stage.SATURDAY)
    numbers = list(rounds)
    chosen = int_param(kierros)
    current = chosen or snap.current_round() or (numbers[0] if numbers else 1)
    if numbers and current not in rounds:
        raise Http404
    live = {
        "event": snap.event, "numbers": numbers, "current": current,
        "matches": snap.matches_of(Stage.SATURDAY, current),
        "resting": weekend.resting_pairs(snap, Stage.SATURDAY, current),
        "round_time": day_clock.round_time(snap.timetable, Stage.SATURDAY, current, now),
    }
    url = reverse("schedule", args=[snap.event.slug]) + (f"?kierros={chosen}" if chosen else "")
    return Shown(page={"event": snap.event}, live=live, url=url, poll=_live(snap))


def _group(snap, name) -> Shown:
    found = snap.group_named(name)  # Saturday A…P, Sunday 1…4
    if found is None or found.stage not in (Stage.SATURDAY, Stage.SUNDAY):
        raise Http404
    table = snap.table(found.pk)
    live = {
        "event": snap.event, "table": table, "cross_rows": table.cross_rows, "pairs": [r.pair for r in table.rows],
        "outlook": outlook.group_outlook(snap, table),
    }
    url = reverse("group", args=[snap.event.slug, found.name])
    return Shown(page={"event": snap.event, "group": found}, live=live, url=url, poll=_live(snap))


def _match(snap, match_id) -> Shown:
    found = snap.match(match_id)
    if found is None:
        raise Http404
    lines, state = sheet(found, snap.sheet_rows(found.pk))
    live = {"event": snap.event, "match": found, "lines": lines, "state": state, "outcome": found.outcome}
    url = reverse("match", args=[snap.event.slug, found.pk])
    poll = _live(snap) and (not found.outcome.finished or found.under_appeal)
    return Shown(page={"event": snap.event, "match": found}, live=live, url=url, poll=poll)


def _pair(snap, number, now) -> Shown:
    """The pair's whole weekend: the next table (with any rest round before it) or what it waits for, its
    Saturday group, Sunday group and placement matches, whether it is through, and its final place."""
    found = snap.pair_by_number(number)
    if found is None:
        raise Http404
    live = {"event": snap.event, "pair": found, **weekend.weekend(snap, found, outlook.group_outlook, now=now)}
    url = reverse("pair", args=[snap.event.slug, found.number])
    return Shown(page={"event": snap.event, "pair": found}, live=live, url=url, poll=_live(snap))


def _hall(snap, now) -> Shown:
    """The hall screen: a kiosk page for a projector or a TV, rotating through the current round's tables
    and every group's standings (static/js/hall.js), live like every public page."""
    if snap.event.kind == Event.Kind.SM_TEAM:
        raise Http404  # a team competition has its own bracket page
    live = {"event": snap.event, **hall.screen(snap, now=now)}
    url = reverse("hall", args=[snap.event.slug])
    return Shown(page={"event": snap.event}, live=live, url=url, poll=_live(snap))


EVENT = Page("event", "tournaments/public/event.html", _event, live="tournaments/public/_event_live.html")
SCHEDULE = Page(
    "schedule", "tournaments/public/schedule.html", _schedule, live="tournaments/public/_schedule_live.html",
    params=("kierros",), clock=day_clock.minute_now,
)
GROUP = Page("group", "tournaments/public/group.html", _group, live="tournaments/public/_group_live.html")
MATCH = Page("match", "tournaments/public/match.html", _match, live="tournaments/public/_match_live.html")
# The estimated times these pages show follow the clock (issue #25.5): they take ``now`` (to the minute).
PAIR = Page(
    "pair", "tournaments/public/pair.html", _pair, live="tournaments/public/_pair_live.html", clock=day_clock.minute_now
)
HALL = Page(
    "hall", "tournaments/public/hall.html", _hall, live="tournaments/public/_hall_live.html", standalone=True,
    clock=day_clock.minute_now,
)

event = event_page(EVENT)
schedule = event_page(SCHEDULE)
group = event_page(GROUP)
match = event_page(MATCH)
pair = event_page(PAIR)
hall_screen = event_page(HALL)


LEADING_NUMBER = re.compile(r"^\s*#?(\d{1,6})(?!\d)", re.ASCII)


def pair_pick(request, slug):
    """The "my pair" picker of the event page, a plain GET form (no JavaScript needed): a pair number (or
    a choice of the list, "12: Name / Name") leads to that pair's page; a name to the one pair it finds,
    or to a list of those it finds."""
    text = request.GET.get("pari", "")[:100]
    number = LEADING_NUMBER.match(text)
    if number is not None:
        return redirect("pair", slug, int(number.group(1)))
    if not text.strip():
        return redirect("event", slug)
    snap = source(slug)
    matching = find_pairs(sorted(snap.pairs.values(), key=lambda p: p.number), text)
    found = [p for p in matching if p.active] or matching  # a withdrawn pair only when no other matches
    if len(found) == 1:
        return redirect("pair", slug, found[0].number)
    return render(request, "tournaments/public/pair_pick.html", {"event": snap.event, "found": found, "query": text})
