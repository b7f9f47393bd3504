"""``manage.py simulate_event --pairs N --seed S``: a cup event with N pairs from the demo registry,
everyone checked in, the groups drawn and (unless ``--until draw``) every group match played with random
but valid deals through the rules engine, play-offs recorded in a random order where a tie needs one.
The event's slug is the last word of the output.

Later stages (Sunday, the cup) extend this command to play the event to its end.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from scoring.random_match import random_match
from tournaments import services
from tournaments.management.commands.setup_demo import DEMO_ORGANISER, REGISTRY_FIXTURE
from tournaments.models import Club, Entry, Event, Match, Player, Playoff, Season
from tournaments.results import fold_rows, from_engine, stage_tables


class Command(BaseCommand):
    help = "Create a cup event with N demo pairs, check everyone in and draw the groups."

    def add_arguments(self, parser):
        parser.add_argument("--pairs", type=int, required=True, help="number of pairs (16 or more)")
        parser.add_argument("--seed", type=int, default=1, help="random seed: the same seed gives the same event")
        parser.add_argument(
            "--until", choices=["draw", "groups"], default="groups",
            help="stop after the draw, or play the Saturday groups (default)",
        )

    def handle(self, *args, pairs: int, seed: int, until: str = "groups", **options):
        if pairs < 16:
            raise CommandError("--pairs must be at least 16 (the two-day format's minimum)")
        if not Club.objects.exists():
            call_command("loaddata", str(REGISTRY_FIXTURE), verbosity=0)
        players = list(Player.objects.select_related("club").order_by("pk"))
        if len(players) < 2 * pairs:
            raise CommandError(f"--pairs {pairs} needs {2 * pairs} players; the registry has {len(players)}")
        rng = random.Random(seed)
        chosen = rng.sample(players, 2 * pairs)
        today = timezone.localdate()
        with transaction.atomic():
            event = Event.objects.create(
                name=f"Simuloitu kisa, {pairs} paria (siemen {seed})",
                slug=self._slug(f"simulaatio-{pairs}-paria-{seed}"),
                season=Season.for_date(today),
                starts_on=today,
                ends_on=today,
                venue="Simulaatio",
                kind=Event.Kind.CUP,
            )
            organiser = get_user_model().objects.filter(username=DEMO_ORGANISER[0]).first()
            if organiser:
                event.organisers.add(organiser)
            fallback_club = Club.objects.order_by("pk").first()
            for i in range(pairs):
                p1, p2 = chosen[2 * i], chosen[2 * i + 1]
                pair = services.create_pair(event, p1, p2, p1.club or p2.club or fallback_club)
                services.set_checked_in(pair, True)
            try:
                services.draw_groups(event, None, seed=seed)
            except ValidationError as exc:
                raise CommandError(" ".join(exc.messages)) from exc
        groups = event.groups.count()
        matches = event.matches.count()
        self.stdout.write(f"{pairs} pairs in {groups} groups, {matches} matches scheduled; draw seed {seed}.")
        if until != "draw":
            played, playoffs = play_groups(event, rng)
            self.stdout.write(f"Played {played} group matches; recorded {playoffs} play-offs.")
        self.stdout.write(f"Event: {event.slug}")

    @staticmethod
    def _slug(base: str) -> str:
        slug, n = slugify(base), 1
        while Event.objects.filter(slug=slug).exists():
            n += 1
            slug = f"{slugify(base)}-{n}"
        return slug


@transaction.atomic
def play_groups(event: Event, rng: random.Random) -> tuple[int, int]:
    """Play every scheduled Saturday match with a random valid scoresheet, then settle ties by play-offs."""
    matches = list(Match.objects.filter(event=event, stage="saturday", status=Match.Status.SCHEDULED))
    rows = []
    for match in matches:
        entries = random_match(rng, match.deals_planned, penalties=0.01, tuppi_penalty=0.005, forfeit=0.005, level=0.05)
        match_rows = [from_engine(e, match, i, seat_choice=rng.randrange(2)) for i, e in enumerate(entries, start=1)]
        fold_rows(match, match_rows)  # the engine checks the whole sheet once more
        rows.extend(match_rows)
        match.status = Match.Status.FINISHED
        match.version += 1
    Entry.objects.bulk_create(rows)
    Match.objects.bulk_update(matches, ["status", "version"])
    playoffs = 0
    for table in stage_tables(event, "saturday"):
        tied: dict[int, list[int]] = {}
        for row in table.rows:
            if row.standing.playoff_required:
                tied.setdefault(row.standing.rank, []).append(row.pair.pk)
        for pair_ids in tied.values():
            order = list(pair_ids)
            rng.shuffle(order)
            Playoff.objects.create(group=table.group, order=order)
            playoffs += 1
    return len(matches), playoffs
