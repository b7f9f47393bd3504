"""Real application servers for the tests that need more than one installation or process: gunicorn with
one sync worker under production settings, on a free port, with its own environment."""

from __future__ import annotations

import http.client
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(database_url: str, cache_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_", "TUPPI_", "PYTEST"))}
    env.update(
        DJANGO_SETTINGS_MODULE="tuppiliitto.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_SECURE="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=database_url,
        CACHE_URL=cache_url,
    )
    return env


class Server:
    """gunicorn with one sync worker: one process answering."""

    def __init__(self, env: dict, log: Path):
        self.port = free_port()
        self.log = log.open("w")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "tuppiliitto.wsgi",
                "--workers",
                "1",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"gunicorn exited: see {log}"
            try:
                if self.request("GET", "/terveys/")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"gunicorn did not answer within 60 s: see {log}")

    def request(self, method: str, path: str, headers: dict | None = None, body: bytes | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers={"Host": "127.0.0.1", **(headers or {})})
            response = conn.getresponse()
            return response.status, response.headers, response.read()
        finally:
            conn.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
