"""Loading helpers against N+1 queries (as Tabbycat keeps ``draw/prefetch.py``): model rows with what the
organiser pages, the scoresheets and the printouts show of them, in a fixed number of queries.

The public pages read the event's snapshot (``tournaments.readmodel.snapshot``) instead; these helpers serve the
pages that work on model instances (forms, a scoresheet being edited, printed scoresheets with their
secret links).
"""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from scoring.draw import group_name_key
from tournaments.models import Group, GroupEntry, Match, PairMember, Stage


def pair_members_prefetch(prefix: str = "") -> Prefetch:
    """A pair's members with their players (``prefix`` is the path to the pair, e.g. ``"pair__"``)."""
    return Prefetch(f"{prefix}members", queryset=PairMember.objects.select_related("player"))


def with_pairs(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Matches with their event, group and both pairs (club and players): three queries in all."""
    return matches.select_related("event", "group", "pair_a__club", "pair_b__club").prefetch_related(
        pair_members_prefetch("pair_a__"), pair_members_prefetch("pair_b__")
    )


def saturday_groups(event) -> list[Group]:
    """The Saturday groups in draw order (A, B, … Z, AA), each with ``.pairs`` in slot order."""
    entries = GroupEntry.objects.select_related("pair__club").prefetch_related(pair_members_prefetch("pair__"))
    groups = list(
        Group.objects.filter(event=event, stage=Stage.SATURDAY).prefetch_related(Prefetch("entries", queryset=entries))
    )
    groups.sort(key=lambda g: group_name_key(g.name))
    for group in groups:
        group.pairs = [entry.pair for entry in group.entries.all()]
    return groups
