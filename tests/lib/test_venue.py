"""``manage.py venue``: the laptop's address, the settings the server gets, the refusals; no server is
started (the last step, which would become gunicorn, is replaced)."""

from __future__ import annotations

import io
import os
import socket
import stat
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from lib import venue
from tests.tuppiliitto.test_settings import ROOT, run_manage
from tournaments.management.commands import venue as venue_command


class FakeSocket:
    """A UDP socket whose "route" to each probe address is given: address → local address, or an error."""

    routes: dict[str, str | None] = {}
    closed = 0

    def __init__(self, family, kind):
        assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)
        self.local = None

    def connect(self, target):
        found = self.routes.get(target[0])
        if found is None:
            raise OSError(101, "Network is unreachable")
        self.local = found

    def getsockname(self):
        return (self.local, 40000)

    def close(self):
        FakeSocket.closed += 1


def fake(routes: dict[str, str | None]):
    FakeSocket.routes = routes
    FakeSocket.closed = 0
    return FakeSocket


def test_address_through_the_default_route():
    assert venue.lan_address(fake({venue.PROBES[0]: "192.168.1.20"})) == "192.168.1.20"
    assert FakeSocket.closed == 1


def test_address_on_a_closed_network_without_a_router():
    # no default route: only the hotspot's private range answers
    assert venue.lan_address(fake({"172.31.255.254": "172.20.10.3"})) == "172.20.10.3"
    assert FakeSocket.closed == 3  # every socket tried is closed


def test_loopback_and_link_local_are_not_an_address_for_phones():
    routes = {venue.PROBES[0]: "127.0.0.1", venue.PROBES[1]: "169.254.3.4"}
    assert venue.lan_address(fake(routes)) is None
    assert venue.lan_address(fake({})) is None


def test_public_url_and_hosts():
    assert venue.public_url("192.168.1.20", 8000) == "http://192.168.1.20:8000"
    assert venue.public_url("192.168.1.20", 80) == "http://192.168.1.20"
    assert venue.public_url("fd00::5", 8000) == "http://[fd00::5]:8000"
    assert venue.public_url("tuppi.local", 8000) == "http://tuppi.local:8000"


def test_server_environment():
    base = {"PATH": "/usr/bin", "DJANGO_DEBUG": "1", "DJANGO_CSRF_TRUSTED_ORIGINS": "https://x.example"}
    env = venue.server_environment(base, address="192.168.1.20", port=8000, key="k" * 60)
    assert env["PATH"] == "/usr/bin"
    assert env["DJANGO_DEBUG"] == "0"
    assert env["DJANGO_SECURE"] == "0"
    assert env["DJANGO_SECRET_KEY"] == "k" * 60
    assert env["TUPPI_PUBLIC_URL"] == "http://192.168.1.20:8000"
    assert env["DJANGO_ALLOWED_HOSTS"].split(",") == ["192.168.1.20", "localhost", "127.0.0.1", "[::1]"]
    assert env["DJANGO_SETTINGS_MODULE"] == "tuppiliitto.settings"
    assert "DJANGO_CSRF_TRUSTED_ORIGINS" not in env
    assert base["DJANGO_DEBUG"] == "1"  # the caller's environment is left alone


@pytest.mark.slow
def test_the_server_environment_gives_these_settings():
    """What gunicorn's workers will read: production settings, plain HTTP, the laptop as the public URL."""
    env = venue.server_environment(
        {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "TUPPI_", "DATABASE_URL"))},
        address="192.168.1.20",
        port=8123,
        key="venue-test-key-" + "x" * 50,
    )
    script = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.TUPPI_PUBLIC_URL, "
        "','.join(s.ALLOWED_HOSTS), s.DATABASES['default']['ENGINE'], s.STORAGES['staticfiles']['BACKEND'])"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    debug, redirect, secure_cookie, url, hosts, engine, storage = result.stdout.split()
    assert (debug, redirect, secure_cookie) == ("False", "False", "False")
    assert url == "http://192.168.1.20:8123"
    assert "192.168.1.20" in hosts.split(",")
    assert engine == "django.db.backends.sqlite3"
    assert storage.endswith("CompressedManifestStaticFilesStorage")


def test_gunicorn_command():
    command = venue.gunicorn_command("/venv/bin/python", port=8000, workers=3)
    assert command[:4] == ["/venv/bin/python", "-m", "gunicorn", "tuppiliitto.wsgi"]
    assert command[command.index("--bind") + 1] == "0.0.0.0:8000"
    assert command[command.index("--workers") + 1] == "3"


