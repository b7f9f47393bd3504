"""The measurements of the live-load bench: the snapshot from scratch, query counts and the cost of a poll
in this process; full-speed wrk runs beside the reference ``/terveys/``; the latency once cached; the main
load with its referee, probes and checkers; the staleness, the stale answers, and where the workers' time
went (py-spy).

Stale answers: the probes' answers (the 4 probe phones every 5 s, and 4 checkers polling the same pages
every 0.5 s to meet the moments just after a save) are checked: an answer's content must belong to the
version its ETag names. Counted (target 0):

- a live part whose body names another ETag than the answer's (``data-etag``, the ETag it was rendered
  with, ``templates/_live_attrs.html``);
- an ETag already seen with another content (one ETag, one content, whichever server sent it);
- an ETag other than the one already seen for the same page and version (``X-Tuppi-Version``, the
  results version the answer shows): one version, one content, whichever server computed the snapshot.

The finding this guards: a server that found another computing the newest snapshot served the previous
snapshot's content under the new version's ETag.
"""

from __future__ import annotations

import bisect
import hashlib
import html
import pickle
import re
import shutil
import statistics
import subprocess
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from .actors import Probe, Referee, probe_phones
from .common import (
    FIRST_LOAD_LABEL,
    HX,
    OUT,
    POLL_SECONDS,
    TARGET_304_SHARE,
    TARGET_CACHED_SHARE,
    TARGET_FIRST_LOAD_X,
    WORKERS,
    Scene,
)
from .environment import wait_quiet
from .load import cpu_by_process, cpu_split, merged, phone_mix, run_wrk
from .report import say
from .servers import front, stop_process

DATA_ETAG = re.compile(rb'data-etag="([^"]+)"')

# --- one request at a time, in this process -----------------------------------------------------------


def measure_snapshot(event_id: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.readmodel import build as readmodel

    readmodel.build(event_id)  # warm up imports and the database's own caches
    times, queries = [], 0
    for _ in range(5):
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            snap = readmodel.build(event_id)
            times.append((time.perf_counter() - start) * 1000)
        queries = len(ctx.captured_queries)
    data = pickle.dumps(snap, pickle.HIGHEST_PROTOCOL)
    start = time.perf_counter()
    for _ in range(5):
        pickle.loads(data)
    unpickle = (time.perf_counter() - start) / 5 * 1000
    start = time.perf_counter()
    packed = zlib.compress(data)
    compress = (time.perf_counter() - start) * 1000
    return {
        "median_ms": statistics.median(times),
        "min_ms": min(times),
        "queries": queries,
        "pickle_bytes": len(data),
        "zlib_bytes": len(packed),
        "unpickle_ms": unpickle,
        "compress_ms": compress,
        "matches": len(snap.matches),
    }


def query_counts(slug: str, group: str, match_id: int) -> list[tuple[str, int, int]]:
    """(answer, status, queries) for each kind of public answer, through Django's test client here."""
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.ALLOWED_HOSTS.append("testserver")
    client = Client(HTTP_HOST="127.0.0.1", raise_request_exception=False)
    hx = {"HTTP_HX_REQUEST": "true"}
    rows = []

    def count(label, path, **headers):
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(path, **headers)
        rows.append((label, response.status_code, len(ctx.captured_queries)))
        return response

    group_url = f"/kisat/{slug}/lohkot/{group}/"
    count("/terveys/", "/terveys/")
    first = count("group live part, first after a change", group_url, **hx)
    count("group live part, cached (200)", group_url, **hx)
    count("group live part, unchanged (304)", group_url, HTTP_IF_NONE_MATCH=first["ETag"], **hx)
    count("group page, whole (200)", group_url)
    count("event live part, cached (200)", f"/kisat/{slug}/", **hx)
    count("match live part (200)", f"/kisat/{slug}/ottelut/{match_id}/", **hx)
    count("JSON API (200)", f"/api/events/{slug}/")
    return rows


def cost_breakdown(slug: str, group: str) -> list[tuple[str, float]]:
    """Milliseconds per call, one at a time in this process, of a poll and of its parts."""
    from django.db import connection
    from django.test import Client

    from tournaments.models import Event
    from tournaments.readmodel import heads

    client = Client(HTTP_HOST="127.0.0.1")
    hx = {"HTTP_HX_REQUEST": "true"}
    url = f"/kisat/{slug}/lohkot/{group}/"
    tag = client.get(url, **hx)["ETag"]
    query = (
        Event.objects.filter(slug=slug)
        .values_list("pk", "slug", "created_at", "results_version", "kind", "season_id")
        .order_by("pk")[:1]
    )
    sql, params = query.query.sql_with_params()

    def raw():
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            cursor.fetchall()

    def per_call(fn, n: int = 500) -> float:
        for _ in range(20):
            fn()
        start = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - start) / n * 1000

    trivial = per_call(lambda: client.get("/terveys/"))
    r304 = per_call(lambda: client.get(url, HTTP_IF_NONE_MATCH=tag, **hx))
    r200 = per_call(lambda: client.get(url, **hx))
    head = per_call(lambda: heads.head(slug))
    sql_ms = per_call(raw)
    health = per_call(connection.is_usable)
    return [
        ("/terveys/ through the whole middleware", trivial),
        ("group poll answered 304", r304),
        ("  extra over /terveys/", r304 - trivial),
        ("  the version query, tournaments.readmodel.heads.head()", head),
        ("    the same SQL through a cursor (round trip)", sql_ms),
        ("    building the query in the ORM", head - sql_ms),
        ("group live part from the cache (200)", r200),
        ("  extra over the 304", r200 - r304),
        ("health check of the connection (CONN_HEALTH_CHECKS)", health),
    ]


