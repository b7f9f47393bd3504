"""Live load: thousands of polling phones and a referee on a 128-pair event in the middle of Saturday
(issue #13, point 5). Prints figures next to their targets (met / NOT MET); asserts nothing.

Run (PostgreSQL at 127.0.0.1:5432, user postgres, no password; Debian's wrk and nginx, installed with
apt-get if missing, with a message):

    .venv/bin/python bench/live_load.py                 # 2,000 phones for 30 s, 2 workers, file cache
    .venv/bin/python bench/live_load.py --cache redis   # Redis at 127.0.0.1:6379, database 15 (flushed)
    .venv/bin/python bench/live_load.py --phones 500 --seconds 60 --workers 3 --skip-cup --fresh
    .venv/bin/python bench/live_load.py --py-spy /tmp/pyspy/bin/py-spy   # and where the workers' time goes
        # (py-spy is no project dependency: python3 -m venv /tmp/pyspy && /tmp/pyspy/bin/pip install py-spy)

Options: ``--phones N`` (default 2000, each polling every 5 s: N/5 requests/s), ``--seconds S`` (the main
load, default 30), ``--workers W`` (gunicorn sync workers, default 2), ``--cache file|redis``, ``--fresh``
(rebuild the live event), ``--skip-cup`` (no cup season, no cup figures), ``--connections C`` (wrk
connections, default 100, for the main load and the full-speed runs alike), ``--ref-seconds S`` (each
full-speed wrk run, default 8), ``--front nginx|none`` (the main load through nginx, the default, or
straight to gunicorn), ``--py-spy PATH`` (sample the workers during the main load), ``--wait-quiet S``
(wait up to S seconds for the machine's other processes to go idle first).

It measures the code it sits in (its parent folder). While other engineers have uncommitted edits in the
working tree, measure a commit from a copy: ``git archive HEAD | tar -x -C /tmp/head``, copy this file
into ``/tmp/head/bench/`` and run ``.venv/bin/python /tmp/head/bench/live_load.py`` with this project's
virtualenv. Their test runs share the 2 cores: every wrk figure says how busy other processes kept them.

What it does:

1. A scratch database ``tuppi_bench`` (created if missing, migrated): the event
   ``simulate_event --pairs 128 --seed 1 --until draw`` with Saturday rounds 1-3 of 7 played
   (``tournaments.simulation.play_matches``), reused on later runs and put back to that state each run
   (deals the referee saved in an earlier run are removed; the dates move to today so that the event is
   live). Unless ``--skip-cup``: once, a season of ten 128-pair events played to published final places
   (``simulate_event --pairs 128 --seed 101..110``), each counted for the cup with weight 1. Drop the
   database (``dropdb -h 127.0.0.1 -U postgres tuppi_bench``) to rebuild everything.
2. ``collectstatic``, then gunicorn (``tuppiliitto.wsgi``, sync workers) with production settings
   (DJANGO_DEBUG=0, a secret key, DJANGO_SECURE=0, DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost,
   DATABASE_URL to the scratch database) and CACHE_URL=file:///tmp/… (a new, empty directory) or
   redis://127.0.0.1:6379/15. It waits for ``/terveys/`` and stops gunicorn (and nginx) at the end.
3. Figures, in this order:
   - the snapshot computed from scratch (``readmodel.build``) in this process: median of 5 (target
     150 ms), its query count, its pickled size and unpickling time (what another worker pays);
   - queries per request for each kind of answer, and the cost of a poll and of its parts one request at
     a time (test client in this process): the version query, its SQL round trip, the ORM's share;
   - after a change of the results version: the request that computes the snapshot, and the first
     render of each live part from the cached snapshot;
   - full speed (wrk -t2, no delay, the same connections, straight to gunicorn): ``/terveys/`` (the
     reference: no database), an unchanged poll of a group page (304; target at least 2/3 of the
     reference's requests/s), 200 answers of cached live parts (group, event, pair) and of the cached
     JSON API (target at least 1/5 of the reference);
   - the JSON API's latency once cached, one connection (target median 20 ms), and the season cup pages
     ``/cup/<id>/``, ``…/parit/``, ``…/kerhot/`` of the ten 128-pair events: the first request (which
     computes the cup) and the latency once cached, one connection (target median 20 ms);
   - the main load: N phones (a mix of event, group, pair, schedule and match live parts as htmx polls,
     HX-Request: true, and the JSON API; each phone sends the ETag of its last answer as If-None-Match),
     paced by wrk's ``delay()`` so that the server gets N/5 requests/s (one phone after another on each
     connection), through nginx by default: wrk opens its next connection before the delay, and a sync
     worker that accepts it would wait idle for the request, which nginx (as in the README's deployment)
     prevents. Meanwhile a referee saves a deal every second through a match's secret link (GET the
     page for the CSRF token and version, POST the deal as the form does, follow the redirect; the next
     unplayed match of the current round when one ends), and 4 probe phones poll the edited match's
     group page and the event page every 5 s. Printed: requests/s, median, p95, p99 and max latency,
     errors (socket errors, time-outs over 5 s, non-2xx/3xx), the share of 304s, latency by page and
     status, CPU seconds by process, the referee's save latency and the staleness (seconds from a save's
     answer until a probe phone's poll shows its version, read from the ETag; and the polls sent after a
     save that still showed an older version). Targets: p99 under 100 ms, 0 errors, staleness at most
     5 s. With ``--py-spy``: the workers' sampled time by kind of work.
   - a summary: every target, its figure, met or NOT MET.

Files: bench/out/live_load_*.lua (the wrk scripts), live_load_gunicorn.log, live_load_nginx.conf and
.log, live_load_worker*.pyspy.txt (raw py-spy stacks), and live_load_result.json (every figure of the
last run, with the printed report).
"""

from __future__ import annotations

import argparse
import bisect
import html
import http.client
import json
import os
import pickle
import random
import re
import resource
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.cookies import SimpleCookie
from io import StringIO
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
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


def say(text: str = "") -> None:
    print(text, flush=True)
    REPORT.append(text)


