"""``manage.py backup FILE``: a played event is backed up, restored into a fresh database and every row of
every table is found there. SQLite: an online copy through sqlite3's backup API, restored by putting
the file in place; PostgreSQL: pg_dump's custom format, restored with the README's
``pg_restore --clean --if-exists`` into an empty database."""

from __future__ import annotations

import datetime as dt
import io
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from psycopg.types.string import TextLoader

ROOT = Path(__file__).resolve().parents[3]
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def live_rows() -> dict[str, list[tuple]]:
    rows = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f'SELECT * FROM "{table}"')
            rows[table] = sorted(cursor.fetchall(), key=repr)
    return rows


def as_stored(value):
    """A value as SQLite stores it (Django's connection turns dates, times and booleans into Python's)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, dt.date | dt.time):  # a time of day (the event's day starts) as "11:00:00"
        return str(value)
    return value


def played_event() -> str:
    out = io.StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", "1", stdout=out)
    return out.getvalue().split()[-1]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite backup")
def test_sqlite_backup_restores_every_row(tmp_path):
    slug = played_event()
    backup = tmp_path / "tuppi-2026-12-08.sqlite3"
    out = io.StringIO()
    call_command("backup", str(backup), stdout=out)
    assert "Backup written to" in out.getvalue()
    assert not (tmp_path / "tuppi-2026-12-08.sqlite3.partial").exists()

    # the README's restore: the backup file put in place of the database file
    restored = tmp_path / "fresh" / "db.sqlite3"
    restored.parent.mkdir()
    shutil.copyfile(backup, restored)
    expected = live_rows()
    assert sum(len(rows) for rows in expected.values()) > 500
    copy = sqlite3.connect(restored)
    try:
        tables = {name for (name,) in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert set(expected) <= tables
        for table, rows in expected.items():
            found = sorted(copy.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
            assert found == sorted((tuple(map(as_stored, r)) for r in rows), key=repr), table
        assert copy.execute("SELECT slug FROM tournaments_event WHERE slug = ?", (slug,)).fetchone() == (slug,)
    finally:
        copy.close()

    # Django opens the restored file and has no migration left to run
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{restored}")
    check = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--check"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite backup")
def test_sqlite_backup_refuses_to_overwrite_the_database(tmp_path, settings):
    with pytest.raises(CommandError, match="No such folder"):
        call_command("backup", str(tmp_path / "ei" / "ole" / "x.sqlite3"))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL backup")
@pytest.mark.skipif(shutil.which("pg_restore") is None, reason="pg_restore is not installed")
def test_postgresql_backup_restores_every_row_into_an_empty_database(tmp_path):
    played_event()
    backup = tmp_path / "tuppi.dump"
    call_command("backup", str(backup), stdout=io.StringIO())
    db = connection.settings_dict
    fresh = f"{db['NAME']}_restore"
    conninfo = {"host": db.get("HOST") or None, "port": db.get("PORT") or None, "user": db.get("USER") or None,
                "password": db.get("PASSWORD") or None}
    with psycopg.connect(dbname="postgres", autocommit=True, **conninfo) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{fresh}"')
        admin.execute(f'CREATE DATABASE "{fresh}"')
    try:
        command = ["pg_restore", "--clean", "--if-exists", "--no-owner", "-d", fresh, str(backup)]
        for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
            if db.get(key):
                command += [option, str(db[key])]
        env = {**os.environ, **({"PGPASSWORD": str(db["PASSWORD"])} if db.get("PASSWORD") else {})}
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
        assert result.returncode == 0, result.stderr  # no error on an empty database
        expected = live_rows()
        with psycopg.connect(dbname=fresh, **conninfo) as copy:
            # JSON columns as text, as Django's connection reads them (it registers the same loader)
            copy.adapters.register_loader("jsonb", TextLoader)
            for table, rows in expected.items():
                found = sorted(copy.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
                assert found == rows, table
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **conninfo) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{fresh}"')
