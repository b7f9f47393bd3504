"""Random but valid events for the demo and ``simulate_event``: pairs from the registry, scoresheets from
the rules engine's random match generator, random play-off orders. Not used by the live system."""

from __future__ import annotations

import random
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from registry.models import Club, Player
from scoring.random_match import random_match
from tournaments.actions import entries as entry_actions
from tournaments.actions import results, sunday, versions
from tournaments.models import Entry, Event, Match, Playoff, Stage
from tournaments.readmodel import build
from tournaments.readmodel.results import fold_rows, from_engine


@transaction.atomic
def enter_random_pairs(event: Event, n: int, rng: random.Random, *, check_in: bool = True) -> None:
    """Enter ``n`` pairs of registry players (a pair plays for its first player's home club)."""
    taken = set(event.pairs.values_list("members__player", flat=True))
    players = [p for p in Player.objects.select_related("club").order_by("pk") if p.pk not in taken]
    if len(players) < 2 * n:
        raise ValueError(f"{n} pairs need {2 * n} players; the registry has {len(players)} free")
    chosen = rng.sample(players, 2 * n)
    fallback = Club.objects.order_by("pk").first()
    for i in range(n):
        p1, p2 = chosen[2 * i], chosen[2 * i + 1]
        pair = entry_actions.create_pair(event, p1, p2, p1.club or p2.club or fallback)
        if check_in:
            entry_actions.set_checked_in(pair, True)


@transaction.atomic
def play_matches(matches: Iterable[Match], rng: random.Random) -> int:
    """Play each scheduled match with a random valid scoresheet, checked once more by the engine."""
    matches = [m for m in matches if m.status == Match.Status.SCHEDULED]
    rows = []
    for match in matches:
        entries = random_match(rng, match.deals_planned, penalties=0.01, tuppi_penalty=0.005, forfeit=0.005, level=0.05)
        match_rows = [from_engine(e, match, i, seat_choice=rng.randrange(2)) for i, e in enumerate(entries, start=1)]
        fold_rows(match, match_rows)
        rows.extend(match_rows)
        match.status = Match.Status.FINISHED
        match.version += 1
    Entry.objects.bulk_create(rows)
    Match.objects.bulk_update(matches, ["status", "version"])
    for event_id in {m.event_id for m in matches}:
        versions.bump(event_id)
    return len(matches)


@transaction.atomic
def settle_playoffs(event: Event, rng: random.Random, stage: str = Stage.SATURDAY) -> int:
    """Record a random play-off order for every tie that needs one in a finished group."""
    count = 0
    versions.lock(event.pk)
    for table in build.build(event.pk, stages=(stage,)).stage_tables(stage):
        if not table.finished:
            continue
        tied: dict[int, list[int]] = {}
        for row in table.rows:
            if row.standing.playoff_required:
                tied.setdefault(row.standing.rank, []).append(row.pair.pk)
        for pair_ids in tied.values():
            order = list(pair_ids)
            rng.shuffle(order)
            Playoff.objects.create(group_id=table.group.pk, order=order)
            count += 1
    return count


def confirm_all(event: Event) -> int:
    """The organiser's confirmation of every result, as one step (the simulation's shortcut)."""
    count = results.unconfirmed(event).update(confirmed_at=timezone.now(), link_closed=True)
    versions.bump(event.pk)
    return count


def play_weekend(event: Event, rng: random.Random, *, until: str = "all") -> list[str]:
    """Play an event from its drawn Saturday to published final places (or stop after ``until``:
    "groups" or "sunday"); returns a line of output per step."""
    out = []
    played = play_matches(event.matches.filter(stage=Stage.SATURDAY), rng)
    out.append(f"Played {played} Saturday group matches; recorded {settle_playoffs(event, rng)} play-offs.")
    if until == "groups" or event.format != Event.Format.STANDARD:
        return out
    sunday.advance(event, None)
    played = play_matches(event.matches.filter(stage=Stage.SUNDAY), rng)
    out.append(f"Played {played} Sunday group matches; recorded {settle_playoffs(event, rng, Stage.SUNDAY)} play-offs.")
    if until == "sunday":
        return out
    for _step in ("semi", "final"):
        sunday.create_placements(event)
        play_matches(event.matches.filter(stage=Stage.PLACEMENT), rng)
    sunday.create_placements(event)
    confirm_all(event)
    sunday.publish(event, None)
    placements = event.matches.filter(stage=Stage.PLACEMENT).count()
    out.append(f"Played {placements} placement matches; final places published.")
    return out
