"""The shared cache's counters (``lib.caching.counters`` and ``bump``, issue #28.5: the cup reach's
refinement counter, which goes into the cup key), and ``lib.env.env_int`` (its setting)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured

from lib import caching
from lib.env import env_int


def test_a_counter_is_0_until_bumped_then_counts():
    assert caching.counters(["c:a", "c:b"]) == {"c:a": 0, "c:b": 0}
    caching.bump("c:a")
    caching.bump("c:a")
    caching.bump("c:b")
    assert caching.counters(["c:a", "c:b"]) == {"c:a": 2, "c:b": 1}


def test_a_counter_is_read_from_the_shared_cache_never_a_copy_of_this_process():
    caching.bump("c:x")
    assert caching.counters(["c:x"]) == {"c:x": 1}
    cache.incr("c:x")  # another process bumps it
    assert caching.counters(["c:x"]) == {"c:x": 2}


def test_env_int_reads_a_whole_number_within_its_range(monkeypatch):
    monkeypatch.delenv("TUPPI_X", raising=False)
    assert env_int("TUPPI_X", default=7, maximum=10) == 7
    monkeypatch.setenv("TUPPI_X", " 0 ")
    assert env_int("TUPPI_X", default=7, maximum=10) == 0
    for wrong in ("11", "-1", "2.5", "paljon"):
        monkeypatch.setenv("TUPPI_X", wrong)
        with pytest.raises(ImproperlyConfigured, match="TUPPI_X"):
            env_int("TUPPI_X", default=7, maximum=10)