REPORT: list[str] = []
WORKERS: list[int] = []  # gunicorn's worker processes (CPU accounting)
RESULT: dict = {}


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


# --- environment, database ------------------------------------------------------------------------


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--phones", type=int, default=2000)
    p.add_argument("--seconds", type=int, default=30)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--cache", choices=["file", "redis"], default="file")
    p.add_argument("--fresh", action="store_true", help="rebuild the live event")
    p.add_argument("--skip-cup", action="store_true", help="no cup season and no cup figures")
    p.add_argument("--connections", type=int, default=100)
    p.add_argument("--ref-seconds", type=int, default=8)
    p.add_argument(
        "--py-spy",
        metavar="PATH",
        help="record the gunicorn workers with this py-spy during the main load and print where their time went",
    )
    p.add_argument(
        "--wait-quiet",
        type=int,
        default=0,
        metavar="S",
        help="wait up to S seconds for other processes to leave the cores idle before measuring",
    )
    p.add_argument(
        "--front",
        choices=["nginx", "none"],
        default="nginx",
        help="the main load through nginx (default, as deployed) or straight to gunicorn",
    )
    return p.parse_args()


def server_env(args, cache_dir: str | None) -> dict:
    env = dict(os.environ)
    for name in ("DJANGO_SETTINGS_MODULE", "CACHE_URL", "REDIS_URL", "DJANGO_LOG_LEVEL"):
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE="tuppiliitto.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_SECURE="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=f"{PG_SERVER}/{DB_NAME}",
        CACHE_URL=REDIS_URL if args.cache == "redis" else f"file://{cache_dir}",
    )
    return env


def ensure_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DB_NAME,)).fetchone()
        if not exists:
            say(f"Creating the scratch database {DB_NAME}.")
            conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    say(
        "wrk is not installed: installing Debian's wrk with apt-get (apt-get update && apt-get install -y wrk)."
    )
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True)
    subprocess.run(
        [*sudo, "apt-get", "install", "-y", "-qq", "wrk"],
        check=True,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )
    found = shutil.which("wrk")
    if not found:
        sys.exit("wrk is still missing after apt-get install wrk")
    return found


def setup_django(env: dict) -> None:
    os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_", "CACHE_"))})
    # the test client of this process (query counts) calls itself by the Host header it is given
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


# --- the events -----------------------------------------------------------------------------------


def live_event(fresh: bool):
    from django.core.management import call_command
    from django.db import transaction
    from django.db.models import F
    from django.utils import timezone

    from tournaments import versions
    from tournaments.models import Entry, Event, Match, PaperResult, ResultChange
    from tournaments.simulation import play_matches

    slug = f"simulaatio-{PAIRS}-paria-{SEED}"
    event = Event.objects.filter(slug=slug).first()
    if event is not None and fresh:
        say(f"--fresh: deleting the event {slug}.")
        event.delete()
        event = None
    if event is None:
        say(f"Building the {PAIRS}-pair event (simulate_event --until draw, then rounds 1-{PLAYED_ROUNDS}) …")
        start = time.perf_counter()
        out = StringIO()
        call_command(
            "simulate_event", "--pairs", str(PAIRS), "--seed", str(SEED), "--until", "draw", stdout=out
        )
        event = Event.objects.get(slug=out.getvalue().split()[-1])
        played = play_matches(
            Match.objects.filter(event=event, stage="saturday", round__lte=PLAYED_ROUNDS), random.Random(SEED)
        )
        say(f"  {played} matches played in {time.perf_counter() - start:.0f} s.")
    # Back to the middle of Saturday: rounds 1-3 played, the rest as drawn, the event live today.
    later = Match.objects.filter(event=event, stage="saturday", round__gt=PLAYED_ROUNDS)
    touched = (
        later.exclude(status=Match.Status.SCHEDULED).count() + Entry.objects.filter(match__in=later).count()
    )
    today = timezone.localdate()
    if touched or event.starts_on != today or event.ends_on != today:
        with transaction.atomic():
            versions.lock(event.pk)
            Entry.objects.filter(match__in=later).delete()
            PaperResult.objects.filter(match__in=later).delete()
            ResultChange.objects.filter(match__in=later).delete()
            later.update(status=Match.Status.SCHEDULED, confirmed_at=None, version=F("version") + 1)
            Event.objects.filter(pk=event.pk).update(starts_on=today, ends_on=today)
        say(f"Put the event back in the middle of Saturday (rounds 1-{PLAYED_ROUNDS} played), dated today.")
    return Event.objects.get(pk=event.pk)


def cup_season():
    """Ten 128-pair events played to final places, counted with weight 1, in one season; built once."""
    from django.core.management import call_command

    from cup.models import CupEvent
    from cup.signals import bump_season
    from tournaments.models import Event

    events = []
    for seed in CUP_SEEDS:
        slug = f"simulaatio-{PAIRS}-paria-{seed}"
        event = Event.objects.filter(slug=slug).first()
        if event is not None and event.finished_at is None:
            event.delete()  # a build that did not finish
            event = None
        if event is None:
            say(
                f"Building cup event {seed - CUP_SEEDS.start + 1}/10 (simulate_event --pairs {PAIRS} --seed {seed}) …"
            )
            start = time.perf_counter()
            out = StringIO()
            call_command("simulate_event", "--pairs", str(PAIRS), "--seed", str(seed), stdout=out)
            event = Event.objects.get(slug=out.getvalue().split()[-1])
            say(f"  {event.slug}: played to published final places in {time.perf_counter() - start:.0f} s.")
        events.append(event)
    season_id = events[0].season_id
    moved = [e.pk for e in events if e.season_id != season_id]
    if moved:
        Event.objects.filter(pk__in=moved).update(season_id=season_id)
        bump_season(season_id)
    for event in events:
        CupEvent.objects.get_or_create(event=event, defaults={"weight": 1})
    counted = CupEvent.objects.filter(event__season_id=season_id).count()
    return season_id, counted


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


