"""Reading settings from the environment, with errors that name the variable.

dj-database-url parses ``DATABASE_URL``; this module only adds the project's defaults and refuses
schemes the project does not support, so a typo stops start-up instead of surprising later.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from lib.cache import namespace as cache_namespace

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


def env_choice(name: str, choices: tuple[str, ...], *, default: str) -> str:
    """One of ``choices`` (the first is not special: ``default`` is used when the variable is unset)."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r} is not one of: {', '.join(choices)}.")
    return value


def env_float(name: str, *, default: float, minimum: float = 0.0, maximum: float = 60.0) -> float:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not minimum <= value <= maximum:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number of seconds from {minimum} to {maximum}.")
    return value


def env_int(name: str, *, default: int, minimum: int = 0, maximum: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        value = minimum - 1
    if not minimum <= value <= maximum:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number from {minimum} to {maximum}.")
    return value


def env_url(name: str) -> str:
    """An http(s) address without a path beyond "/", or "" when unset."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return ""
    scheme, sep, rest = raw.partition("://")
    host = rest.split("/", 1)[0]
    if scheme.lower() not in ("http", "https") or not sep or not host or rest.strip("/") != host:
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not an address like http://192.168.1.20:8000 or https://tulokset.example.fi."
        )
    return f"{scheme.lower()}://{host}"


def cache_from_env(base_dir: Path, databases: dict | None = None) -> dict:
    """``CACHE_URL``: the shared cache every worker process reads the derived snapshots from.

    Unset: a file cache in ``<project>/var/cache`` (shared by the processes of one machine, no server
    needed). ``redis://host:6379/0`` (or ``rediss://``): Redis, for several application servers.
    ``file:///path``: a file cache there. ``locmem://``: this process only (one process).
    ``db://table``: the database cache (run ``manage.py createcachetable``).

    Every backend fails open (``lib.cache``): a cache that does not answer makes pages slower, never
    wrong or down. With ``databases`` (the ``DATABASES`` setting) the keys start with a digest of the
    default database, so two sites sharing one cache never read each other's entries."""
    url = os.environ.get("CACHE_URL", "").strip()
    scheme, _sep, rest = url.partition("://")
    scheme = scheme.lower()
    common = {"TIMEOUT": 60 * 30}
    if databases is not None:
        common["KEY_PREFIX"] = cache_namespace(databases)
    files = {"OPTIONS": {"MAX_ENTRIES": 5000, "CULL_FREQUENCY": 4}, **common}
    if not url:
        return {"BACKEND": FAIL_OPEN["file"], "LOCATION": str(base_dir / "var" / "cache"), **files}
    if scheme in ("redis", "rediss") and _sep and rest:
        return {"BACKEND": FAIL_OPEN["redis"], "LOCATION": url, **common}
    if scheme == "file" and rest.startswith("/"):
        return {"BACKEND": FAIL_OPEN["file"], "LOCATION": rest, **files}
    if scheme == "locmem":
        return {"BACKEND": FAIL_OPEN["locmem"], "LOCATION": rest or "tuppi", **common}
    if scheme == "db" and rest:
        return {"BACKEND": FAIL_OPEN["db"], "LOCATION": rest, **common}
    raise ImproperlyConfigured(
        f"CACHE_URL={url!r} is not supported: use redis://host:6379/0, file:///path, locmem:// or db://table "
        "(or leave it unset for a file cache in the project folder)."
    )


FAIL_OPEN = {
    "file": "lib.cache.FailOpenFileBasedCache",
    "redis": "lib.cache.FailOpenRedisCache",
    "locmem": "lib.cache.FailOpenLocMemCache",
    "db": "lib.cache.FailOpenDatabaseCache",
}


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
