"""``/terveys/valmis/``: the readiness check. JSON ``{"database": …, "cache": …}``, 200 while the database
answers (whatever the cache does), 503 when it does not; never cached. ``/terveys/`` stays the
process-alive check (``tests/tuppiliitto/test_health.py``)."""

from __future__ import annotations

import pytest
from django.db import OperationalError

import lib.cache
import tuppiliitto.health
from tests.lib.test_cache import redis_answers


def test_ready_when_the_database_and_the_cache_answer(client, db):
    response = client.get("/terveys/valmis/")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.json() == {"database": "ok", "cache": "ok"}
    assert "no-store" in response["Cache-Control"]
    assert client.post("/terveys/valmis/").status_code == 405


class DeadConnection:
    """What ``django.db.connection`` does when the database server is gone."""

    def cursor(self):
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')


def test_not_ready_without_the_database(client, db, monkeypatch):
    monkeypatch.setattr(tuppiliitto.health, "connection", DeadConnection())
    response = client.get("/terveys/valmis/")
    assert response.status_code == 503
    assert response.json() == {"database": "down", "cache": "ok"}
    assert "no-store" in response["Cache-Control"]
    assert client.get("/terveys/").status_code == 200  # the process itself is alive


def test_ready_with_the_cache_down_and_its_breaker_open(client, db, settings):
    """The check asks the backend itself, not the fail-open wrapper (which would answer a miss) and not
    the breaker (which would answer at once): down while it is down, ok as soon as it answers."""
    settings.CACHES = {"default": {"BACKEND": "lib.cache.FailOpenRedisCache", "LOCATION": "redis://127.0.0.1:1/0"}}
    lib.cache.forget_outages()
    response = client.get("/terveys/valmis/")
    assert response.status_code == 200 and response.json() == {"database": "ok", "cache": "down"}
    settings.CACHES = {"default": {"BACKEND": "lib.cache.FailOpenLocMemCache", "LOCATION": "ready-test"}}
    lib.cache.outage("FailOpenLocMemCache ready-test").until = float("inf")  # as after a failure
    assert client.get("/terveys/valmis/").json() == {"database": "ok", "cache": "ok"}
    lib.cache.forget_outages()


@pytest.mark.skipif(not redis_answers(), reason="no Redis at 127.0.0.1:6379")
def test_ready_with_a_live_redis(client, db, settings):
    settings.CACHES = {"default": {"BACKEND": "lib.cache.FailOpenRedisCache", "LOCATION": "redis://127.0.0.1:6379/13"}}
    assert client.get("/terveys/valmis/").json() == {"database": "ok", "cache": "ok"}
