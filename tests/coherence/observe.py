"""Fetch and compare: every public answer of the changed event, the team competition and the season's
cup, fetched as a phone does (with the ETag of its previous answer), then again with every cache
emptied; the two must agree.

A phone's answer is ``304`` (it keeps the body it had) or ``200`` (a new body). Either way what it then
shows must be exactly what a server with empty caches answers now (a ``304`` after a change of what the
page shows is a stale page; a ``200`` whose body differs from the fresh one is a stale or mixed answer),
and a ``200``'s ETag must be the fresh answer's (else a later poll could be told "not modified" against
the wrong content). Per-request parts are normalised away: form tokens.

Which addresses are watched: a fixed start (the event's, the team competition's and the cup's pages, the
JSON API, the workbooks) and what their answers link to (``tests/support/crawler.py``'s reader: ``<a
href>`` and a live part's ``hx-get``), at most :data:`PER_PATTERN` addresses of each view; once watched,
an address stays watched (a pair page must stay right after the pair withdrew; an address an event left
must stop answering).
"""

from __future__ import annotations

import difflib
import io
import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit

from django.conf import settings
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from lib import caching
from tests.support.crawler import LIST_KEYS, Page, internal, pattern
from tournaments.models import Event

POLL = {"HTTP_HX_REQUEST": "true"}
PER_PATTERN = 3
SCOPES = ("/kisat/", "/joukkuekisa/", "/cup/", "/api/")
TOKEN = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def forget_everything() -> None:
    """Every cache emptied: each configured cache backend and this process's memories (cached values,
    remembered heads and digests, the newest snapshot of each event: ``caching.clear_local``)."""
    for cache in caches.all():
        cache.clear()
    caching.clear_local()


@dataclass
class Answer:
    status: int
    etag: str
    body: bytes
    kind: str  # the content type's first part


@dataclass
class Stale(AssertionError):
    url: str
    partial: bool
    what: str
    diff: str

    def __str__(self) -> str:
        return f"{self.url}{' (live part)' if self.partial else ''}: {self.what}\n{self.diff}"


def starts(world) -> list[str]:
    """The addresses every step watches, whatever the links say."""
    out = [reverse("home"), reverse("api_events"), reverse("cup:index"), reverse("api_seasons")]
    for event in Event.objects.filter(pk__in=[world.event_id, world.team_event_id, world.done_id]):
        if event.kind == Event.Kind.SM_TEAM:
            out += [
                reverse(f"teams:{name}", args=[event.slug]) for name in ("bracket", "teams", "final_places")
            ]
        else:
            out += [
                reverse(name, args=[event.slug])
                for name in ("event", "schedule", "sunday", "final_places", "hall", "pair_pick")
            ]
            out += [reverse("group", args=[event.slug, g.name]) for g in event.groups.all()]
            out.append(reverse("cup:event_xlsx", args=[event.slug]))
        out.append(reverse("api_event", args=[event.slug]))
    season = world.season_id
    out += [reverse(f"cup:{name}", args=[season]) for name in ("players", "pairs", "clubs")]
    out.append(reverse("api_season_cup", args=[season]))
    return out


