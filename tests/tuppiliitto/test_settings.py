"""Settings come from the environment; a bad environment stops start-up with a message naming the variable."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


def production_env(**extra: str) -> dict[str, str]:
    return {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "tulokset.tuppiliitto.fi",
        "DATABASE_URL": f"sqlite:///{ROOT / 'db-check-only.sqlite3'}",
        **extra,
    }


def test_missing_secret_key_in_production_names_the_variable():
    result = run_manage("check")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


@pytest.mark.slow
def test_debug_without_secret_key_starts():
    result = run_manage("check", DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stderr


def test_unknown_database_scheme_names_the_variable():
    result = run_manage("check", **production_env(DATABASE_URL="mongodb://localhost/tuppi"))
    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr
    assert "mongodb" in result.stderr


@pytest.mark.slow
def test_bad_debug_value_names_the_variable():
    result = run_manage("check", **production_env(DJANGO_DEBUG="maybe"))
    assert result.returncode != 0
    assert "DJANGO_DEBUG" in result.stderr


@pytest.mark.slow
def test_deploy_check_passes_with_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **production_env())
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_deploy_check_fails_when_debug_is_on():
    # The check must be able to fail: with debug on it warns (security.W018) and exits non-zero.
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **production_env(DJANGO_DEBUG="1"))
    assert result.returncode != 0
    assert "W018" in result.stdout + result.stderr


def test_database_url_selects_postgresql(monkeypatch):
    from lib.env import database_from_env

    monkeypatch.setenv("DATABASE_URL", "postgres://tuppi:salainen@db.example:5433/tuppi")  # restored after
    config = database_from_env(ROOT)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"], config["USER"]) == ("db.example", 5433, "tuppi", "tuppi")


def test_default_database_is_sqlite_in_project_folder(monkeypatch):
    from lib.env import database_from_env

    monkeypatch.delenv("DATABASE_URL", raising=False)
    config = database_from_env(ROOT)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(config["NAME"]) == ROOT / "db.sqlite3"


# --- the cache and the rules switches (read by lib/env.py at start-up) -------------------------


def test_cache_url_selects_the_shared_cache(monkeypatch, tmp_path):
    import pytest
    from django.core.exceptions import ImproperlyConfigured

    from lib.env import cache_from_env

    monkeypatch.delenv("CACHE_URL", raising=False)
    default = cache_from_env(tmp_path)
    assert default["BACKEND"].endswith("FileBasedCache") and default["LOCATION"] == str(tmp_path / "var" / "cache")
    for url, backend, location in [
        ("redis://127.0.0.1:6379/2", "RedisCache", "redis://127.0.0.1:6379/2"),
        ("rediss://cache.example:6380/0", "RedisCache", "rediss://cache.example:6380/0"),
        ("file:///srv/tuppi/cache", "FileBasedCache", "/srv/tuppi/cache"),
        ("locmem://", "LocMemCache", "tuppi"),
        ("db://tuppi_cache", "DatabaseCache", "tuppi_cache"),
    ]:
        monkeypatch.setenv("CACHE_URL", url)
        config = cache_from_env(tmp_path)
        assert config["BACKEND"].endswith(backend) and config["LOCATION"] == location, url
    for bad in ("memcached://x", "file://relative", "db://", "redis"):
        monkeypatch.setenv("CACHE_URL", bad)
        with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
            cache_from_env(tmp_path)


@pytest.mark.slow
def test_unknown_rules_switch_stops_start_up():
    for name, value in (("TUPPI_OVERWHELMING_RULE", "loser_total"), ("TUPPI_STANDINGS_FIRST", "points")):
        result = run_manage("check", **production_env(**{name: value}))
        assert result.returncode != 0 and name in result.stderr, (name, result.stderr[-500:])
    result = run_manage("check", **production_env(TUPPI_OVERWHELMING_RULE="margin", TUPPI_STANDINGS_FIRST="wins"))
    assert result.returncode == 0, result.stderr[-500:]
