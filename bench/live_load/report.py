"""The report of the live-load bench: each line said is printed and kept (``REPORT``), every figure goes to
``RESULT``; the figures beside their targets (met / NOT MET), the summary, and ``live_load_result.json``."""

from __future__ import annotations

import json
import statistics

from .common import (
    CHECK_SECONDS,
    FIRST_LOAD_LABEL,
    OUT,
    TARGET_304_SHARE,
    TARGET_API_MS,
    TARGET_CACHED_SHARE,
    TARGET_CUP_MS,
    TARGET_FIRST_LOAD_X,
    TARGET_P99_MS,
    TARGET_SNAPSHOT_MS,
    TARGET_STALE,
    TARGET_STALENESS_S,
    TIMEOUT,
    load_average,
    pct,
)

REPORT: list[str] = []
RESULT: dict = {}


def say(text: str = "") -> None:
    print(text, flush=True)
    REPORT.append(text)


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def write_result() -> None:
    (OUT / "live_load_result.json").write_text(
        json.dumps({"report": REPORT, **RESULT}, indent=1, default=str)
    )
    say(f"(gunicorn stopped; figures in {OUT / 'live_load_result.json'})")


def wrk_line(label: str, r: dict) -> str:
    errs = r["errors"]
    duration = r["duration_us"] / 1e6
    others = r["cpu"]["other processes"] / duration
    return (
        f"  {label:44} {r['rps']:8.0f} req/s   median {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms"
        f"   errors {errs}"
        + (
            f" (connect {r['connect']}, read {r['read']}, write {r['write']}, timeout"
            f" {r['timeout']}, non-2xx/3xx {r['nbad']})"
            if errs
            else ""
        )
        + (f"   [other processes busy {others:.2f} cores]" if others >= 0.1 else "")
    )


def server_ms(r: dict) -> float:
    """CPU milliseconds per answer of the server side (gunicorn workers, PostgreSQL, nginx): unlike
    requests/s, hardly moved by other processes taking the cores."""
    cpu = r["cpu"]
    used = cpu["gunicorn workers"] + cpu["postgres (this database)"] + cpu["nginx"]
    return used / max(1, r["requests"]) * 1000


# --- one request at a time, in this process -------------------------------------------------------------


def snapshot(s: dict) -> None:
    RESULT["snapshot"] = s
    say(
        f"  build: median {s['median_ms']:.0f} ms (best {s['min_ms']:.0f}) of 5, {s['queries']} queries, "
        f"{s['matches']} matches   target <= {TARGET_SNAPSHOT_MS} ms: {verdict(s['median_ms'] <= TARGET_SNAPSHOT_MS)}"
    )
    say(
        f"  pickled {s['pickle_bytes'] / 1024:.0f} KiB ({s['zlib_bytes'] / 1024:.0f} KiB zlib, the file cache "
        f"compresses in {s['compress_ms']:.0f} ms); unpickling {s['unpickle_ms']:.1f} ms (what another worker pays)"
    )


def queries(rows: list[tuple[str, int, int]]) -> None:
    RESULT["queries"] = rows
    for label, status, n in rows:
        say(f"  {label:44} {status}  {n} queries")


def poll_costs(costs: list[tuple[str, float]]) -> None:
    RESULT["costs"] = costs
    for label, ms in costs:
        say(f"  {label:56} {ms:6.2f} ms")
    say(
        "  (under gunicorn every request that touches the database also pays the health check: Django runs it"
    )
    say(
        "   at the first query of each request when CONN_HEALTH_CHECKS is on, and tuppiliitto/env.py turns it on)"
    )


def change_costs(changes: list[tuple[str, float]]) -> None:
    RESULT["change_costs"] = changes
    for label, ms in changes:
        say(f"  {label:56} {ms:6.1f} ms")


def first_load(seconds: float) -> None:
    say()
    say(
        f"The event page's very first whole-page load, the snapshot cached (its blocks rendered): "
        f"{seconds * 1000:.0f} ms"
    )


# --- wrk at full speed, and one connection ---------------------------------------------------------------