def change_costs(
    event_id: int, slug: str, group: str, pair: int, match_id: int, rounds: int = 5
) -> list[tuple[str, float]]:
    """Median milliseconds, in this process, of the first answers after a change of the results version:
    the request that computes the snapshot (and writes it to the shared cache), then the first render
    of each live part from the cached snapshot, then the same part again (from the cache)."""
    from django.db import transaction
    from django.test import Client

    from tournaments.actions import versions

    client = Client(HTTP_HOST="127.0.0.1")
    hx = {"HTTP_HX_REQUEST": "true"}
    pages = [
        ("group live part", f"/kisat/{slug}/lohkot/{group}/", hx),
        ("pair live part", f"/kisat/{slug}/parit/{pair}/", hx),
        ("schedule live part", f"/kisat/{slug}/ohjelma/", hx),
        ("match live part", f"/kisat/{slug}/ottelut/{match_id}/", hx),
        ("JSON API", f"/api/events/{slug}/", {}),
        ("group page, whole", f"/kisat/{slug}/lohkot/{group}/", {}),
    ]
    times: dict[str, list[float]] = {}

    def timed(label, path, headers):
        start = time.perf_counter()
        response = client.get(path, **headers)
        times.setdefault(label, []).append((time.perf_counter() - start) * 1000)
        return response

    for _ in range(rounds):
        with transaction.atomic():
            versions.bump(event_id)
        timed("event live part, computing the snapshot", f"/kisat/{slug}/", hx)
        for label, path, headers in pages:
            timed(f"{label}, first render of this version", path, headers)
        for label, path, headers in pages[:1]:
            timed(f"{label}, again (from the cache)", path, headers)
    return [(label, statistics.median(values)) for label, values in times.items()]


def first_load(scene: Scene) -> tuple[float, str]:
    """Every page of the mix warmed once (the full-speed figures are of cached answers); then the event
    page's very first whole-page load (seconds) and the group live part's ETag."""
    http_ = scene.http
    for path, hx in (
        (scene.group_url, True),
        (scene.event_url, True),
        (scene.pair_url, True),
        (scene.api_url, False),
    ):
        http_.get(path, HX if hx else {})
    _s, _h, _b, first_whole = http_.get(scene.event_url)
    _s, headers, _b, _e = http_.get(scene.group_url, HX)
    return first_whole, headers["ETag"]


# --- wrk at full speed, and one connection ---------------------------------------------------------------


