"""The load of the live-load bench: wrk and its Lua scripts (a fixed request at full speed, or the phones
each polling their page every 5 s with the ETag of their last answer), the phones' mix of pages, and the
CPU seconds each kind of process spends meanwhile."""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
from pathlib import Path

from .common import DB_NAME, OUT, POLL_SECONDS, TIMEOUT, WORKERS
from .environment import machine_busy

LUA_COMMON = r"""
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end
n2xx, n304, n3xx, nbad = 0, 0, 0, 0
local function count(status)
  if status == 304 then n304 = n304 + 1
  elseif status >= 200 and status < 300 then n2xx = n2xx + 1
  elseif status >= 300 and status < 400 then n3xx = n3xx + 1
  else nbad = nbad + 1 end
end
function done(summary, latency, requests)
  local a, b, c, d = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    a = a + t:get("n2xx"); b = b + t:get("n304"); c = c + t:get("n3xx"); d = d + t:get("nbad")
  end
  local e = summary.errors
  io.write(string.format(
    'JSON{"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
    '"p50":%.0f,"p90":%.0f,"p95":%.0f,"p99":%.0f,"max":%.0f,"mean":%.1f,"n2xx":%d,"n304":%d,"n3xx":%d,"nbad":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(95), latency:percentile(99),
    latency.max, latency.mean, a, b, c, d))
end
"""

LUA_FIXED = r"""
function response(status, headers, body)
  count(status)
end
"""

LUA_PHONES = r"""
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long sec; long nsec; } bench_timespec;
int clock_gettime(int clk, bench_timespec *tp);
]]
local ts = ffi.new("bench_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts)
  return tonumber(ts.sec) * 1000 + tonumber(ts.nsec) / 1e6
end

function init(args)
  local nthreads = tonumber(args[1])
  mine = {}
  for i = tid + 1, #PHONES, nthreads do table.insert(mine, i) end
  etags = {}
  step = INTERVAL_MS / #mine  -- this connection's phones, each once per interval
  t0 = nil
  sent = 0
  current = nil
  phase = (tid / nthreads) * step
end

function delay()
  local now = now_ms()
  if t0 == nil then t0 = now + phase end
  local due = t0 + sent * step
  local wait = due - now
  if wait > 0 then return math.floor(wait) end
  return 0
end

samples = {}
function request()
  current = mine[(sent % #mine) + 1]
  sent = sent + 1
  asked = now_ms()
  local phone = PHONES[current]
  local headers = { ["Host"] = HOST }
  if phone[2] == 1 then headers["HX-Request"] = "true" end
  local tag = etags[current]
  if tag then headers["If-None-Match"] = tag end
  return wrk.format("GET", phone[1], headers)
end

function response(status, headers, body)
  count(status)
  if current then
    table.insert(samples, PHONES[current][3] * 1000 + (status % 1000))
    table.insert(samples, now_ms() - asked)
    table.insert(samples, asked)
    if status == 200 or status == 304 then
      etags[current] = headers["ETag"] or headers["etag"] or etags[current]
    end
  end
end

local base_done = done
function done(summary, latency, requests)
  base_done(summary, latency, requests)
  for _, t in ipairs(threads) do
    local s = t:get("samples")
    local parts = {}
    for i = 1, #s do parts[i] = string.format(i % 3 == 1 and "%d" or "%.2f", s[i]) end
    io.write("SAMPLES" .. table.concat(parts, ",") .. "\n")
  end
end
"""


def lua_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run_wrk(
    wrk: str,
    port: int,
    path: str,
    *,
    name: str,
    seconds: int,
    connections: int,
    threads: int,
    headers: dict | None = None,
    phones: list[tuple[str, int, int]] | None = None,
) -> dict:
    """One wrk run; returns its figures (requests/s, latency percentiles in ms, errors, status counts)."""
    if phones is None:
        script = LUA_COMMON + LUA_FIXED
    else:
        table = ",\n".join(f"  {{{lua_string(p)}, {k}, {kind}}}" for p, k, kind in phones)
        script = (
            f"PHONES = {{\n{table}\n}}\nINTERVAL_MS = {POLL_SECONDS * 1000:.0f}\n"
            f"HOST = {lua_string(f'127.0.0.1:{port}')}\n" + LUA_COMMON + LUA_PHONES
        )
    lua = OUT / f"live_load_{name}.lua"
    lua.write_text(script)
    cmd = [
        wrk,
        "-t",
        str(threads),
        "-c",
        str(connections),
        "-d",
        f"{seconds}s",
        "--timeout",
        TIMEOUT,
        "-s",
        str(lua),
    ]
    for key, value in (headers or {}).items():
        cmd += ["-H", f"{key}: {value}"]
    cmd.append(f"http://127.0.0.1:{port}{path}")
    if phones is not None:
        cmd += ["--", str(threads)]
    before, children = cpu_by_process(WORKERS), resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60)
    after, done = cpu_by_process(WORKERS), resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu = (done.ru_utime + done.ru_stime) - (children.ru_utime + children.ru_stime)  # wrk has exited
    r_cpu = cpu_split(before, after, exited={"wrk": wrk_cpu})
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("JSON")), None)
    if line is None:
        raise RuntimeError(f"wrk gave no figures: {out.stdout}\n{out.stderr}")
    r = json.loads(line[4:])
    samples = []  # (kind index, status, ms, monotonic time asked in s) of each answer, for the main load
    for ln in out.stdout.splitlines():
        if ln.startswith("SAMPLES") and len(ln) > 7:
            values = ln[7:].split(",")
            samples += [
                (
                    int(values[i]) // 1000,
                    int(values[i]) % 1000,
                    float(values[i + 1]),
                    float(values[i + 2]) / 1000,
                )
                for i in range(0, len(values) - 2, 3)
            ]
    r["samples"] = samples
    r["cpu"] = r_cpu
    duration = r["duration_us"] / 1e6
    r["rps"] = r["requests"] / duration
    for k in ("p50", "p90", "p95", "p99", "max", "mean"):
        r[k + "_ms"] = r[k] / 1000
    r["errors"] = r["connect"] + r["read"] + r["write"] + r["timeout"] + r["nbad"]
    return r


