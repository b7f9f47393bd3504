"""The cache's keys name the database (issue #23): two sites on one machine, a training copy beside the
live event, share ``var/cache`` but never an entry, because every key starts with a digest of the
default database's engine, host, port and name (``lib.cache.namespace``, set as ``KEY_PREFIX`` by
``lib/env.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lib.cache import FailOpenFileBasedCache, namespace
from lib.env import cache_from_env, database_from_env

ROOT = Path(__file__).resolve().parents[2]

LIVE = {"default": {"ENGINE": "django.db.backends.postgresql", "HOST": "127.0.0.1", "PORT": 5432, "NAME": "tuppi"}}


def with_default(**changes) -> dict:
    return {"default": {**LIVE["default"], **changes}}


def test_each_part_of_the_database_names_its_own_namespace():
    others = [
        with_default(NAME="tuppi_harjoitus"),
        with_default(HOST="db.example"),
        with_default(PORT=5433),
        with_default(ENGINE="django.db.backends.sqlite3"),
    ]
    prefixes = {namespace(LIVE), *(namespace(d) for d in others)}
    assert len(prefixes) == 5
    # the same database, however its settings are written down, and whoever logs in: one namespace
    assert namespace(with_default(PORT="5432", USER="toinen", PASSWORD="x", CONN_MAX_AGE=0)) == namespace(LIVE)
    assert all(p.startswith("db-") and len(p) == 15 for p in prefixes)


def test_two_sites_sharing_one_cache_folder_never_read_each_others_entries(tmp_path):
    folder = str(tmp_path / "var" / "cache")
    live = FailOpenFileBasedCache(folder, {"KEY_PREFIX": namespace(LIVE)})
    training = FailOpenFileBasedCache(folder, {"KEY_PREFIX": namespace(with_default(NAME="tuppi_harjoitus"))})
    live.set("head:syyskisa", "the live site's event")
    assert training.get("head:syyskisa") is None
    training.set("head:syyskisa", "the training copy's event")
    assert live.get("head:syyskisa") == "the live site's event"
    another_live_process = FailOpenFileBasedCache(folder, {"KEY_PREFIX": namespace(LIVE)})
    assert another_live_process.get("head:syyskisa") == "the live site's event"  # still shared within a site
    assert len(list(Path(folder).glob("*.djcache"))) == 2


def test_the_configured_prefix_follows_database_url(monkeypatch, tmp_path):
    prefixes = []
    for url in ("postgres://tuppi@127.0.0.1:5432/tuppi", "postgres://tuppi@127.0.0.1:5432/tuppi_harjoitus",
                f"sqlite:///{tmp_path / 'db.sqlite3'}"):
        monkeypatch.setenv("DATABASE_URL", url)
        databases = {"default": database_from_env(tmp_path)}
        config = cache_from_env(tmp_path, databases)
        assert config["KEY_PREFIX"] == namespace(databases)
        prefixes.append(config["KEY_PREFIX"])
    assert len(set(prefixes)) == 3


def configured_prefix(database_url: str) -> str:
    """``settings.CACHES["default"]["KEY_PREFIX"]`` as a site started with this DATABASE_URL has it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "CACHE_URL"))}
    env.update(DJANGO_DEBUG="1", DATABASE_URL=database_url)
    code = "from django.conf import settings; print(settings.CACHES['default']['KEY_PREFIX'])"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip().splitlines()[-1]  # (after what the shell says it imported)


@pytest.mark.slow
def test_a_started_site_keys_its_cache_on_its_database(tmp_path):
    live = configured_prefix(f"sqlite:///{tmp_path / 'live.sqlite3'}")
    training = configured_prefix(f"sqlite:///{tmp_path / 'harjoitus.sqlite3'}")
    assert live.startswith("db-") and training.startswith("db-") and live != training
    assert configured_prefix(f"sqlite:///{tmp_path / 'live.sqlite3'}") == live  # the same in every process