def full_speed(scene: Scene, group_etag: str) -> tuple[list[tuple], dict, dict[str, dict]]:
    """Each answer in 4 slices, each slice right after one of /terveys/ (the reference): the candidates
    (label, path, headers, target share of /terveys/), the reference's figures, and each candidate's."""
    args = scene.args
    say()
    wait_quiet(args.wait_quiet)
    slice_s = max(1, round(args.ref_seconds / 4))
    say(
        f"== Full speed (wrk -t2 -c{args.connections}, no delay, straight to gunicorn): each answer in 4 slices of "
        f"{slice_s} s, each slice right after one of /terveys/, so that other processes disturb both alike =="
    )
    ref = dict(seconds=slice_s, connections=args.connections, threads=2)
    group_url, event_url = scene.group_url, scene.event_url
    candidates = [
        ("group poll, unchanged (304)", group_url, {**HX, "If-None-Match": group_etag}, TARGET_304_SHARE),
        ("group live part, cached (200)", group_url, HX, TARGET_CACHED_SHARE),
        ("event live part, cached (200)", event_url, HX, TARGET_CACHED_SHARE),
        ("pair live part, cached (200)", scene.pair_url, HX, TARGET_CACHED_SHARE),
        ("JSON API, cached (200)", scene.api_url, {}, TARGET_CACHED_SHARE),
        (FIRST_LOAD_LABEL, event_url, {}, 1 / TARGET_FIRST_LOAD_X),
    ]
    trivial_runs, measured = [], {}
    for label, path, headers, _target in candidates:
        pairs_ = []
        for _ in range(4):
            t = run_wrk(scene.wrk, scene.port, "/terveys/", name="terveys", **ref)
            c = run_wrk(scene.wrk, scene.port, path, name="candidate", headers=headers, **ref)
            pairs_.append((t, c))
        trivial_runs += [t for t, _c in pairs_]
        r = merged([c for _t, c in pairs_])
        r["trivial_rps"] = merged([t for t, _c in pairs_])["rps"]
        r["share_of_trivial"] = r["rps"] / r["trivial_rps"]
        measured[label] = r
    return candidates, merged(trivial_runs), measured


def cup_pages(season_id: int) -> list[tuple[str, str]]:
    return [
        ("players", f"/cup/{season_id}/"),
        ("pairs", f"/cup/{season_id}/parit/"),
        ("clubs", f"/cup/{season_id}/kerhot/"),
    ]


def once_cached(scene: Scene) -> tuple[dict, int, dict[str, dict], dict[str, tuple]]:
    """One connection (wrk -t1 -c1 -d4s): the JSON API (and its size in bytes) and, with a cup season, its
    pages, each after its first request (name: (path, status, bytes, seconds))."""
    one = dict(seconds=4, connections=1, threads=1)
    http_ = scene.http
    api = run_wrk(scene.wrk, scene.port, scene.api_url, name="api1", **one)
    _s, _h, body, _e = http_.get(scene.api_url)
    cup, firsts = {}, {}
    for name, path in cup_pages(scene.season[0]) if scene.season else []:
        status, _h, page, elapsed = http_.get(path, timeout=120)
        r = run_wrk(scene.wrk, scene.port, path, name="cup", **one)
        r["first_ms"] = elapsed * 1000
        cup[name] = r
        firsts[name] = (path, status, len(page), elapsed)
    return api, len(body), cup, firsts


# --- the main load ------------------------------------------------------------------------------------------


@dataclass
class MainLoad:
    phones: list[tuple[str, int, int]]
    mix: dict
    rate: float  # requests/s the phones send
    figures: dict  # wrk's
    samples: list[tuple[int, int, float, float]]  # (kind index, status, ms, time asked) of each answer
    wall: float
    cpu: dict[str, float]
    profilers: list
    referee: Referee
    probes: list[Probe]
    checkers: list[Probe]