def test_secret_key_is_kept_in_a_private_file(tmp_path):
    path = tmp_path / "var" / "venue-secret-key"
    key = venue.secret_key(path)
    assert len(key) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert venue.secret_key(path) == key  # sessions survive a restart
    path.write_text("short\n")
    assert venue.secret_key(path) != "short"


def test_launcher_settings(monkeypatch, tmp_path):
    monkeypatch.setattr(venue, "SECRET_KEY_FILE", tmp_path / "key")
    env = {"DJANGO_DEBUG": "1"}
    venue.prepare_launcher(env)
    assert env["DJANGO_DEBUG"] == "0" and env["DJANGO_SECURE"] == "0"
    assert env["DJANGO_SECRET_KEY"] == (tmp_path / "key").read_text().strip()
    mine = {"DJANGO_SECRET_KEY": "the organiser's own key " + "y" * 40}
    venue.prepare_launcher(mine)
    assert mine["DJANGO_SECRET_KEY"].startswith("the organiser's own key")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Exec:
    def __init__(self):
        self.calls = []

    def __call__(self, path, args, env):
        self.calls.append((path, args, env))


@pytest.fixture
def exec_server(monkeypatch):
    fake_exec = Exec()
    monkeypatch.setattr(venue_command.Command, "exec_server", staticmethod(fake_exec))
    return fake_exec


def test_command_serves_the_given_address(db, exec_server):
    port = free_port()
    out = io.StringIO()
    call_command("venue", address="192.168.1.20", port=port, skip_setup=True, stdout=out)
    [(path, args, env)] = exec_server.calls
    assert path == sys.executable and args[1:3] == ["-m", "gunicorn"]
    assert args[args.index("--bind") + 1] == f"0.0.0.0:{port}"
    assert env["TUPPI_PUBLIC_URL"] == f"http://192.168.1.20:{port}"
    assert "192.168.1.20" in env["DJANGO_ALLOWED_HOSTS"].split(",")
    assert (env["DJANGO_DEBUG"], env["DJANGO_SECURE"]) == ("0", "0")
    assert env["DJANGO_SECRET_KEY"] == settings.SECRET_KEY
    text = out.getvalue()
    assert f"http://192.168.1.20:{port}/" in text
    assert "█" in text and "▀" in text  # the QR code, drawn in the terminal
    assert "createsuperuser" in text  # no accounts yet
    # it talks to the organiser in Finnish (issue #25)
    assert f"Tuppiliitto kisapaikalla: http://192.168.1.20:{port}/" in text
    assert "Järjestäjät kirjautuvat osoitteessa" in text and "Käyttäjätunnuksia ei vielä ole" in text
    assert "Pysäytä painamalla Ctrl-C" in text and "Press Ctrl-C" not in text


def test_command_works_out_the_address(db, exec_server, monkeypatch):
    detect = venue.lan_address
    monkeypatch.setattr(venue, "lan_address", lambda: detect(fake({venue.PROBES[0]: "10.0.0.7"})))
    call_command("venue", port=free_port(), skip_setup=True, stdout=io.StringIO())
    assert exec_server.calls[0][2]["TUPPI_PUBLIC_URL"].startswith("http://10.0.0.7:")


def test_command_refuses_without_a_network(db, exec_server, monkeypatch):
    monkeypatch.setattr(venue, "lan_address", lambda: None)
    with pytest.raises(CommandError, match="--address"):
        call_command("venue", port=free_port(), skip_setup=True, stdout=io.StringIO())
    assert exec_server.calls == []


def test_command_refuses_when_the_port_is_taken(db, exec_server):
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(CommandError, match=f"Portti {port} on jo käytössä"):
            call_command("venue", address="192.168.1.20", port=port, skip_setup=True, stdout=io.StringIO())
    assert exec_server.calls == []


def test_command_prepares_the_database_and_static_files(db, exec_server, monkeypatch):
    ran = []
    monkeypatch.setattr(venue_command, "call_command", lambda name, **kw: ran.append(name))
    call_command("venue", address="192.168.1.20", port=free_port(), stdout=io.StringIO(), stderr=io.StringIO())
    assert ran[0] == "migrate" and ran[-1] == "collectstatic"
    assert len(exec_server.calls) == 1


@pytest.mark.slow
def test_manage_py_venue_starts_without_a_secret_key():
    """The launcher needs no DJANGO_SECRET_KEY in the environment: it keeps one under var/."""
    result = run_manage("venue", "--help")
    assert result.returncode == 0, result.stderr
    assert "--address" in result.stdout
