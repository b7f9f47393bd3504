"""``manage.py verify_event SLUG``: do the stored facts still give the published results?

Recomputes the event's canonical result record and its SHA-256 digest, and its final places with the
rules engine, from what the database holds now, and compares them with the latest published record
(``tournaments.publication``). Exit 0 when both agree; exit 1, saying what differs, when not (for example
after a row was changed in the database behind the application's back).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments import publication
from tournaments.models import Event


class Command(BaseCommand):
    help = "Check an event's published final places and result digest against the stored facts."

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
        record = publication.latest(event)
        self.stdout.write(f"OK: {event.slug}: the published places and the digest {record.digest} agree with the facts.")
