"""``python manage.py backup FILE``: a consistent copy of the whole database while the site runs.

On SQLite (the default) it is an online copy through sqlite3's backup API: pages are copied from the
live database under its own lock, so referees may keep saving meanwhile, and the copy is checked with
``PRAGMA integrity_check`` before it replaces FILE. To restore, stop the site and put the copy in
place of the database file (README, Deployment).

On PostgreSQL it runs ``pg_dump --format=custom`` (restore with ``pg_restore --clean --if-exists``);
without pg_dump on the machine it says so.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.sqlite3._functions import register as register_django_functions


class Command(BaseCommand):
    help = "Back up the database into FILE (SQLite: an online copy; PostgreSQL: pg_dump --format=custom)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write the backup (replaced if it exists)")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database alias (default: default)")

    def handle(self, *args, file: str, database: str, **options):
        connection = connections[database]
        target = Path(file).resolve()
        if not target.parent.is_dir():
            raise CommandError(f"No such folder: {target.parent}")
        if connection.vendor == "sqlite":
            source = connection.settings_dict["NAME"]
            if str(source) and Path(str(source)).exists() and Path(str(source)).resolve() == target:
                raise CommandError("FILE is the database itself: choose another file.")
            tables = self._sqlite(connection, target)
        elif connection.vendor == "postgresql":
            tables = self._postgresql(connection, target)
        else:
            raise CommandError(f"No backup for the {connection.vendor} database here: use its own tools.")
        size = target.stat().st_size
        self.stdout.write(f"Backup written to {target} ({size} bytes, {tables} tables).")

    def _sqlite(self, connection, target: Path) -> int:
        connection.ensure_connection()
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        copy = sqlite3.connect(partial)
        # the schema's constraints call Django's SQL functions: the check needs them as Django has them
        register_django_functions(copy)
        try:
            connection.connection.backup(copy, pages=1024)
            problems = copy.execute("PRAGMA integrity_check").fetchall()
            if problems != [("ok",)]:
                raise CommandError(f"The copy failed its integrity check: {problems[:3]}")
            tables = copy.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        finally:
            copy.close()
        os.replace(partial, target)
        return tables

    def _postgresql(self, connection, target: Path) -> int:
        pg_dump = shutil.which("pg_dump")
        if pg_dump is None:
            raise CommandError(
                "pg_dump is not installed: install postgresql-client, or run "
                "pg_dump --format=custom NAME > FILE on the database server."
            )
        db = connection.settings_dict
        env = {**os.environ}
        if db.get("PASSWORD"):
            env["PGPASSWORD"] = str(db["PASSWORD"])
        command = [pg_dump, "--format=custom", "--file", str(target), "--dbname", str(db["NAME"])]
        for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
            if db.get(key):
                command += [option, str(db[key])]
        result = subprocess.run(command, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise CommandError(f"pg_dump failed: {result.stderr.strip()}")
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")
            return cursor.fetchone()[0]
