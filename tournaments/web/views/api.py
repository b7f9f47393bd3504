"""The read-only public JSON API: events, groups, standings and matches (documented in the README).

An event's answer is made from its snapshot once per results version and kept in the caches as bytes;
it carries an ETag, and a client that sends it back gets ``304 Not Modified`` until something changes."""

from __future__ import annotations

import datetime as dt
import json

from django.http import JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments import extensions
from tournaments.models import Event, Stage
from tournaments.readmodel import outlook
from tournaments.readmodel import timetable as day_clock
from tournaments.readmodel.live import Answer, event_answer


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
        "appeal": appeal_json(m),
    }


def appeal_json(m) -> dict | None:
    """The match's appeal to the judges' council (issue #29): null, or its status ("open", "rejected",
    "upheld"), when it was filed and ruled, and a short summary (the ruling's decision, effect and reasons)."""
    appeal = m.appeal
    if appeal is None:
        return None
    ruling = m.ruling_of(appeal)
    summary = ruling.summary if ruling is not None else _("Pari %(side)s valitti: valitus käsittelyssä.") % {
        "side": appeal.side
    }
    return {
        "status": appeal.status, "filed": _local(appeal.filed_at),
        "ruled": None if appeal.ruled_at is None else _local(appeal.ruled_at), "summary": summary,
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


def timetable_json(snap, now=None) -> dict:
    """The event day's clock (issue #19): the planned starts and each round's planned and estimated start
    and estimated end (``tournaments.readmodel.timetable``; they move as results come in, and with the clock: at
    ``now`` no estimate of a round to come is in the past, issue #25.5)."""
    ev = snap.event
    starts = day_clock.day_starts(ev)
    draw = timezone.make_aware(dt.datetime.combine(ev.starts_on, ev.draw_time), timezone.get_default_timezone())
    return {
        "draw": draw.isoformat(),
        "play_starts": {day: at.isoformat() for day, at in starts.items()},
        "minutes_per_deal": ev.minutes_per_deal,
        "rounds": [
            {
                "stage": t.stage, "round": t.round, "planned": _local(t.planned),
                "estimated": _local(t.estimated), "estimated_end": _local(t.ends), "finished": t.finished,
                "started": t.started,
            }
            for t in day_clock.on_clock(snap.timetable, now)
        ],
    }


def _local(moment: dt.datetime) -> str:
    """A time in the site's time zone, as every time of the timetable is given."""
    return timezone.localtime(moment).isoformat()


def event_json(snap, now=None) -> dict:
    ev = snap.event
    payload = {
        "slug": ev.slug, "name": ev.name, "status": ev.status, "timetable": timetable_json(snap, now),
        # the event file (issue #27), once the final places are published; null before
        "event_file": reverse("event_file", args=[ev.slug]) if ev.finished_at and snap.published_record else None,
    }
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


def _json(values) -> bytes:
    return json.dumps(values, ensure_ascii=False).encode()


# "status" follows the calendar, the estimates the clock: the answer's digest names the day and the
# timetable as the clock moves it (at most once a minute).
EVENT = Answer("api_event", lambda snap, now: event_json(snap, now), _json, "application/json", clock=day_clock.minute_now)
event = require_GET(event_answer(EVENT))
