"""Talking to the federation's site from a venue laptop (the commands ``pull_registry`` and ``push_event``):
plain HTTP(S) through the standard library, JSON in and out, a token where the site asks for one."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

TIMEOUT = 60


class Unreachable(Exception):
    """The site did not answer, or answered with an error: the message says which and what it said."""


def address(site: str, path: str) -> str:
    """``path`` on ``site`` (its root address, e.g. ``https://tuppiliitto.fi``)."""
    if not site.startswith(("http://", "https://")):
        raise Unreachable(f"not a web address: {site!r} (it starts with http:// or https://)")
    return site.rstrip("/") + path


def call(url: str, *, body: bytes | None = None, token: str | None = None) -> tuple[int, dict]:
    """GET ``url`` (or POST ``body`` as JSON) and the answer's status and JSON."""
    headers = {"Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(url, data=body, headers=headers, method="POST" if body is not None else "GET")  # noqa: S310 (an address given by the user)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:  # noqa: S310
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        text = exc.read().decode("utf-8", "replace")
        try:
            said = json.loads(text)
        except ValueError:
            raise Unreachable(f"{url} answered {exc.code}: {text[:200]}") from None
        return exc.code, said
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise Unreachable(f"{url}: {exc}") from None


def canonical(doc: dict) -> bytes:
    """A JSON answer as bytes again, for a reader that takes a file's bytes."""
    return json.dumps(doc, ensure_ascii=False).encode()