def main_load(scene: Scene) -> MainLoad:
    """N phones through nginx (or straight to gunicorn) while the referee saves deals and the probes and
    checkers poll; py-spy records the workers meanwhile when asked."""
    args = scene.args
    say()
    phones, mix = phone_mix(scene.snap, scene.slug, args.phones)
    rate = len(phones) / POLL_SECONDS
    threads = min(args.connections, len(phones))
    say(
        f"== Main load: {len(phones)} phones polling every {POLL_SECONDS:.0f} s ({rate:.0f} requests/s), "
        f"{threads} connections, {args.seconds} s =="
    )
    say(
        "  mix: "
        + ", ".join(f"{name} {n} phones over {k} page{'s' if k > 1 else ''}" for name, (n, k) in mix.items())
        + "; htmx polls of the live part (HX-Request: true) except the API; If-None-Match from each phone's last answer"
    )
    front_port, nginx_proc, nginx_tmp = front(scene)
    wait_quiet(args.wait_quiet)
    stop = threading.Event()
    referee = Referee(front_port, scene.event.pk, stop)
    started = time.monotonic()
    probes, checkers = probe_phones(front_port, scene, referee, until=started + args.seconds)
    cpu_before = cpu_by_process(WORKERS)
    profilers = start_profilers(args.py_spy, args.seconds) if args.py_spy else []
    referee.start()
    for probe in probes + checkers:
        probe.start()
    try:
        m = run_wrk(
            scene.wrk,
            front_port,
            "/",
            name="phones",
            seconds=args.seconds,
            connections=threads,
            threads=threads,
            phones=phones,
        )
    finally:
        stop.set()
        referee.join(timeout=15)
        for probe in probes + checkers:
            probe.join(timeout=15)
        wall = time.monotonic() - started
        cpu_after = cpu_by_process(WORKERS)
        stop_process(nginx_proc)
        if nginx_tmp:
            shutil.rmtree(nginx_tmp, ignore_errors=True)
    samples = m.pop("samples")
    cpu = cpu_split(cpu_before, cpu_after, exited={"wrk": m["cpu"]["wrk"]})
    return MainLoad(phones, mix, rate, m, samples, wall, cpu, profilers, referee, probes, checkers)


def staleness(saves: list[tuple[float, int]], probes: list[Probe]) -> dict:
    """For each save and probe: seconds from the save's answer until that probe's poll showed its version
    (or a later one). Stale answers: polls sent after a save had answered that still showed an older one."""
    delays, stale, unseen, first_any = [], 0, 0, []
    for saved_at, version in saves:
        seen_any = []
        for probe in probes:
            seen = next((end for start, end, _s, v in probe.polls if v is not None and v >= version), None)
            stale += sum(
                1 for start, _e, _s, v in probe.polls if start > saved_at and v is not None and v < version
            )
            if seen is None:
                unseen += 1
                continue
            delays.append(max(0.0, seen - saved_at))
            seen_any.append(max(0.0, seen - saved_at))
        if seen_any:
            first_any.append(min(seen_any))
    return {"delays": delays, "stale": stale, "unseen": unseen, "first_any": first_any}


def check_answers(answers: list[tuple]) -> dict:
    """``answers``: (path, status, ETag, version, body or None for a 304, server) of the probes and the
    checkers. The stale answers (see the module's docstring), by kind, and what was checked."""
    bad = {"body names another ETag": 0, "one ETag, two contents": 0, "one version, two ETags": 0}
    by_tag: dict[str, str] = {}
    by_version: dict[tuple[str, int], str] = {}
    servers: dict[str, int] = {}
    for path, _status, etag, version, body, server in answers:
        servers[server or "?"] = servers.get(server or "?", 0) + 1
        if body is not None:
            named = DATA_ETAG.search(body)
            if named is not None and html.unescape(named.group(1).decode()) != etag:
                bad["body names another ETag"] += 1
            digest = hashlib.sha256(body).hexdigest()
            if by_tag.setdefault(etag, digest) != digest:
                bad["one ETag, two contents"] += 1
        if version is not None and by_version.setdefault((path, version), etag) != etag:
            bad["one version, two ETags"] += 1
    return {
        "stale": sum(bad.values()),
        "bad": bad,
        "answers": len(answers),
        "bodies": sum(1 for a in answers if a[4] is not None),
        "versions": len(by_version),
        "servers": servers,
    }


