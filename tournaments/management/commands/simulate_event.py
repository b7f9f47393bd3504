"""``manage.py simulate_event --pairs N --seed S``: a cup event with N pairs from the demo registry,
everyone checked in, the groups drawn, and the whole weekend played with random but valid deals through
the rules engine: Saturday groups, Sunday groups, placement matches, final places published; play-offs
are recorded in a random order wherever a tie needs one. ``--until draw|groups|sunday`` stops earlier.
The event's slug is the last word of the output. (An SM team competition: ``manage.py simulate_teams``.)
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from registry.demo import ensure_registry
from registry.models import Player, Season
from tournaments.actions import draw as draw_actions
from tournaments.actions.simulation import enter_random_pairs, play_weekend
from tournaments.management.commands.setup_demo import DEMO_ORGANISER
from tournaments.models import Event, unique_event_slug


class Command(BaseCommand):
    help = "Create a cup event with N demo pairs, check everyone in and draw the groups."

    def add_arguments(self, parser):
        parser.add_argument("--pairs", type=int, required=True, help="number of pairs (16 or more): a two-day pair event")
        parser.add_argument("--seed", type=int, default=1, help="random seed: the same seed gives the same event")
        parser.add_argument(
            "--until", choices=["draw", "groups", "sunday", "all"], default="all",
            help="stop after the draw, the Saturday groups or the Sunday groups; default: play to final places",
        )

    def handle(self, *args, pairs: int, seed: int, until: str = "all", **options):
        if pairs < 16:
            raise CommandError("--pairs must be at least 16 (the two-day format's minimum)")
        ensure_registry()
        players = list(Player.objects.select_related("club").order_by("pk"))
        if len(players) < 2 * pairs:
            raise CommandError(f"--pairs {pairs} needs {2 * pairs} players; the registry has {len(players)}")
        rng = random.Random(seed)
        today = timezone.localdate()
        with transaction.atomic():
            event = Event.objects.create(
                name=f"Simuloitu kisa, {pairs} paria (siemen {seed})",
                slug=unique_event_slug(f"simulaatio-{pairs}-paria-{seed}"),
                season=Season.for_date(today),
                starts_on=today,
                ends_on=today,
                venue="Simulaatio",
                kind=Event.Kind.CUP,
            )
            organiser = get_user_model().objects.filter(username=DEMO_ORGANISER[0]).first()
            if organiser:
                event.organisers.add(organiser)
            enter_random_pairs(event, pairs, rng)
            try:
                draw_actions.draw_groups(event, None, seed=seed)
            except ValidationError as exc:
                raise CommandError(" ".join(exc.messages)) from exc
        groups = event.groups.count()
        matches = event.matches.count()
        self.stdout.write(f"{pairs} pairs in {groups} groups, {matches} matches scheduled; draw seed {seed}.")
        if until != "draw":
            for line in play_weekend(event, rng, until=until):
                self.stdout.write(line)
        self.stdout.write(f"Event: {event.slug}")
