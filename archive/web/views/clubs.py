"""The clubs' pages (issue #28): the list with a search, and a club's page."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from archive.readmodel import clubs as read
from archive.web.tables import PER_PAGE, ClubTable
from archive.web.views import found_or_404
from registry.models import Club


@require_GET
def index(request):
    query = request.GET.get("q", "").strip()[:100]
    table = ClubTable(read.clubs(query))
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(request, "archive/clubs.html", {"query": query, "table": table})


@require_GET
def club(request, club_id: int):
    found = found_or_404(Club, club_id)
    return render(request, "archive/club.html", {"view": read.club_page(found)})
