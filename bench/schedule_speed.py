"""Prints how long drawing and scheduling a 128-pair event (16 groups of 8, many same-club pairs) takes.

Run: .venv/bin/python bench/schedule_speed.py
"""

from __future__ import annotations

import statistics
import time

from scoring.draw import draw_groups, group_names
from scoring.schedule import event_schedule


def main() -> None:
    ids = list(range(1, 129))
    clubs = {p: (p * 7) % 23 if p % 5 else None for p in ids}
    times = []
    for seed in range(20):
        start = time.perf_counter()
        groups = dict(zip(group_names(16), draw_groups(ids, seed, 16), strict=True))
        schedule = event_schedule(groups, clubs)
        times.append(time.perf_counter() - start)
    assert len(schedule) == 16 * 28
    print(f"draw + schedule, 128 pairs in 16 groups: median {statistics.median(times) * 1000:.1f} ms, "
          f"worst {max(times) * 1000:.1f} ms over {len(times)} seeds")


if __name__ == "__main__":
    main()
