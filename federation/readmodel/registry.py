"""The federation's registry as one document (``GET /api/registry/``, ``docs/tuppi-registry.schema.json``):
clubs, players with member numbers, seasons, the season clubs, the transfers and the bans in force or to
come, public data only (no ban's reasons, no one's account). Sorted so that the same registry gives the
same bytes wherever it is served. A venue laptop brings it with ``manage.py pull_registry``."""

from __future__ import annotations

import datetime as dt

from registry.models import Ban, Club, Player, Season, SeasonClub, Transfer

FORMAT = "tuppi-registry"
VERSION = 1


def document(today: dt.date) -> dict:
    """The registry as the site holds it now; bans that ended before ``today`` are left out."""
    numbered = Player.objects.filter(member_number__isnull=False)
    return {
        "format": FORMAT,
        "version": VERSION,
        "clubs": [
            {"name": c.name, "short_name": c.short_name, "town": c.town}
            for c in Club.objects.order_by("name")
        ],
        "players": sorted(
            (
                {"member_number": p.member_number, "first_name": p.first_name, "last_name": p.last_name,
                 "club": p.club.name if p.club else None}
                for p in numbered.select_related("club")
            ),
            key=lambda row: row["member_number"],
        ),
        "seasons": [{"start": s.start.isoformat(), "best_n": s.best_n} for s in Season.objects.order_by("start")],
        "season_clubs": sorted(
            (
                {"season": r.season.start.isoformat(), "member_number": r.player.member_number, "club": r.club.name}
                for r in SeasonClub.objects.filter(player__in=numbered).select_related("season", "player", "club")
            ),
            key=lambda row: (row["season"], row["member_number"]),
        ),
        "transfers": sorted(
            (
                {"season": t.season.start.isoformat(), "member_number": t.player.member_number,
                 "from_club": t.from_club.name, "to_club": t.to_club.name,
                 "confirmed_on": t.confirmed_on.isoformat()}
                for t in Transfer.objects.filter(player__in=numbered).select_related(
                    "season", "player", "from_club", "to_club"
                )
            ),
            key=lambda row: (row["season"], row["member_number"], row["confirmed_on"], row["to_club"]),
        ),
        "bans": sorted(
            (
                {"member_number": b.player.member_number, "starts_on": b.starts_on.isoformat(),
                 "ends_on": b.ends_on.isoformat(), "decision": b.decision, "decided_on": b.decided_on.isoformat()}
                for b in Ban.objects.filter(player__in=numbered, ends_on__gte=today).select_related("player")
            ),
            key=lambda row: (row["member_number"], row["starts_on"], row["ends_on"]),
        ),
    }
