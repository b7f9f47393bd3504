"""The seasons and their cup in the read-only public JSON API (documented in the README).

``GET /api/seasons/`` lists the seasons; ``GET /api/seasons/<id>/cup/`` gives the season's settings, its
counted events in date order and the three rankings (RULES.md §8). Points are an int when whole and a
float such as 12.5 otherwise (scoring.cup, Decision on halves); ranks are shared where level, with the
label as the pages show it ("2.–3.").
"""

from __future__ import annotations

import json

from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_GET

from cup import services
from cup.live import season_page
from scoring.cup import points_to_json
from tournaments import caching
from tournaments.models import Season


def _season_json(request, season: Season) -> dict:
    return {
        "id": season.pk,
        "name": str(season),
        "start": season.start.isoformat(),
        "end": season.end.isoformat(),
        "best_n": season.best_n,
        "cup_url": request.build_absolute_uri(reverse("api_season_cup", args=[season.pk])),
    }


@require_GET
def seasons(request):
    rows = Season.objects.order_by("-start")
    return JsonResponse(
        {"seasons": [_season_json(request, s) for s in rows]}, json_dumps_params={"ensure_ascii": False}
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


def cup_json(request, cup: services.SeasonCup) -> dict:
    return {
        "season": {**_season_json(request, cup.season), "points_table": list(cup.table)},
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


@require_GET
@season_page(personal=False)
def season_cup(request, season_id):
    season = get_object_or_404(Season, pk=int(season_id))

    def body() -> bytes:
        return json.dumps(cup_json(request, services.season_cup(season)), ensure_ascii=False).encode()

    content = caching.versioned(f"api:{request.live_etag}:{request.get_host()}", body, lock=False)
    return HttpResponse(content, content_type="application/json")
