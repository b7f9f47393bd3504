"""The environment of the live-load bench: the tools it runs (wrk, nginx: installed with apt-get if
missing), the servers' settings, the scratch database ``tuppi_bench`` with its live event and cup season,
and how busy the machine's other processes keep the cores."""

from __future__ import annotations

import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from io import StringIO
from pathlib import Path

from .common import CUP_SEEDS, DB_NAME, OUT, PAIRS, PG_SERVER, PLAYED_ROUNDS, REDIS_URL, ROOT, SEED, Scene
from .report import say

# --- tools, settings, database ------------------------------------------------------------------------


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


def setup_django(env: dict) -> None:
    os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_", "CACHE_"))})
    # the test client of this process (query counts) calls itself by the Host header it is given
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def prepare(args) -> Scene:
    """Everything before the servers start: wrk, the cache, the database and its events, Django here."""
    OUT.mkdir(parents=True, exist_ok=True)
    wrk = ensure_wrk()
    cache_dir = tempfile.mkdtemp(prefix="tuppi-bench-cache-") if args.cache == "file" else None
    env = server_env(args, cache_dir)
    ensure_database()
    setup_django(env)
    from django.core.management import call_command

    from tournaments.readmodel import build as readmodel

    call_command("migrate", verbosity=0, interactive=False)
    scene = Scene(args, wrk, env, cache_dir)
    scene.event = event = live_event(args.fresh)
    scene.season = season = None if args.skip_cup else cup_season()
    scene.snap = snap = readmodel.build(event.pk)
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
    return scene


# --- the events -----------------------------------------------------------------------------------


def live_event(fresh: bool):
    from django.core.management import call_command
    from django.db import transaction
    from django.db.models import F
    from django.utils import timezone

    from tournaments.actions import versions
    from tournaments.actions.simulation import play_matches
    from tournaments.models import Entry, Event, Match, PaperResult, ResultChange

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


# --- the machine --------------------------------------------------------------------------------------


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (all cores, from /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


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
