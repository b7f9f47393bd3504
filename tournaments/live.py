"""Serving live public pages to hundreds of polling phones: conditional GET and cached fragments.

Every public page of an event has a live part (``<div id="live">``) that the browser polls every 5
seconds with htmx, fetching only that part. A request costs, in this order:

1. one light query for the event's id and results version (:func:`head`);
2. nothing more when the browser already has that version: ``304 Not Modified`` to a matching
   ``If-None-Match`` (``static/js/live.js`` sends the ETag its live part was rendered with, and keeps the
   page as it is when the answer is 304, scroll position included);
3. otherwise the live part rendered once per version, language and day and kept in the caches
   (``tournaments.caching``), from the event's snapshot (``tournaments.readmodel``), itself computed
   once per version.

The ETag names the event, its results version, the language, today's date (an event's status follows
the calendar) and whether the answer is the live part or the whole page; a whole page also names the
user (its header differs for a logged-in organiser), since it is rendered for each visitor.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tournaments import caching, readmodel
from tournaments.models import Event


@dataclass(frozen=True)
class EventHead:
    """What one light query tells of an event: enough to name its version and find its snapshot."""

    pk: int
    slug: str
    created_at: dt.datetime
    results_version: int
    kind: str
    season_id: int

    fresh = True  # read just now: the read model need not read the version again

    @property
    def key(self) -> str:
        return f"{self.pk}.{self.created_at.timestamp():.6f}:{self.results_version}:{readmodel.rules_key()}"

    def snapshot(self) -> readmodel.EventSnapshot:
        return readmodel.snapshot(self)


def head(slug: str, *, kind: str | None = None) -> EventHead:
    """The event's head: from this process's memory for ``TUPPI_HEAD_SECONDS`` (a quarter of a second by
    default: a poll then costs no query at all), else from the shared cache, where every change puts the
    new head as it commits (``tournaments.versions``), else from one light query."""
    found = caching.recent(f"head:{slug}", settings.TUPPI_HEAD_SECONDS, lambda: _shared_head(slug))
    if found is None or (kind is not None and found.kind != kind):
        raise Http404
    return found


def _shared_head(slug: str) -> EventHead | None:
    if caching.in_transaction():
        return load_head(slug)
    found = cache.get(head_key(slug), caching._MISSING)
    if found is caching._MISSING:
        found = load_head(slug)
        cache.set(head_key(slug), found, 30)
    return found


def head_key(slug: str) -> str:
    return f"head:{slug}"


def load_head(slug: str) -> EventHead | None:
    found = Event.objects.filter(slug=slug).values_list(
        "pk", "slug", "created_at", "results_version", "kind", "season_id"
    )[:1]
    found = list(found)
    return EventHead(*found[0]) if found else None


def is_partial(request) -> bool:
    """An htmx poll of the live part (not a boosted navigation)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def etag(request, key: str, *, partial: bool, personal: bool = True) -> str:
    """The ETag of an answer made from the versions named by ``key``. ``personal``: a whole page, rendered
    for one visitor (not the live part, not the API)."""
    parts = [key, get_language() or "", timezone.localdate().isoformat(), "p" if partial else "f"]
    if personal and not partial:
        user = getattr(request, "user", None)
        parts.append(str(user.pk) if user is not None and user.is_authenticated else "0")
        if len(get_messages(request)):
            parts.append("m")  # a page with messages to show is never "unchanged"
    value = "-".join(parts).replace('"', "")
    return f'W/"{value}"'


def conditional(key_of: Callable, *, personal: bool = True) -> Callable:
    """Decorate a public GET view: answer 304 to a matching ``If-None-Match``, else call the view and put
    the ETag on its answer. ``key_of(request, kwargs)`` returns (the versions key, the object the view
    takes after the request) in at most one light query; it may pop the URL arguments it used."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, **kwargs):
            key, obj = key_of(request, kwargs)
            request.live_key = key
            partial = is_partial(request) or not personal
            tag = etag(request, key, partial=partial, personal=personal)
            request.live_etag = etag(request, key, partial=True)
            if tag in parse_etags(request.headers.get("If-None-Match", "")):
                response = HttpResponseNotModified()
            else:
                response = view(request, obj, **kwargs)
            if response.status_code in (200, 304):
                response["ETag"] = tag
                if hasattr(request, "live_version"):
                    # the event's results version this answer shows (for clients and the load benchmark)
                    response["X-Tuppi-Version"] = str(request.live_version)
                # Revalidate every time; a whole page holds the visitor's CSRF token: never a shared cache.
                patch_cache_control(response, no_cache=True, private=not partial)
                patch_vary_headers(response, ["HX-Request"])
            return response

        return wrapper

    return decorator


def event_page(kind: str | None = None, *, personal: bool = True, scope: Callable | None = None) -> Callable:
    """:func:`conditional` for a page of one event: the URL's ``slug`` becomes an :class:`EventHead`, so
    the view is ``view(request, head, **other URL arguments)``. ``personal=False`` for an answer that is
    the same for every visitor (the JSON API).

    ``scope(request, snapshot, **URL arguments)`` names what the page shows (``EventSnapshot.fingerprint``):
    its ETag and its cached live part then follow only that, so a phone on group A gets 304 while results
    come in from group C. Without a scope, the event's whole results version."""

    def key_of(request, kwargs):
        found = head(kwargs.pop("slug"), kind=kind)
        request.live_version = found.results_version
        if scope is None:
            return found.key, found
        snap = found.snapshot()
        request.live_version = snap.version  # (a previous snapshot, while another process computes the new)
        return f"{found.pk}.{found.created_at.timestamp():.6f}:{scope(request, snap, **kwargs)}", found

    return conditional(key_of, personal=personal)


def live_part(request, template: str, context: Callable[[], dict], *, url: str, poll: bool, key: str = "") -> str:
    """The live part's HTML, rendered once per version, language, day and URL and kept in the caches.

    ``key`` names the versions the part depends on (by default the page's own, ``request.live_key``, set by
    :func:`conditional`); ``url`` is what the part polls (the page's own address with only the parameters
    the view reads); ``poll`` whether it polls at all (an event that is not live does not)."""
    key = key or request.live_key

    def render_part() -> str:
        return render_to_string(
            template, {**context(), "live_url": url, "live_poll": poll, "live_etag": request.live_etag}
        )

    name = f"live:{key}:{get_language()}:{timezone.localdate().isoformat()}:{int(poll)}:{url}"
    return caching.versioned(name, render_part, lock=False)


def render_live(request, page: str, page_context: dict, live_html: str) -> HttpResponse:
    """A poll gets only the live part; a visit gets the whole page with the live part inside it."""
    if is_partial(request):
        return HttpResponse(live_html)
    return render(request, page, {**page_context, "live_html": mark_safe(live_html)})  # rendered by us
