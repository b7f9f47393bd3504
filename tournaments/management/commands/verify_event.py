"""``manage.py verify_event SLUG``: do the stored facts still give the published results?

Checks the chain of the event's published records (``tournaments.actions.publication``): each names the digest of
the one before it, and each one's kept record still gives its digest; then recomputes the event's canonical
result record (players and names, every scoresheet line, paper results, play-offs, withdrawals, forfeits,
the final places) and its SHA-256 digest, and the final places with the rules engine, from what the
database holds now, and compares them with the latest published record. Exit 0 when all agree; exit 1,
saying what differs (which link of the chain breaks, which pair's players or which match's sheet changed),
when not: for example after a row was changed in the database behind the application's back.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments.actions import publication
from tournaments.models import Event


class Command(BaseCommand):
    help = "Check an event's chain of published records, its final places and result digest against the stored facts."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the event's address (its slug)")

    def handle(self, *args, slug: str, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event with the address {slug!r}")
        problems = publication.verify(event)
        if problems:
            for problem in problems:
                self.stderr.write(f"DIFFERS: {problem}")
            raise SystemExit(1)
        links = publication.chain(event)
        self.stdout.write(
            f"OK: {event.slug}: the published places and the digest {links[-1].digest} agree with the facts; "
            f"the chain of {len(links)} published record(s) is whole."
        )
