"""Prints how long scoring.prospects.group_prospects takes on 9-pair groups with 8 open matches (issue #20),
on a few larger groups, and, as a reference, the brute-force enumeration of tests/scoring/test_prospects.py
on a small group. Prints figures only (wall clock: other load on the machine shows in them).

Run: .venv/bin/python bench/prospects_speed.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.prospects import group_prospects  # noqa: E402
from scoring.standings import MatchResult  # noqa: E402

SPLITS = {5: 0, 4: 1, 3: 2}


def random_group(seed: int, n: int = 9, open_count: int = 8, close: bool = False):
    """A group of ``n`` pairs, all matches played but ``open_count``; ``close``: only 3–2 results and few
    distinct totals, so that ties on match points and totals are frequent (the slow end)."""
    rnd = random.Random(seed)
    pairs = [f"p{i}" for i in range(n)]
    matches = list(combinations(pairs, 2))
    rnd.shuffle(matches)
    opens, finished = matches[:open_count], []
    for a, b in matches[open_count:]:
        w, lo = (a, b) if rnd.random() < 0.5 else (b, a)
        points = 3 if close else rnd.choice([3, 3, 4, 5])
        lose_total = rnd.choice([0, 4]) if close else rnd.randrange(0, 60, 4)
        win_total = lose_total + (4 if close else rnd.randrange(4, 60, 4))
        finished.append(MatchResult(w, lo, w, {w: points, lo: SPLITS[points]}, {w: win_total, lo: lose_total}))
    return pairs, finished, opens


def time_it(pairs, finished, opens, runs: int = 3) -> float:
    """The best of ``runs`` wall-clock times of one group_prospects call, in seconds."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        group_prospects(pairs, finished, opens)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print("group_prospects, 9 pairs, 8 open matches (best of 3 runs per group):")
    for label, close in (("random results", False), ("all 3-2, near-equal totals", True)):
        times = [time_it(*random_group(seed, close=close)) for seed in range(1, 41)]
        shown = ", ".join(f"{t * 1000:.1f}" for t in times[:8])
        ranked = sorted(times)
        print(f"  {label}: seeds 1-8: {shown} ms")
        print(f"  {label}: 40 groups: median {statistics.median(times) * 1000:.1f} ms, "
              f"90th percentile {ranked[35] * 1000:.1f} ms, slowest {ranked[-1] * 1000:.1f} ms")

    print("larger groups (one-stage events of up to 15 pairs), one run each:")
    for n, open_count in ((12, 15), (14, 20)):
        times = [time_it(*random_group(seed, n=n, open_count=open_count), runs=1) for seed in (1, 2, 3)]
        print(f"  {n} pairs, {open_count} open matches: " + ", ".join(f"{t * 1000:.0f}" for t in times) + " ms")

    from tests.scoring.test_prospects import brute_force

    pairs, finished, opens = random_group(3, n=5, open_count=4, close=True)
    start = time.perf_counter()
    brute_force(pairs, finished, opens)
    brute = time.perf_counter() - start
    print(f"reference, 5 pairs, 4 open matches: brute force {brute * 1000:.0f} ms, "
          f"group_prospects {time_it(pairs, finished, opens) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
