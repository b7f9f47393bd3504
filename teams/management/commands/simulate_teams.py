"""``manage.py simulate_teams --teams T --seed S``: an SM team competition of T demo teams, drawn and
played to its final by ``teams.simulation`` (random but valid deals through the rules engine). The
event's slug is the last word of the output."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from teams.simulation import simulate_team_competition


class Command(BaseCommand):
    help = "Create an SM team competition of T demo teams, draw it and play it to its final."

    def add_arguments(self, parser):
        parser.add_argument("--teams", type=int, required=True, help="number of teams (2 or more)")
        parser.add_argument("--seed", type=int, default=1, help="random seed: the same seed gives the same event")

    def handle(self, *args, teams: int, seed: int, **options):
        if teams < 2:
            raise CommandError("--teams must be at least 2")
        event = simulate_team_competition(teams, seed)
        self.stdout.write(f"{teams} teams drawn into a knockout bracket and played to the final; seed {seed}.")
        self.stdout.write(f"Event: {event.slug}")
