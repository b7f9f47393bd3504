"""Cache backends that fail open: the cache is a cache.

Everything the site keeps in Django's cache framework can be computed again from the database (event
snapshots, rendered live parts, event heads), so a cache that cannot be reached (Redis down or too slow,
a file cache folder that cannot be written, the cache table missing) must make the site slower, never
wrong and never down. Django's own backends raise from every operation then (redis' ``ConnectionError``
and ``TimeoutError``, which are plain ``Exception``\\ s, ``OSError``, ``DatabaseError``), and every page
reading through the cache would answer 500. The backends here catch any exception of the backend:

- a read answers a miss: ``get`` its default, ``get_many`` ``{}``, ``has_key`` False; ``incr`` and
  ``decr`` raise ``ValueError`` as for a missing key (which their callers handle anyway);
- a write does nothing: ``set``, ``delete`` (False), ``delete_many``, ``clear``, ``touch`` (False),
  ``set_many`` (answers every key as not stored);
- ``add`` answers True: the caller holds the "lock" and computes the value itself, instead of waiting for
  a computation that no one is doing.

``get_or_set``, ``decr``, ``incr_version``/``decr_version`` and the ``a…`` (async) methods are Django's
own, built on the ones above, so they fail open too.

A circuit breaker: once an operation failed, this process leaves the backend alone for
:data:`BREAK_SECONDS` (5 s): every operation answers at once as above, then the next one asks the backend
again. A dead Redis then costs one connection attempt per process every 5 seconds, at most its connect
timeout (0.25 s; reads time out after 0.5 s), not one per operation.

Failures go to the ``lib.cache`` logger: a WARNING at most once a minute per process and backend, with
the count of failures since the previous one, not once per request.

:func:`healthy` asks the backend itself (a real round trip, past the wrapper and its breaker): the
readiness check. :func:`namespace` names a database for the key prefix, so two sites on one machine that
share a cache folder or a Redis database never read each other's entries.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import re
import threading
import time
import uuid
from dataclasses import dataclass

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, router, transaction
from redis.backoff import NoBackoff
from redis.retry import Retry

logger = logging.getLogger("lib.cache")

BREAK_SECONDS = 5.0  # after a failure, the backend is not asked again for this long (this process)
LOG_SECONDS = 60.0  # at most one warning per backend and process in this time
PROBE_SECONDS = 10  # how long the readiness check's probe entry lives (it deletes it at once anyway)
# Redis: give up connecting after 0.25 s and reading after 0.5 s, and retry a failed command once at
# once (a pooled connection that a Redis restart closed), not three times with back-off as redis-py does.
REDIS_OPTIONS = {"socket_connect_timeout": 0.25, "socket_timeout": 0.5}

monotonic = time.monotonic  # the breaker's and the log's clock (tests freeze it)
_MISSING = object()
# What reading an entry raises when the entry was written by another release of the code: a class it names
# has moved or gone (a value's module renamed), or the bytes are not a pickle this code can read. Such an
# entry is a miss and is removed; the backend itself answered, so its breaker stays closed.
UNREADABLE = (AttributeError, ImportError, EOFError, pickle.UnpicklingError)


@dataclass
class Outage:
    """What this process knows of one backend's failures (shared by every thread's backend instance)."""

    until: float = float("-inf")  # the breaker is open (the backend is not asked) until then
    reported: float = float("-inf")  # when the last warning was logged
    failures: int = 0  # failed operations since that warning
    unreadable_reported: float = float("-inf")  # when an entry of another release was last reported


_outages: dict[str, Outage] = {}
_outages_lock = threading.Lock()


def outage(name: str) -> Outage:
    with _outages_lock:
        return _outages.setdefault(name, Outage())


def forget_outages() -> None:
    """Close every breaker and forget when the last warning was logged (tests)."""
    with _outages_lock:
        _outages.clear()


class FailOpenMixin:
    """Put before one of Django's cache backends: every operation fails open (see the module)."""

    def __init__(self, location, params):
        self._label = f"{type(self).__name__} {re.sub(r'//[^@/]*@', '//', str(location))}"  # no password
        self._outage = outage(self._label)
        self._probing = False
        super().__init__(location, params)

    # --- the guard --------------------------------------------------------------------------------------

    def _call(self, name: str, failed, *args, passes: tuple[type[Exception], ...] = (), **kwargs):
        """The backend's ``name(*args, **kwargs)``, or ``failed`` when the backend raises or the breaker is
        open. ``passes``: exceptions that are the operation's own answer (``incr`` of a missing key)."""
        if self._probing:
            return self._attempt(name, *args, **kwargs)
        if self._outage.until > monotonic():
            return failed
        try:
            return self._attempt(name, *args, **kwargs)
        except passes:
            raise
        except Exception as error:
            self._failed(name, error)
            return failed

    def _attempt(self, name: str, *args, **kwargs):
        return getattr(super(), name)(*args, **kwargs)

    def _failed(self, name: str, error: Exception) -> None:
        found = self._outage
        now = monotonic()
        found.until = now + BREAK_SECONDS
        found.failures += 1
        if now - found.reported >= LOG_SECONDS:
            logger.warning(
                "The cache %s does not answer (%s: %s: %s): pages are computed without it, and it is asked "
                "again in %g s; %d failure(s) since the last report.",
                self._label, name, type(error).__name__, error, BREAK_SECONDS, found.failures,
            )
            found.reported = now
            found.failures = 0

    def probe(self) -> bool:
        """A real round trip to the backend, past the guard and the breaker (see :func:`healthy`). Success
        closes the breaker; a failure opens it and is logged as any other."""
        self._probing = True
        try:
            answered = round_trip(self)
        except Exception as error:
            self._failed("probe", error)
            return False
        finally:
            self._probing = False
        if answered:
            self._outage.until = float("-inf")
        return answered

    # --- reads answer a miss ----------------------------------------------------------------------------

    def get(self, key, default=None, version=None):
        try:
            return self._call("get", default, key, default, version=version, passes=UNREADABLE)
        except UNREADABLE as error:
            self._unreadable(key, version, error)
            return default

    def get_many(self, keys, version=None):
        try:
            return self._call("get_many", {}, keys, version=version, passes=UNREADABLE)
        except UNREADABLE:  # one of them is another release's: read them one by one
            found = ((key, self.get(key, _MISSING, version=version)) for key in keys)
            return {key: value for key, value in found if value is not _MISSING}

    def _unreadable(self, key, version, error: Exception) -> None:
        self._call("delete", False, key, version=version)
        found = self._outage
        now = monotonic()
        if now - found.unreadable_reported >= LOG_SECONDS:
            logger.warning("The cache %s held an entry this code cannot read (%s: %s), written by another "
                           "release: it is removed and computed again.", self._label, type(error).__name__, error)
            found.unreadable_reported = now

    def has_key(self, key, version=None):
        return self._call("has_key", False, key, version=version)

    def incr(self, key, delta=1, version=None):
        found = self._call("incr", _MISSING, key, delta, version=version, passes=(ValueError,))
        if found is _MISSING:
            raise ValueError(f"Key {key!r} not found (the cache does not answer).")
        return found

    # --- writes do nothing; add lets the caller compute ------------------------------------------------

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", True, key, value, timeout, version=version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set", None, key, value, timeout, version=version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set_many", list(data), data, timeout, version=version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", False, key, timeout, version=version)

    def delete(self, key, version=None):
        return self._call("delete", False, key, version=version)

    def delete_many(self, keys, version=None):
        return self._call("delete_many", None, keys, version=version)

    def clear(self):
        return self._call("clear", None)

    def close(self, **kwargs):
        return self._call("close", None, **kwargs)

    # --- Django's compositions of the above, whatever the backend overrides -----------------------------

    def decr(self, key, delta=1, version=None):
        return self.incr(key, -delta, version=version)

    def get_or_set(self, key, default, timeout=DEFAULT_TIMEOUT, version=None):
        return BaseCache.get_or_set(self, key, default, timeout, version=version)

    def incr_version(self, key, delta=1, version=None):
        return BaseCache.incr_version(self, key, delta, version=version)


