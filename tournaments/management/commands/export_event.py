"""``manage.py export_event SLUG FILE``: write an event's file (issue #27; ``-`` for standard output).

The file is the canonical JSON of ``tournaments.output.eventfile`` (format ``tuppi-event``, version 1,
schema ``docs/tuppi-event.schema.json``): the same event gives the same bytes from any database.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.output import eventfile


class Command(BaseCommand):
    help = "Kirjoita kisan tiedosto (tuppi-event, JSON) tiedostoon FILE (- = vakiotuloste)."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="kisan osoite (slug)")
        parser.add_argument("file", help="tiedosto, johon kirjoitetaan, tai - vakiotulosteeseen")

    def handle(self, *args, slug: str, file: str, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"Kisaa osoitteella {slug!r} ei ole.")
        text = eventfile.export_text(event)
        if file == "-":
            self.stdout.write(text, ending="")
            return
        with open(file, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        self.stderr.write(f"Kirjoitettu: {file} ({event.slug}).")
