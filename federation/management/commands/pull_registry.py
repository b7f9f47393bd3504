"""``manage.py pull_registry URL [--event SLUG --token TOKEN]``: bring the federation's registry (clubs,
players, seasons, season clubs, transfers, bans) from its site to this installation, before the day
(``federation.actions.registry_pull``), and with ``--event`` an event created on the site (its organiser's
token), imported here as ``import_event`` does."""

from __future__ import annotations

import os

from django.core.management.base import BaseCommand, CommandError

from federation import remote
from federation.actions.registry_pull import Refused, pull
from federation.schemas import Invalid, check_registry
from tournaments.actions.eventfile import EventFileError, import_event, load
from tournaments.output.eventfile import export


class Command(BaseCommand):
    help = "Bring the federation's registry from its site (URL: the site's root address)."

    def add_arguments(self, parser):
        parser.add_argument("url", help="the federation's site, e.g. https://tuppiliitto.fi")
        parser.add_argument("--event", help="also bring this event (its slug) created on the site")
        parser.add_argument("--token", help="an organiser's API token (or the environment's TUPPI_API_TOKEN)")

    def handle(self, *args, url: str, event: str | None, token: str | None, **options):
        try:
            status, doc = remote.call(remote.address(url, "/api/registry/"))
        except remote.Unreachable as exc:
            raise CommandError(str(exc)) from None
        if status != 200:
            raise CommandError(f"the site answered {status}: {doc}")
        try:
            check_registry(doc)
            report = pull(doc)
        except (Invalid, Refused) as exc:
            raise CommandError(f"the registry was not brought: {exc}") from None
        made = ", ".join(f"{kind} {n}" for kind, n in sorted(report.created.items())) or "nothing new"
        self.stdout.write(f"Registry from {url}: created {made}.")
        for line in report.linked:
            self.stdout.write(f"linked to the registry's member number: {line}")
        for line in report.conflicts:
            self.stdout.write(f"DIFFERS (left as it is here): {line}")
        if event:
            self.pull_event(url, event, token or os.environ.get("TUPPI_API_TOKEN", ""))

    def pull_event(self, url: str, slug: str, token: str) -> None:
        if not token:
            raise CommandError("give an API token: --token or TUPPI_API_TOKEN (made on /jarjestaja/tunnukset/)")
        try:
            status, doc = remote.call(remote.address(url, f"/api/events/{slug}/file/"), token=token)
        except remote.Unreachable as exc:
            raise CommandError(str(exc)) from None
        if status != 200:
            raise CommandError(f"the site did not give the event ({status}): {doc}")
        try:
            done = import_event(load(remote.canonical(doc)), exported_now=export)
        except EventFileError as exc:
            raise CommandError("the event was not brought: " + " ".join(exc.problems)) from None
        for note in done.notes:
            self.stdout.write(note)
        self.stdout.write(f"{done.event.slug}: {'brought' if done.created else 'already here, unchanged'}")
