"""``manage.py import_event FILE``: create the event an event file holds (issue #27; ``-`` for standard
input), with the clubs and players the registry lacks, in one transaction; prints the event's slug last.

An invalid file, a conflict with the registry (a member number held by a player of another name, a club
whose details differ) or an existing event of the same address with other facts changes nothing and exits
1, saying what is wrong. ``--keep-registry`` imports despite the registry's conflicts, using the
registry's rows as they are (each conflict still reported). The same file imported twice changes nothing.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from tournaments.actions import eventfile as importing
from tournaments.output import eventfile as exporting


def exported_now(event) -> dict:
    return json.loads(exporting.export_text(event))


class Command(BaseCommand):
    help = "Tuo kisa kisatiedostosta (tuppi-event, JSON); tulostaa kisan osoitteen viimeisenä."

    def add_arguments(self, parser):
        parser.add_argument("file", help="kisatiedosto, tai - vakiosyötteestä")
        parser.add_argument(
            "--keep-registry", action="store_true",
            help="tuo ristiriidoista huolimatta; rekisterin kerhot ja pelaajat pidetään sellaisinaan",
        )

    def handle(self, *args, file: str, keep_registry: bool = False, **options):
        try:
            raw = sys.stdin.buffer.read() if file == "-" else open(file, "rb").read()  # noqa: SIM115
        except OSError as exc:
            self.stderr.write(f"Tiedostoa {file} ei voi lukea: {exc.strerror or exc}")
            raise SystemExit(2) from exc
        try:
            data = importing.load(raw)
            done = importing.import_event(data, keep_registry=keep_registry, exported_now=exported_now)
        except importing.EventFileError as exc:
            for problem in exc.problems:
                self.stderr.write(problem)
            raise SystemExit(1) from exc
        for note in done.notes:
            self.stdout.write(note)
        if done.created:
            self.stdout.write(f"Tuotu: {done.event.name}, {done.event.pairs.count()} paria, {done.event.matches.count()} ottelua.")
        self.stdout.write(done.event.slug)
