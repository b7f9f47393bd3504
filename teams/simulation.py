"""A random but valid team competition for the demo and ``simulate_teams``: teams from the demo
registry's clubs, the bracket drawn, random orders declared, every pair match played with a random valid
scoresheet through the rules engine, to the final and the match for third place. Not used by the live
system."""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from registry.demo import ensure_registry
from registry.models import Club, Player, Season
from teams import results
from teams.actions import bracket as bracket_actions
from teams.actions import common, places, rosters
from teams.actions import orders as orders_actions
from teams.models import Team, TeamMatch
from tournaments.actions.simulation import confirm_all, play_matches
from tournaments.models import Event, Match, unique_event_slug

REINFORCED = 0.25  # share of teams with one pair from another club
TITLE_ONLY = 0.1  # share with two (the team plays for the title only)


def _build_teams(event: Event, teams: int, rng: random.Random) -> None:
    """``teams`` teams from the clubs with the most free players (a club may send several): three pairs of
    its own players, or one or two pairs of another club's (reinforcements)."""
    free: dict[int, list[Player]] = {}
    for player in Player.objects.filter(club__isnull=False).order_by("pk"):
        free.setdefault(player.club_id, []).append(player)
    for players in free.values():
        rng.shuffle(players)
    clubs = {c.pk: c for c in Club.objects.filter(pk__in=free)}
    counts: dict[int, int] = {}
    for _n in range(teams):
        # spread the teams over the clubs: the club with the fewest teams so far, then the most free players
        full = [c for c in free if len(free[c]) >= 6] or list(free)
        club_id = min(full, key=lambda c: (counts.get(c, 0), -len(free[c]), c))
        if len(free[club_id]) < 2:
            raise ValueError(f"{teams} teams need more players than the registry has")
        roll = rng.random()
        outside = 2 if roll < TITLE_ONLY else (1 if roll < TITLE_ONLY + REINFORCED else 0)
        specs = []
        for k in range(3):
            source = club_id
            if k >= 3 - outside or len(free[club_id]) < 2:
                others = [c for c in free if c != club_id and len(free[c]) >= 2]
                source = rng.choice(others) if others else club_id
            p1, p2 = free[source].pop(), free[source].pop()
            specs.append(rosters.NewPair(p1, p2, clubs[source]))
        counts[club_id] = counts.get(club_id, 0) + 1
        name = clubs[club_id].name if counts[club_id] == 1 else f"{clubs[club_id].name} {counts[club_id]}"
        rosters.create_team(
            event, club=clubs[club_id], name=name, leader_name=f"{specs[0].player1.full_name}", pairs=specs
        )


def _declare_all(event: Event, rng: random.Random) -> list[TeamMatch]:
    """Random orders for every team match still waiting for them; returns the team matches to start."""
    comp = results.load(event)
    waiting = [r for r in comp.rows if not r.bye and r.started_at is None and r.winner_id is None]
    rows = TeamMatch.objects.select_related("event", "team_a", "team_b").in_bulk([r.pk for r in waiting])
    for view in waiting:
        row = rows[view.pk]
        for team in (row.team_a, row.team_b):
            if team.pk not in view.declared:
                pairs = list(comp.teams[team.pk].pair_ids)
                rng.shuffle(pairs)
                orders_actions.declare_order(row, team, pairs, common.Actor(via_link=True))
    return [rows[view.pk] for view in waiting]


def simulate_team_competition(teams: int, seed: int) -> Event:
    """Create an SM team competition with ``teams`` teams and play it to the end; returns the event (its
    slug is what ``simulate_teams`` prints last)."""
    if teams < 2:
        raise ValueError("a team competition needs at least 2 teams")
    ensure_registry()
    rng = random.Random(seed)
    today = timezone.localdate()
    with transaction.atomic():
        event = Event.objects.create(
            name=f"Simuloitu SM-joukkuekisa, {teams} joukkuetta (siemen {seed})",
            slug=unique_event_slug(f"simulaatio-joukkueet-{teams}-{seed}"),
            season=Season.for_date(today),
            starts_on=today,
            ends_on=today + dt.timedelta(days=1),
            venue="Simulaatio",
            kind=Event.Kind.SM_TEAM,
        )
        organiser = get_user_model().objects.filter(username="jarjestaja").first()
        if organiser:
            event.organisers.add(organiser)
        _build_teams(event, teams, rng)
        bracket_actions.draw(event, None, seed=seed)
        event.refresh_from_db()
    for _round in range(2 * Team.objects.filter(event=event).count()):
        with transaction.atomic():
            rows = _declare_all(event, rng)
            if not rows:
                break
            for row in rows:
                orders_actions.start_team_match(row, None)
            matches = Match.objects.filter(event=event, stage="team", status=Match.Status.SCHEDULED)
            play_matches(matches, rng)  # bypasses the result services: move the bracket on ourselves
            bracket_actions.sync_bracket(event)
    confirm_all(event)
    places.publish(event, None)
    event.refresh_from_db()
    return event