def merged(runs: list[dict]) -> dict:
    """Several wrk runs as one: counts added, requests/s over their total time, latency percentiles the
    median of the runs' (the largest for p99 and max)."""
    out = {
        k: sum(r[k] for r in runs)
        for k in ("requests", "duration_us", "connect", "read", "write", "status", "timeout", "errors")
        + ("n2xx", "n304", "n3xx", "nbad")
    }
    out["rps"] = out["requests"] / (out["duration_us"] / 1e6)
    for k in ("p50_ms", "p90_ms", "p95_ms", "mean_ms"):
        out[k] = statistics.median(r[k] for r in runs)
    for k in ("p99_ms", "max_ms"):
        out[k] = max(r[k] for r in runs)
    out["cpu"] = {k: sum(r["cpu"][k] for r in runs) for k in runs[0]["cpu"]}
    out["slices_rps"] = [r["rps"] for r in runs]
    return out


def phone_mix(snap, slug: str, phones: int) -> tuple[list[tuple[str, int, int]], dict]:
    """The phones' pages: (path, 1 for an htmx poll of the live part / 0 for the API, index of the kind
    in the mix), shuffled; and {kind: (phones, pages)} in the mix's order."""
    from tournaments.models import Stage

    groups = [g.name for g in snap.stage_groups(Stage.SATURDAY)]
    pairs = sorted(p.number for p in snap.pairs.values() if p.active)
    current = snap.current_round()
    round_matches = [m.pk for m in snap.matches_of(Stage.SATURDAY, current)]
    mix = [  # (share, kind, paths)
        (0.20, "event", 1, [f"/kisat/{slug}/"]),
        (0.25, "group", 1, [f"/kisat/{slug}/lohkot/{g}/" for g in groups]),
        (0.20, "pair", 1, [f"/kisat/{slug}/parit/{n}/" for n in pairs]),
        (0.10, "schedule", 1, [f"/kisat/{slug}/ohjelma/"]),
        (0.15, "match", 1, [f"/kisat/{slug}/ottelut/{m}/" for m in round_matches]),
        (0.10, "api", 0, [f"/api/events/{slug}/"]),
    ]
    out, counts = [], {}
    for index, (share, name, kind, paths) in enumerate(mix):
        n = round(share * phones)
        counts[name] = (n, len(paths))
        out += [(paths[i % len(paths)], kind, index) for i in range(n)]
    random.Random(5).shuffle(out)
    return out[:phones], counts


# --- CPU seconds by process ---------------------------------------------------------------------------


CPU_KINDS = ("gunicorn workers", "postgres (this database)", "nginx", "wrk", "bench process")


def cpu_by_process(workers: list[int]) -> dict:
    """User + system CPU seconds so far (from /proc) of each process of interest: the gunicorn workers,
    this benchmark's PostgreSQL backends, nginx, wrk and this process; and the whole machine's busy time."""
    tick = os.sysconf("SC_CLK_TCK")
    pids = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        try:
            raw = Path(f"/proc/{pid}/stat").read_text()
            comm = raw[raw.index("(") + 1 : raw.rindex(")")]
            fields = raw.rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / tick
            if pid in workers:
                kind = "gunicorn workers"
            elif pid == os.getpid():
                kind = "bench process"
            elif comm in ("nginx", "wrk"):
                kind = comm
            elif comm == "postgres" and f" {DB_NAME} " in Path(f"/proc/{pid}/cmdline").read_bytes().decode(
                errors="replace"
            ):
                kind = "postgres (this database)"
            else:
                continue
            pids[pid] = (kind, cpu)
        except (OSError, ValueError, IndexError):
            continue
    return {"pids": pids, "machine": machine_busy()}


def cpu_split(before: dict, after: dict, *, exited: dict[str, float] | None = None) -> dict[str, float]:
    """CPU seconds used between two readings by kind of process (``exited``: of processes that ended in
    between, as far as known), and by everything else on the machine."""
    used = dict.fromkeys(CPU_KINDS, 0.0)
    for pid, (kind, cpu) in after["pids"].items():
        old = before["pids"].get(pid)
        used[kind] += cpu - (old[1] if old and old[0] == kind else 0.0)
    for kind, cpu in (exited or {}).items():
        used[kind] += cpu
    used["other processes"] = max(0.0, after["machine"] - before["machine"] - sum(used.values()))
    return used