def full_speed(candidates: list[tuple], trivial: dict, measured: dict[str, dict]) -> None:
    say(wrk_line("/terveys/ (reference: no database)", trivial))
    say(f"    slices: {', '.join(f'{x:.0f}' for x in trivial['slices_rps'])} req/s")
    say(f"    CPU per answer (gunicorn workers + PostgreSQL): {server_ms(trivial):.2f} ms")
    cached, r304 = {}, None
    for label, _path, _headers, target in candidates:
        r = measured[label]
        say(wrk_line(label, r))
        say(
            f"    = {r['share_of_trivial']:.2f} of /terveys/ in the slices beside it ({r['trivial_rps']:.0f} req/s; "
            f"{1 / r['share_of_trivial']:.1f}x its cost); answers 200 {r['n2xx']}, 304 {r['n304']}   "
            f"target >= {target:.2f}: {verdict(r['share_of_trivial'] >= target)}"
        )
        say(
            f"    CPU per answer {server_ms(r):.2f} ms = {server_ms(trivial) / server_ms(r):.2f} of /terveys/'s "
            "throughput by CPU (a figure other processes hardly move)"
        )
        if label.endswith("(304)"):
            r304 = r
        else:
            cached[label] = r
    RESULT["full_speed"] = {"trivial": trivial, "304": r304, "cached": cached}


def once_cached(api: dict, api_bytes: int, cup: dict[str, dict], firsts: dict[str, tuple]) -> None:
    say()
    say("== Latency once cached, one connection (wrk -t1 -c1 -d4s) ==")
    say(
        wrk_line("JSON API", api)
        + f"   target median <= {TARGET_API_MS} ms: {verdict(api['p50_ms'] <= TARGET_API_MS)}"
    )
    say(f"    ({api_bytes / 1024:.0f} KiB of JSON)")
    RESULT["api_latency"] = api
    for name, r in cup.items():
        path, status, size, elapsed = firsts[name]
        say(
            wrk_line(f"cup {path}", r) + f"   target median <= {TARGET_CUP_MS} ms: "
            f"{verdict(r['p50_ms'] <= TARGET_CUP_MS)}"
        )
        say(
            f"    first request {elapsed * 1000:.0f} ms (status {status}, {size / 1024:.0f} KiB)"
            + (": computes the season's cup" if name == "players" else "")
        )
    if firsts:
        RESULT["cup"] = cup


# --- the main load ------------------------------------------------------------------------------------------


def main_load(run) -> None:
    m, rate = run.figures, run.rate
    RESULT["main"] = m
    say(wrk_line(f"{len(run.phones)} phones", m))
    total_answers = m["n2xx"] + m["n304"] + m["n3xx"] + m["nbad"]
    share304 = m["n304"] / total_answers if total_answers else 0.0
    say(
        f"    requests/s {m['rps']:.0f} (target rate {rate:.0f}); latency median {m['p50_ms']:.1f} ms, "
        f"p95 {m['p95_ms']:.1f} ms, p99 {m['p99_ms']:.1f} ms, max {m['max_ms']:.0f} ms"
    )
    say(
        f"    answers: 200 {m['n2xx']}, 304 {m['n304']} ({share304:.1%} of all), other 3xx {m['n3xx']}, "
        f"non-2xx/3xx {m['nbad']}; socket errors: connect {m['connect']}, read {m['read']}, write {m['write']}, "
        f"timeouts (> {TIMEOUT}) {m['timeout']}"
    )
    by_page(list(run.mix), run.samples)
    cpu = run.cpu
    RESULT["main_cpu"] = cpu
    answers = max(1, m["requests"])
    per = {k: cpu[k] / answers * 1000 for k in ("gunicorn workers", "postgres (this database)", "nginx")}
    need = sum(per.values()) * rate / 1000
    RESULT["main_cpu_per_answer_ms"] = per
    say(
        f"    CPU seconds in {run.wall:.0f} s (2 cores = {2 * run.wall:.0f}): "
        + ", ".join(f"{k} {v:.1f}" for k, v in cpu.items())
    )
    say(
        "    CPU per answer: "
        + ", ".join(f"{k} {v:.2f} ms" for k, v in per.items())
        + f"; at {rate:.0f} requests/s that is {need:.2f} cores of the 2 (wrk and the referee not counted)"
    )
    say(
        f"    target p99 < {TARGET_P99_MS} ms: {verdict(m['p99_ms'] < TARGET_P99_MS)}; "
        f"target 0 errors: {verdict(m['errors'] == 0)}"
    )


