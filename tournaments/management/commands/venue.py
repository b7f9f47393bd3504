"""``manage.py venue``: serve the site from this laptop to the phones on the venue's local network.

Works out the laptop's address on the network (or takes ``--address``), refuses when the port is taken,
migrates the database (SQLite by default: ``db.sqlite3``), compiles the translations and collects the
static files, prints the address with a QR code of it, and then becomes gunicorn with production
settings over plain HTTP, ``TUPPI_PUBLIC_URL`` set to that address (every printed link and QR code
points at the laptop) and the address allowed as a host. Ctrl-C stops it. See ``tuppiliitto.venue``.
"""

from __future__ import annotations

import io
import os
import shutil
import sys

import segno
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tuppiliitto import venue


def _port(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 65535:
        raise ValueError(text)
    return value


class Command(BaseCommand):
    help = "Serve the site on the local network (gunicorn, production settings, SQLite) for an event."

    # Replaced in tests: the last step, which never returns (the process becomes gunicorn).
    exec_server = staticmethod(os.execve)

    def add_arguments(self, parser):
        parser.add_argument(
            "--address", help="the address phones reach this machine at (default: worked out from the network)"
        )
        parser.add_argument("--port", type=_port, default=venue.DEFAULT_PORT, help="default 8000")
        parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes; default 3")
        parser.add_argument(
            "--skip-setup", action="store_true", help="start at once: no migrate, compilemessages, collectstatic"
        )

    def handle(self, *args, address=None, port=venue.DEFAULT_PORT, workers=3, skip_setup=False, **options):
        if not 1 <= workers <= 16:
            raise CommandError("--workers must be 1–16")
        address = (address or "").strip() or venue.lan_address()
        if not address:
            raise CommandError(
                "This machine has no address on a local network (only 127.0.0.1). Join the venue's Wi-Fi "
                "or start a hotspot, or give the address: manage.py venue --address 192.168.1.20"
            )
        try:
            venue.check_port_free(port)
        except venue.VenueError as exc:
            raise CommandError(str(exc)) from exc

        if not skip_setup:
            self._setup(options.get("verbosity", 1))
        env = venue.server_environment(
            os.environ, address=address, port=port, key=settings.SECRET_KEY or venue.secret_key()
        )
        self._announce(env["TUPPI_PUBLIC_URL"], env["DJANGO_ALLOWED_HOSTS"])
        self.stdout.flush()
        command = venue.gunicorn_command(sys.executable, port=port, workers=workers)
        self.exec_server(command[0], command, env)

    def _setup(self, verbosity: int) -> None:
        quiet = max(verbosity - 1, 0)
        call_command("migrate", interactive=False, verbosity=quiet)
        if shutil.which("msgfmt"):
            call_command("compilemessages", ignore_patterns=[".venv", "*/.venv"], verbosity=quiet)
        else:
            self.stderr.write("gettext (msgfmt) is missing: the English pages stay untranslated.")
        call_command("collectstatic", interactive=False, verbosity=quiet)

    def _announce(self, url: str, hosts: str) -> None:
        out = self.stdout
        out.write("")
        out.write(self.style.SUCCESS(f"Tuppiliitto at the venue: {url}/"))
        out.write("Phones on the same network open this address (or scan the code); printed scoresheets")
        out.write("and links point here. Organisers log in at " + url + "/jarjestaja/")
        out.write("")
        code = io.StringIO()
        segno.make(url + "/", error="m").terminal(out=code, compact=True)
        out.write(code.getvalue(), ending="")
        out.write("")
        database = settings.DATABASES["default"]
        name = database.get("NAME")
        out.write(f"Database: {name}" if "sqlite" in database["ENGINE"] else "Database: PostgreSQL")
        if not get_user_model().objects.filter(is_active=True).exists():
            out.write(
                self.style.WARNING("No user accounts yet: create one with manage.py createsuperuser")
            )
        out.write(f"Allowed hosts: {hosts}")
        out.write("Press Ctrl-C to stop. Make a backup now and then: manage.py backup FILE")
        out.write("")
