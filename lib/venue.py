"""Running an event from the organiser's laptop at a venue without internet (``manage.py venue``).

The laptop serves the site on the local network (the hall's Wi-Fi or a phone's hotspot): gunicorn with
production settings and SQLite, plain HTTP (``DJANGO_SECURE=0``: there is no certificate on a closed
network), a secret key kept in ``var/venue-secret-key`` so that logins survive a restart, and
``TUPPI_PUBLIC_URL`` set to the laptop's address so that every QR code and printed link points at it,
not at 127.0.0.1.

Nothing here imports Django at module level: ``manage.py`` calls :func:`prepare_launcher` before
Django reads the settings, so that ``manage.py venue`` starts without a ``DJANGO_SECRET_KEY``.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import secrets
import socket
from collections.abc import Callable, Mapping
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY_FILE = BASE_DIR / "var" / "venue-secret-key"
DEFAULT_PORT = 8000
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")

# Addresses a UDP socket is "connected" to, to learn which local address the system would send from.
# Nothing is sent: connect() on a UDP socket only picks a route. The first is a documentation address
# reached through the default route (a network with a router); the others are the private ranges, for a
# closed network without a default route (a hotspot, a switch and no router).
PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")


class VenueError(Exception):
    """Something that stops the venue server from starting, said (in Finnish, as everything the command
    tells the organiser) so the organiser can act on it."""


def secret_key(path: Path | None = None) -> str:
    """The venue's secret key: read from ``path`` (default ``var/venue-secret-key``), or generated there
    (readable by its owner only)."""
    path = path or SECRET_KEY_FILE
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = ""
    if len(key) >= 50:
        return key
    key = secrets.token_urlsafe(50)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(key + "\n")
    return key


def prepare_launcher(environ: os._Environ | dict) -> None:
    """Settings for the ``manage.py venue`` process itself (called by ``manage.py`` before Django starts):
    production settings over plain HTTP with the venue's secret key."""
    environ["DJANGO_DEBUG"] = "0"
    environ["DJANGO_SECURE"] = "0"
    if not environ.get("DJANGO_SECRET_KEY"):
        environ["DJANGO_SECRET_KEY"] = secret_key()


def _probe(target: str, socket_factory: Callable) -> str | None:
    sock = socket_factory(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect((target, 9))
        return sock.getsockname()[0]
    except OSError:
        return None
    finally:
        sock.close()


def lan_address(socket_factory: Callable = socket.socket) -> str | None:
    """The machine's address on the local network (IPv4), or None when it has none but loopback.

    Asks the system which local address it would send from towards an outside address, then towards
    each private range; the first usable (not loopback, not link-local) answer wins."""
    for target in PROBES:
        found = _probe(target, socket_factory)
        if found is None:
            continue
        try:
            address = ipaddress.ip_address(found)
        except ValueError:
            continue
        if not (address.is_loopback or address.is_link_local or address.is_unspecified):
            return found
    return None


def host_for_url(address: str) -> str:
    """An address as it goes into a URL and ``ALLOWED_HOSTS``: an IPv6 address in brackets."""
    try:
        if ipaddress.ip_address(address).version == 6:
            return f"[{address}]"
    except ValueError:
        pass  # a host name
    return address


def public_url(address: str, port: int) -> str:
    host = host_for_url(address)
    return f"http://{host}" if port == 80 else f"http://{host}:{port}"


def check_port_free(port: int, bind: str = "0.0.0.0") -> None:  # noqa: S104 (the venue serves the LAN)
    """Refuse (``VenueError``) when something already listens on ``port`` (``make run``, an earlier venue
    server): gunicorn would otherwise fail after the migrations, with a less helpful message."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn does: TIME_WAIT is fine
        sock.bind((bind, port))
    except OSError as exc:
        if exc.errno in (errno.EADDRINUSE, errno.EACCES):
            reason = "on jo käytössä" if exc.errno == errno.EADDRINUSE else "vaatii ylläpitäjän oikeudet"
            raise VenueError(
                f"Portti {port} {reason} (onko `make run` tai toinen kisapaikan palvelin yhä käynnissä?). "
                f"Pysäytä se tai valitse toinen portti: manage.py venue --port {8081 if port == 8080 else 8080}"
            ) from exc
        raise VenueError(f"Osoitteessa {bind}:{port} ei voi kuunnella: {exc.strerror or exc}") from exc
    finally:
        sock.close()


def server_environment(
    base: Mapping[str, str], *, address: str, port: int, key: str, extra_hosts: tuple[str, ...] = ()
) -> dict[str, str]:
    """The environment the venue's gunicorn runs with: production settings over plain HTTP, the venue's
    secret key, the laptop's address allowed as a host and given to every printed link and QR code."""
    env = dict(base)
    hosts = [host_for_url(address), *extra_hosts, *LOCAL_HOSTS]
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECURE="0",
        DJANGO_SECRET_KEY=key,
        DJANGO_ALLOWED_HOSTS=",".join(dict.fromkeys(h for h in hosts if h)),
        TUPPI_PUBLIC_URL=public_url(address, port),
        DJANGO_SETTINGS_MODULE="tuppiliitto.settings",
    )
    env.pop("DJANGO_CSRF_TRUSTED_ORIGINS", None)  # same-origin plain HTTP needs none
    return env


def gunicorn_command(python: str, *, port: int, workers: int, bind: str = "0.0.0.0") -> list[str]:  # noqa: S104
    """gunicorn with threads (phones polling keep connections open), a timeout long enough for a round
    of scoresheets, and errors to the terminal."""
    host = f"[{bind}]" if ":" in bind else bind
    return [
        python, "-m", "gunicorn", "tuppiliitto.wsgi",
        "--bind", f"{host}:{port}",
        "--workers", str(workers),
        "--worker-class", "gthread",
        "--threads", "4",
        "--timeout", "180",
        "--graceful-timeout", "10",
        "--error-logfile", "-",
    ]
