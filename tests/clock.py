"""A clock for tests: Django's ``timezone.now`` (and with it ``localdate``, ``auto_now`` fields, session
expiry and every page that tells "today") runs from a fixed moment instead of the machine's.

The clock ticks with real time from its start, so durations and time-outs behave as usual, but the date
a test sees never depends on the day the suite runs. ``tests/conftest.py`` starts every test on
``DEFAULT_START``; a test moves it with ``clock.set(...)`` or the ``clock_at`` marker.
"""

from __future__ import annotations

import datetime as dt
import time
from zoneinfo import ZoneInfo

HELSINKI = ZoneInfo("Europe/Helsinki")
# A Tuesday of season 2026–2027, the week before the test events' default weekend (12–13 December).
DEFAULT_START = dt.datetime(2026, 12, 8, 12, 0, tzinfo=HELSINKI)


class Clock:
    """``now()`` is ``start`` plus the real seconds elapsed since the clock was (re)set."""

    def __init__(self, start: dt.datetime = DEFAULT_START) -> None:
        self.set(start)

    def set(self, start: dt.datetime | dt.date | str) -> None:
        if isinstance(start, str):
            start = dt.datetime.fromisoformat(start)
        if not isinstance(start, dt.datetime):
            start = dt.datetime.combine(start, dt.time(12, 0))
        if start.tzinfo is None:
            start = start.replace(tzinfo=HELSINKI)
        self._start = start.astimezone(dt.UTC)
        self._t0 = time.monotonic()

    def now(self) -> dt.datetime:
        return self._start + dt.timedelta(seconds=time.monotonic() - self._t0)

    def today(self) -> dt.date:
        return self.now().astimezone(HELSINKI).date()
