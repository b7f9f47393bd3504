"""PDF printouts: the organiser's scoresheets (they carry each match's secret link, so organisers only)
and the public draw chart, group tables, Sunday bracket and results list."""

from __future__ import annotations

from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments import printing
from tournaments.models import Event, Match
from tournaments.permissions import organiser_required

STAGES = {"alkulohkot": "saturday", "sunnuntai": "sunday", "sijoitus": "placement"}


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _link_base(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


@organiser_required
def printouts(request, event):
    rounds = (
        Match.objects.filter(event=event)
        .values("stage", "round")
        .annotate(matches=Count("pk"))
        .order_by("stage", "round")
    )
    names = {v: k for k, v in STAGES.items()}
    order = {"saturday": 0, "sunday": 1, "placement": 2}
    rounds = sorted(({**r, "slug": names[r["stage"]]} for r in rounds), key=lambda r: (order[r["stage"]], r["round"]))
    return render(request, "tournaments/printouts.html", {"event": event, "rounds": rounds, "section": "printouts"})


@organiser_required
def round_sheets(request, event, stage, round):
    if stage not in STAGES:
        raise Http404
    matches = Match.objects.filter(event=event, stage=STAGES[stage], round=round)
    if not matches.exists():
        raise Http404
    title = _("%(event)s: kierros %(round)s") % {"event": event.name, "round": round}
    pdf = printing.scoresheets_pdf(matches, _link_base(request), title)
    return pdf_response(pdf, f"{event.slug}-{stage}-kierros-{round}.pdf")


@organiser_required
def match_sheet(request, event, match_id):
    match = get_object_or_404(Match, event=event, pk=match_id)
    pdf = printing.scoresheets_pdf([match], _link_base(request), f"{event.name}: {match.pair_a_id}–{match.pair_b_id}")
    return pdf_response(pdf, f"{event.slug}-ottelu-{match.pk}.pdf")


def _event(slug) -> Event:
    return get_object_or_404(Event.objects.select_related("organising_club"), slug=slug)


def draw_chart(request, slug):
    event = _event(slug)
    return pdf_response(printing.draw_chart_pdf(event), f"{slugify(event.slug)}-arvontakaavio.pdf")


def group_tables(request, slug):
    event = _event(slug)
    return pdf_response(printing.group_tables_pdf(event), f"{event.slug}-lohkotaulukot.pdf")


def bracket(request, slug):
    event = _event(slug)
    return pdf_response(printing.bracket_pdf(event), f"{event.slug}-sunnuntai.pdf")


def results_list(request, slug):
    event = _event(slug)
    return pdf_response(printing.results_pdf(event), f"{event.slug}-tulosluettelo.pdf")
