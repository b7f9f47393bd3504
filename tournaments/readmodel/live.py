"""Live public pages, their downloads and the JSON API: each declared once, its ETag and every cache key
derived from exactly what it shows.

A public page is a :class:`Page`: its template, its live part's template (the part a phone polls every 5
seconds with htmx) and ``build``, a function of the page's *source* and its URL arguments that returns
what the page shows (:class:`Shown`: plain values, no model instance). The source is a value computed
from one version of the facts and naming it (``fingerprint_identity``): an event's snapshot
(``tournaments.readmodel.snapshot``), a season's cup, a team competition. A request costs, in this order:

1. the source: for an event its head (one light query, or none within ``TUPPI_HEAD_SECONDS``) and its
   snapshot from the caches;
2. what the page shows and its digest (``lib.fingerprint``), computed once per source, page, arguments,
   language and day in each process;
3. nothing more when the browser already has it: ``304 Not Modified`` to a matching ``If-None-Match``
   (``static/js/live.js`` sends the ETag its live part was rendered with);
4. otherwise the live part and the page's own blocks, rendered once per digest and kept in the caches
   (``lib.caching``), and for a whole page the visitor's header and footer around them
   (``lib.blocks``).

The ETag *is* the digest of what is shown (with the language and whether it is the live part or the
whole page), and every cached rendering is kept under that digest: nothing rendered from one version can
be stored or served under another's key, whichever snapshot a process has in hand (a process that finds
another computing the newest snapshot serves the previous one, under the previous one's digest). A page
whose shown values did not change keeps its ETag while other parts of the event change (a phone on group
A gets 304 while results come in from group C).

Downloads and the API are :class:`Answer`\\ s: the values they are made from (the snapshot itself, by its
identity, for a PDF) and a function rendering them to bytes, kept under the digest of those values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.messages import get_messages
from django.http import HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language

from lib import caching, fingerprint
from lib.blocks import render_blocks
from tournaments.readmodel.heads import source

SHELL = "lib/shell.html"


@dataclass(frozen=True)
class Shown:
    """What a page shows: its own context (outside the live part), the live part's context, the address
    the live part polls and whether it polls (only while the event is live)."""

    page: dict
    live: dict = field(default_factory=dict)
    url: str = ""
    poll: bool = False


@dataclass(frozen=True)
class Page:
    """A public page, declared once. ``build(source, **args)`` returns its :class:`Shown`; ``args`` are the
    URL's arguments and the query parameters named in ``params`` (their text, or None); ``build`` raises
    ``Http404`` for what does not exist. ``build`` must read nothing but its arguments: what it returns is
    kept per source."""

    name: str
    template: str
    build: Callable[..., Shown]
    live: str = ""
    params: tuple[str, ...] = ()
    standalone: bool = False  # a template of its own, not extending base.html (the hall screen): no shell
    clock: Callable[[], object] | None = None  # what it shows follows the clock: ``build`` gets ``now=clock()``


@dataclass(frozen=True)
class Answer:
    """A download or JSON answer, declared once: ``build(source, **args)`` gives the values it is made from
    (plain, or sources standing for themselves by their identity), ``render(values)`` its bytes.
    ``memo``: ``build`` reads nothing but its arguments, so its values are kept per source (else it runs
    on every request, and may read other facts, which its digest then names)."""

    name: str
    build: Callable[..., object]
    render: Callable[[object], bytes]
    content_type: str
    filename: Callable[[object], str] | None = None
    disposition: str = "attachment"  # or "inline" (a PDF opens in the browser)
    memo: bool = True
    clock: Callable[[], object] | None = None  # as ``Page.clock``


@dataclass(frozen=True)
class Composite:
    """A page's source made of several values read together (a season's cup and the list of seasons): it
    stands for all of them (``parts``: each a source with its identity, or plain values)."""

    parts: dict
    version: int | None = None

    @property
    def fingerprint_identity(self) -> str:
        return fingerprint.digest(self.parts)

    def __getitem__(self, name: str):
        return self.parts[name]


def is_partial(request) -> bool:
    """An htmx poll of the live part (not a boosted navigation)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def event_page(page: Page, *, kind: str | None = None) -> Callable:
    """The view of a public page of one event: its source is the event's snapshot (``slug``)."""

    def view(request, slug, **kwargs):
        return serve_page(request, source(slug, kind=kind), page, kwargs)

    view.__name__ = view.__qualname__ = page.name
    return view


def event_answer(answer: Answer, *, kind: str | None = None) -> Callable:
    """The view of a download or JSON answer of one event, made from its snapshot."""

    def view(request, slug, **kwargs):
        return serve_answer(request, source(slug, kind=kind), answer, kwargs)

    view.__name__ = view.__qualname__ = answer.name
    return view


