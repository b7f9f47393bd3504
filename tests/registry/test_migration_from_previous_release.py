"""Issue #26: the registry's models moved from ``tournaments`` without losing anything. A database is built
with the previous release's code and migrations (``PREVIOUS``, taken from git into a temporary folder),
filled by its simulation commands (a cup season, a team competition) and a change in the admin, and every
row of every table, every public page and every API answer are recorded; then the release that moved the
models (``MOVE``, from git as well) migrates it, and every row is found again (the content types of the
moved models now say "registry", nothing else differs), every page and answer is the same, the admin's
history and the permissions follow the models. Last, today's code migrates the same database: every
table keeps its rows and every page still answers as it did (today's pages may word things differently,
so their content is not compared).

SQLite files by default; a scratch PostgreSQL database (``<name>_migration``, dropped at the end) when
``DATABASE_URL`` names PostgreSQL. Each release runs in a process of its own (``site_snapshot.py``)."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
import tarfile
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from django.conf import settings
from psycopg.types.string import TextLoader

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = Path(__file__).with_name("site_snapshot.py")
# The release before the registry app, and the release that moved the models into it.
PREVIOUS = "587dcb5e36fd87228cf15645b38b85d11d8e2ae9"
MOVE = "b5ddfa6f701f12fd0713c1afe77932bc7b36fefe"
MOVED = ("club", "player", "season", "seasonclub", "transfer")
NEW_MIGRATIONS = {
    ("registry", "0001_initial"), ("registry", "0002_content_types"), ("cup", "0003_registry_moved"),
    ("teams", "0003_registry_moved"), ("tournaments", "0010_registry_moved"),
}
# The models added to the code after the move (issue #29: the registry's bans, the judges' council's appeals,
# rulings and exclusions; issue #27: the organisers' API tokens): today's migrate makes them.
BORN_SINCE_MOVE = {
    ("registry", "ban"), ("tournaments", "appeal"), ("tournaments", "ruling"), ("tournaments", "exclusion"),
    ("federation", "apitoken"),
}
POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def release(commit: str, folder: Path) -> Path:
    """One release's files, from git (the test is skipped where the history is not at hand)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit], capture_output=True)
    if archive.returncode != 0:
        pytest.skip(f"the release {commit[:10]} is not in this checkout's history")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder


