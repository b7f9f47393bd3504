"""Prints how long ranking one 14-pair group (91 matches, deep ties) and its cross table takes.

Run: .venv/bin/python bench/standings_speed.py
"""

from __future__ import annotations

import statistics
import time
from itertools import combinations

from scoring.standings import MatchResult, cross_table, rank_group


def fourteen_pair_group():
    pairs = [f"p{i:02d}" for i in range(14)]
    results = []
    for i, j in combinations(range(14), 2):
        # every pair wins 6 or 7, all 3–2 and totals from a small set, so the tie-breaks run deep
        winner, loser = (i, j) if (j - i) % 2 else (j, i)
        a, b = pairs[winner], pairs[loser]
        results.append(MatchResult(a, b, a, {a: 3, b: 2}, {a: 40 + (i + j) % 3, b: 30}))
    return pairs, results


def main() -> None:
    pairs, results = fourteen_pair_group()
    times = []
    for _ in range(50):
        start = time.perf_counter()
        rank_group(pairs, results)
        cross_table(pairs, results)
        times.append(time.perf_counter() - start)
    print(f"rank_group + cross_table, 14 pairs, 91 matches: median {statistics.median(times) * 1000:.2f} ms, "
          f"best {min(times) * 1000:.2f} ms over {len(times)} runs")


if __name__ == "__main__":
    main()
