"""PDF printouts: the organiser's scoresheets (they carry each match's secret link, so organisers only)
and the public draw chart, group tables, Sunday bracket and results list; and the published event's file
(``tapahtuma.json``, issue #27)."""

from __future__ import annotations

from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from lib.http import loopback, pdf_response, public_url
from tournaments import extensions
from tournaments.models import Event, Match, Stage
from tournaments.output import eventfile, printing
from tournaments.readmodel.live import Answer, event_answer
from tournaments.web.permissions import organiser_required

# The scoresheets' stages as the printouts' addresses name them (a team competition's pair matches too).
STAGES = {"alkulohkot": Stage.SATURDAY, "sunnuntai": Stage.SUNDAY, "sijoitus": Stage.PLACEMENT, "joukkue": Stage.TEAM}
STAGE_SLUGS = {stage: slug for slug, stage in STAGES.items()}


def _link_base(request) -> str:
    return public_url(request, "")


@organiser_required
def printouts(request, event):
    """Each round's scoresheets and the event's reports; an event kind with printouts of its own (the team
    competition's, ``extensions.register_printouts``) lists those instead."""
    base = _link_base(request)  # issue #25: QR codes pointing at this machine only are warned about
    context = {"event": event, "section": "printouts", "qr_base": base, "qr_here_only": loopback(base)}
    own = extensions.printouts(event.kind)
    if own is not None:
        return render(request, "tournaments/printouts.html", {**context, "sections": own(event)})
    rounds = (
        Match.objects.filter(event=event)
        .values("stage", "round")
        .annotate(matches=Count("pk"))
        .order_by("stage", "round")
    )
    order = list(STAGES.values())
    rounds = sorted(
        ({**r, "slug": STAGE_SLUGS[r["stage"]]} for r in rounds), key=lambda r: (order.index(r["stage"]), r["round"])
    )
    return render(request, "tournaments/printouts.html", {**context, "rounds": rounds})


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


def _public_pdf(name: str, make) -> Answer:
    """A public printout of an event, made from its snapshot once per version and language and kept in
    the caches (WeasyPrint takes a while; a hall full of phones may open the same PDF)."""
    return Answer(
        name, lambda snap: snap, make, "application/pdf", filename=lambda snap: f"{snap.event.slug}-{name}.pdf",
        disposition="inline",
    )


draw_chart = event_answer(_public_pdf("arvontakaavio", printing.draw_chart_pdf))
group_tables = event_answer(_public_pdf("lohkotaulukot", printing.group_tables_pdf))
bracket = event_answer(_public_pdf("sunnuntai", printing.bracket_pdf))


def _results_values(snap) -> tuple:
    """The results list's snapshot and each place's cup points as the cup app gives them (the event's
    weight and the season's points table; None when the event is not counted), read on each request:
    the answer's digest names them."""
    return snap, extensions.place_points(snap.event)


results_list = event_answer(Answer(
    "tulosluettelo", _results_values, lambda values: printing.results_pdf(*values), "application/pdf",
    filename=lambda values: f"{values[0].event.slug}-tulosluettelo.pdf", disposition="inline", memo=False,
))


def _published(snap):
    """The event file is offered once the final places are published (a pair event's or the team
    competition's); before that there is none (404)."""
    if snap.event.finished_at is None or snap.published_record is None:
        raise Http404(_("Kisan tiedosto on saatavilla, kun lopputulokset on julkaistu."))
    return snap


# The event file (issue #27): written from the stored facts once per results version and kept in the caches.
event_file = require_GET(event_answer(Answer(
    "tapahtuma", _published, lambda snap: eventfile.export_text(Event.objects.get(pk=snap.event.pk)).encode(),
    "application/json; charset=utf-8", filename=lambda snap: f"{snap.event.slug}-tapahtuma.json",
)))
