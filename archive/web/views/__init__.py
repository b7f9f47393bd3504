"""The archive's public pages: read-only, no login, made for a phone. One module per area."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from lib import caching

MAX_ID = 10**18  # a larger number would overflow a database key (``lib.http.int_param``)


def found_or_404(model, pk: int, **related):
    """The row ``pk`` of ``model`` (``select``: select_related), or 404 (also for an id no key can hold)."""
    row = None
    if 0 < pk <= MAX_ID:
        row = model.objects.select_related(*related.get("select", ())).filter(pk=pk).first()
    if row is None:
        raise Http404
    return row


def cached_body(key: str, template: str, context: Callable[[], dict]) -> SafeString:
    """A page's body rendered from ``template`` once per ``key`` (which names every version it shows)
    and language, then served from the caches (``lib.caching``): a warm page runs no template loop."""
    html = caching.versioned(f"{key}:html:{get_language()}", lambda: render_to_string(template, context()), lock=False)
    return mark_safe(html)  # noqa: S308 (the output of our own template, escaped as it rendered)