# --- gunicorn ---------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(env: dict, workers: int, port: int) -> subprocess.Popen:
    log = open(OUT / "live_load_gunicorn.log", "w")  # noqa: SIM115 (kept open for the server's life)
    gunicorn = Path(sys.executable).parent / "gunicorn"
    proc = subprocess.Popen(
        [
            str(gunicorn),
            "tuppiliitto.wsgi",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    http_ = Http(port)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"gunicorn exited with {proc.returncode}: see {OUT / 'live_load_gunicorn.log'}")
        try:
            if http_.get("/terveys/", timeout=2)[0] == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.2)
    stop_process(proc)
    sys.exit("gunicorn did not answer /terveys/ within 60 s")


NGINX_CONF = """
worker_processes 1;
pid {tmp}/nginx.pid;
events {{ worker_connections 8192; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/body;
  proxy_temp_path {tmp}/proxy;
  fastcgi_temp_path {tmp}/fastcgi;
  uwsgi_temp_path {tmp}/uwsgi;
  scgi_temp_path {tmp}/scgi;
  keepalive_timeout 75s;
  keepalive_requests 1000000;
  upstream app {{ server 127.0.0.1:{app_port}; }}
  server {{
    listen 127.0.0.1:{port} backlog=4096;
    location / {{
      proxy_pass http://app;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }}
  }}
}}
"""


def ensure_nginx() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found:
        return found
    say(
        "nginx is not installed: installing Debian's nginx-light with apt-get (the main load goes through it)."
    )
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(
        [*sudo, "apt-get", "install", "-y", "-qq", "nginx-light"],
        check=True,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )
    return shutil.which("nginx") or "/usr/sbin/nginx"