def latency_since_save(save_starts: list[float], samples: list) -> dict[tuple[float, float], list[float]]:
    """The phones' latencies (ms) by time since the last save was sent."""
    starts = sorted(save_starts)
    buckets = [(0.0, 0.25), (0.25, 0.5), (0.5, 1.0), (1.0, 99.0)]
    by_bucket: dict[tuple[float, float], list[float]] = {b: [] for b in buckets}
    for _k, _status, ms, asked in samples:
        i = bisect.bisect_right(starts, asked) - 1
        if i < 0:
            continue
        since = asked - starts[i]
        for b in buckets:
            if b[0] <= since < b[1]:
                by_bucket[b].append(ms)
    return by_bucket


# --- where the workers' time goes (py-spy) -------------------------------------------------------------

# --- where the workers' time goes (py-spy) -------------------------------------------------------------

# (label, test on one sampled stack) in priority order: a sample goes to the first that matches.
PROFILE_CATEGORIES = [
    ("waiting for a connection (idle)", lambda st: "SyncWorker.handle (" not in st),
    (
        "the referee's scoresheet (/tulos/: page and save)",
        lambda st: "link_match (tournaments/web/views/results.py" in st,
    ),
    ("computing a snapshot (tournaments.readmodel.build.build_many)", lambda st: "build_many (tournaments/readmodel/build.py" in st),
    (
        "waiting for another worker's computation (caching lock)",
        lambda st: (
            "_compute_once (lib/caching.py" in st and "_compute (lib/caching.py" not in st
        ),
    ),
    (
        "writing to the shared cache",
        lambda st: re.search(r"\.(set|add|_cull|delete|_createdir) \(django/core/cache/", st),
    ),
    (
        "reading the shared cache (incl. unpickling)",
        lambda st: re.search(r"\.(get|get_many|has_key|_is_expired) \(django/core/cache/", st),
    ),
    ("rendering a live part (templates)", lambda st: "render_to_string (django/template/loader.py" in st),
    (
        "the JSON API's body (event_json, json.dumps)",
        lambda st: "event_json (tournaments/web/views/api.py" in st or "dumps (json/" in st,
    ),
    ("the version query (tournaments.readmodel.heads.head)", lambda st: "head (tournaments/readmodel/heads.py" in st),
    ("the connection's health check (CONN_HEALTH_CHECKS)", lambda st: "is_usable (django/db/backends" in st),
    (
        "other queries (the match page's lines, …)",
        lambda st: "execute_sql (django/db/models/sql" in st or "psycopg/" in st,
    ),
    ("rendering a whole page", lambda st: "render (django/shortcuts.py" in st),
    ("rest of Django (middleware, URLs, response)", lambda st: "WSGIHandler.__call__ (" in st),
    ("gunicorn (parsing, writing, closing)", lambda st: True),
]


def start_profilers(py_spy: str, seconds: int) -> list[tuple[subprocess.Popen, Path]]:
    out = []
    for i, pid in enumerate(WORKERS, start=1):
        target = OUT / f"live_load_worker{i}.pyspy.txt"
        proc = subprocess.Popen(
            [
                py_spy,
                "record",
                "-p",
                str(pid),
                "-d",
                str(seconds),
                "-r",
                "200",
                "--idle",
                "--nonblocking",
                "-f",
                "raw",
                "-o",
                str(target),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        out.append((proc, target))
    return out


def profile_summary(profilers: list[tuple[subprocess.Popen, Path]]) -> list[tuple[str, float]]:
    """The workers' sampled time by category (shares of all samples, idle included)."""
    counts = dict.fromkeys((label for label, _test in PROFILE_CATEGORIES), 0)
    total = 0
    for proc, target in profilers:
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.terminate()
        if not target.exists():
            continue
        for line in target.read_text().splitlines():
            stack, _sep, n = line.rpartition(" ")
            if not n.isdigit():
                continue
            total += int(n)
            label = next(label for label, test in PROFILE_CATEGORIES if test(stack))
            counts[label] += int(n)
    return [(label, n / total) for label, n in counts.items()] if total else []
