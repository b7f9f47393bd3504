"""Two application servers, one cache, one database (issue #23): what a server answers is what the
facts of the version it names show, whichever server computed the snapshot.

Three real server processes (gunicorn, one sync worker each, production settings) share one database:
A takes the changes (a referee saves deals through a match's secret link, a player is renamed through
the Django admin), B is polled by phones (the live parts of a group page, the event page and a pair
page, and the JSON API, each with the ETag of its last answer as If-None-Match), both sharing one cache
(a file cache folder, or Redis database 14). C, with a cache of its own in its memory, is the
reference: it computes every answer from the database.

The finding this guards: a process whose snapshot is being computed by another served the previous
snapshot's content under the new version's ETag. Checked on every answer, after the run:

- a live part names the ETag it was rendered with (``data-etag``): it equals the answer's ETag;
- one ETag, one content, whichever server sent it (B's answers and C's);
- one version (``X-Tuppi-Version``), one ETag per address and minute (the pair page and the API follow
  the clock to the minute), on B and C alike: B's content of a version is C's;
- after each change, B shows the database's new version within 5 s on every address, and no answer
  of B sent after that (or after the 5 s) shows an older one.

The database is a SQLite file in ``tmp_path`` or, when ``DATABASE_URL`` names PostgreSQL, a scratch
database of this test's own on that server (the subprocesses cannot see pytest-django's test database,
which its transactions hide), prepared in the servers' environment by ``migrate`` and ``simulate_event``.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from tests.support.servers import Server, server_env

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
REDIS_TEST_URL = "redis://127.0.0.1:6379/14"  # its own: it empties it (other tests use 13)
STALENESS_S = 5.0
CHANGES = ("deal", "deal", "rename", "deal", "deal", "deal")

SETUP = r"""
import io, json, random
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from scoring.random_match import random_match
from tournaments.models import Event, Match
from tournaments.readmodel.results import from_engine

out = io.StringIO()
call_command("simulate_event", "--pairs", "16", "--seed", "5", "--until", "draw", stdout=out)
event = Event.objects.get(slug=out.getvalue().split()[-1])
match = Match.objects.filter(event=event, stage="saturday").select_related("group").order_by("round", "table").first()
rng = random.Random(5)
deals = []
for i, e in enumerate(random_match(rng, match.deals_planned, overwhelming=settings.TUPPI_OVERWHELMING_RULE), start=1):
    row = from_engine(e, match, i, seat_choice=rng.randrange(2))
    if row.kind != "deal":
        break
    fields = {"kind": "deal", "game": row.game, "tricks_a": row.tricks_a}
    if row.caller_seat:
        fields["caller_seat"] = row.caller_seat
    if row.tricks_a + row.tricks_b != 13:
        fields["early"] = "on"
        fields["tricks_b"] = row.tricks_b
    if row.penalised:
        fields["penalised"] = "on"
    deals.append(fields)
