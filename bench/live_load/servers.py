"""The servers of the live-load bench: gunicorn (one application server, or two with ``--nodes 2``) and
nginx in front of them, as the README's deployment has it.

``--nodes 2``: two gunicorn masters (two application servers, each with ``--workers W``) behind nginx (an
upstream naming both, round robin), one PostgreSQL, one Redis (``--cache redis`` is forced): the layout
of the README's "Several application servers". The referee, the probes and the phones go through nginx,
so a save answered by one server is polled on both."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import OUT, ROOT, WORKERS, Http, Scene, load_average
from .environment import ensure_nginx, wait_quiet
from .report import say


def settle(args) -> None:
    """``--nodes 2`` needs the shared cache of several machines (Redis) and nginx in front."""
    if args.nodes < 1 or args.nodes > 2:
        raise SystemExit("--nodes is 1 or 2")
    if args.nodes == 2:
        if args.cache != "redis":
            say("--nodes 2: the servers share one Redis (--cache redis).")
            args.cache = "redis"
        if args.front != "nginx":
            say("--nodes 2: the main load goes through nginx (--front nginx), the servers' load balancer.")
            args.front = "nginx"


def start_servers(scene: Scene) -> None:
    """collectstatic, then the application servers; their workers are watched (CPU accounting)."""
    args, env = scene.args, scene.env
    say("collectstatic …")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    port = free_port()
    wait_quiet(args.wait_quiet)
    proc = start_gunicorn(env, args.workers, port)
    scene.port, scene.app_ports, scene.procs = port, [port], [proc]
    WORKERS[:] = worker_pids(proc.pid)
    say(
        f"gunicorn: {args.workers} sync workers on 127.0.0.1:{port}, production settings (DEBUG off, "
        f"DJANGO_SECURE=0); wrk: {args.connections} connections"
    )
    if args.nodes == 2:
        port2 = free_port()
        proc2 = start_gunicorn(env, args.workers, port2, "live_load_gunicorn2.log")
        scene.procs.append(proc2)
        WORKERS.extend(worker_pids(proc2.pid))
        scene.app_ports.append(port2)
        say(
            f"second application server: gunicorn master with {args.workers} sync workers on 127.0.0.1:{port2}, "
            "the same PostgreSQL and Redis; the main load, the referee and the probes go through nginx to both "
            "(the full-speed and one-connection figures: straight to the first)"
        )
    say(f"({load_average()})")


def stop_servers(scene: Scene) -> None:
    for proc in reversed(scene.procs):
        stop_process(proc)
    if scene.cache_dir:
        shutil.rmtree(scene.cache_dir, ignore_errors=True)


def front(scene: Scene) -> tuple[int, subprocess.Popen | None, str | None]:
    """Where the main load goes: nginx (started here: its port, process and scratch folder), or gunicorn."""
    if scene.args.front != "nginx":
        say(
            "  straight to gunicorn: wrk opens each connection before its delay(), so a sync worker that accepts it "
            "waits idle for the request (figures of the server, not of phones)"
        )
        return scene.port, None, None
    nginx_tmp = tempfile.mkdtemp(prefix="tuppi-bench-nginx-")
    front_port = free_port()
    nginx_proc = start_nginx(ensure_nginx(), scene.app_ports, front_port, nginx_tmp)
    say(
        f"  through nginx on 127.0.0.1:{front_port} (keep-alive to the phones, one request per connection to "
        f"gunicorn, as deployed; {len(scene.app_ports)} application server(s)); referee and probes too"
    )
    return front_port, nginx_proc, nginx_tmp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(
    env: dict, workers: int, port: int, log_name: str = "live_load_gunicorn.log"
) -> subprocess.Popen:
    log = open(OUT / log_name, "w")  # noqa: SIM115 (kept open for the server's life)
    gunicorn = Path(sys.executable).parent / "gunicorn"
    proc = subprocess.Popen(
        [
            str(gunicorn),
            "tuppiliitto.wsgi",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return answering(proc, port, "gunicorn", OUT / log_name, seconds=60)


def answering(proc: subprocess.Popen, port: int, name: str, log: Path, seconds: float) -> subprocess.Popen:
    """``proc`` once it answers ``/terveys/`` on ``port``; the run ends, naming ``log``, when it exits first
    or does not answer within ``seconds``."""
    http_ = Http(port)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"{name} exited with {proc.returncode}: see {log}")
        try:
            if http_.get("/terveys/", timeout=2)[0] == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.1)
    stop_process(proc)
    sys.exit(f"{name} did not answer /terveys/ within {seconds:.0f} s: see {log}")


NGINX_CONF = """
worker_processes 1;
pid {tmp}/nginx.pid;
events {{ worker_connections 8192; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/body;
  proxy_temp_path {tmp}/proxy;
  fastcgi_temp_path {tmp}/fastcgi;
  uwsgi_temp_path {tmp}/uwsgi;
  scgi_temp_path {tmp}/scgi;
  keepalive_timeout 75s;
  keepalive_requests 1000000;
  {upstream}
  server {{
    listen 127.0.0.1:{port} backlog=4096;
    location / {{
      proxy_pass http://app;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      add_header X-Upstream $upstream_addr always;
    }}
  }}
}}
"""


def upstream(app_ports: list[int]) -> str:
    """nginx's upstream block: every application server, round robin."""
    return "upstream app { " + " ".join(f"server 127.0.0.1:{p};" for p in app_ports) + " }"


def start_nginx(nginx: str, app_ports: list[int], port: int, tmp: str) -> subprocess.Popen:
    """nginx in front of gunicorn, as the README's deployment has it: it holds the phones' idle keep-alive
    connections and hands gunicorn's sync workers only complete requests."""
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        os.makedirs(os.path.join(tmp, sub), exist_ok=True)
    conf = OUT / "live_load_nginx.conf"
    conf.write_text(NGINX_CONF.format(tmp=tmp, upstream=upstream(app_ports), port=port))
    proc = subprocess.Popen(
        [nginx, "-c", str(conf), "-p", tmp, "-e", str(OUT / "live_load_nginx.log"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return answering(proc, port, "nginx", OUT / "live_load_nginx.log", seconds=20)


def stop_process(proc: subprocess.Popen | None) -> None:
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def worker_pids(master: int) -> list[int]:
    try:
        out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout
    except FileNotFoundError:
        return []
    return [int(x) for x in out.split()]
