"""``python -m bench.live_load`` (or ``bench/live_load.py``): the options, and the order of the phases."""

from __future__ import annotations

import argparse

from . import __doc__ as ABOUT
from . import environment, measuring, report, servers
from .report import say


def parse_args():
    p = argparse.ArgumentParser(description=ABOUT.split("\n\n")[0])
    p.add_argument("--phones", type=int, default=2000)
    p.add_argument("--seconds", type=int, default=30)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--cache", choices=["file", "redis"], default="file")
    p.add_argument(
        "--nodes",
        type=int,
        default=1,
        choices=[1, 2],
        help="application servers (gunicorn masters) behind nginx; 2 forces --cache redis",
    )
    p.add_argument("--fresh", action="store_true", help="rebuild the live event")
    p.add_argument("--skip-cup", action="store_true", help="no cup season and no cup figures")
    p.add_argument("--connections", type=int, default=100)
    p.add_argument("--ref-seconds", type=int, default=8)
    p.add_argument(
        "--py-spy",
        metavar="PATH",
        help="record the gunicorn workers with this py-spy during the main load and print where their time went",
    )
    p.add_argument(
        "--wait-quiet",
        type=int,
        default=0,
        metavar="S",
        help="wait up to S seconds for other processes to leave the cores idle before measuring",
    )
    p.add_argument(
        "--front",
        choices=["nginx", "none"],
        default="nginx",
        help="the main load through nginx (default, as deployed) or straight to gunicorn",
    )
    return p.parse_args()


def main() -> None:
    args = parse_args()
    servers.settle(args)
    scene = environment.prepare(args)
    servers.start_servers(scene)
    try:
        in_this_process(scene)
        first_whole, group_etag = measuring.first_load(scene)
        report.first_load(first_whole)
        report.full_speed(*measuring.full_speed(scene, group_etag))
        report.once_cached(*measuring.once_cached(scene))
        run = measuring.main_load(scene)
        under_load(run)
        report.summary(args, len(run.phones))
    finally:
        servers.stop_servers(scene)
        report.write_result()


def in_this_process(scene) -> None:
    """The snapshot, query counts and the cost of a poll, one request at a time in this process."""
    say()
    say("== The snapshot from scratch (readmodel.build, in this process) ==")
    report.snapshot(measuring.measure_snapshot(scene.event.pk))
    say()
    say("== Queries per request (Django's test client in this process, same database and cache) ==")
    report.queries(measuring.query_counts(scene.slug, scene.group, scene.match_id))
    say()
    say(
        "== Cost of a poll, one request at a time (test client in this process; gunicorn's own part not included) =="
    )
    report.poll_costs(measuring.cost_breakdown(scene.slug, scene.group))
    say()
    say("== After a change (a new results version), one request at a time in this process, median of 5 ==")
    report.change_costs(
        measuring.change_costs(scene.event.pk, scene.slug, scene.group, scene.first_pair, scene.match_id)
    )


def under_load(run) -> None:
    """The main load's figures: the phones', the workers' time (py-spy), the referee's, the probes'."""
    report.main_load(run)
    if run.profilers:
        report.profile(measuring.profile_summary(run.profilers))
    report.referee(run.referee)
    report.staleness(measuring.staleness(run.referee.saves, run.probes), run.probes)
    report.content(measuring.check_answers([a for p in run.probes + run.checkers for a in p.answers]))
    if run.referee.save_starts and run.samples:
        report.since_save(measuring.latency_since_save(run.referee.save_starts, run.samples))


if __name__ == "__main__":
    main()
