"""The actors of the live-load bench's main load, beside wrk's phones: a referee saving a deal every second
through a match's secret link, 4 probe phones polling the edited match's group page and the event page
every 5 s, and 4 checkers polling the same pages every 0.5 s (their answers are checked afterwards)."""

from __future__ import annotations

import html
import random
import re
import threading
import time
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from .common import CHECK_SECONDS, POLL_SECONDS, UPSTREAM_HEADER, Http, Scene, header_version

CSRF_IN_PAGE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION_IN_FORM = re.compile(r'name="version" value="(\d+)"')
ENTRY_FORM_ACTION = re.compile(r'<form[^>]*\baction="([^"]*)"[^>]*class="[^"]*\bentry-form')


class Referee(threading.Thread):
    """Saves a deal every second through the match's secret link, as a phone at the table would: GET
    the page (CSRF token, version), POST the deal, follow the redirect; the next unplayed match of the
    current round when one ends. After each save it reads the event's results version from the database."""

    def __init__(self, port: int, event_id: int, stop: threading.Event):
        super().__init__(daemon=True)
        self.http = Http(port)
        self.event_id = event_id
        self.stop = stop
        self.cookies: dict[str, str] = {}
        self.saves: list[tuple[float, int]] = []  # (monotonic time the POST answered, results version)
        self.save_starts: list[float] = []  # monotonic time each successful POST was sent
        self.post_ms: list[float] = []
        self.get_ms: list[float] = []
        self.refused: list[str] = []
        self.errors: list[str] = []
        self.matches_done = 0
        self.current_group = None  # the group name of the match being edited (the probes follow it)
        self.post_to = ""  # where the page's entry form posts
        self.rng = random.Random(7)

    def _cookie_header(self) -> dict:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    def _keep_cookies(self, headers) -> None:
        for raw in headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(raw)
            for key, morsel in jar.items():
                self.cookies[key] = morsel.value

    def _next_match(self):
        from django.db.models import Q

        from tournaments.models import Match

        saturday = Match.objects.filter(event_id=self.event_id, stage="saturday")
        current = (
            saturday.filter(Q(status=Match.Status.SCHEDULED) | Q(status=Match.Status.PLAYING))
            .order_by("round")
            .values_list("round", flat=True)
            .first()
        )
        if current is None:
            return None
        return (
            saturday.filter(round=current, status=Match.Status.SCHEDULED, entries__isnull=True)
            .select_related("group")
            .order_by("table")
            .first()
        )

    def _deals(self, match) -> list[dict]:
        from django.conf import settings

        from scoring.random_match import random_match
        from tournaments.readmodel.results import from_engine

        entries = random_match(self.rng, match.deals_planned, overwhelming=settings.TUPPI_OVERWHELMING_RULE)
        out = []
        for i, e in enumerate(entries, start=1):
            row = from_engine(e, match, i, seat_choice=self.rng.randrange(2))
            if row.kind != "deal":
                break  # the generator's defaults give only deals; stop at anything else
            fields = {"kind": "deal", "game": row.game, "tricks_a": row.tricks_a}
            if row.caller_seat:
                fields["caller_seat"] = row.caller_seat
            if row.tricks_a + row.tricks_b != 13:
                fields["early"] = "on"
                fields["tricks_b"] = row.tricks_b
            if row.penalised:
                fields["penalised"] = "on"
            out.append(fields)
        return out

    def _page(self, path: str):
        status, headers, body, elapsed = self.http.get(path, self._cookie_header())
        self.get_ms.append(elapsed * 1000)
        self._keep_cookies(headers)
        text = body.decode()
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        csrf, version = CSRF_IN_PAGE.search(text), VERSION_IN_FORM.search(text)
        action = ENTRY_FORM_ACTION.search(text)
        # the entry form posts to the page itself, or to its own address (``…/rivi/``) where it has one
        self.post_to = html.unescape(action.group(1)) if action and action.group(1) else path
        has_form = 'name="kind"' in text
        return (csrf.group(1) if csrf else None), (int(version.group(1)) if version else None), has_form

    def run(self) -> None:
        from django.db import connection

        from tournaments.models import Event

        try:
            next_at = time.monotonic()
            while not self.stop.is_set():
                match = self._next_match()
                if match is None:
                    self.errors.append("no unplayed match left in the current round")
                    return
                self.current_group = match.group.name
                path = f"/tulos/{match.token}/"
                deals = self._deals(match)
                csrf, version, has_form = self._page(path)
                for fields in deals:
                    if not has_form or self.stop.is_set():
                        break
                    wait = next_at - time.monotonic()
                    if wait > 0 and self.stop.wait(wait):
                        break
                    next_at += 1.0
                    body = urlencode({"csrfmiddlewaretoken": csrf, "version": version, **fields}).encode()
                    status, headers, page, elapsed = self.http.request(
                        "POST",
                        self.post_to,
                        {
                            **self._cookie_header(),
                            "Content-Type": "application/x-www-form-urlencoded",
                            "Referer": f"http://127.0.0.1:{self.http.port}{path}",
                        },
                        body,
                    )
                    answered = time.monotonic()
                    sent = answered - elapsed
                    self._keep_cookies(headers)
                    if status != 302:
                        found = re.search(r'role="alert"[^>]*>(.*?)<', page.decode(), re.S)
                        self.refused.append(f"{status}: {found.group(1).strip() if found else '?'}")
                        break
                    self.post_ms.append(elapsed * 1000)
                    self.save_starts.append(sent)
                    self.saves.append(
                        (
                            answered,
                            Event.objects.filter(pk=self.event_id)
                            .values_list("results_version", flat=True)
                            .get(),
                        )
                    )
                    csrf, version, has_form = self._page(path)
                self.matches_done += 1
        except Exception as exc:  # noqa: BLE001 (reported, the load goes on)
            self.errors.append(repr(exc))
        finally:
            connection.close()


