"""The suite's clock (tests/clock.py): every test sees the same date whatever day the suite runs on, so
no test depends on today's date (issue: `make test` failed on the first day of every month)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.clock import DEFAULT_START


def test_every_test_starts_on_the_fixed_date():
    assert timezone.localdate() == DEFAULT_START.date()
    assert abs(timezone.now() - DEFAULT_START) < dt.timedelta(minutes=5)


@pytest.mark.clock_at("2027-02-28 23:59")
def test_a_marker_moves_the_date():
    assert timezone.localdate() == dt.date(2027, 2, 28)


def test_the_clock_ticks_and_can_be_set(clock, make_event):
    clock.set("2026-12-01 09:00")
    first = timezone.now()
    assert timezone.localdate() == dt.date(2026, 12, 1) and timezone.now() >= first
    event = make_event(starts_on=dt.date(2026, 12, 1))
    assert event.created_at.date() == dt.date(2026, 12, 1) and event.status == "live"
    clock.set(dt.date(2026, 12, 31))
    assert event.status == "finished"  # its dates are past: a derived status follows the clock