def round_trip(backend) -> bool:
    """Store a fresh value under a fresh key, read it back and delete it: whether the value came back."""
    key = f"lib.cache.probe:{uuid.uuid4().hex}"
    token = uuid.uuid4().hex
    backend.set(key, token, PROBE_SECONDS)
    answer = backend.get(key)
    backend.delete(key)
    return answer == token


def healthy(backend) -> bool:
    """Whether the cache ``backend`` (a backend or ``django.core.cache.cache``) stores and returns a value
    now: a real round trip, past the fail-open wrapper and its breaker, never an exception."""
    probe = getattr(backend, "probe", None)
    if callable(probe):
        return probe()
    try:
        return round_trip(backend)
    except Exception:
        return False


def namespace(databases: dict) -> str:
    """A short name of the ``default`` database of a ``DATABASES`` setting: a digest of its engine, host,
    port and name. As the cache's key prefix it keeps two sites that share a cache apart."""
    found = databases.get("default") or {}
    named = "\n".join(str(found.get(part) or "") for part in ("ENGINE", "HOST", "PORT", "NAME"))
    return "db-" + hashlib.sha256(named.encode()).hexdigest()[:12]


# --- the backends CACHE_URL selects (lib/env.py) --------------------------------------------------


class FailOpenRedisCache(FailOpenMixin, RedisCache):
    """Redis, with short socket timeouts and one immediate retry (``REDIS_OPTIONS``; ``OPTIONS`` wins)."""

    def __init__(self, server, params):
        options = {**REDIS_OPTIONS, "retry": Retry(NoBackoff(), 1), **params.get("OPTIONS", {})}
        super().__init__(server, {**params, "OPTIONS": options})


class FailOpenFileBasedCache(FailOpenMixin, FileBasedCache):
    """Django's file cache creates its folder as it starts (and before each write): a folder that cannot
    be created is a failure like any other, not an error that stops every request."""

    def _createdir(self):
        return self._call("_createdir", None)


class FailOpenLocMemCache(FailOpenMixin, LocMemCache):
    pass


class FailOpenDatabaseCache(FailOpenMixin, DatabaseCache):
    """Inside a transaction each operation runs in a savepoint, so that a failed cache query (the table
    missing) does not break the caller's transaction (PostgreSQL refuses every later query in it)."""

    def _attempt(self, name: str, *args, **kwargs):
        connection = connections[router.db_for_write(self.cache_model_class)]
        if not connection.in_atomic_block:
            return super()._attempt(name, *args, **kwargs)
        with transaction.atomic(using=connection.alias):
            return super()._attempt(name, *args, **kwargs)