@dataclass
class Watcher:
    """The phone: the answers it has, by (address, live part)."""

    pdfs: bool = False
    per_pattern: int = PER_PATTERN
    language: str = "fi"  # the phone's language (its cookie)
    lag: int = 0  # also poll with the ETags of ``lag`` checks ago (a phone that was off the network)
    phone: Client = field(default_factory=Client)
    seen: dict[tuple[str, bool], Answer] = field(default_factory=dict)
    history: list[dict] = field(default_factory=list)
    per: dict[tuple, set[str]] = field(default_factory=dict)
    fetched: int = 0

    def __post_init__(self) -> None:
        if self.language != "fi":
            self.phone.cookies[settings.LANGUAGE_COOKIE_NAME] = self.language

    def get(self, url: str, partial: bool, etag: str = "") -> Answer:
        self.fetched += 1
        headers = {**(POLL if partial else {}), **({"HTTP_IF_NONE_MATCH": etag} if etag else {})}
        response = self.phone.get(url, **headers)
        body = b"" if response.status_code == 304 else normal(url, response)
        kind = response.get("Content-Type", "").split(";")[0]
        return Answer(response.status_code, response.get("ETag", ""), body, kind)

    def watch(self, world) -> None:
        """Watch the start addresses and what the answers seen link to (at most PER_PATTERN a view);
        a new address is fetched at the next check as a first visit (no ETag)."""
        start = starts(world)
        wanted = [(url, False) for url in start]
        for (url, _partial), answer in list(self.seen.items()):
            if answer is not None and answer.status == 200 and answer.kind == "text/html":
                page = Page()
                page.feed(answer.body.decode())
                found = [(u, False) for u in page.links] + [(u, True) for u in page.live]
                wanted += [(internal(u, url), p) for u, p in found]
        for url, partial in wanted:
            if url is None or (url, partial) in self.seen or not url.startswith(SCOPES):
                continue
            if url.endswith(".pdf") and not self.pdfs:
                continue
            key = (
                (url, partial)
                if url in start
                else (list_page(url), partial)
                if "/cup/" in url and "/pelaajat/" not in url
                else pattern(url, partial)
            )
            ids = self.per.setdefault(key, set())
            if len(ids) >= self.per_pattern:
                continue
            ids.add(url)
            self.seen[(url, partial)] = None

    def check(self, world) -> None:
        """Poll every watched answer with its ETag, empty every cache, fetch each afresh: they must agree.
        The fresh answers become what the phone has; then the addresses they link to are watched too."""
        polled = {}
        for key, before in self.seen.items():
            polled[key] = self.get(*key, before.etag if before is not None else "")
        old = self.history[0] if self.lag and len(self.history) >= self.lag else {}
        late = {key: (before, self.get(*key, before.etag)) for key, before in old.items() if key in self.seen}
        forget_everything()
        fresh = {key: self.get(*key) for key in self.seen}
        for key, got in polled.items():
            compare(key, self.seen[key], got, fresh[key])
        for key, (before, got) in late.items():
            compare(key, before, got, fresh[key], late=True)
        self.seen = fresh
        if self.lag:
            self.history = [*self.history, dict(fresh)][-self.lag :]
        self.watch(world)


def list_page(url: str) -> str:
    """A cup page's address without its list's sort order and page (``crawler.LIST_KEYS``): each cup page
    is watched, and up to ``per_pattern`` of its orders and pages with it."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in LIST_KEYS]
    return parts.path + (f"?{urlencode(query)}" if query else "")


def normal(url: str, response) -> bytes:
    """The body, without what is made per request (form tokens); a workbook as its cells, a PDF as its
    text (their bytes carry creation times)."""
    body = response.content
    kind = response.get("Content-Type", "")
    if kind.startswith(XLSX):
        book = load_workbook(io.BytesIO(body))
        return repr([(ws.title, [list(r) for r in ws.iter_rows(values_only=True)]) for ws in book]).encode()
    if kind.startswith("application/pdf"):
        return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages).encode()
    return TOKEN.sub(rb"\1\2", body)


def compare(key: tuple[str, bool], before: Answer | None, polled: Answer, fresh: Answer, late=False) -> None:
    url, partial = key
    if late:
        url += " (polled with an ETag of some checks ago)"
    if polled.status == 304:
        if before is None:
            raise Stale(url, partial, "304 to a request without an ETag", "")
        if before.etag != polled.etag:
            raise Stale(
                url, partial, f"304 with another ETag ({polled.etag}) than the one sent ({before.etag})", ""
            )
        if fresh.status != 200 or fresh.body != before.body:
            raise Stale(
                url,
                partial,
                f"304 Not Modified, but a fresh answer is {fresh.status} and differs",
                diff(before.body, fresh.body),
            )
        return
    if polled.status != fresh.status:
        raise Stale(
            url,
            partial,
            f"answered {polled.status}, a fresh answer {fresh.status}",
            diff(polled.body, fresh.body),
        )
    if polled.body != fresh.body:
        raise Stale(
            url, partial, "a 200 whose body differs from the fresh answer", diff(polled.body, fresh.body)
        )
    if polled.etag != fresh.etag:
        raise Stale(url, partial, f"the ETag {polled.etag} is not the fresh answer's {fresh.etag}", "")


def diff(old: bytes, new: bytes, lines: int = 30) -> str:
    a = old.decode(errors="replace").splitlines()
    b = new.decode(errors="replace").splitlines()
    out = list(difflib.unified_diff(a, b, "phone", "fresh", n=1, lineterm=""))
    return "\n".join(line[:200] for line in out[:lines])