def start_nginx(nginx: str, app_port: int, port: int, tmp: str) -> subprocess.Popen:
    """nginx in front of gunicorn, as the README's deployment has it: it holds the phones' idle keep-alive
    connections and hands gunicorn's sync workers only complete requests."""
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        os.makedirs(os.path.join(tmp, sub), exist_ok=True)
    conf = OUT / "live_load_nginx.conf"
    conf.write_text(NGINX_CONF.format(tmp=tmp, app_port=app_port, port=port))
    proc = subprocess.Popen(
        [nginx, "-c", str(conf), "-p", tmp, "-e", str(OUT / "live_load_nginx.log"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    http_ = Http(port)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"nginx exited with {proc.returncode}: see {OUT / 'live_load_nginx.log'}")
        try:
            if http_.get("/terveys/", timeout=2)[0] == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit("nginx did not answer within 20 s")


def stop_process(proc: subprocess.Popen | None) -> None:
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def worker_pids(master: int) -> list[int]:
    try:
        out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout
    except FileNotFoundError:
        return []
    return [int(x) for x in out.split()]


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (all cores, from /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


CPU_KINDS = ("gunicorn workers", "postgres (this database)", "nginx", "wrk", "bench process")


def cpu_by_process(workers: list[int]) -> dict:
    """User + system CPU seconds so far (from /proc) of each process of interest: the gunicorn workers,
    this benchmark's PostgreSQL backends, nginx, wrk and this process; and the whole machine's busy time."""
    tick = os.sysconf("SC_CLK_TCK")
    pids = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        try:
            raw = Path(f"/proc/{pid}/stat").read_text()
            comm = raw[raw.index("(") + 1 : raw.rindex(")")]
            fields = raw.rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / tick
            if pid in workers:
                kind = "gunicorn workers"
            elif pid == os.getpid():
                kind = "bench process"
            elif comm in ("nginx", "wrk"):
                kind = comm
            elif comm == "postgres" and f" {DB_NAME} " in Path(f"/proc/{pid}/cmdline").read_bytes().decode(
                errors="replace"
            ):
                kind = "postgres (this database)"
            else:
                continue
            pids[pid] = (kind, cpu)
        except (OSError, ValueError, IndexError):
            continue
    return {"pids": pids, "machine": machine_busy()}


def cpu_split(before: dict, after: dict, *, exited: dict[str, float] | None = None) -> dict[str, float]:
    """CPU seconds used between two readings by kind of process (``exited``: of processes that ended in
    between, as far as known), and by everything else on the machine."""
    used = dict.fromkeys(CPU_KINDS, 0.0)
    for pid, (kind, cpu) in after["pids"].items():
        old = before["pids"].get(pid)
        used[kind] += cpu - (old[1] if old and old[0] == kind else 0.0)
    for kind, cpu in (exited or {}).items():
        used[kind] += cpu
    used["other processes"] = max(0.0, after["machine"] - before["machine"] - sum(used.values()))
    return used


def wait_quiet(limit: int) -> None:
    """Wait (up to ``limit`` seconds) until other processes leave the cores idle for 9 s; say how busy."""
    busy = busy_cores()
    deadline = time.monotonic() + limit
    quiet_for = 0
    while limit and time.monotonic() < deadline and quiet_for < 3:
        quiet_for = quiet_for + 1 if busy < 0.15 else 0
        if quiet_for == 0:
            say(f"  other processes keep {busy:.2f} cores busy: waiting for them (--wait-quiet) …")
            time.sleep(15)
        busy = busy_cores()
    say(
        f"(other processes keep {busy:.2f} of the 2 cores busy now; other engineers' tests disturb the figures)"
    )


def busy_cores(seconds: float = 3.0) -> float:
    """How many cores the machine keeps busy now (other engineers' tests disturb the figures)."""
    start = machine_busy()
    time.sleep(seconds)
    return (machine_busy() - start) / seconds


# --- wrk ----------------------------------------------------------------------------------------------

LUA_COMMON = r"""
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end
n2xx, n304, n3xx, nbad = 0, 0, 0, 0
local function count(status)
  if status == 304 then n304 = n304 + 1
  elseif status >= 200 and status < 300 then n2xx = n2xx + 1
  elseif status >= 300 and status < 400 then n3xx = n3xx + 1
  else nbad = nbad + 1 end
end
function done(summary, latency, requests)
  local a, b, c, d = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    a = a + t:get("n2xx"); b = b + t:get("n304"); c = c + t:get("n3xx"); d = d + t:get("nbad")
  end
  local e = summary.errors
  io.write(string.format(
    'JSON{"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
    '"p50":%.0f,"p90":%.0f,"p95":%.0f,"p99":%.0f,"max":%.0f,"mean":%.1f,"n2xx":%d,"n304":%d,"n3xx":%d,"nbad":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(95), latency:percentile(99),
    latency.max, latency.mean, a, b, c, d))
end
"""

LUA_FIXED = r"""
function response(status, headers, body)
  count(status)
end
"""

LUA_PHONES = r"""
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long sec; long nsec; } bench_timespec;
int clock_gettime(int clk, bench_timespec *tp);
]]
local ts = ffi.new("bench_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts)
  return tonumber(ts.sec) * 1000 + tonumber(ts.nsec) / 1e6
end

function init(args)
  local nthreads = tonumber(args[1])
  mine = {}
  for i = tid + 1, #PHONES, nthreads do table.insert(mine, i) end
  etags = {}
  step = INTERVAL_MS / #mine  -- this connection's phones, each once per interval
  t0 = nil
  sent = 0
  current = nil
  phase = (tid / nthreads) * step
end

function delay()
  local now = now_ms()
  if t0 == nil then t0 = now + phase end
  local due = t0 + sent * step
  local wait = due - now
  if wait > 0 then return math.floor(wait) end
  return 0
end

samples = {}
function request()
  current = mine[(sent % #mine) + 1]
  sent = sent + 1
  asked = now_ms()
  local phone = PHONES[current]
  local headers = { ["Host"] = HOST }
  if phone[2] == 1 then headers["HX-Request"] = "true" end
  local tag = etags[current]
  if tag then headers["If-None-Match"] = tag end
  return wrk.format("GET", phone[1], headers)
end

function response(status, headers, body)
  count(status)
  if current then
    table.insert(samples, PHONES[current][3] * 1000 + (status % 1000))
    table.insert(samples, now_ms() - asked)
    table.insert(samples, asked)
    if status == 200 or status == 304 then
      etags[current] = headers["ETag"] or headers["etag"] or etags[current]
    end
  end
end

local base_done = done
function done(summary, latency, requests)
  base_done(summary, latency, requests)
  for _, t in ipairs(threads) do
    local s = t:get("samples")
    local parts = {}
    for i = 1, #s do parts[i] = string.format(i % 3 == 1 and "%d" or "%.2f", s[i]) end
    io.write("SAMPLES" .. table.concat(parts, ",") .. "\n")
  end
end
"""


def lua_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run_wrk(
    wrk: str,
    port: int,
    path: str,
    *,
    name: str,
    seconds: int,
    connections: int,
    threads: int,
    headers: dict | None = None,
    phones: list[tuple[str, int, int]] | None = None,
) -> dict:
    """One wrk run; returns its figures (requests/s, latency percentiles in ms, errors, status counts)."""
    if phones is None:
        script = LUA_COMMON + LUA_FIXED
    else:
        table = ",\n".join(f"  {{{lua_string(p)}, {k}, {kind}}}" for p, k, kind in phones)
        script = (
            f"PHONES = {{\n{table}\n}}\nINTERVAL_MS = {POLL_SECONDS * 1000:.0f}\n"
            f"HOST = {lua_string(f'127.0.0.1:{port}')}\n" + LUA_COMMON + LUA_PHONES
        )
    lua = OUT / f"live_load_{name}.lua"
    lua.write_text(script)
    cmd = [
        wrk,
        "-t",
        str(threads),
        "-c",
        str(connections),
        "-d",
        f"{seconds}s",
        "--timeout",
        TIMEOUT,
        "-s",
        str(lua),
    ]
    for key, value in (headers or {}).items():
        cmd += ["-H", f"{key}: {value}"]
    cmd.append(f"http://127.0.0.1:{port}{path}")
    if phones is not None:
        cmd += ["--", str(threads)]
    before, children = cpu_by_process(WORKERS), resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60)
    after, done = cpu_by_process(WORKERS), resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu = (done.ru_utime + done.ru_stime) - (children.ru_utime + children.ru_stime)  # wrk has exited
    r_cpu = cpu_split(before, after, exited={"wrk": wrk_cpu})
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("JSON")), None)
    if line is None:
        raise RuntimeError(f"wrk gave no figures: {out.stdout}\n{out.stderr}")
    r = json.loads(line[4:])
    samples = []  # (kind index, status, ms, monotonic time asked in s) of each answer, for the main load
    for ln in out.stdout.splitlines():
        if ln.startswith("SAMPLES") and len(ln) > 7:
            values = ln[7:].split(",")
            samples += [
                (
                    int(values[i]) // 1000,
                    int(values[i]) % 1000,
                    float(values[i + 1]),
                    float(values[i + 2]) / 1000,
                )
                for i in range(0, len(values) - 2, 3)
            ]
    r["samples"] = samples
    r["cpu"] = r_cpu
    duration = r["duration_us"] / 1e6
    r["rps"] = r["requests"] / duration
    for k in ("p50", "p90", "p95", "p99", "max", "mean"):
        r[k + "_ms"] = r[k] / 1000
    r["errors"] = r["connect"] + r["read"] + r["write"] + r["timeout"] + r["nbad"]
    return r


def server_ms(r: dict) -> float:
    """CPU milliseconds per answer of the server side (gunicorn workers, PostgreSQL, nginx): unlike
    requests/s, hardly moved by other processes taking the cores."""
    cpu = r["cpu"]
    used = cpu["gunicorn workers"] + cpu["postgres (this database)"] + cpu["nginx"]
    return used / max(1, r["requests"]) * 1000


def merged(runs: list[dict]) -> dict:
    """Several wrk runs as one: counts added, requests/s over their total time, latency percentiles the
    median of the runs' (the largest for p99 and max)."""
    out = {
        k: sum(r[k] for r in runs)
        for k in ("requests", "duration_us", "connect", "read", "write", "status", "timeout", "errors")
        + ("n2xx", "n304", "n3xx", "nbad")
    }
    out["rps"] = out["requests"] / (out["duration_us"] / 1e6)
    for k in ("p50_ms", "p90_ms", "p95_ms", "mean_ms"):
        out[k] = statistics.median(r[k] for r in runs)
    for k in ("p99_ms", "max_ms"):
        out[k] = max(r[k] for r in runs)
    out["cpu"] = {k: sum(r["cpu"][k] for r in runs) for k in runs[0]["cpu"]}
    out["slices_rps"] = [r["rps"] for r in runs]
    return out


