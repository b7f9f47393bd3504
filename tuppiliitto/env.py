"""Reading settings from the environment, with errors that name the variable.

dj-database-url parses ``DATABASE_URL``; this module only adds the project's defaults and refuses
schemes the project does not support, so a typo stops start-up instead of surprising later.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}

SUPPORTED_DATABASES = {
    "sqlite": "django.db.backends.sqlite3",
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "pgsql": "django.db.backends.postgresql",
}


def env_bool(name: str, *, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a yes/no value: use 1 or 0.")


def env_list(name: str, *, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_from_env(base_dir: Path) -> dict:
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        url = f"sqlite:///{base_dir / 'db.sqlite3'}"
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme not in SUPPORTED_DATABASES:
        raise ImproperlyConfigured(
            f"DATABASE_URL has an unsupported scheme {scheme or '(none)'!r}: use sqlite:///path/to/file.sqlite3 "
            "or postgres://user:password@host:port/name."
        )
    config = dj_database_url.parse(url, conn_max_age=60 if scheme != "sqlite" else 0)
    config["ENGINE"] = SUPPORTED_DATABASES[scheme]
    if scheme == "sqlite":
        # Several referees save at once: take the write lock when a transaction begins (IMMEDIATE), so
        # a second writer waits for it (up to 20 s) instead of failing with "database is locked".
        config.setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
    else:
        config["CONN_HEALTH_CHECKS"] = True
    return config
