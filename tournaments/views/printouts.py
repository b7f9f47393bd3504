"""PDF printouts: the organiser's scoresheets (they carry each match's secret link, so organisers only)
and the public draw chart, group tables, Sunday bracket and results list."""

from __future__ import annotations

from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments import caching, extensions, printing
from tournaments.live import conditional, event_page, head
from tournaments.models import Event, Match, Stage
from tournaments.permissions import organiser_required
from tournaments.printing import pdf_response

STAGES = {"alkulohkot": Stage.SATURDAY, "sunnuntai": Stage.SUNDAY, "sijoitus": Stage.PLACEMENT}


def _link_base(request) -> str:
    return printing.public_url(request, "")


@organiser_required
def printouts(request, event):
    rounds = (
        Match.objects.filter(event=event)
        .values("stage", "round")
        .annotate(matches=Count("pk"))
        .order_by("stage", "round")
    )
    names = {v: k for k, v in STAGES.items()}
    order = {stage: i for i, stage in enumerate(STAGES.values())}
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


def public_pdf(request, head, name: str, make) -> HttpResponse:
    """A public printout of an event, made from its snapshot once per version and language and kept in
    the caches (WeasyPrint takes a while; a hall full of phones may open the same PDF)."""
    key = f"pdf:{name}:{head.key}:{get_language()}:{timezone.localdate().isoformat()}"
    content = caching.versioned(key, lambda: make(head.snapshot()))
    return pdf_response(content, f"{head.slug}-{name}.pdf")


@event_page(personal=False)
def draw_chart(request, head):
    return public_pdf(request, head, "arvontakaavio", printing.draw_chart_pdf)


@event_page(personal=False)
def group_tables(request, head):
    return public_pdf(request, head, "lohkotaulukot", printing.group_tables_pdf)


@event_page(personal=False)
def bracket(request, head):
    return public_pdf(request, head, "sunnuntai", printing.bracket_pdf)


def _event_and_points_key(request, kwargs):
    found = head(kwargs.pop("slug"))
    return f"{found.key}~{extensions.place_points_key(found.season_id)}", found


@conditional(_event_and_points_key, personal=False)
def results_list(request, found):
    """The results list with each place's cup points as the cup app gives them (the event's weight and
    the season's points table); an event not counted for the cup prints none."""
    event = get_object_or_404(Event.objects.select_related("season"), pk=found.pk)
    key = f"pdf:tulosluettelo:{request.live_etag}:{get_language()}"
    content = caching.versioned(key, lambda: printing.results_pdf(found.snapshot(), extensions.place_points(event)))
    return pdf_response(content, f"{event.slug}-tulosluettelo.pdf")
