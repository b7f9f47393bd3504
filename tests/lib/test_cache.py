"""The fail-open cache backends (``lib/cache.py``): a backend that raises on every call makes every
operation answer a miss or do nothing, ``add`` answer True, the backend be left alone for 5 s after a
failure, and one warning a minute reach the log, not one per request."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import socket

import pytest
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection, transaction
from redis.exceptions import ConnectionError as RedisConnectionError

import lib.cache
from lib.cache import (
    FailOpenDatabaseCache,
    FailOpenFileBasedCache,
    FailOpenLocMemCache,
    FailOpenMixin,
    FailOpenRedisCache,
    healthy,
)


class BrokenBackend(BaseCache):
    """Raises on every operation, as Django's Redis backend does while Redis is down; counts the calls."""

    def __init__(self, location, params):
        super().__init__(params)
        self.calls = 0

    def _down(self, *args, **kwargs):
        self.calls += 1
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    add = get = set = touch = delete = get_many = has_key = incr = set_many = delete_many = clear = close = _down


class FailOpenBroken(FailOpenMixin, BrokenBackend):
    pass


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def frozen(monkeypatch):
    """The breaker's and the log's clock, moved by hand; every breaker closed before and after."""
    clock = Clock()
    monkeypatch.setattr(lib.cache, "monotonic", clock)
    lib.cache.forget_outages()
    yield clock
    lib.cache.forget_outages()


@pytest.fixture
def broken(frozen):
    return FailOpenBroken("broken", {})


def run_apart(coroutine):
    """The coroutine's answer, run on a thread of its own: a browser test earlier in the same worker may
    leave an event loop running on this one, and ``asyncio.run`` refuses to start inside it."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def _raises_value_error(call):
    with pytest.raises(ValueError):
        call()
    return "ValueError"


OPERATIONS = {
    "get": (lambda c: c.get("k"), None),
    "get with a default": (lambda c: c.get("k", "oletus"), "oletus"),
    "get_many": (lambda c: c.get_many(["a", "b"]), {}),
    "has_key": (lambda c: c.has_key("k"), False),
    "in": (lambda c: "k" in c, False),
    "add": (lambda c: c.add("k", 1, 20), True),
    "set": (lambda c: c.set("k", 1), None),
    "set_many": (lambda c: c.set_many({"a": 1, "b": 2}), ["a", "b"]),
    "touch": (lambda c: c.touch("k"), False),
    "delete": (lambda c: c.delete("k"), False),
    "delete_many": (lambda c: c.delete_many(["a", "b"]), None),
    "clear": (lambda c: c.clear(), None),
    "close": (lambda c: c.close(), None),
    "get_or_set a callable": (lambda c: c.get_or_set("k", lambda: 7), 7),
    "get_or_set a value": (lambda c: c.get_or_set("k", 8), 8),
    "incr": (lambda c: _raises_value_error(lambda: c.incr("k")), "ValueError"),
    "decr": (lambda c: _raises_value_error(lambda: c.decr("k")), "ValueError"),
    "incr_version": (lambda c: _raises_value_error(lambda: c.incr_version("k")), "ValueError"),
    "aget": (lambda c: run_apart(c.aget("k", "oletus")), "oletus"),
    "aadd": (lambda c: run_apart(c.aadd("k", 1)), True),
    "aset": (lambda c: run_apart(c.aset("k", 1)), None),
}


@pytest.mark.parametrize("name", OPERATIONS)
def test_every_operation_of_a_failing_backend_answers_a_miss_or_does_nothing(broken, frozen, name):
    call, expected = OPERATIONS[name]
    assert call(broken) == expected
    assert broken.calls >= 1  # the backend was asked and raised: the answer is the wrapper's


@pytest.mark.parametrize("name", OPERATIONS)
def test_while_the_breaker_is_open_every_operation_answers_at_once(broken, frozen, name):
    broken.get("k")
    asked = broken.calls
    frozen.now += lib.cache.BREAK_SECONDS - 0.1
    call, expected = OPERATIONS[name]
    assert call(broken) == expected
    assert broken.calls == asked  # not asked at all


def test_the_backend_is_asked_again_five_seconds_after_a_failure(broken, frozen):
    broken.set("k", 1)
    assert broken.calls == 1
    for _ in range(16):
        frozen.now += 0.25
        assert broken.get("k") is None
    assert broken.calls == 1
    frozen.now += 1.0  # 5 s after the failure
    assert broken.get("k") is None
    assert broken.calls == 2


def test_a_failure_is_logged_once_a_minute_not_once_a_request(broken, frozen, caplog):
    caplog.set_level(logging.WARNING, logger="lib.cache")
    for _ in range(24):  # two minutes of polls, one every 5 s, each reaching the dead backend
        broken.get("k")
        broken.add("k:lock", 1)
        frozen.now += 5
    records = [r for r in caplog.records if r.name == "lib.cache"]
    assert len(records) == 2
    assert all(r.levelno == logging.WARNING for r in records)
    assert "FailOpenBroken broken" in records[0].getMessage()
    assert "ConnectionError" in records[0].getMessage()
    assert "12 failure(s)" in records[1].getMessage()  # the failures of the minute between the two reports
    assert broken.calls == 24


def test_the_log_names_no_password(frozen, caplog):
    caplog.set_level(logging.WARNING, logger="lib.cache")
    backend = FailOpenRedisCache("redis://:salainen@127.0.0.1:1/0", {})
    assert backend.get("k") is None
    assert "salainen" not in caplog.text and "127.0.0.1:1/0" in caplog.text


def test_an_incr_of_a_missing_key_is_its_answer_not_a_failure(frozen, caplog):
    backend = FailOpenLocMemCache("incr-test", {})
    with pytest.raises(ValueError):
        backend.incr("missing")
    backend.set("k", 1)
    assert backend.incr("k") == 2 and backend.decr("k", 2) == 0
    assert caplog.records == []


def test_a_working_backend_answers_through_the_wrapper(frozen):
    backend = FailOpenLocMemCache("works", {})
    assert backend.add("k", "a") is True and backend.add("k", "b") is False
    assert backend.get("k") == "a" and backend.get_many(["k", "x"]) == {"k": "a"}
    assert backend.get_or_set("n", lambda: 5) == 5 and backend.get("n") == 5


def test_healthy_asks_the_backend_itself_past_the_breaker(frozen):
    backend = FailOpenLocMemCache("probe", {})
    backend._outage.until = frozen.now + 60  # as after a failure: the wrapper would answer misses
    assert backend.get("anything", "miss") == "miss"
    assert healthy(backend) is True  # a real round trip
    assert backend._outage.until < frozen.now  # it answers: the breaker is closed at once
    assert healthy(FailOpenBroken("probe-broken", {})) is False
    assert healthy(LocMemCache("plain", {})) is True  # a backend without the wrapper
    assert healthy(BrokenBackend("plain-broken", {})) is False


# --- Django's real backends, unreachable -------------------------------------------------------------


def unwritable_folder(tmp_path):
    """A folder that cannot be created, even as root: its parent is a regular file."""
    (tmp_path / "file").write_text("not a folder")
    return str(tmp_path / "file" / "cache")


def real_broken_backends(tmp_path):
    return [
        FailOpenRedisCache("redis://127.0.0.1:1/0", {}),  # nothing listens on port 1: refused at once
        FailOpenFileBasedCache(unwritable_folder(tmp_path), {}),
    ]


def test_unreachable_redis_and_an_unwritable_file_cache_fail_open(frozen, tmp_path):
    for backend in real_broken_backends(tmp_path):
        for name, (call, expected) in OPERATIONS.items():
            lib.cache.forget_outages()  # each operation meets the backend itself
            assert call(backend) == expected, (backend, name)
        assert healthy(backend) is False


def test_the_unwrapped_backends_would_raise(tmp_path):
    """What the wrapper stands between: Django's own backends raise from these folders and addresses."""
    from django.core.cache.backends.filebased import FileBasedCache
    from django.core.cache.backends.redis import RedisCache

    with pytest.raises(RedisConnectionError):
        RedisCache("redis://127.0.0.1:1/0", {}).get("k")
    with pytest.raises(OSError):  # already as it starts: it creates its folder
        FileBasedCache(unwritable_folder(tmp_path), {})