def wrk_line(label: str, r: dict) -> str:
    errs = r["errors"]
    duration = r["duration_us"] / 1e6
    others = r["cpu"]["other processes"] / duration
    return (
        f"  {label:44} {r['rps']:8.0f} req/s   median {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms"
        f"   errors {errs}"
        + (
            f" (connect {r['connect']}, read {r['read']}, write {r['write']}, timeout"
            f" {r['timeout']}, non-2xx/3xx {r['nbad']})"
            if errs
            else ""
        )
        + (f"   [other processes busy {others:.2f} cores]" if others >= 0.1 else "")
    )


# --- the referee and the probe phones ------------------------------------------------------------------

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
        from tournaments.results import from_engine

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

    def __init__(self, port: int, path_of, phase: float, until: float, name: str):
        super().__init__(daemon=True)
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
            try:
                status, response_headers, _body, _elapsed = self.http.get(self.path_of(), headers)
            except OSError:
                self.errors += 1
            else:
                end = time.monotonic()
                tag = response_headers.get("ETag")
                if status in (200, 304) and tag:
                    self.etag = tag
                else:
                    self.errors += 1
                self.polls.append((start, end, status, header_version(response_headers)))
            due += POLL_SECONDS


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


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))]


# --- where the workers' time goes (py-spy) -------------------------------------------------------------

