"""Public pages: read-only, no login, made for a phone. Each reads the event's snapshot
(``tournaments.readmodel``) and answers polls of its live part by conditional GET (``tournaments.live``)."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from tournaments import extensions
from tournaments.live import event_page, live_part, render_live
from tournaments.models import Entry, Event, Match, PaperResult, Stage
from tournaments.results import sheet


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
    return snap.fingerprint(chosen, current, snap.matches_of(Stage.SATURDAY, current))


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
    found = snap.pair_by_number(number)
    if found is None:
        raise Http404
    group = snap.pair_group(found.pk, Stage.SATURDAY)
    table = snap.table(group.pk) if group else None
    return snap.fingerprint(found.pk, table.matches if table else (), snap.playoffs.get(group.pk) if group else None)


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
        "pairs": sorted((p for p in snap.pairs.values() if p.active), key=lambda p: p.name),
        "kind_links": extensions.event_links(ev.kind, ev.slug),  # another app's own pages (team competition)
    }
    return render_live(request, "tournaments/public/event.html", context, html)


def pair_pick(request, slug):
    """The "my pair" picker of the event page, without JavaScript: on to the chosen pair's page."""
    number = _int(request.GET.get("pari"))
    if number is None or number < 1:
        return redirect("event", slug)
    return redirect("pair", slug, number)


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
        return {"event": snap.event, "table": table, "cross_rows": table.cross_rows, "pairs": [r.pair for r in table.rows]}

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
    snap = head.snapshot()
    found = snap.pair_by_number(number)
    if found is None:
        raise Http404
    group_view = snap.pair_group(found.pk, Stage.SATURDAY)
    table = snap.table(group_view.pk) if group_view else None

    def live():
        matches = [m for m in table.matches if found.pk in (m.pair_a_id, m.pair_b_id)] if table else []
        row = table.row_of(found.pk) if table else None
        upcoming = [m for m in matches if m.outcome.status in (Match.Status.SCHEDULED, Match.Status.PLAYING)]
        return {
            "event": snap.event, "pair": found, "group": group_view, "table": table, "matches": matches,
            "position": row.standing if row else None, "next_match": upcoming[0] if upcoming else None,
        }

    url = reverse("pair", args=[snap.event.slug, found.number])
    poll = snap.event.status == "live"
    html = live_part(
        request, "tournaments/public/_pair_live.html", live, url=url, poll=poll)
    return render_live(request, "tournaments/public/pair.html", {"event": snap.event, "pair": found}, html)