def by_page(kinds: list[str], samples: list) -> None:
    say("    by page (latency from request() to response() in wrk's Lua, ms):")
    by_kind: dict[tuple[str, int], list[float]] = {}
    for k, status, ms, _asked in samples:
        by_kind.setdefault((kinds[k], status), []).append(ms)
    RESULT["main_by_page"] = {}
    for (name, status), values in sorted(by_kind.items()):
        RESULT["main_by_page"][f"{name} {status}"] = {
            "n": len(values),
            "p50": pct(values, 50),
            "p95": pct(values, 95),
            "p99": pct(values, 99),
        }
        say(
            f"      {name:9} {status}  {len(values):6} answers   median {pct(values, 50):7.1f}   p95 "
            f"{pct(values, 95):7.1f}   p99 {pct(values, 99):7.1f}   max {max(values):7.0f}"
        )


def profile(shares: list[tuple[str, float]]) -> None:
    RESULT["profile"] = shares
    say(
        f"    where the gunicorn workers' time went (py-spy, wall time incl. idle; raw stacks in "
        f"{OUT}/live_load_worker*.pyspy.txt):"
    )
    for label, share in shares:
        if share >= 0.001:
            say(f"      {share:6.1%}  {label}")


def referee(ref) -> None:
    saves = ref.saves
    RESULT["referee"] = {
        "saves": len(saves),
        "post_ms": ref.post_ms,
        "get_ms": ref.get_ms,
        "refused": ref.refused,
        "errors": ref.errors,
    }
    if ref.post_ms:
        say(
            f"  referee: {len(saves)} deals saved in {ref.matches_done + (0 if ref.errors else 0)} "
            f"match(es); save (POST) median {statistics.median(ref.post_ms):.0f} ms, p95 "
            f"{pct(ref.post_ms, 95):.0f} ms, max {max(ref.post_ms):.0f} ms; the page after a save (GET) "
            f"median {statistics.median(ref.get_ms):.0f} ms"
        )
    if ref.refused or ref.errors:
        say(f"  referee problems: refused {ref.refused[:3]}, errors {ref.errors[:3]}")


def staleness(st: dict, probes: list) -> None:
    RESULT["staleness"] = {k: v for k, v in st.items()}
    polls = sum(len(p.polls) for p in probes)
    perrors = sum(p.errors for p in probes)
    if not st["delays"]:
        say("  staleness: no save was seen by the probes")
        return
    worst = max(st["delays"])
    say(
        f"  staleness (save answered -> a probe phone's poll shows it; {len(probes)} probes on the group "
        f"and event pages, {polls} polls, {perrors} errors):"
    )
    say(
        f"    per phone: median {statistics.median(st['delays']):.2f} s, p95 {pct(st['delays'], 95):.2f} s, "
        f"max {worst:.2f} s over {len(st['delays'])} (save, phone) pairs; first of the 4 phones: median "
        f"{statistics.median(st['first_any']):.2f} s, max {max(st['first_any']):.2f} s"
    )
    say(
        f"    polls sent after a save had answered that still showed an older version: {st['stale']}; "
        f"(save, phone) pairs not seen before the end: {st['unseen']}"
    )
    say(f"    target at most {TARGET_STALENESS_S:.0f} s: {verdict(worst <= TARGET_STALENESS_S)}")


def content(found: dict) -> None:
    RESULT["content_check"] = found
    for line in check_lines(found):
        say(line)
    say(f"  ({load_average()})")


def check_lines(found: dict) -> list[str]:
    servers = ", ".join(f"{k} {v}" for k, v in sorted(found["servers"].items()))
    return [
        f"  content of every probe answer (the 4 probes and 4 checkers polling every {CHECK_SECONDS} s): "
        f"{found['answers']} answers ({found['bodies']} with a body) of {found['versions']} (page, version) pairs; "
        f"by server: {servers}",
        f"    stale answers (content not of the version its ETag names): {found['stale']} "
        f"({', '.join(f'{k} {v}' for k, v in found['bad'].items())})   target {TARGET_STALE}: "
        f"{'met' if found['stale'] == TARGET_STALE else 'NOT MET'}",
    ]


