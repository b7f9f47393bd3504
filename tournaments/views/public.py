"""Public pages: read-only, no login, made for a phone. Each reads the event's snapshot
(``tournaments.readmodel``) and answers polls of its live part by conditional GET (``tournaments.live``)."""

import re

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from tournaments import extensions, hall, outlook, weekend
from tournaments.live import event_page, head, live_part, render_live
from tournaments.models import Entry, Event, PaperResult, Stage
from tournaments.results import sheet
from tournaments.search import find_pairs


def home(request):
    events = list(Event.objects.select_related("organising_club").order_by("starts_on", "name"))
    by_status = {"live": [], "upcoming": [], "finished": []}
    for event in events:
        by_status[event.status].append(event)
    by_status["finished"].reverse()  # the most recent first
    return render(request, "tournaments/public/home.html", {"by_status": by_status})


def _int(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _event_scope(request, snap):
    return snap.fingerprint(snap.progress(), snap.current_round())


def _round_of(request, snap) -> tuple[int | None, int]:
    """The round ``?kierros=N`` asks for (None: none asked) and the round shown (default the current)."""
    numbers = list(snap.rounds(Stage.SATURDAY))
    chosen = _int(request.GET.get("kierros"))
    return chosen, chosen or snap.current_round() or (numbers[0] if numbers else 1)


def _schedule_scope(request, snap):
    chosen, current = _round_of(request, snap)
    return snap.fingerprint(chosen, current, snap.matches_of(Stage.SATURDAY, current),
                            snap.round_time(Stage.SATURDAY, current))


def _group_or_404(snap, name):
    found = snap.group_named(name)  # Saturday A…P, Sunday 1…4
    if found is None or found.stage not in (Stage.SATURDAY, Stage.SUNDAY):
        raise Http404
    return found


def _group_scope(request, snap, name):
    found = _group_or_404(snap, name)
    return snap.fingerprint(found.pk, snap.table(found.pk).matches, snap.playoffs.get(found.pk))


def _match_scope(request, snap, match_id):
    found = snap.match(match_id)
    if found is None:
        raise Http404
    return snap.fingerprint([found])


def _pair_scope(request, snap, number):
    """The pair's Saturday and Sunday groups (their matches and play-offs: the tables and outlooks follow),
    its placement matches, its final place, and the current rounds (its rest rounds before the next match)."""
    found = snap.pair_by_number(number)
    if found is None:
        raise Http404
    placements = [m for m in snap.placements if found.pk in (m.pair_a_id, m.pair_b_id)]
    parts, played = [], list(placements)  # played: the pair's own matches, whose rounds' times it shows
    for stage in (Stage.SATURDAY, Stage.SUNDAY):
        group = snap.pair_group(found.pk, stage)
        table = snap.table(group.pk) if group else None
        parts += [table.matches if table else (), snap.playoffs.get(group.pk) if group else None]
        played += [m for m in (table.matches if table else ()) if found.pk in (m.pair_a_id, m.pair_b_id)]
    return snap.fingerprint(
        found.pk, *parts, placements, weekend.pair_place(snap, found.pk),
        snap.current_round(Stage.SATURDAY), snap.current_round(Stage.SUNDAY), weekend.pair_times(snap, played),
    )


def _hall_scope(request, snap):
    """Everything the hall screen rotates through: every match, play-off and place of the event."""
    if snap.event.kind == Event.Kind.SM_TEAM:
        raise Http404  # a team competition has its own bracket page
    return snap.fingerprint(
        list(snap.matches), sorted(snap.playoffs.items()), snap.final_places, sorted(snap.top_places.items())
    )


@event_page(scope=_event_scope)
def event(request, head):
    snap = head.snapshot()
    ev = snap.event

    def live():
        played, total = snap.progress()
        return {"event": ev, "current_round": snap.current_round(), "played": played, "total": total}

    url = reverse("event", args=[ev.slug])
    html = live_part(
        request, "tournaments/public/_event_live.html", live, url=url, poll=ev.status == "live")
    context = {
        "event": ev,
        "groups": snap.stage_groups(Stage.SATURDAY),
        "swaps": snap.swaps,
        "pairs": sorted((p for p in snap.pairs.values() if p.active), key=lambda p: p.number),
        "kind_links": extensions.event_links(ev.kind, ev.slug),  # another app's own pages (team competition)
    }
    return render_live(request, "tournaments/public/event.html", context, html)


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
    snap = head(slug).snapshot()
    matching = find_pairs(sorted(snap.pairs.values(), key=lambda p: p.number), text)
    found = [p for p in matching if p.active] or matching  # a withdrawn pair only when no other matches
    if len(found) == 1:
        return redirect("pair", slug, found[0].number)
    return render(request, "tournaments/public/pair_pick.html", {"event": snap.event, "found": found, "query": text})


@event_page(scope=_schedule_scope)
def schedule(request, head):
    """Who plays whom at which table, one round at a time (``?kierros=N``; default the current round,
    which the page then follows as the event goes on)."""
    snap = head.snapshot()
    rounds = snap.rounds(Stage.SATURDAY)
    numbers = list(rounds)
    chosen, current = _round_of(request, snap)
    if numbers and current not in rounds:
        raise Http404
    url = reverse("schedule", args=[snap.event.slug]) + (f"?kierros={chosen}" if chosen else "")

    def live():
        return {
            "event": snap.event, "numbers": numbers, "current": current,
            "matches": snap.matches_of(Stage.SATURDAY, current),
            "resting": weekend.resting_pairs(snap, Stage.SATURDAY, current),
            "round_time": snap.round_time(Stage.SATURDAY, current),
        }

    poll = snap.event.status == "live"
    html = live_part(
        request, "tournaments/public/_schedule_live.html", live, url=url, poll=poll)
    return render_live(request, "tournaments/public/schedule.html", {"event": snap.event}, html)


@event_page(scope=_group_scope)
def group(request, head, name):
    snap = head.snapshot()
    found = _group_or_404(snap, name)
    table = snap.table(found.pk)

    def live():
        return {
            "event": snap.event, "table": table, "cross_rows": table.cross_rows, "pairs": [r.pair for r in table.rows],
            "outlook": outlook.group_outlook(snap, table),
        }

    url = reverse("group", args=[snap.event.slug, found.name])
    poll = snap.event.status == "live"
    html = live_part(
        request, "tournaments/public/_group_live.html", live, url=url, poll=poll)
    return render_live(request, "tournaments/public/group.html", {"event": snap.event, "group": found}, html)


@event_page(scope=_match_scope)
def match(request, head, match_id):
    snap = head.snapshot()
    found = snap.match(match_id)
    if found is None:
        raise Http404

    def live():
        rows = list(Entry.objects.filter(match_id=found.pk).order_by("position"))
        lines, state = sheet(found, rows)
        paper = PaperResult.objects.filter(match_id=found.pk).first()
        return {
            "event": snap.event, "match": found, "lines": lines, "state": state, "outcome": found.outcome,
            "paper": paper,
        }

    url = reverse("match", args=[snap.event.slug, found.pk])
    poll = snap.event.status == "live" and not found.outcome.finished
    html = live_part(
        request, "tournaments/public/_match_live.html", live, url=url, poll=poll)
    return render_live(request, "tournaments/public/match.html", {"event": snap.event, "match": found}, html)


@event_page(scope=_pair_scope)
def pair(request, head, number):
    """The pair's whole weekend: the next table (with any rest round before it) or what it waits for, its
    Saturday group, Sunday group and placement matches, whether it is through, and its final place."""
    snap = head.snapshot()
    found = snap.pair_by_number(number)
    if found is None:
        raise Http404

    def live():
        return {"event": snap.event, "pair": found, **weekend.weekend(snap, found, outlook.group_outlook)}

    url = reverse("pair", args=[snap.event.slug, found.number])
    poll = snap.event.status == "live"
    html = live_part(
        request, "tournaments/public/_pair_live.html", live, url=url, poll=poll)
    return render_live(request, "tournaments/public/pair.html", {"event": snap.event, "pair": found}, html)


@event_page(scope=_hall_scope)
def hall_screen(request, head):
    """The hall screen: a kiosk page for a projector or a TV, rotating through the current round's tables
    and every group's standings (static/js/hall.js), live like every public page."""
    snap = head.snapshot()

    def live():
        played, total = snap.progress(hall.now_stage(snap) or Stage.SATURDAY)
        return {"event": snap.event, "panels": hall.panels(snap), "played": played, "total": total}

    url = reverse("hall", args=[snap.event.slug])
    poll = snap.event.status == "live"
    html = live_part(request, "tournaments/public/_hall_live.html", live, url=url, poll=poll)
    return render_live(request, "tournaments/public/hall.html", {"event": snap.event}, html)
