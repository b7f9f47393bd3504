"""One coherence run: a world built with a seed, ``n`` operations, every public answer checked after
each (``observe.Watcher.check``); a stale answer fails with the seed, the operations so far, the address
and a diff."""

from __future__ import annotations

import datetime as dt
import time

from tests.clock import HELSINKI
from tests.coherence import observe, operations
from tests.coherence.world import build

START = dt.datetime(2026, 12, 12, 11, 30, tzinfo=HELSINKI)  # the live event's Saturday morning
TICK = dt.timedelta(seconds=37)  # between two operations


class FrozenClock:
    """``timezone.now`` for a coherence run: it moves only between operations, never while a page is
    fetched, so that a page following the clock answers the same to the phone and afresh."""

    def __init__(self, start: dt.datetime = START) -> None:
        self.moment = start.astimezone(dt.UTC)

    def now(self) -> dt.datetime:
        return self.moment

    def tick(self) -> None:
        self.moment += TICK


def run(seed: int, n: int, clock: FrozenClock, *, kinds=None, **watching) -> dict:
    """Build the world, watch it (``watching``: ``observe.Watcher``'s options), apply ``n`` operations
    checking every answer after each; returns the count of each kind applied, the requests made and the
    seconds taken (the test prints them)."""
    began = time.monotonic()
    world = build(seed)
    watcher = observe.Watcher(**watching)
    watcher.watch(world)
    watcher.check(world)
    applied: dict[str, int] = {}
    for kind, _done in operations.sequence(world, n, kinds or operations.KINDS):
        applied[kind] = applied.get(kind, 0) + 1
        try:
            watcher.check(world)
        except observe.Stale as stale:
            steps = "\n".join(world.done)
            raise AssertionError(
                f"seed {seed}: a stale answer after step {len(world.done)} ({kind})\n{stale}\n"
                f"operations so far:\n{steps}"
            ) from None
        clock.tick()
    return {
        "applied": applied,
        "requests": watcher.fetched,
        "seconds": time.monotonic() - began,
        "watched": len(watcher.seen),
    }