pair = match.pair_a
player = pair.players[0]
get_user_model().objects.create_superuser("tarkastaja", "tarkastaja@example.invalid", PASSWORD)
print(json.dumps({
    "slug": event.slug,
    "referee": f"/tulos/{match.token}/",
    "deals": deals,
    "player": player.pk,
    "urls": {
        "group": reverse("group", args=[event.slug, match.group.name]),
        "event": reverse("event", args=[event.slug]),
        "pair": reverse("pair", args=[event.slug, pair.number]),
        "api": reverse("api_event", args=[event.slug]),
    },
}))
"""


# --- the database and the servers ---------------------------------------------------------------------


@pytest.fixture
def alone():
    """The test's cases one at a time, whichever pytest-xdist workers run them: each starts three
    servers and runs collectstatic into the project's static root, and its 5 s staleness bound is a
    bound for one such trio on two cores, not for two."""
    lock = (
        Path(tempfile.gettempdir())
        / f"tuppi-two-processes-{hashlib.sha256(bytes(ROOT)).hexdigest()[:12]}.lock"
    )
    with lock.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture
def database(alone, tmp_path):
    """A database URL of this test's own, and a way to read an event's results version from it directly."""
    given = os.environ.get("DATABASE_URL", "")
    if given.startswith(("postgres://", "postgresql://", "pgsql://")):
        import psycopg

        parts = urlsplit(given)
        # one name for both cases: ``alone`` (held from before the create to after the drop) runs them one
        # at a time, whichever pytest-xdist workers they fall to
        name = f"{parts.path.strip('/') or 'tuppi'}_two_processes"
        server = f"{parts.scheme}://{parts.netloc}"
        with psycopg.connect(f"postgresql://{parts.netloc}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        url = f"{server}/{name}"

        def version(slug: str) -> int:
            with psycopg.connect(f"postgresql://{parts.netloc}/{name}") as conn:
                return conn.execute(
                    "SELECT results_version FROM tournaments_event WHERE slug = %s", (slug,)
                ).fetchone()[0]

        yield url, version
        with psycopg.connect(f"postgresql://{parts.netloc}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        path = tmp_path / "db.sqlite3"

        def version(slug: str) -> int:
            with sqlite3.connect(path, timeout=10) as conn:
                return conn.execute(
                    "SELECT results_version FROM tournaments_event WHERE slug = ?", (slug,)
                ).fetchone()[0]

        yield f"sqlite:///{path}", version


def file_cache(tmp_path) -> str:
    return f"file://{tmp_path / 'cache'}"


def redis_cache(tmp_path) -> str:
    redis = pytest.importorskip("redis")
    try:
        client = redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=1)
        client.ping()
    except redis.exceptions.ConnectionError:
        pytest.skip("Redis does not answer at 127.0.0.1:6379")
    client.flushdb()  # database 14 only: this test's own
    return REDIS_TEST_URL


def prepare(env: dict, password: str) -> dict:
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=300)
    # the login and admin pages name their styles through the manifest (the live parts name none)
    subprocess.run(
        [*manage, "collectstatic", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=300
    )
    done = subprocess.run(
        [*manage, "shell", "-c", f"PASSWORD = {password!r}\n{SETUP}"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- a browser of process A: cookies, CSRF, forms -----------------------------------------------------


class Browser:
    def __init__(self, server: Server):
        self.server = server
        self.cookies: dict[str, str] = {}

    def _send(self, method, path, fields=None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if fields is not None:
            body = urlencode(fields, doseq=True).encode()
            headers.update(
                {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Referer": f"http://127.0.0.1:{self.server.port}{path}",
                }
            )
        status, answer, data = self.server.request(method, path, headers, body)
        for raw in answer.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(raw)
            self.cookies.update({k: m.value for k, m in jar.items()})
        return status, answer, data.decode()

    def get(self, path):
        status, _headers, text = self._send("GET", path)
        assert status == 200, (path, status)
        return text

    def post(self, path, fields):
        status, headers, text = self._send("POST", path, fields)
        assert status == 302, (path, status, re.findall(r'class="[^"]*error[^"]*"[^>]*>([^<]*)', text)[:5])
        return headers["Location"]


class FormFields(HTMLParser):
    """The fields a browser would send from the page's form ``form_id`` (admin change forms)."""

    def __init__(self, form_id: str):
        super().__init__()
        self.form_id, self.inside, self.fields = form_id, False, []
        self._select = self._textarea = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or a.get("disabled") is not None:
            return
        if (
            tag == "input"
            and a.get("name")
            and a.get("type", "text") not in ("submit", "button", "file", "image")
        ):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.fields.append([a["name"], a.get("value") or ("on" if a.get("type") == "checkbox" else "")])
        elif tag == "select" and a.get("name"):
            self._select = [a["name"], None]
        elif tag == "option" and self._select is not None:
            chosen = self._select[1]
            if chosen is None or ("selected" in a and not chosen[1]):
                self._select[1] = (a.get("value", ""), "selected" in a)
        elif tag == "textarea" and a.get("name"):
            self._textarea = [a["name"], ""]
            self.fields.append(self._textarea)

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select" and self._select is not None:
            name, chosen = self._select
            if chosen is not None:
                self.fields.append([name, chosen[0]])
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="(\d+)"')
ENTRY_ACTION = re.compile(r'<form[^>]*\baction="([^"]*)"[^>]*class="[^"]*\bentry-form')


