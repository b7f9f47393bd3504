"""The read-only public JSON API: events, groups, standings and matches (documented in the README)."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from tournaments.models import Event
from tournaments.results import stage_tables


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


def _match_json(m) -> dict:
    o = m.outcome
    winner = o.winner
    return {
        "id": m.pk,
        "round": m.round,
        "table": m.table,
        "a": m.pair_a_id,
        "b": m.pair_b_id,
        "status": o.status,
        "winner": winner,
        "tuppi": o.tuppi,
        "totals": {"a": o.totals[0], "b": o.totals[1]},
        "match_points": None if o.match_points is None else {"a": o.match_points[0], "b": o.match_points[1]},
    }


def group_json(table) -> dict:
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
            }
            for r in table.rows
        ],
        "matches": [_match_json(m) for m in table.matches],
    }


@require_GET
def event(request, slug):
    from tournaments.views.sunday import placement_matches

    event = get_object_or_404(Event, slug=slug)
    if event.kind == Event.Kind.SM_TEAM:  # a knockout of teams (RULES.md §6): its own keys
        from teams.api import event_extra

        payload = {"slug": event.slug, "name": event.name, "status": event.status, "groups": [], **event_extra(event)}
        return JsonResponse(payload, json_dumps_params={"ensure_ascii": False})
    saturday = stage_tables(event, "saturday")
    placements = placement_matches(event)
    return JsonResponse(
        {
            "slug": event.slug,
            "name": event.name,
            "status": event.status,
            # Saturday's groups, then Sunday's (RULES.md §4–5)
            "groups": [group_json(t) for t in [*saturday, *stage_tables(event, "sunday")]],
            "placement_matches": placement_json(placements),
            "final_ranking": final_ranking_json(event, saturday, placements),
        },
        json_dumps_params={"ensure_ascii": False},
    )


def placement_json(placements) -> list[dict]:
    """The placement matches (RULES.md §5) by tier, semifinals first; winner null until decided."""
    from tournaments.views.sunday import bracket

    out = []
    for tier in bracket(None, placements):
        for m in [*tier["semis"], tier["final"], tier["third"]]:
            if m is None:
                continue
            out.append(
                {
                    "tier": m.tier,
                    "round": m.placement_round,
                    "a": m.pair_a_id,
                    "b": m.pair_b_id,
                    "winner": m.outcome.winner if m.outcome.finished else None,
                }
            )
    return out


def final_ranking_json(event, saturday, placements) -> list[dict]:
    """Every pair's final place once all are known (shared places repeat), else the places decided so far."""
    from tournaments.views.sunday import ranking

    places, _complete = ranking(event, saturday=saturday, placements=placements)
    return [
        {"place": place, "pair": pair.pk, "players": [p.full_name for p in pair.players], "club": pair.club.name}
        for place, pair in places
    ]