def test_redis_gives_up_quickly():
    backend = FailOpenRedisCache("redis://127.0.0.1:1/0", {"OPTIONS": {"socket_timeout": 0.3}})
    options = backend._cache._pool_options
    assert options["socket_connect_timeout"] == 0.25 and options["socket_timeout"] == 0.3
    assert options["retry"].get_retries() == 1


def redis_answers() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.2).close()
        return True
    except OSError:
        return False


@pytest.mark.skipif(not redis_answers(), reason="no Redis at 127.0.0.1:6379")
def test_a_live_redis_answers_through_the_wrapper(frozen):
    backend = FailOpenRedisCache("redis://127.0.0.1:6379/13", {"KEY_PREFIX": "lib-cache-test"})
    try:
        backend.set("k", {"a": 1})
        assert backend.get("k") == {"a": 1}
        assert healthy(backend) is True
    finally:
        backend.delete("k")


@pytest.mark.django_db
def test_a_missing_cache_table_does_not_break_the_callers_transaction(frozen):
    """The database cache inside a transaction: a failed query on a missing table would leave a
    PostgreSQL transaction refusing every later query; the savepoint keeps it usable."""
    from registry.models import Club

    backend = FailOpenDatabaseCache("ei_ole_taulua", {})
    with transaction.atomic():
        assert backend.get("k", "miss") == "miss"
        lib.cache.forget_outages()
        backend.set("k", 1)
        lib.cache.forget_outages()
        assert backend.delete("k") is False
        Club.objects.create(name="Kerho", short_name="K")  # the transaction still works
    assert Club.objects.filter(name="Kerho").exists()
    assert connection.in_atomic_block  # (the test's own transaction)


# --- an entry written by another release ------------------------------------------------------------------


class Moving:
    """A cached value whose class is about to move (as EventSnapshot moved into tournaments.readmodel)."""

    def __init__(self, n):
        self.n = n


@pytest.mark.parametrize("backend", ["file", "locmem"])
def test_an_entry_of_another_release_is_a_miss_removed_not_an_outage(backend, tmp_path, frozen, caplog, monkeypatch):
    from lib.cache import FailOpenFileBasedCache, FailOpenLocMemCache

    cache = (FailOpenFileBasedCache(str(tmp_path), {}) if backend == "file"
             else FailOpenLocMemCache(f"another-release-{tmp_path.name}", {}))
    cache.set("snapshot", Moving(1))
    cache.set("other", 2)
    monkeypatch.delattr(__import__(__name__, fromlist=["Moving"]), "Moving")  # the class is gone from here
    with caplog.at_level(logging.WARNING, logger="lib.cache"):
        assert cache.get("snapshot", "oletus") == "oletus"
        assert cache.get_many(["snapshot", "other"]) == {"other": 2}
    assert cache.get("other") == 2  # the backend is still asked: no breaker opened
    cache.set("snapshot", 3)
    assert cache.get("snapshot") == 3
    assert ["another release" in r.getMessage() for r in caplog.records] == [True]  # once, not per read
