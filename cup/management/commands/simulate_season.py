"""``manage.py simulate_season``: a whole cup season played through the rules engine.

Creates a season's cup events (default 4), the summer event (*kesäkisa*) and the SM pair tournament,
each a two-day event of ``--pairs`` pairs from the demo registry, drawn and played to published final
places by the same machinery as ``simulate_event`` (``tournaments.actions.simulation.play_weekend``), and counts
them for the cup with the weights of RULES.md §8 (1, ½ for the summer event). Pairs come from a fixed
roster, so that the same two players meet again and the fixed-pair ranking means something; after the
second event one player's transfer is confirmed and their pair plays on for the new club (RULES.md §7:
the season's points stay with the first club). The season's id is the last word of the output.
"""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from cup.models import CupEvent, default_weight
from registry.demo import ensure_registry
from registry.models import Club, Player, Season, SeasonClub, Transfer
from tournaments.actions import draw, entries
from tournaments.actions.simulation import play_weekend
from tournaments.management.commands.setup_demo import DEMO_ORGANISER
from tournaments.models import Event, unique_event_slug

VENUES = ["Oulu", "Rovaniemi", "Kemi", "Tornio", "Kajaani", "Raahe", "Ylivieska", "Kuusamo"]


def saturday_on_or_after(day: dt.date) -> dt.date:
    return day + dt.timedelta(days=(5 - day.weekday()) % 7)


class Command(BaseCommand):
    help = "Create and play a cup season: cup events, the summer event and the SM pair tournament."

    def add_arguments(self, parser):
        parser.add_argument(
            "--season", type=int, help="the year the season starts (1 August); default: the current one"
        )
        parser.add_argument("--pairs", type=int, default=24, help="pairs per event (16 or more); default 24")
        parser.add_argument("--cup-events", type=int, default=4, help="cup events before summer; default 4")
        parser.add_argument("--best-n", type=int, help="events counted per player (default: all)")
        parser.add_argument(
            "--seed", type=int, default=1, help="random seed: the same seed gives the same season"
        )

    def handle(
        self, *args, season=None, pairs: int = 24, cup_events: int = 4, best_n=None, seed: int = 1, **opts
    ):
        if pairs < 16:
            raise CommandError("--pairs must be at least 16 (the two-day format's minimum)")
        if not 1 <= cup_events <= 6:
            raise CommandError("--cup-events must be 1–6 (they are played from September to spring)")
        if best_n is not None and best_n < 1:
            raise CommandError("--best-n must be at least 1 (leave it out to count every event)")
        ensure_registry()
        players = list(Player.objects.select_related("club").order_by("pk"))
        roster_size = pairs + pairs // 2
        if len(players) < 2 * roster_size:
            raise CommandError(
                f"--pairs {pairs} needs {2 * roster_size} players; the registry has {len(players)}"
            )
        rng = random.Random(seed)
        year = season if season is not None else Season.start_for(timezone.localdate()).year
        cup_season, _created = Season.objects.get_or_create(start=dt.date(year, 8, 1))
        if best_n is not None:
            cup_season.best_n = best_n
            cup_season.save(update_fields=["best_n"])

        fallback = Club.objects.order_by("pk").first()
        chosen = rng.sample(players, 2 * roster_size)
        roster = [
            [chosen[2 * i], chosen[2 * i + 1], chosen[2 * i].club or chosen[2 * i + 1].club or fallback]
            for i in range(roster_size)
        ]
        first = saturday_on_or_after(dt.date(year, 9, 10))
        schedule = [
            (
                Event.Kind.CUP,
                first + dt.timedelta(weeks=6 * k),
                f"Tuppicupin {k + 1}. osakilpailu {year}–{year + 1}",
                f"tuppicup-{year}-{k + 1}",
            )
            for k in range(cup_events)
        ]
        schedule.append(
            (
                Event.Kind.SUMMER,
                saturday_on_or_after(dt.date(year + 1, 6, 10)),
                f"Kesäkisa {year + 1}",
                f"kesakisa-{year + 1}",
            )
        )
        schedule.append(
            (
                Event.Kind.SM_PAIRS,
                saturday_on_or_after(dt.date(year + 1, 7, 5)),
                f"SM-parikisa {year + 1}",
                f"sm-parikisa-{year + 1}",
            )
        )
        organiser = get_user_model().objects.filter(username=DEMO_ORGANISER[0]).first()

        for number, (kind, starts_on, name, slug) in enumerate(schedule, start=1):
            event = self._event(
                cup_season, kind, starts_on, name, slug, number, organiser, roster, pairs, rng
            )
            self.stdout.write(f"{event.name} ({starts_on:%d.%m.%Y}, {event.slug}):")
            for line in play_weekend(event, rng):
                self.stdout.write(f"  {line}")
            if number == 2:
                self._transfer(cup_season, roster, schedule[number][1], rng)
        self.stdout.write(f"Season {cup_season} with {len(schedule)} cup events; season id: {cup_season.pk}")

    @transaction.atomic
    def _event(self, season, kind, starts_on, name, slug, number, organiser, roster, pairs, rng) -> Event:
        event = Event.objects.create(
            name=name,
            slug=unique_event_slug(slug),
            season=season,
            starts_on=starts_on,
            ends_on=starts_on + dt.timedelta(days=1),
            venue=VENUES[number % len(VENUES)],
            kind=kind,
        )
        if organiser:
            event.organisers.add(organiser)
        for index in sorted(rng.sample(range(len(roster)), pairs)):
            p1, p2, club = roster[index]
            pair = entries.create_pair(event, p1, p2, club)
            entries.set_checked_in(pair, True)
        try:
            draw.draw_groups(event, None, seed=rng.randrange(1, 2**31))
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        CupEvent.objects.create(event=event, weight=default_weight(kind))
        return event

    def _transfer(self, season, roster, before: dt.date, rng) -> None:
        """One player who has a season club moves to another club; their pair plays on for the new club."""
        clubs = list(Club.objects.order_by("pk"))
        season_clubs = dict(SeasonClub.objects.filter(season=season).values_list("player_id", "club_id"))
        for entry in roster:
            mover = entry[1]
            if mover.pk in season_clubs and len(clubs) > 1:
                others = [c for c in clubs if c.pk != season_clubs[mover.pk]]
                to_club = rng.choice(others)
                Transfer.objects.create(
                    season=season,
                    player=mover,
                    from_club_id=season_clubs[mover.pk],
                    to_club=to_club,
                    confirmed_on=before - dt.timedelta(days=14),
                )
                entry[2] = to_club
                self.stdout.write(
                    f"Transfer confirmed: {mover} to {to_club}; the season's points stay with the first club."
                )
                return
