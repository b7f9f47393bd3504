"""What every part of the live-load bench shares: where it runs, what it measures against (the targets),
the gunicorn workers it watches, HTTP from Python, and the scene of one run."""

from __future__ import annotations

import http.client
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench" / "out"
DB_NAME = "tuppi_bench"
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
REDIS_URL = "redis://127.0.0.1:6379/15"
PAIRS, SEED, PLAYED_ROUNDS = 128, 1, 3
CUP_SEEDS = range(101, 111)  # ten events
POLL_SECONDS = 5.0
TIMEOUT = "5s"  # a poll slower than a poll interval is an error

TARGET_SNAPSHOT_MS = 150
TARGET_304_SHARE = 2 / 3
TARGET_CACHED_SHARE = 1 / 5
TARGET_API_MS = 20
TARGET_CUP_MS = 20
TARGET_P99_MS = 100
TARGET_STALENESS_S = 5.0
TARGET_STALE = 0
TARGET_FIRST_LOAD_X = 5.0  # the event page's first load costs at most 5 times /terveys/
CHECK_SECONDS = 0.5  # the checkers' poll interval
FIRST_LOAD_LABEL = "event page, first load (whole page, 200)"
HX = {"HX-Request": "true"}  # an htmx poll of a live part
UPSTREAM_HEADER = "X-Upstream"  # nginx names the server that answered (the probes count them)

WORKERS: list[int] = []  # gunicorn's worker processes (CPU accounting)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))]


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} (2 cores)"


# --- HTTP from Python (probes, referee, single requests) --------------------------------------------


class Http:
    def __init__(self, port: int):
        self.port = port

    def request(
        self, method: str, path: str, headers: dict | None = None, body: bytes | None = None, timeout=10
    ):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers={"Host": "127.0.0.1", **(headers or {})})
            response = conn.getresponse()
            data = response.read()
            elapsed = time.perf_counter() - start
            return response.status, response.headers, data, elapsed
        finally:
            conn.close()

    def get(self, path: str, headers: dict | None = None, timeout=10):
        return self.request("GET", path, headers, timeout=timeout)


VERSION_IN_ETAG = re.compile(r'^W/"[\d.]+:(\d+):')


def etag_version(etag: str | None) -> int | None:
    found = VERSION_IN_ETAG.match(etag or "")
    return int(found.group(1)) if found else None


def header_version(headers) -> int | None:
    """The results version an answer shows (``X-Tuppi-Version``; each page's ETag names only what it shows)."""
    value = headers.get("X-Tuppi-Version") or headers.get("x-tuppi-version")
    return int(value) if value and value.isdigit() else None


# --- one run --------------------------------------------------------------------------------------------


@dataclass
class Scene:
    """One run: its options, the tools and servers it started, the live event and its pages."""

    args: object
    wrk: str
    env: dict
    cache_dir: str | None
    event: object = None
    snap: object = None
    season: tuple[int, int] | None = None
    port: int = 0  # the first application server (full-speed and one-connection figures go straight to it)
    app_ports: list[int] = field(default_factory=list)
    procs: list = field(default_factory=list)  # the gunicorn masters

    @property
    def http(self) -> Http:
        return Http(self.port)

    @property
    def slug(self) -> str:
        return self.event.slug

    @property
    def group(self) -> str:
        return self.snap.stage_groups("saturday")[0].name

    @property
    def group_url(self) -> str:
        return f"/kisat/{self.slug}/lohkot/{self.group}/"

    @property
    def event_url(self) -> str:
        return f"/kisat/{self.slug}/"

    @property
    def first_pair(self) -> int:
        return min(p.number for p in self.snap.pairs.values())

    @property
    def pair_url(self) -> str:
        return f"/kisat/{self.slug}/parit/{self.first_pair}/"

    @property
    def api_url(self) -> str:
        return f"/api/events/{self.slug}/"

    @property
    def match_id(self) -> int:
        return self.snap.matches_of("saturday", self.snap.current_round())[0].pk
