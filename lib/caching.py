"""Derived data computed once per change of the facts, shared by every worker process.

Every key names the versions it was computed from (an event's results version, a season's cup key), so
an entry is never stale: a change makes a new key, and the old entries are never read again and expire.
Two layers:

1. a small in-process LRU, so that a worker serving the same snapshot or fragment again unpickles
   nothing;
2. Django's cache framework (``settings.CACHES["default"]``: a file cache on one machine by default,
   Redis through ``CACHE_URL`` for several machines), so that one process computes and the others read.

A computation of a key that is not cached yet takes a short lock in the shared cache; other processes
wait for its result instead of computing the same thing (one snapshot computation per change, however
many phones poll). Inside a database transaction nothing is read from or written to the caches: a
service that checks derived data before changing facts computes it from what its transaction sees, and
an uncommitted state never reaches a cache.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db import connection

T = TypeVar("T")

TIMEOUT = 60 * 30  # a version's entries are read within minutes of their change; then they may go
LOCK_TIMEOUT = 20  # seconds: a computation that dies leaves its lock for this long at most
WAIT = 5.0  # seconds another process waits for a computation in progress before doing it itself
FALLBACK_SECONDS = 2.0  # how long another process's computation is waited for (or the previous value served)
LOCAL_SIZE = 512

_MISSING = object()
_local: OrderedDict[str, object] = OrderedDict()
_local_lock = threading.Lock()
stats = {"computed": 0}  # computations done in this process (tests and benchmarks read it)


def _local_get(key: str):
    with _local_lock:
        value = _local.get(key, _MISSING)
        if value is not _MISSING:
            _local.move_to_end(key)
        return value


def _local_set(key: str, value) -> None:
    with _local_lock:
        _local[key] = value
        _local.move_to_end(key)
        while len(_local) > LOCAL_SIZE:
            _local.popitem(last=False)


def clear_local() -> None:
    """Forget this process's copies (tests; a process that must see the shared cache afresh)."""
    with _local_lock:
        _local.clear()
    _recent.clear()
    for forget in _forgetters:
        forget()


_forgetters: list[Callable[[], None]] = []


def on_clear(forget: Callable[[], None]) -> None:
    """Register what else :func:`clear_local` empties (a module's own per-process memory)."""
    _forgetters.append(forget)


def in_transaction() -> bool:
    """Inside a transaction of the application's own (not the one a test case wraps every test in, which
    Django marks ``_from_testcase``: the caches must behave in tests as they do in production)."""
    return connection.in_atomic_block and any(
        not getattr(block, "_from_testcase", False) for block in connection.atomic_blocks
    )


def versioned(
    key: str, compute: Callable[[], T], *, share: bool = True, lock: bool = True, fallback: T | None = None
) -> T:
    """The value of ``key``, computed by ``compute()`` once and then served from the caches.

    ``key`` must name every version the value depends on. ``share=False`` keeps it in this process only
    (for values cheap to compute but costly to unpickle). ``lock=False`` skips the cross-process lock
    (for values cheap enough to compute twice). ``fallback``: what to serve meanwhile, instead of
    waiting, while another process computes the value (an event's previous snapshot)."""
    if in_transaction():
        return compute()
    value = _local_get(key)
    if value is not _MISSING:
        return value  # type: ignore[return-value]
    if share:
        value = cache.get(key, _MISSING)
        if value is _MISSING and lock:
            value = _compute_once(key, compute, fallback)
            if value is fallback:
                return value  # the previous value, kept under its own key
        elif value is _MISSING:
            value = _compute(key, compute)
    else:
        value = _compute(key, compute, share=False)
    if cacheable(value):
        _local_set(key, value)
    return value  # type: ignore[return-value]


def cacheable(value) -> bool:
    """A value may say it must not be kept (a snapshot whose facts changed while it was loaded)."""
    return value is not None and getattr(value, "cacheable", True)


def _compute(key: str, compute: Callable[[], T], *, share: bool = True) -> T:
    stats["computed"] += 1
    value = compute()
    if share and cacheable(value):
        cache.set(key, value, TIMEOUT)
    return value


def _compute_once(key: str, compute: Callable[[], T], fallback=None) -> T:
    lock_key = f"{key}:lock"
    if cache.add(lock_key, time.time(), LOCK_TIMEOUT):
        try:
            return _compute(key, compute)
        finally:
            cache.delete(lock_key)
    if _young(cache.get(lock_key)):  # another process is computing it
        if fallback is not None:
            return fallback  # serve the previous value meanwhile, under its own key
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            time.sleep(0.02)
            value = cache.get(key, _MISSING)
            if value is not _MISSING:
                return value  # type: ignore[return-value]
            if cache.get(lock_key) is None:  # the other computation ended without a value: do it here
                break
    return _compute(key, compute)  # no one is, or the one who took the lock is too slow or gone


def _young(started) -> bool:
    """Whether a computation that took its lock at ``started`` (a time.time()) may still be waited for
    (or its previous value served meanwhile): for :data:`FALLBACK_SECONDS` at most, so that one that died
    holding its lock costs a few seconds, never the lock's whole timeout."""
    return isinstance(started, int | float) and time.time() - started < FALLBACK_SECONDS


def get_many(keys: list[str]) -> dict[str, object]:
    """Those of ``keys`` that are cached (this process's copies first, then the shared cache)."""
    if in_transaction():
        return {}
    out = {}
    for k in keys:
        value = _local_get(k)
        if value is not _MISSING:
            out[k] = value
    rest = [k for k in keys if k not in out]
    if rest:
        for k, value in cache.get_many(rest).items():
            _local_set(k, value)
            out[k] = value
    return out


def put(key: str, value, timeout: int = TIMEOUT) -> None:
    """Keep a value computed outside :func:`versioned` (a batch), if it may be kept."""
    stats["computed"] += 1
    if not in_transaction() and cacheable(value):
        cache.set(key, value, timeout)
        _local_set(key, value)


# --- counters in the shared cache ---------------------------------------------------------------------


def counters(keys: list[str]) -> dict[str, int]:
    """The counters ``keys`` (:func:`bump`) as the shared cache holds them now, never this process's copy
    (another process moves them); a counter never bumped, or a cache that does not answer, is 0."""
    found = {} if in_transaction() else cache.get_many(keys)
    return {k: found.get(k, 0) for k in keys}


def bump(key: str) -> None:
    """Add one to the counter ``key`` in the shared cache (kept without a timeout: it names entries that
    may still be cached; 1 the first time). A cache that does not answer keeps nothing."""
    if cache.add(key, 1, None):
        return
    try:
        cache.incr(key)
    except ValueError:  # gone meanwhile
        cache.add(key, 1, None)


# --- values remembered for a moment -------------------------------------------------------------------

_recent: dict[str, tuple[float, object]] = {}


def recent(key: str, seconds: float, load: Callable[[], T]) -> T:
    """``load()``'s value, remembered in this process for ``seconds`` (an event's version: a poll then
    costs no query; a change shows within that moment). ``seconds`` 0 remembers nothing."""
    if seconds <= 0:
        return load()
    now = time.monotonic()
    found = _recent.get(key)
    if found is not None and found[0] > now:
        return found[1]  # type: ignore[return-value]
    value = load()
    if len(_recent) > 4 * LOCAL_SIZE:
        _recent.clear()
    _recent[key] = (now + seconds, value)
    return value


def forget_recent(key: str) -> None:
    _recent.pop(key, None)