class Tree:
    """One release's code, run against one database."""

    def __init__(self, folder: Path, database_url: str):
        self.folder = folder
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "CACHE_URL"))}
        self.env.update(DJANGO_SETTINGS_MODULE="tuppiliitto.settings_test", DATABASE_URL=database_url,
                        PYTHONPATH=str(folder))

    def run(self, *args: str) -> str:
        done = subprocess.run([sys.executable, *args], cwd=self.folder, env=self.env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        return done.stdout

    def manage(self, *args: str) -> str:
        return self.run("manage.py", *args)

    def snapshot(self, *args: str) -> str:
        return self.run(str(SNAPSHOT), *args)

    def pages(self, out: Path) -> dict[str, list]:
        self.snapshot("pages", str(out))
        return json.loads(out.read_text(encoding="utf-8"))


# --- the databases: every row, and the schema -------------------------------------------------------------


class SqliteFile:
    def __init__(self, folder: Path):
        self.path = folder / "db.sqlite3"
        self.url = f"sqlite:///{self.path}"

    def read(self) -> tuple[dict[str, list[tuple]], list[tuple]]:
        with sqlite3.connect(self.path) as db:
            schema = sorted(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall(), key=repr)
            tables = [name for (kind, name, _t, _s) in schema if kind == "table" and not name.startswith("sqlite_")]
            rows = {t: sorted(db.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall(), key=repr) for t in tables}
        return rows, schema

    def drop(self) -> None:
        pass


class PostgresScratch:
    SCHEMA = [
        "SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns"
        " WHERE table_schema = 'public'",
        "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'",
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE connamespace = 'public'::regnamespace",
    ]

    def __init__(self):
        db = settings.DATABASES["default"]
        self.name = f"{db['NAME']}_migration"
        self.conninfo = {"host": db.get("HOST") or None, "port": db.get("PORT") or None,
                         "user": db.get("USER") or None, "password": db.get("PASSWORD") or None}
        self.url = urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{self.name}").geturl()
        self.drop()
        with psycopg.connect(dbname="postgres", autocommit=True, **self.conninfo) as server:
            server.execute(f'CREATE DATABASE "{self.name}"')

    def read(self) -> tuple[dict[str, list[tuple]], list[tuple]]:
        with psycopg.connect(dbname=self.name, **self.conninfo) as db:
            db.adapters.register_loader("jsonb", TextLoader)
            schema = sorted((row for query in self.SCHEMA for row in db.execute(query).fetchall()), key=repr)
            tables = [t for (t,) in db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
            rows = {t: sorted(db.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall(), key=repr) for t in tables}
        return rows, schema

    def drop(self) -> None:
        with psycopg.connect(dbname="postgres", autocommit=True, **self.conninfo) as server:
            server.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


@pytest.fixture
def database(tmp_path):
    db = PostgresScratch() if POSTGRES else SqliteFile(tmp_path)
    yield db
    db.drop()


def moved_content_types(rows: list[tuple]) -> list[tuple]:
    """django_content_type's rows (id, app_label, model) as the move leaves them."""
    return sorted(((pk, "registry" if (app, model) in {("tournaments", m) for m in MOVED} else app, model)
                   for pk, app, model in rows), key=repr)


def differences(before: dict[str, list], after: dict[str, list]) -> list[str]:
    """The pages (or tables) whose answers differ, each with the start of its first difference."""
    out = [f"{key}: only before" for key in before.keys() - after.keys()]
    out += [f"{key}: only after" for key in after.keys() - before.keys()]
    for key in sorted(before.keys() & after.keys()):
        if before[key] != after[key]:
            old, new = " | ".join(map(str, before[key])), " | ".join(map(str, after[key]))
            at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
            out.append(f"{key}: …{old[max(0, at - 80):at + 80]!r} became …{new[max(0, at - 80):at + 80]!r}")
    return out


def test_a_database_of_the_previous_release_keeps_every_row_page_and_answer(tmp_path, database):
    old = Tree(release(PREVIOUS, tmp_path / "previous"), database.url)
    old.manage("migrate", "--no-input", "-v", "0")
    old.manage("simulate_season", "--pairs", "16", "--cup-events", "1", "--season", "2026")
    old.manage("simulate_teams", "--teams", "4", "--seed", "1")
    club = json.loads(old.snapshot("fill"))["club"]
    pages_before = old.pages(tmp_path / "pages-before.json")
    rows_before, schema_before = database.read()

    new = Tree(release(MOVE, tmp_path / "move"), database.url)
    new.manage("migrate", "--no-input", "-v", "0")
    rows_after, schema_after = database.read()
    pages_after = new.pages(tmp_path / "pages-after.json")
    after_move = json.loads(new.snapshot("check", str(club)))

    # the data: the database's schema untouched, every row of every table there
    assert schema_after == schema_before
    assert sum(len(rows) for rows in rows_before.values()) > 3000
    assert all(rows_before[f"tournaments_{model}"] for model in MOVED)  # each moved table holds rows
    applied = {row[1:3] for row in rows_after.pop("django_migrations")}
    assert applied - {row[1:3] for row in rows_before.pop("django_migrations")} == NEW_MIGRATIONS
    assert rows_after.pop("django_content_type") == moved_content_types(rows_before.pop("django_content_type"))
    assert differences(rows_before, rows_after) == []

    # the site: every public page and API answer as before
    assert len(pages_before) > 300
    assert sum(1 for status, *_answer in pages_before.values() if status == 200) > 300
    assert differences(pages_before, pages_after) == []

    # the admin's history and the permissions followed the models
    assert after_move == {"history": [200, True], "entries": [str(club)], "changelist": 200, "granted": True}

    # today's code on the same database: every table keeps its rows, every page answers as it did
    rows_moved, _schema = database.read()  # (``check`` logged a staff member in: a session, an access log)
    today = Tree(ROOT, database.url)
    today.manage("migrate", "--no-input", "-v", "0")
    rows_today, _schema = database.read()
    # (the models added since the move, and only they, bring their content type and four permissions)
    born = {row[1:] for row in rows_today["django_content_type"]} - {row[1:] for row in rows_moved["django_content_type"]}
    assert born == BORN_SINCE_MOVE
    grown = {"django_content_type": len(born), "auth_permission": 4 * len(born)}
    applied_today = {row[1:3] for row in rows_today["django_migrations"]}
    assert {row[1:3] for row in rows_moved["django_migrations"]} <= applied_today
    grown["django_migrations"] = len(rows_today["django_migrations"]) - len(rows_moved["django_migrations"])
    assert {t: len(r) for t, r in rows_today.items() if t in rows_moved} == {
        t: len(r) + grown.get(t, 0) for t, r in rows_moved.items()
    }
    pages_today = today.pages(tmp_path / "pages-today.json")
    statuses = {url: answer[0] for url, answer in pages_today.items()}
    assert {url: statuses.get(url) for url in pages_after} == {url: answer[0] for url, answer in pages_after.items()}