class Probe(threading.Thread):
    """A phone that polls a live part every 5 s with If-None-Match and records which version it saw."""

    def __init__(
        self, port: int, path_of, phase: float, until: float, name: str, every: float = POLL_SECONDS
    ):
        super().__init__(daemon=True)
        self.every = every
        self.answers: list[tuple] = []  # (path, status, ETag, version, body or None, server): checked after
        self.http = Http(port)
        self.path_of = path_of
        self.phase = phase
        self.until = until
        self.name_ = name
        self.etag: str | None = None
        self.polls: list[tuple[float, float, int, int | None]] = []  # (start, end, status, version)
        self.errors = 0

    def run(self) -> None:
        due = time.monotonic() + self.phase
        while due < self.until:
            time.sleep(max(0.0, due - time.monotonic()))
            headers = {"HX-Request": "true"}
            if self.etag:
                headers["If-None-Match"] = self.etag
            start = time.monotonic()
            path = self.path_of()
            try:
                status, response_headers, body, _elapsed = self.http.get(path, headers)
            except OSError:
                self.errors += 1
            else:
                end = time.monotonic()
                tag = response_headers.get("ETag")
                if status in (200, 304) and tag:
                    self.etag = tag
                    self.answers.append(
                        (
                            path,
                            status,
                            tag,
                            header_version(response_headers),
                            body if status == 200 else None,
                            response_headers.get(UPSTREAM_HEADER),
                        )
                    )
                else:
                    self.errors += 1
                self.polls.append((start, end, status, header_version(response_headers)))
            due += self.every


def probe_phones(port: int, scene: Scene, referee: Referee, until: float) -> tuple[list[Probe], list[Probe]]:
    """4 probes (the group page of the match the referee edits, and the event page, in turn) and 4 checkers
    polling each probe's page every 0.5 s, until ``until``."""
    slug, group, event_url = scene.slug, scene.group, scene.event_url
    probes = []
    for i in range(4):
        if i % 2 == 0:
            probe = Probe(
                port,
                lambda: f"/kisat/{slug}/lohkot/{referee.current_group or group}/",
                phase=i * POLL_SECONDS / 4,
                until=until,
                name="group",
            )
        else:
            probe = Probe(port, lambda: event_url, phase=i * POLL_SECONDS / 4, until=until, name="event")
        probes.append(probe)
    checkers = [
        Probe(
            port,
            probe.path_of,
            phase=i * CHECK_SECONDS / 4,
            until=until,
            name="check",
            every=CHECK_SECONDS,
        )
        for i, probe in enumerate(probes)
    ]
    return probes, checkers
