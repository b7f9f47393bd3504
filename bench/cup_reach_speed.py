"""Prints how long scoring.cup_reach.reach takes for a season of 300 players with 3 legs left
(issue #28.5: target 50 ms), beside rank_players on the same season as a reference, and how many rows
got an exact worst position (the rest carry a safe bound). Wall clock: other load shows in the figures.

The figure is the median of 11 warm runs (the slowest, the mean and the process's first run, which pays
for importing HiGHS and the tables kept per process, printed beside it).

Run: .venv/bin/python bench/cup_reach_speed.py
     .venv/bin/python bench/cup_reach_speed.py --seeds 20  (also seasons 1..20 of the same builder: each
     one's time, the median of three, beside rank_players, and the rows left without an exact worst;
     the same season's fixed pairs, one run)

It also prints, one run each, the fixed pairs of three club-sized seasons (80, 64 and 40 players in events of
16 pairs: many pairs share a player) and the players with one to three legs left.

     .venv/bin/python bench/cup_reach_speed.py --clubs 6  (seasons 1..6 of five club sizes, 40 to 80
     players in events of 16 pairs: the fixed pairs' reach, its time and the pair rows exact)
     .venv/bin/python bench/cup_reach_speed.py --dense 2  (the same for denser clubs: 24 players in 6
     events of 12 pairs, 32 players in 8 events of 16 pairs)
     ... --clubs N --exact 1000 or --dense N --exact 1000  (also the background refinement of cup/reach.py
     with 1,000 branch-and-cut nodes a row where rows are left a bound: its time and exact rows)
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.cup import CupEvent, PairPlacing, rank_pairs, rank_players  # noqa: E402
from scoring.cup_reach import reach  # noqa: E402

TARGET_MS = 50.0
WARM_RUNS = 11


def season(seed: int, players: int = 300, played: int = 6):
    """``played`` events of 48 pairs drawn from ``players`` players (places 1..48, 17 on earn nothing)."""
    rnd = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    events = []
    for e in range(played):
        field = rnd.sample(ids, 96)
        placings = tuple(
            PairPlacing((field[2 * i], field[2 * i + 1]), i + 1, rnd.randrange(8)) for i in range(48)
        )
        events.append(CupEvent(f"e{e}", 1, placings))
    return events


def run_times(fn, runs: int) -> tuple[list[float], object]:
    """Each run's milliseconds and the last run's result."""
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t) * 1000)
    return times, out


def timed(fn, runs: int = 5) -> tuple[float, object]:
    times, out = run_times(fn, runs)
    return statistics.median(times), out


def main() -> None:
    events = season(1)
    weights = [1, 1, 1]
    ms_rank, rows = timed(lambda: rank_players(events))
    # the first season a process computes pays for importing HiGHS and the tables kept per process:
    # printed apart; the figure is the median of warm runs (a web worker computes many seasons), with
    # the slowest (a garbage collection falling in it) and the mean beside it
    (ms_cold,), _ = run_times(lambda: reach(rows, weights), 1)
    times, got = run_times(lambda: reach(rows, weights), WARM_RUNS)
    ms_reach = statistics.median(times)
    exact = sum(1 for r in got if r.worst_exact)
    print(f"players: {len(rows)}, legs left: {len(weights)}")
    print(f"rank_players (reference): {ms_rank:8.1f} ms")
    print(f"reach, players:           {ms_reach:8.1f} ms  exact worst: {exact}/{len(got)}")
    print(
        f"  (median of {WARM_RUNS} warm runs; fastest {min(times):.1f}, slowest {max(times):.1f},"
        f" mean {statistics.mean(times):.1f} ms; the process's first run {ms_cold:.1f} ms)"
    )
    print(f"target {TARGET_MS:.0f} ms: {'met' if ms_reach <= TARGET_MS else 'NOT MET'} (time)")
    whole = exact == len(got) and ms_reach <= TARGET_MS
    print(f"target {TARGET_MS:.0f} ms with every worst exact: {'met' if whole else 'NOT MET'}")
    pair_rows = rank_pairs(events)
    ms_pairs, got_p = timed(lambda: reach(pair_rows, weights, pairs=True), runs=1)
    exact_p = sum(1 for r in got_p if r.worst_exact)
    print(f"reach, fixed pairs ({len(pair_rows)}): {ms_pairs:8.1f} ms  exact worst: {exact_p}/{len(got_p)}")
    for n_players, played, n_pairs in ((80, 3, 16), (64, 2, 16), (40, 3, 16)):
        pairs_small = rank_pairs(club_season(n_players, played, n_pairs))
        ms, got = timed(lambda r=pairs_small: reach(r, weights, pairs=True), runs=1)
        exact = sum(1 for r in got if r.worst_exact)
        print(
            f"reach, fixed pairs of {n_players} players in {played} events of {n_pairs} pairs,"
            f" 3 legs left: {ms:8.1f} ms  exact worst: {exact}/{len(got)}"
        )
    for n_players, legs in ((300, 1), (40, 1), (40, 2), (40, 3)):
        small = rank_players(
            season(2, players=n_players, played=4) if n_players > 96 else small_season(n_players)
        )
        ms, got = timed(lambda s=small, k=legs: reach(s, [1] * k), runs=1)
        exact = sum(1 for r in got if r.worst_exact)
        print(
            f"reach, {len(small)} players, {legs} leg(s) left: {ms:8.1f} ms  exact worst: {exact}/{len(got)}"
        )
    # legs of different weights (the summer event, a half, among the legs left): not the pooled model but
    # the place-vector search within its budgets, so the worst is mostly a bound
    half = Decimal("0.5")
    for legs in ([1, 1, half], [1, half]):
        for kind, entrants in (("players", rows), ("fixed pairs", pair_rows)):
            ms, got = timed(lambda e=entrants, w=legs, p=kind != "players": reach(e, w, pairs=p), runs=1)
            exact = sum(1 for r in got if r.worst_exact)
            print(
                f"reach, {kind} ({len(entrants)}), legs {', '.join(str(w) for w in legs)}: {ms:8.1f} ms"
                f"  exact worst: {exact}/{len(got)}"
            )


def seeds(count: int) -> None:
    """Seasons 1..count of :func:`season`: reach's time (median of three) and ratio to rank_players."""
    ratios, total_open, total_pairs_open = [], 0, 0
    for seed in range(1, count + 1):
        events = season(seed)
        ms_rank, rows = timed(lambda e=events: rank_players(e), runs=3)
        reach(rows, [1, 1, 1])  # the first season a process computes pays for the tables and HiGHS
        ms, got = timed(lambda r=rows: reach(r, [1, 1, 1]), runs=3)
        left_open = sum(1 for r in got if not r.worst_exact)
        total_open += left_open
        ratios.append(ms / ms_rank)
        pair_rows = rank_pairs(events)
        ms_p, got_p = timed(lambda r=pair_rows: reach(r, [1, 1, 1], pairs=True), runs=1)
        pairs_open = sum(1 for r in got_p if not r.worst_exact)
        total_pairs_open += pairs_open
        print(
            f"seed {seed:2d}: {len(rows)} players, reach {ms:6.1f} ms, rank_players {ms_rank:4.1f} ms,"
            f" ratio {ms / ms_rank:5.1f}, worst not exact: {left_open};"
            f" {len(pair_rows)} pairs {ms_p:6.1f} ms, not exact: {pairs_open}"
        )
    print(
        f"seeds 1-{count}: ratio median {statistics.median(ratios):.1f}"
        f" (min {min(ratios):.1f}, max {max(ratios):.1f}), rows not exact: {total_open},"
        f" pair rows not exact: {total_pairs_open}"
    )


