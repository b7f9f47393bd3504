"""The read-only public JSON API: events, groups, standings and matches (documented in the README).

An event's answer is made from its snapshot once per results version and kept in the caches as bytes;
it carries an ETag, and a client that sends it back gets ``304 Not Modified`` until something changes."""

from __future__ import annotations

import datetime as dt
import json

from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from tournaments import caching, extensions, outlook
from tournaments import timetable as day_clock
from tournaments.live import event_page
from tournaments.models import Event, Stage


@require_GET
def events(request):
    rows = Event.objects.order_by("starts_on", "name")
    return JsonResponse(
        {
            "events": [
                {
                    "slug": e.slug, "name": e.name, "status": e.status, "kind": e.kind,
                    "starts_on": e.starts_on.isoformat(), "ends_on": e.ends_on.isoformat(),
                    "url": request.build_absolute_uri(e.get_absolute_url()),
                }
                for e in rows
            ]
        }
    )


def match_json(m) -> dict:
    o = m.outcome
    return {
        "id": m.pk,
        "round": m.round,
        "table": m.table,
        "a": m.pair_a_id,
        "b": m.pair_b_id,
        "status": o.status,
        "winner": o.winner,
        "tuppi": o.tuppi,
        "totals": {"a": o.totals[0], "b": o.totals[1]},
        "match_points": None if o.match_points is None else {"a": o.match_points[0], "b": o.match_points[1]},
        "referee": m.referee or None,  # null: the player in seat 4 keeps the scoresheet
    }


def group_json(table, reach=None) -> dict:
    """A group with its standings; ``reach`` (``outlook.GroupOutlook``) gives each row the best and worst
    final position the pair can still reach (issue #20)."""
    pairs = [r.pair for r in table.rows] + list(table.withdrawn)
    return {
        "name": table.group.name,
        "stage": table.group.stage,
        "pairs": [{"id": p.pk, "name": p.name, "club": p.club.name} for p in sorted(pairs, key=lambda p: p.number)],
        "standings": [
            {
                "pair": r.standing.pair,
                "rank": r.standing.rank,
                "match_points": r.standing.match_points,
                "wins": r.standing.wins,
                "totals": r.standing.totals,
                "playoff_required": r.standing.playoff_required,
                **_reach(reach, r.standing.pair),
            }
            for r in table.rows
        ],
        "matches": [match_json(m) for m in table.matches],
    }


def _reach(reach, pair_id) -> dict:
    found = reach.of(pair_id) if reach is not None else None
    return {"best": found.best if found else None, "worst": found.worst if found else None}


def placement_json(snap) -> list[dict]:
    """The placement matches (RULES.md §5) by tier, semifinals first; winner null until decided."""
    return [
        {
            "tier": m.tier,
            "round": m.placement_round,
            "a": m.pair_a_id,
            "b": m.pair_b_id,
            "winner": m.outcome.winner if m.outcome.finished else None,
            "referee": m.referee or None,
        }
        for m in snap.placements
    ]


def final_ranking_json(snap) -> list[dict]:
    """Every pair's final place once all are known (shared places repeat), else the places decided so far."""
    return [
        {"place": place, "pair": pair.pk, "players": [p.full_name for p in pair.players], "club": pair.club.name}
        for place, pair in snap.ranking()
    ]


def timetable_json(snap) -> dict:
    """The event day's clock (issue #19): the planned starts and each round's planned and estimated start
    and estimated end (``tournaments.timetable``; they move as results come in)."""
    ev = snap.event
    starts = day_clock.day_starts(ev)
    draw = timezone.make_aware(dt.datetime.combine(ev.starts_on, ev.draw_time), timezone.get_default_timezone())
    return {
        "draw": draw.isoformat(),
        "play_starts": {day: at.isoformat() for day, at in starts.items()},
        "minutes_per_deal": ev.minutes_per_deal,
        "rounds": [
            {
                "stage": t.stage, "round": t.round, "planned": t.planned.isoformat(),
                "estimated": t.estimated.isoformat(), "estimated_end": t.ends.isoformat(), "finished": t.finished,
            }
            for t in snap.timetable
        ],
    }


def event_json(snap) -> dict:
    ev = snap.event
    payload = {"slug": ev.slug, "name": ev.name, "status": ev.status, "timetable": timetable_json(snap)}
    extra = extensions.event_payload(ev.kind)
    if extra is not None:  # an event kind of another app (the team competition): its own keys
        return {**payload, "groups": [], **extra(snap)}
    return {
        **payload,
        # Saturday's groups, then Sunday's (RULES.md §4–5)
        "groups": [
            group_json(t, outlook.group_outlook(snap, t))
            for t in [*snap.stage_tables(Stage.SATURDAY), *snap.stage_tables(Stage.SUNDAY)]
        ],
        "placement_matches": placement_json(snap),
        "final_ranking": final_ranking_json(snap),
    }


@require_GET
@event_page(personal=False)
def event(request, head):
    def body() -> bytes:
        return json.dumps(event_json(head.snapshot()), ensure_ascii=False).encode()

    # "status" follows the calendar: the key names the day as the ETag does.
    content = caching.versioned(f"api:{head.key}:{timezone.localdate().isoformat()}", body, lock=False)
    return HttpResponse(content, content_type="application/json")