def save_deal(browser: Browser, path: str, fields: dict) -> None:
    page = browser.get(path)
    action = ENTRY_ACTION.search(page)
    target = action.group(1).replace("&amp;", "&") if action and action.group(1) else path
    browser.post(
        target,
        {
            "csrfmiddlewaretoken": CSRF.search(page).group(1),
            "version": VERSION.search(page).group(1),
            **fields,
        },
    )


def log_in(browser: Browser, password: str) -> None:
    page = browser.get("/kirjaudu/")
    browser.post(
        "/kirjaudu/",
        {"csrfmiddlewaretoken": CSRF.search(page).group(1), "username": "tarkastaja", "password": password},
    )


def rename_player(browser: Browser, player: int, last_name: str) -> None:
    path = f"/admin/registry/player/{player}/change/"
    parser = FormFields("player_form")
    parser.feed(browser.get(path))
    fields = [(k, last_name if k == "last_name" else v) for k, v in parser.fields]
    assert ("last_name", last_name) in fields, fields
    browser.post(path, [*fields, ("_save", "Tallenna")])


# --- the phones of process B, and the reference C --------------------------------------------------------


class Poller(threading.Thread):
    """Polls one address of a server as a phone does (the live part with HX-Request, If-None-Match with
    its last ETag) or, as the reference, afresh every time; keeps every answer."""

    def __init__(self, server: Server, url: str, *, conditional: bool, pause: float, stop: threading.Event):
        super().__init__(daemon=True)
        self.server, self.url, self.conditional, self.pause, self.stop = server, url, conditional, pause, stop
        self.answers: list[dict] = []
        self.errors: list[str] = []

    def run(self) -> None:
        etag = None
        headers = {} if self.url.startswith("/api/") else {"HX-Request": "true"}
        while not self.stop.is_set():
            sent = {**headers, **({"If-None-Match": etag} if self.conditional and etag else {})}
            start, wall = time.monotonic(), time.time()
            try:
                status, answer, body = self.server.request("GET", self.url, sent)
            except OSError as exc:
                self.errors.append(repr(exc))
                continue
            if status not in (200, 304):
                self.errors.append(f"{self.url}: {status}")
            else:
                etag = answer["ETag"]
                self.answers.append(
                    {
                        "url": self.url,
                        "start": start,
                        "end": time.monotonic(),
                        "status": status,
                        "etag": etag,
                        "version": int(answer["X-Tuppi-Version"]),
                        "body": body if status == 200 else None,
                        "minute": int(wall // 60) if int(wall // 60) == int(time.time() // 60) else None,
                    }
                )
            self.stop.wait(self.pause)


DATA_ETAG = re.compile(rb'data-etag="([^"]+)"')


def check(b_answers: list[dict], c_answers: list[dict]) -> dict:
    """The consistency checks of the module's docstring: every answer that breaks one, by kind."""
    wrong = {"data-etag": [], "etag→content": [], "version→etag": []}
    for a in b_answers + c_answers:
        if a["body"] is not None and not a["url"].startswith("/api/"):
            named = DATA_ETAG.search(a["body"])
            if named is None or named.group(1).decode().replace("&quot;", '"') != a["etag"]:
                wrong["data-etag"].append((a["url"], a["version"], a["etag"], named and named.group(1)))
    content: dict[str, bytes] = {}
    for a in c_answers + b_answers:
        if a["body"] is not None and content.setdefault(a["etag"], a["body"]) != a["body"]:
            wrong["etag→content"].append((a["url"], a["version"], a["etag"]))
    shown: dict[tuple, str] = {}
    for a in c_answers + b_answers:  # the reference's first: a difference names B's answer
        if (
            a["minute"] is not None
            and shown.setdefault((a["url"], a["version"], a["minute"]), a["etag"]) != a["etag"]
        ):
            wrong["version→etag"].append(
                (a["url"], a["version"], a["etag"], shown[a["url"], a["version"], a["minute"]])
            )
    reference = {(a["url"], a["version"], a["minute"]) for a in c_answers if a["minute"] is not None}
    compared = sum((a["url"], a["version"], a["minute"]) in reference for a in b_answers)
    return {"wrong": wrong, "compared": compared, "tags": len(content)}


def wait_for(version: int, pollers: list[Poller], since: float) -> float | None:
    """Seconds until every poller's answers (sent after ``since``) show ``version``; None after 5 s."""
    deadline = since + STALENESS_S
    while time.monotonic() < deadline:
        if all(any(a["start"] > since and a["version"] >= version for a in list(p.answers)) for p in pollers):
            return time.monotonic() - since
        time.sleep(0.05)
    return None


@pytest.mark.parametrize("make_cache", [file_cache, redis_cache], ids=["file-cache", "redis"])
def test_two_servers_never_serve_one_versions_content_under_anothers_etag(
    alone, tmp_path, database, make_cache
):
    database_url, db_version = database
    password = secrets.token_urlsafe(16)
    shared = server_env(database_url, make_cache(tmp_path))
    facts = prepare(shared, password)
    servers = []
    stop = threading.Event()
    try:
        a = Server(shared, tmp_path / "a.log")
        servers.append(a)
        b = Server(shared, tmp_path / "b.log")
        servers.append(b)
        c = Server({**shared, "CACHE_URL": "locmem://reference"}, tmp_path / "c.log")
        servers.append(c)
        phones = [Poller(b, url, conditional=True, pause=0.02, stop=stop) for url in facts["urls"].values()]
        references = [
            Poller(c, url, conditional=False, pause=0.1, stop=stop) for url in facts["urls"].values()
        ]
        for poller in phones + references:
            poller.start()
        browser = Browser(a)
        log_in(browser, password)
        time.sleep(1.0)  # every phone has the event's current version in hand
        changes, delays, deals = [], [], iter(facts["deals"])
        for i, kind in enumerate(CHANGES):
            if kind == "deal":
                save_deal(browser, facts["referee"], next(deals))
            else:
                rename_player(browser, facts["player"], f"Uusinimi{i}")
            done = time.monotonic()
            version = db_version(facts["slug"])
            changes.append((done, version))
            delays.append(wait_for(version, phones, done))
            wait_for(version, references, done)  # the reference shows it too (its own cache keeps a head 3 s)
            time.sleep(0.5)
        time.sleep(1.0)
    finally:
        stop.set()
        for server in servers:
            server.stop()
    for poller in phones + references:
        poller.join(timeout=35)
        assert not poller.errors, poller.errors[:5]

    b_answers = [x for p in phones for x in p.answers]
    c_answers = [x for p in references for x in p.answers]
    assert None not in delays, f"B did not show a change within {STALENESS_S} s: {delays}"
    stale = []
    for (done, version), (next_done, _v) in zip(changes, [*changes[1:], (float("inf"), 0)], strict=True):
        for p in phones:
            seen = min(
                (x["start"] for x in p.answers if x["start"] > done and x["version"] >= version), default=done
            )
            target = min(seen, done + STALENESS_S)
            stale += [
                (x["url"], x["version"], version)
                for x in p.answers
                if target < x["start"] < next_done and x["version"] < version
            ]
    assert stale == [], f"{len(stale)} stale answers after the target: {stale[:5]}"
    found = check(b_answers, c_answers)
    assert found["wrong"] == {"data-etag": [], "etag→content": [], "version→etag": []}, found["wrong"]
    # the checks had something to check: B changed content at every change, and was compared with C
    assert len({x["version"] for x in b_answers if x["status"] == 200}) > len(CHANGES)
    assert found["compared"] > 20 * len(CHANGES) and found["tags"] > 2 * len(CHANGES)
    assert sum(x["status"] == 304 for x in b_answers) > 0