CLUB_SIZES = ((40, 3, 16), (48, 3, 16), (64, 3, 16), (64, 2, 16), (80, 3, 16))  # players, events, pairs
# denser: fewer players play more events, so a player has more partners (more fixed pairs, more cycles)
DENSE_SIZES = ((24, 6, 12), (32, 8, 16))


def clubs(count: int, sizes=CLUB_SIZES, exact_nodes: int = 0) -> None:
    """Club-sized seasons 1..count of :func:`club_season` in each of ``sizes``, 3 legs left: the fixed
    pairs' reach, one run each: its time and the pair rows with an exact worst, per season and in all.
    ``exact_nodes``: also the background refinement's computation (``cup/reach.py``) where rows are left a
    bound, its time and exact rows beside (the request-time figures are the reference)."""
    total_ms, exact, rows, refined_ms, refined = 0.0, 0, 0, 0.0, 0
    for seed in range(1, count + 1):
        for n_players, played, n_pairs in sizes:
            pair_rows = rank_pairs(club_season(n_players, played, n_pairs, seed=seed))
            ms, got = timed(lambda r=pair_rows: reach(r, [1, 1, 1], pairs=True), runs=1)
            total_ms += ms
            exact += sum(1 for r in got if r.worst_exact)
            rows += len(got)
            line = (
                f"club season {seed:2d}, {n_players} players, {played} events of {n_pairs} pairs:"
                f" {ms:7.1f} ms, exact worst {sum(1 for r in got if r.worst_exact)}/{len(got)}"
            )
            if exact_nodes and not all(r.worst_exact for r in got):
                run = lambda r=pair_rows: reach(r, [1, 1, 1], pairs=True, exact_nodes=exact_nodes)  # noqa: E731
                ms, got = timed(run, runs=1)
                line += f"; refined {ms / 1000:6.1f} s, exact worst {sum(1 for r in got if r.worst_exact)}/{len(got)}"
                refined_ms += ms
            refined += sum(1 for r in got if r.worst_exact)
            print(line, flush=True)
    seasons = count * len(sizes)
    print(f"{seasons} club seasons: {total_ms / seasons:.0f} ms a season, pair rows exact: {exact}/{rows}")
    if exact_nodes:
        print(
            f"refined ({exact_nodes} nodes a row): {refined_ms / seasons / 1000:.1f} s a season in the"
            f" background, pair rows exact: {refined}/{rows}"
        )


def club_season(players: int, played: int, pairs: int, seed: int = 1):
    """``played`` events of ``pairs`` pairs drawn from ``players`` players: fewer players than the benchmark's
    season, so more pairs share a player (a club's cup)."""
    rnd = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    events = []
    for e in range(played):
        field = rnd.sample(ids, 2 * pairs)
        placings = tuple(PairPlacing((field[2 * i], field[2 * i + 1]), i + 1, 0) for i in range(pairs))
        events.append(CupEvent(f"c{e}", 1, placings))
    return events


def small_season(players: int):
    """Four events of ``players // 2`` pairs among ``players`` players."""
    return club_season(players, 4, players // 2, seed=3)


if __name__ == "__main__":
    if "--seeds" in sys.argv:
        seeds(int(sys.argv[sys.argv.index("--seeds") + 1]))
    elif "--clubs" in sys.argv or "--dense" in sys.argv:
        dense = "--dense" in sys.argv
        count = int(sys.argv[sys.argv.index("--dense" if dense else "--clubs") + 1])
        nodes = int(sys.argv[sys.argv.index("--exact") + 1]) if "--exact" in sys.argv else 0
        clubs(count, DENSE_SIZES if dense else CLUB_SIZES, nodes)
    else:
        main()
