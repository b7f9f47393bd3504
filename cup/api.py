"""The seasons and their cup in the read-only public JSON API (documented in the README).

``GET /api/seasons/`` lists the seasons; ``GET /api/seasons/<id>/cup/`` gives the season's settings, its
counted events in date order and the three rankings (RULES.md §8). Points are an int when whole and a
float such as 12.5 otherwise (scoring.cup, Decision on halves); ranks are shared where level, with the
label as the pages show it ("2.–3.").
"""

from __future__ import annotations

import json

from django.http import JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from cup import live, services
from registry.models import Season
from scoring.cup import points_to_json
from tournaments.readmodel.live import Answer, serve_answer


def _base(request) -> str:
    """The site's address as this request reached it (the API's links are absolute)."""
    return request.build_absolute_uri("/").rstrip("/")


def _season_json(base: str, season: Season) -> dict:
    return {
        "id": season.pk,
        "name": str(season),
        "start": season.start.isoformat(),
        "end": season.end.isoformat(),
        "best_n": season.best_n,
        "cup_url": base + reverse("api_season_cup", args=[season.pk]),
    }


@require_GET
def seasons(request):
    rows = Season.objects.order_by("-start")
    return JsonResponse(
        {"seasons": [_season_json(_base(request), s) for s in rows]}, json_dumps_params={"ensure_ascii": False}
    )


def _places(places: dict[int, int]) -> dict[str, int]:
    return {str(place): n for place, n in places.items()}


def _events(cup: services.SeasonCup, row: services.Row) -> list[dict]:
    return [
        {
            "event": column.event.slug,
            "place": cell.place,
            "points": points_to_json(cell.points),
            "counted": cell.counted,
            "match_wins": cell.match_wins,
        }
        for column, cell in zip(cup.columns, row.cells, strict=True)
        if cell is not None
    ]


def _slugs(cup: services.SeasonCup, keys) -> list[str]:
    by_key = {str(c.event.pk): c.event.slug for c in cup.columns}
    return [by_key[k] for k in keys]


def _reach(row: services.Row) -> dict:
    """What do I need (issue #28.5): best and worst reachable position, null when no legs are left."""
    return {"best": row.best, "worst": row.worst, "worst_exact": row.worst_exact if row.worst else None}


def cup_json(base: str, cup: services.SeasonCup) -> dict:
    return {
        "season": {**_season_json(base, cup.season), "points_table": list(cup.table)},
        "events": [
            {
                "slug": c.event.slug,
                "name": c.event.name,
                "kind": c.event.kind,
                "starts_on": c.event.starts_on.isoformat(),
                "weight": points_to_json(c.weight),
                "placed": c.placed,
            }
            for c in cup.columns
        ],
        "players": [
            {
                "rank": r.rank,
                "rank_label": r.rank_label,
                "player": r.player.pk,
                "name": r.player.full_name,
                "club": r.club.name if r.club is not None else None,
                "points": points_to_json(r.points),
                "counted": _slugs(cup, r.standing.counted),
                "places": _places(r.places),
                "match_wins": r.match_wins,
                "events": _events(cup, r),
                **_reach(r),
            }
            for r in cup.players
        ],
        "pairs": [
            {
                "rank": r.rank,
                "rank_label": r.rank_label,
                "players": [p.pk for p in r.players],
                "names": [p.full_name for p in r.players],
                "clubs": [c.name for c in r.clubs],
                "points": points_to_json(r.points),
                "counted": _slugs(cup, r.standing.counted),
                "places": _places(r.places),
                "match_wins": r.match_wins,
                "events": _events(cup, r),
                **_reach(r),
            }
            for r in cup.pairs
        ],
        "clubs": [
            {
                "rank": c.rank,
                "rank_label": c.rank_label,
                "club": c.club.name,
                "points": points_to_json(c.points),
                "players": [m.player.pk for m in c.members],
                "places": _places(c.places),
                "match_wins": c.match_wins,
            }
            for c in cup.clubs
        ],
        # Players whose season club is unknown (RULES.md §7): listed apart, never dropped.
        "unknown_club": [
            {"player": r.player.pk, "name": r.player.full_name, "points": points_to_json(r.points)}
            for r in cup.unknown_club
        ],
    }


SEASON_CUP = Answer(
    "api_season_cup", lambda source, base: cup_json(base, source["cup"]),
    lambda values: json.dumps(values, ensure_ascii=False).encode(), "application/json",
)


@require_GET
def season_cup(request, season_id):
    return serve_answer(request, live.source(season_id), SEASON_CUP, {"base": _base(request)})