def serve_page(request, source, page: Page, args: dict) -> HttpResponse:
    args = {**args, **{p: request.GET.get(p) for p in page.params}, **_clock(page.clock)}
    digest, shown = _memo(source, page.name, args, lambda: page.build(source, **args),
                          lambda values: (page.template, page.live, values))
    partial = bool(page.live) and is_partial(request)
    tag = _etag(digest, partial=partial, request=None if partial else request)
    if tag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        live_html = _live_html(digest, page, shown) if page.live else ""
        if partial:
            response = HttpResponse(live_html)
        elif page.standalone:
            response = HttpResponse(caching.versioned(
                f"page:{digest}", lambda: render_to_string(page.template, {**shown().page, "live_html": live_html}),
                lock=False,
            ))
        else:
            blocks = caching.versioned(
                f"blocks:{digest}", lambda: render_blocks(page.template, {**shown().page, "live_html": live_html}),
                lock=False,
            )
            response = render(request, SHELL, {"blocks": blocks})
    return _finish(response, tag, source, private=not partial)


def serve_answer(request, source, answer: Answer, args: dict) -> HttpResponse:
    args = {**args, **_clock(answer.clock)}

    def build():
        return answer.build(source, **args)

    if answer.memo:
        digest, values = _memo(source, answer.name, args, build, lambda values: values)
    else:
        built = build()
        digest, values = _digest(answer.name, built), (lambda: built)
    tag = _etag(digest, partial=True)
    if tag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(
            caching.versioned(f"answer:{digest}", lambda: answer.render(values())), content_type=answer.content_type
        )
        if answer.filename is not None:
            response["Content-Disposition"] = f'{answer.disposition}; filename="{answer.filename(values())}"'
    return _finish(response, tag, source, private=False)


# --- what is shown, and its digest --------------------------------------------------------------------


def _clock(clock) -> dict:
    """``now`` for a page that follows the clock: an argument like the others, so what it shows is kept
    per minute (its digest and ETag move when an estimate moves, at most once a minute)."""
    return {} if clock is None else {"now": clock()}


def _memo(source, name: str, args: dict, build: Callable, named: Callable) -> tuple[str, Callable]:
    """The digest of what one page or answer of ``source`` shows, and a way to get the values themselves.

    The digest is kept in the caches per source identity, arguments, language and day (an event's status
    follows the calendar), shared by every process: a process that finds it (and the renderings kept
    under it) builds nothing. The values are built only where something must be rendered, once per
    process. ``named(values)`` is what the digest covers (the values and the templates showing them)."""
    if not getattr(source, "cacheable", True):  # facts that changed while the source was read: not kept
        values = build()
        return _digest(name, named(values)), (lambda: values)
    key = (
        f"shown:{source.fingerprint_identity}:{name}:{fingerprint.digest(args)}:{get_language()}:"
        f"{timezone.localdate().isoformat()}"
    )

    def values():
        return caching.versioned(f"{key}:values", build, share=False)

    digest = caching.versioned(key, lambda: _digest(name, named(values())), lock=False)
    return digest, values


def _digest(*values) -> str:
    return fingerprint.digest(*values, get_language() or "", timezone.localdate())


def _etag(digest: str, *, partial: bool, request=None) -> str:
    """The ETag of an answer showing what ``digest`` names: the live part (or an answer the same for
    everyone), or a whole page rendered for one visitor (``request``: logged in or not, messages)."""
    parts = [digest, "p" if partial else "f"]
    if request is not None:
        user = getattr(request, "user", None)
        parts.append(str(user.pk) if user is not None and user.is_authenticated else "0")
        if len(get_messages(request)):
            parts.append("m")  # a page with messages to show is never "unchanged"
    return 'W/"' + "-".join(parts) + '"'


def _live_html(digest: str, page: Page, shown: Callable[[], Shown]) -> str:
    def render_part() -> str:
        values = shown()
        return render_to_string(
            page.live,
            {**values.live, "live_url": values.url, "live_poll": values.poll, "live_etag": _etag(digest, partial=True)},
        )

    return caching.versioned(f"live:{digest}", render_part, lock=False)


def _finish(response: HttpResponse, tag: str, source, *, private: bool) -> HttpResponse:
    if response.status_code in (200, 304):
        response["ETag"] = tag
        version = getattr(source, "version", None)
        if version is not None:
            response["X-Tuppi-Version"] = str(version)  # the facts' version it shows (clients, the benchmark)
        # Revalidate every time; a whole page holds the visitor's CSRF token: never a shared cache.
        if private:
            patch_cache_control(response, no_cache=True, private=True)
        else:
            patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ["HX-Request"])
    return response