def since_save(by_bucket: dict[tuple[float, float], list[float]]) -> None:
    say(
        "  latency by time since the last save was sent (a new results version: the first request computes the"
    )
    say(
        "  snapshot, requests meanwhile wait for it; then each live part is rendered once for the new version):"
    )
    RESULT["latency_since_save"] = {
        f"{a}-{b}": {"n": len(v), "p50": pct(v, 50), "p99": pct(v, 99)} for (a, b), v in by_bucket.items()
    }
    for (a, b), values in by_bucket.items():
        if values:
            span = f"{a:.2f}-{b:.2f} s" if b < 99 else f">= {a:.2f} s"
            say(
                f"      {span:12} {len(values):6} requests   median {pct(values, 50):7.1f} ms   p95 "
                f"{pct(values, 95):7.1f}   p99 {pct(values, 99):7.1f}"
            )


# --- the summary ----------------------------------------------------------------------------------------


def summary(args, phones: int) -> None:
    """Every target, its figure, met or NOT MET (from ``RESULT``)."""
    say()
    say("== Summary ==")
    rows = (
        speed_rows()
        + load_rows(phones)
        + stale_rows(RESULT["content_check"], RESULT["full_speed"]["cached"].get(FIRST_LOAD_LABEL))
    )
    for label, value, ok in rows:
        say(f"  {label:48} {value:>24}   {verdict(ok)}")
    say(
        f"  ({args.nodes} application server(s), {args.workers} workers each, cache {args.cache}; {load_average()})"
    )


def speed_rows() -> list[tuple[str, str, bool]]:
    s, r304, api = RESULT["snapshot"], RESULT["full_speed"]["304"], RESULT["api_latency"]
    rows = [
        (
            f"snapshot from scratch <= {TARGET_SNAPSHOT_MS} ms",
            f"{s['median_ms']:.0f} ms",
            s["median_ms"] <= TARGET_SNAPSHOT_MS,
        ),
        (
            "304 poll >= 2/3 of /terveys/ req/s",
            f"{r304['share_of_trivial']:.2f} ({r304['rps']:.0f} vs {r304['trivial_rps']:.0f})",
            r304["share_of_trivial"] >= TARGET_304_SHARE,
        ),
    ]
    for label, r in RESULT["full_speed"]["cached"].items():
        if label == FIRST_LOAD_LABEL:
            continue  # its own row below
        rows.append(
            (
                f"{label} >= 1/5 of /terveys/",
                f"{r['share_of_trivial']:.2f} ({r['rps']:.0f} req/s)",
                r["share_of_trivial"] >= TARGET_CACHED_SHARE,
            )
        )
    rows.append(
        (
            f"JSON API median once cached <= {TARGET_API_MS} ms",
            f"{api['p50_ms']:.1f} ms",
            api["p50_ms"] <= TARGET_API_MS,
        )
    )
    for name, r in RESULT.get("cup", {}).items():
        rows.append(
            (
                f"cup {name} page median <= {TARGET_CUP_MS} ms",
                f"{r['p50_ms']:.1f} ms",
                r["p50_ms"] <= TARGET_CUP_MS,
            )
        )
    return rows


def load_rows(phones: int) -> list[tuple[str, str, bool]]:
    m, st = RESULT["main"], RESULT["staleness"]
    rows = [
        (f"{phones} phones: p99 < {TARGET_P99_MS} ms", f"{m['p99_ms']:.0f} ms", m["p99_ms"] < TARGET_P99_MS),
        (f"{phones} phones: 0 errors", str(m["errors"]), m["errors"] == 0),
    ]
    if st["delays"]:
        rows.append(
            (
                f"staleness <= {TARGET_STALENESS_S:.0f} s",
                f"{max(st['delays']):.2f} s",
                max(st["delays"]) <= TARGET_STALENESS_S,
            )
        )
    return rows


def stale_rows(found: dict, first_load: dict | None) -> list[tuple[str, str, bool]]:
    rows = [
        (
            f"stale answers (content vs ETag) = {TARGET_STALE}",
            str(found["stale"]),
            found["stale"] == TARGET_STALE,
        )
    ]
    if first_load is not None:
        cost = 1 / first_load["share_of_trivial"]
        rows.append(
            (
                f"event page first load <= {TARGET_FIRST_LOAD_X:.0f}x /terveys/",
                f"{cost:.1f}x ({first_load['rps']:.0f} req/s)",
                cost <= TARGET_FIRST_LOAD_X,
            )
        )
    return rows
