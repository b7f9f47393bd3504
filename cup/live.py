"""Conditional GET for the cup's pages, workbooks and API (``tournaments.live`` on the season's cup key)."""

from __future__ import annotations

from django.http import Http404

from cup import services
from tournaments.live import conditional


def _season_key(request, kwargs):
    key = services.cup_key(kwargs.pop("season_id"))
    if key is None:
        raise Http404
    return f"cup{key}", key.split(":", 1)[0]


def season_page(*, personal: bool = True):
    """``tournaments.live.conditional`` on the season's cup key (one light query): the view gets the
    season's id; ``304 Not Modified`` while the cup is unchanged."""
    return conditional(_season_key, personal=personal)
