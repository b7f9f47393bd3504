"""Loading helpers shared by public and organiser views: a fixed number of queries per page."""

from __future__ import annotations

from django.db.models import Prefetch

from scoring.draw import group_name_key
from tournaments.models import Group, GroupEntry, Match, PairMember


def pair_members_prefetch(prefix: str) -> Prefetch:
    return Prefetch(f"{prefix}members", queryset=PairMember.objects.select_related("player"))


def saturday_groups(event) -> list[Group]:
    """The Saturday groups in draw order (A, B, … Z, AA), each with ``.pairs`` in slot order."""
    entries = GroupEntry.objects.select_related("pair__club").prefetch_related(pair_members_prefetch("pair__"))
    groups = list(
        Group.objects.filter(event=event, stage="saturday").prefetch_related(Prefetch("entries", queryset=entries))
    )
    groups.sort(key=lambda g: group_name_key(g.name))
    for group in groups:
        group.pairs = [entry.pair for entry in group.entries.all()]
    return groups


def matches_by_round(event, stage: str = "saturday") -> dict[int, list[Match]]:
    matches = (
        Match.objects.filter(event=event, stage=stage)
        .select_related("group", "pair_a__club", "pair_b__club")
        .prefetch_related(pair_members_prefetch("pair_a__"), pair_members_prefetch("pair_b__"))
        .order_by("round", "table")
    )
    rounds: dict[int, list[Match]] = {}
    for match in matches:
        rounds.setdefault(match.round, []).append(match)
    return rounds
