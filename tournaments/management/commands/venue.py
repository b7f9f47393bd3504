"""``manage.py venue``: serve the site from this laptop to the phones on the venue's local network.

Works out the laptop's address on the network (or takes ``--address``), refuses when the port is taken,
migrates the database (SQLite by default: ``db.sqlite3``), compiles the translations and collects the
static files, prints the address with a QR code of it, and then becomes gunicorn with production
settings over plain HTTP, ``TUPPI_PUBLIC_URL`` set to that address (every printed link and QR code
points at the laptop) and the address allowed as a host. Ctrl-C stops it. See ``lib.venue``.
It talks to the organiser in Finnish (issue #25), as the site does.
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

from lib import venue


def _port(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 65535:
        raise ValueError(text)
    return value


class Command(BaseCommand):
    help = "Jakaa sivuston kisapaikan paikallisverkkoon (gunicorn, tuotantoasetukset, SQLite)."

    # Replaced in tests: the last step, which never returns (the process becomes gunicorn).
    exec_server = staticmethod(os.execve)

    def add_arguments(self, parser):
        parser.add_argument(
            "--address", help="osoite, josta puhelimet tavoittavat tämän koneen (oletus: päätellään verkosta)"
        )
        parser.add_argument("--port", type=_port, default=venue.DEFAULT_PORT, help="oletus 8000")
        parser.add_argument("--workers", type=int, default=3, help="gunicornin työprosessit; oletus 3")
        parser.add_argument(
            "--skip-setup", action="store_true",
            help="käynnistä heti: ilman migrate-, compilemessages- ja collectstatic-vaiheita",
        )

    def handle(self, *args, address=None, port=venue.DEFAULT_PORT, workers=3, skip_setup=False, **options):
        if not 1 <= workers <= 16:
            raise CommandError("--workers on 1–16")
        address = (address or "").strip() or venue.lan_address()
        if not address:
            raise CommandError(
                "Tällä koneella ei ole osoitetta paikallisverkossa (vain 127.0.0.1). Liity kisapaikan "
                "Wi-Fi-verkkoon tai käynnistä puhelimen yhteyspiste, tai anna osoite: "
                "manage.py venue --address 192.168.1.20"
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
            self.stderr.write("gettext (msgfmt) puuttuu: englanninkieliset sivut jäävät kääntämättä.")
        call_command("collectstatic", interactive=False, verbosity=quiet)

    def _announce(self, url: str, hosts: str) -> None:
        out = self.stdout
        out.write("")
        out.write(self.style.SUCCESS(f"Tuppiliitto kisapaikalla: {url}/"))
        out.write("Samassa verkossa olevat puhelimet avaavat tämän osoitteen (tai lukevat koodin); tulostetut")
        out.write("pöytäkirjat ja linkit osoittavat tänne. Järjestäjät kirjautuvat osoitteessa " + url + "/jarjestaja/")
        out.write("")
        code = io.StringIO()
        segno.make(url + "/", error="m").terminal(out=code, compact=True)
        out.write(code.getvalue(), ending="")
        out.write("")
        database = settings.DATABASES["default"]
        name = database.get("NAME")
        out.write(f"Tietokanta: {name}" if "sqlite" in database["ENGINE"] else "Tietokanta: PostgreSQL")
        if not get_user_model().objects.filter(is_active=True).exists():
            out.write(
                self.style.WARNING("Käyttäjätunnuksia ei vielä ole: luo tunnus komennolla manage.py createsuperuser")
            )
        out.write(f"Sallitut osoitteet: {hosts}")
        out.write("Pysäytä painamalla Ctrl-C. Ota välillä varmuuskopio: manage.py backup TIEDOSTO")
        out.write("")
