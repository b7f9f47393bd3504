"""The seasons' pages (issue #28): every season, and one season's page."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from archive.readmodel import seasons as read
from archive.web.tables import PER_PAGE, SeasonTable
from archive.web.views import MAX_ID


@require_GET
def index(request):
    table = SeasonTable(read.every_season())
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(request, "archive/seasons.html", {"table": table})


@require_GET
def season(request, season_id: int):
    found = read.one_season(season_id) if season_id <= MAX_ID else None
    if found is None:
        raise Http404
    return render(request, "archive/season.html", {"summary": found})