# (label, test on one sampled stack) in priority order: a sample goes to the first that matches.
PROFILE_CATEGORIES = [
    ("waiting for a connection (idle)", lambda st: "SyncWorker.handle (" not in st),
    (
        "the referee's scoresheet (/tulos/: page and save)",
        lambda st: "link_match (tournaments/views/results.py" in st,
    ),
    ("computing a snapshot (readmodel.build_many)", lambda st: "build_many (tournaments/readmodel.py" in st),
    (
        "waiting for another worker's computation (caching lock)",
        lambda st: (
            "_compute_once (tournaments/caching.py" in st and "_compute (tournaments/caching.py" not in st
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
        lambda st: "event_json (tournaments/views/api.py" in st or "dumps (json/" in st,
    ),
    ("the version query (tournaments.live.head)", lambda st: "head (tournaments/live.py" in st),
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


# --- the measurements ---------------------------------------------------------------------------------


def measure_snapshot(event_id: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments import readmodel

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
    import zlib

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
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

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

    from tournaments import live
    from tournaments.models import Event

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
    head = per_call(lambda: live.head(slug))
    sql_ms = per_call(raw)
    health = per_call(connection.is_usable)
    return [
        ("/terveys/ through the whole middleware", trivial),
        ("group poll answered 304", r304),
        ("  extra over /terveys/", r304 - trivial),
        ("  the version query, tournaments.live.head()", head),
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

    from tournaments import versions

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


def phone_mix(snap, slug: str, phones: int) -> tuple[list[tuple[str, int, int]], dict]:
    """The phones' pages: (path, 1 for an htmx poll of the live part / 0 for the API, index of the kind
    in the mix), shuffled; and {kind: (phones, pages)} in the mix's order."""
    from tournaments.models import Stage

    groups = [g.name for g in snap.stage_groups(Stage.SATURDAY)]
    pairs = sorted(p.number for p in snap.pairs.values() if p.active)
    current = snap.current_round()
    round_matches = [m.pk for m in snap.matches_of(Stage.SATURDAY, current)]
    mix = [  # (share, kind, paths)
        (0.20, "event", 1, [f"/kisat/{slug}/"]),
        (0.25, "group", 1, [f"/kisat/{slug}/lohkot/{g}/" for g in groups]),
        (0.20, "pair", 1, [f"/kisat/{slug}/parit/{n}/" for n in pairs]),
        (0.10, "schedule", 1, [f"/kisat/{slug}/ohjelma/"]),
        (0.15, "match", 1, [f"/kisat/{slug}/ottelut/{m}/" for m in round_matches]),
        (0.10, "api", 0, [f"/api/events/{slug}/"]),
    ]
    out, counts = [], {}
    for index, (share, name, kind, paths) in enumerate(mix):
        n = round(share * phones)
        counts[name] = (n, len(paths))
        out += [(paths[i % len(paths)], kind, index) for i in range(n)]
    random.Random(5).shuffle(out)
    return out[:phones], counts


def main() -> None:  # noqa: C901, PLR0915 (one script, one story)
    args = parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    wrk = ensure_wrk()
    cache_dir = tempfile.mkdtemp(prefix="tuppi-bench-cache-") if args.cache == "file" else None
    env = server_env(args, cache_dir)
    ensure_database()
    setup_django(env)
    from django.conf import settings
    from django.core.management import call_command

    from tournaments import readmodel

    call_command("migrate", verbosity=0, interactive=False)
    event = live_event(args.fresh)
    season = None if args.skip_cup else cup_season()
    snap = readmodel.build(event.pk)
    current = snap.current_round()
    played, total = snap.progress()
    say(
        f"{event.name} ({event.slug}): {len(snap.stage_groups('saturday'))} groups, {played}/{total} Saturday "
        f"matches played, current round {current}; database {DB_NAME} on PostgreSQL"
    )
    if season:
        say(f"Cup season {season[0]}: {season[1]} counted 128-pair events.")
    if args.cache == "redis":
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
        say(f"Cache: Redis {REDIS_URL} (flushed).")
    else:
        say(f"Cache: file cache in {cache_dir} (new and empty).")

    say("collectstatic …")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    port = free_port()
    wait_quiet(args.wait_quiet)
    proc = start_gunicorn(env, args.workers, port)
    WORKERS[:] = worker_pids(proc.pid)
    say(
        f"gunicorn: {args.workers} sync workers on 127.0.0.1:{port}, production settings (DEBUG off, "
        f"DJANGO_SECURE=0); wrk: {args.connections} connections"
    )
    http_ = Http(port)
    slug = event.slug
    group = snap.stage_groups("saturday")[0].name
    group_url = f"/kisat/{slug}/lohkot/{group}/"
    event_url = f"/kisat/{slug}/"
    pair_url = f"/kisat/{slug}/parit/{min(p.number for p in snap.pairs.values())}/"
    api_url = f"/api/events/{slug}/"
    match_id = snap.matches_of("saturday", current)[0].pk
    HX = {"HX-Request": "true"}
    try:
        say()
        say("== The snapshot from scratch (readmodel.build, in this process) ==")
        s = measure_snapshot(event.pk)
        RESULT["snapshot"] = s
        say(
            f"  build: median {s['median_ms']:.0f} ms (best {s['min_ms']:.0f}) of 5, {s['queries']} queries, "
            f"{s['matches']} matches   target <= {TARGET_SNAPSHOT_MS} ms: {verdict(s['median_ms'] <= TARGET_SNAPSHOT_MS)}"
        )
        say(
            f"  pickled {s['pickle_bytes'] / 1024:.0f} KiB ({s['zlib_bytes'] / 1024:.0f} KiB zlib, the file cache "
            f"compresses in {s['compress_ms']:.0f} ms); unpickling {s['unpickle_ms']:.1f} ms (what another worker pays)"
        )

        say()
        say("== Queries per request (Django's test client in this process, same database and cache) ==")
        settings.ALLOWED_HOSTS.append("testserver")
        rows = query_counts(slug, group, match_id)
        RESULT["queries"] = rows
        for label, status, n in rows:
            say(f"  {label:44} {status}  {n} queries")

        say()
        say(
            "== Cost of a poll, one request at a time (test client in this process; gunicorn's own part not included) =="
        )
        costs = cost_breakdown(slug, group)
        RESULT["costs"] = costs
        for label, ms in costs:
            say(f"  {label:56} {ms:6.2f} ms")
        say(
            "  (under gunicorn every request that touches the database also pays the health check: Django runs it"
        )
        say(
            "   at the first query of each request when CONN_HEALTH_CHECKS is on, and tuppiliitto/env.py turns it on)"
        )
        say()
        say(
            "== After a change (a new results version), one request at a time in this process, median of 5 =="
        )
        first_pair = min(p.number for p in snap.pairs.values())
        changes = change_costs(event.pk, slug, group, first_pair, match_id)
        RESULT["change_costs"] = changes
        for label, ms in changes:
            say(f"  {label:56} {ms:6.1f} ms")

        # warm every page of the mix once, so that the full-speed figures are of cached answers
        for path, hx in ((group_url, True), (event_url, True), (pair_url, True), (api_url, False)):
            http_.get(path, HX if hx else {})
        status, headers, _b, _e = http_.get(group_url, HX)
        group_etag = headers["ETag"]

        say()
        wait_quiet(args.wait_quiet)
        slice_s = max(1, round(args.ref_seconds / 4))
        say(
            f"== Full speed (wrk -t2 -c{args.connections}, no delay, straight to gunicorn): each answer in 4 slices of "
            f"{slice_s} s, each slice right after one of /terveys/, so that other processes disturb both alike =="
        )
        ref = dict(seconds=slice_s, connections=args.connections, threads=2)
        candidates = [
            ("group poll, unchanged (304)", group_url, {**HX, "If-None-Match": group_etag}, TARGET_304_SHARE),
            ("group live part, cached (200)", group_url, HX, TARGET_CACHED_SHARE),
            ("event live part, cached (200)", event_url, HX, TARGET_CACHED_SHARE),
            ("pair live part, cached (200)", pair_url, HX, TARGET_CACHED_SHARE),
            ("JSON API, cached (200)", api_url, {}, TARGET_CACHED_SHARE),
        ]
        trivial_runs, measured = [], {}
        for label, path, headers, _target in candidates:
            pairs_ = []
            for _ in range(4):
                t = run_wrk(wrk, port, "/terveys/", name="terveys", **ref)
                c = run_wrk(wrk, port, path, name="candidate", headers=headers, **ref)
                pairs_.append((t, c))
            trivial_runs += [t for t, _c in pairs_]
            r = merged([c for _t, c in pairs_])
            r["trivial_rps"] = merged([t for t, _c in pairs_])["rps"]
            r["share_of_trivial"] = r["rps"] / r["trivial_rps"]
            measured[label] = r
        trivial = merged(trivial_runs)
        say(wrk_line("/terveys/ (reference: no database)", trivial))
        say(f"    slices: {', '.join(f'{x:.0f}' for x in trivial['slices_rps'])} req/s")
        say(f"    CPU per answer (gunicorn workers + PostgreSQL): {server_ms(trivial):.2f} ms")
        cached = {}
        for label, _path, _headers, target in candidates:
            r = measured[label]
            say(wrk_line(label, r))
            say(
                f"    = {r['share_of_trivial']:.2f} of /terveys/ in the slices beside it ({r['trivial_rps']:.0f} req/s; "
                f"{1 / r['share_of_trivial']:.1f}x its cost); answers 200 {r['n2xx']}, 304 {r['n304']}   "
                f"target >= {target:.2f}: {verdict(r['share_of_trivial'] >= target)}"
            )
            say(
                f"    CPU per answer {server_ms(r):.2f} ms = {server_ms(trivial) / server_ms(r):.2f} of /terveys/'s "
                "throughput by CPU (a figure other processes hardly move)"
            )
            if label.endswith("(304)"):
                r304 = r
            else:
                cached[label] = r
        RESULT["full_speed"] = {"trivial": trivial, "304": r304, "cached": cached}

        say()
        say("== Latency once cached, one connection (wrk -t1 -c1 -d4s) ==")
        one = dict(seconds=4, connections=1, threads=1)
        api = run_wrk(wrk, port, api_url, name="api1", **one)
        say(
            wrk_line("JSON API", api)
            + f"   target median <= {TARGET_API_MS} ms: {verdict(api['p50_ms'] <= TARGET_API_MS)}"
        )
        _s, _h, body, _e = http_.get(api_url)
        say(f"    ({len(body) / 1024:.0f} KiB of JSON)")
        RESULT["api_latency"] = api
        if season:
            cup = {}
            for name, path in (
                ("players", f"/cup/{season[0]}/"),
                ("pairs", f"/cup/{season[0]}/parit/"),
                ("clubs", f"/cup/{season[0]}/kerhot/"),
            ):
                status, _h, body, elapsed = http_.get(path, timeout=120)
                r = run_wrk(wrk, port, path, name="cup", **one)
                r["first_ms"] = elapsed * 1000
                cup[name] = r
                say(
                    wrk_line(f"cup {path}", r) + f"   target median <= {TARGET_CUP_MS} ms: "
                    f"{verdict(r['p50_ms'] <= TARGET_CUP_MS)}"
                )
                say(
                    f"    first request {elapsed * 1000:.0f} ms (status {status}, {len(body) / 1024:.0f} KiB)"
                    + (": computes the season's cup" if name == "players" else "")
                )
            RESULT["cup"] = cup

        say()
        phones, mix = phone_mix(snap, slug, args.phones)
        rate = len(phones) / POLL_SECONDS
        threads = min(args.connections, len(phones))
        say(
            f"== Main load: {len(phones)} phones polling every {POLL_SECONDS:.0f} s ({rate:.0f} requests/s), "
            f"{threads} connections, {args.seconds} s =="
        )
        say(
            "  mix: "
            + ", ".join(
                f"{name} {n} phones over {k} page{'s' if k > 1 else ''}" for name, (n, k) in mix.items()
            )
            + "; htmx polls of the live part (HX-Request: true) except the API; If-None-Match from each phone's last answer"
        )
        front_port, nginx_proc, nginx_tmp = port, None, None
        if args.front == "nginx":
            nginx_tmp = tempfile.mkdtemp(prefix="tuppi-bench-nginx-")
            front_port = free_port()
            nginx_proc = start_nginx(ensure_nginx(), port, front_port, nginx_tmp)
            say(
                f"  through nginx on 127.0.0.1:{front_port} (keep-alive to the phones, one request per connection to "
                "gunicorn, as deployed); referee and probes too"
            )
        else:
            say(
                "  straight to gunicorn: wrk opens each connection before its delay(), so a sync worker that accepts it "
                "waits idle for the request (figures of the server, not of phones)"
            )
        wait_quiet(args.wait_quiet)
        stop = threading.Event()
        referee = Referee(front_port, event.pk, stop)
        started = time.monotonic()
        until = started + args.seconds
        probes = []
        for i in range(4):
            if i % 2 == 0:
                probe = Probe(
                    front_port,
                    lambda: f"/kisat/{slug}/lohkot/{referee.current_group or group}/",
                    phase=i * POLL_SECONDS / 4,
                    until=until,
                    name="group",
                )
            else:
                probe = Probe(
                    front_port, lambda: event_url, phase=i * POLL_SECONDS / 4, until=until, name="event"
                )
            probes.append(probe)
        cpu_before = cpu_by_process(WORKERS)
        profilers = start_profilers(args.py_spy, args.seconds) if args.py_spy else []
        referee.start()
        for probe in probes:
            probe.start()
        try:
            main_run = run_wrk(
                wrk,
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
            for probe in probes:
                probe.join(timeout=15)
            wall = time.monotonic() - started
            cpu_after = cpu_by_process(WORKERS)
            stop_process(nginx_proc)
            if nginx_tmp:
                shutil.rmtree(nginx_tmp, ignore_errors=True)
        m = main_run
        samples = m.pop("samples")
        RESULT["main"] = m
        say(wrk_line(f"{len(phones)} phones", m))
        total_answers = m["n2xx"] + m["n304"] + m["n3xx"] + m["nbad"]
        share304 = m["n304"] / total_answers if total_answers else 0.0
        say(
            f"    requests/s {m['rps']:.0f} (target rate {rate:.0f}); latency median {m['p50_ms']:.1f} ms, "
            f"p95 {m['p95_ms']:.1f} ms, p99 {m['p99_ms']:.1f} ms, max {m['max_ms']:.0f} ms"
        )
        say(
            f"    answers: 200 {m['n2xx']}, 304 {m['n304']} ({share304:.1%} of all), other 3xx {m['n3xx']}, "
            f"non-2xx/3xx {m['nbad']}; socket errors: connect {m['connect']}, read {m['read']}, write {m['write']}, "
            f"timeouts (> {TIMEOUT}) {m['timeout']}"
        )
        say("    by page (latency from request() to response() in wrk's Lua, ms):")
        kinds = list(mix)
        by_kind: dict[tuple[str, int], list[float]] = {}
        for k, status, ms, _asked in samples:
            by_kind.setdefault((kinds[k], status), []).append(ms)
        RESULT["main_by_page"] = {}
        for (name, status), values in sorted(by_kind.items()):
            RESULT["main_by_page"][f"{name} {status}"] = {
                "n": len(values),
                "p50": pct(values, 50),
                "p95": pct(values, 95),
                "p99": pct(values, 99),
            }
            say(
                f"      {name:9} {status}  {len(values):6} answers   median {pct(values, 50):7.1f}   p95 "
                f"{pct(values, 95):7.1f}   p99 {pct(values, 99):7.1f}   max {max(values):7.0f}"
            )
        cpu = cpu_split(cpu_before, cpu_after, exited={"wrk": m["cpu"]["wrk"]})
        RESULT["main_cpu"] = cpu
        answers = max(1, m["requests"])
        per = {k: cpu[k] / answers * 1000 for k in ("gunicorn workers", "postgres (this database)", "nginx")}
        need = sum(per.values()) * rate / 1000
        RESULT["main_cpu_per_answer_ms"] = per
        say(
            f"    CPU seconds in {wall:.0f} s (2 cores = {2 * wall:.0f}): "
            + ", ".join(f"{k} {v:.1f}" for k, v in cpu.items())
        )
        say(
            "    CPU per answer: "
            + ", ".join(f"{k} {v:.2f} ms" for k, v in per.items())
            + f"; at {rate:.0f} requests/s that is {need:.2f} cores of the 2 (wrk and the referee not counted)"
        )
        say(
            f"    target p99 < {TARGET_P99_MS} ms: {verdict(m['p99_ms'] < TARGET_P99_MS)}; "
            f"target 0 errors: {verdict(m['errors'] == 0)}"
        )
        if profilers:
            shares = profile_summary(profilers)
            RESULT["profile"] = shares
            say(
                f"    where the gunicorn workers' time went (py-spy, wall time incl. idle; raw stacks in "
                f"{OUT}/live_load_worker*.pyspy.txt):"
            )
            for label, share in shares:
                if share >= 0.001:
                    say(f"      {share:6.1%}  {label}")

        saves = referee.saves
        RESULT["referee"] = {
            "saves": len(saves),
            "post_ms": referee.post_ms,
            "get_ms": referee.get_ms,
            "refused": referee.refused,
            "errors": referee.errors,
        }
        if referee.post_ms:
            say(
                f"  referee: {len(saves)} deals saved in {referee.matches_done + (0 if referee.errors else 0)} "
                f"match(es); save (POST) median {statistics.median(referee.post_ms):.0f} ms, p95 "
                f"{pct(referee.post_ms, 95):.0f} ms, max {max(referee.post_ms):.0f} ms; the page after a save (GET) "
                f"median {statistics.median(referee.get_ms):.0f} ms"
            )
        if referee.refused or referee.errors:
            say(f"  referee problems: refused {referee.refused[:3]}, errors {referee.errors[:3]}")
        st = staleness(saves, probes)
        RESULT["staleness"] = {k: v for k, v in st.items()}
        polls = sum(len(p.polls) for p in probes)
        perrors = sum(p.errors for p in probes)
        if st["delays"]:
            worst = max(st["delays"])
            say(
                f"  staleness (save answered -> a probe phone's poll shows it; {len(probes)} probes on the group "
                f"and event pages, {polls} polls, {perrors} errors):"
            )
            say(
                f"    per phone: median {statistics.median(st['delays']):.2f} s, p95 {pct(st['delays'], 95):.2f} s, "
                f"max {worst:.2f} s over {len(st['delays'])} (save, phone) pairs; first of the 4 phones: median "
                f"{statistics.median(st['first_any']):.2f} s, max {max(st['first_any']):.2f} s"
            )
            say(
                f"    polls sent after a save had answered that still showed an older version: {st['stale']}; "
                f"(save, phone) pairs not seen before the end: {st['unseen']}"
            )
            say(f"    target at most {TARGET_STALENESS_S:.0f} s: {verdict(worst <= TARGET_STALENESS_S)}")
        else:
            say("  staleness: no save was seen by the probes")

        if referee.save_starts and samples:
            say(
                "  latency by time since the last save was sent (a new results version: the first request computes the"
            )
            say(
                "  snapshot, requests meanwhile wait for it; then each live part is rendered once for the new version):"
            )
            starts = sorted(referee.save_starts)
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
            RESULT["latency_since_save"] = {
                f"{a}-{b}": {"n": len(v), "p50": pct(v, 50), "p99": pct(v, 99)}
                for (a, b), v in by_bucket.items()
            }
            for (a, b), values in by_bucket.items():
                if values:
                    span = f"{a:.2f}-{b:.2f} s" if b < 99 else f">= {a:.2f} s"
                    say(
                        f"      {span:12} {len(values):6} requests   median {pct(values, 50):7.1f} ms   p95 "
                        f"{pct(values, 95):7.1f}   p99 {pct(values, 99):7.1f}"
                    )

        say()
        say("== Summary ==")
        summary = [
            (
                f"snapshot from scratch <= {TARGET_SNAPSHOT_MS} ms",
                f"{s['median_ms']:.0f} ms",
                s["median_ms"] <= TARGET_SNAPSHOT_MS,
            ),
            (
                "304 poll >= 2/3 of /terveys/ req/s",
                f"{r304['share_of_trivial']:.2f} ({r304['rps']:.0f} vs {r304['trivial_rps']:.0f})",
                r304["share_of_trivial"] >= TARGET_304_SHARE,
            ),
        ]
        for label, r in cached.items():
            summary.append(
                (
                    f"{label} >= 1/5 of /terveys/",
                    f"{r['share_of_trivial']:.2f} ({r['rps']:.0f} req/s)",
                    r["share_of_trivial"] >= TARGET_CACHED_SHARE,
                )
            )
        summary.append(
            (
                f"JSON API median once cached <= {TARGET_API_MS} ms",
                f"{api['p50_ms']:.1f} ms",
                api["p50_ms"] <= TARGET_API_MS,
            )
        )
        if season:
            for name, r in RESULT["cup"].items():
                summary.append(
                    (
                        f"cup {name} page median <= {TARGET_CUP_MS} ms",
                        f"{r['p50_ms']:.1f} ms",
                        r["p50_ms"] <= TARGET_CUP_MS,
                    )
                )
        summary.append(
            (
                f"{len(phones)} phones: p99 < {TARGET_P99_MS} ms",
                f"{m['p99_ms']:.0f} ms",
                m["p99_ms"] < TARGET_P99_MS,
            )
        )
        summary.append((f"{len(phones)} phones: 0 errors", str(m["errors"]), m["errors"] == 0))
        if st["delays"]:
            summary.append(
                (
                    f"staleness <= {TARGET_STALENESS_S:.0f} s",
                    f"{max(st['delays']):.2f} s",
                    max(st["delays"]) <= TARGET_STALENESS_S,
                )
            )
        for label, value, ok in summary:
            say(f"  {label:48} {value:>24}   {verdict(ok)}")
    finally:
        stop_process(proc)
        if cache_dir:
            shutil.rmtree(cache_dir, ignore_errors=True)
        (OUT / "live_load_result.json").write_text(
            json.dumps({"report": REPORT, **RESULT}, indent=1, default=str)
        )
        say(f"(gunicorn stopped; figures in {OUT / 'live_load_result.json'})")


if __name__ == "__main__":
    main()
