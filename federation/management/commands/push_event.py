"""``manage.py push_event SLUG URL --token TOKEN``: send an event played on this laptop to the federation's
site (``POST /api/events/import/``). Sending it again changes nothing there; a file with other facts for
an event the site already has is refused, never a silent overwrite."""

from __future__ import annotations

import os

from django.core.management.base import BaseCommand, CommandError

from federation import remote
from tournaments.models import Event
from tournaments.output.eventfile import export_text


class Command(BaseCommand):
    help = "Send an event to the federation's site (URL: the site's root address)."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the event's address (its slug)")
        parser.add_argument("url", help="the federation's site, e.g. https://tuppiliitto.fi")
        parser.add_argument("--token", help="an organiser's API token (or the environment's TUPPI_API_TOKEN)")

    def handle(self, *args, slug: str, url: str, token: str | None, **options):
        token = token or os.environ.get("TUPPI_API_TOKEN", "")
        if not token:
            raise CommandError("give an API token: --token or TUPPI_API_TOKEN (made on /jarjestaja/tunnukset/)")
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event with the address {slug!r}")
        body = export_text(event).encode()
        try:
            status, answer = remote.call(remote.address(url, "/api/events/import/"), body=body, token=token)
        except remote.Unreachable as exc:
            raise CommandError(str(exc)) from None
        if status not in (200, 201):
            raise CommandError(f"the site refused the event ({status}): " + " ".join(answer.get("errors", [str(answer)])))
        for note in answer.get("notes", []):
            self.stdout.write(note)
        said = "received" if answer["created"] else (
            "corrected on the site" if answer.get("corrected") else "already there, unchanged"
        )
        self.stdout.write(f"{slug}: {said}: {answer['url']}")
