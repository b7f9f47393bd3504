"""Public pages of the team competition: the bracket, the teams, a team match, the final places and the
bracket as a PDF. Read-only, no account; live pages refresh their live part every 5 seconds."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from teams import printing, results
from teams.views.common import match_context
from tournaments.models import Event
from tournaments.views.printouts import pdf_response


def team_event(slug) -> Event:
    return get_object_or_404(
        Event.objects.select_related("organising_club", "drawn_by"), slug=slug, kind=Event.Kind.SM_TEAM
    )


def bracket(request, slug):
    event = team_event(slug)
    comp = results.load(event)
    context = {
        "event": event,
        "comp": comp,
        "rounds": comp.slots(),
        "ranking": [(p, t) for p, t in comp.ranking() if p <= 4],
    }
    return render(request, "teams/public/bracket.html", context)


def teams(request, slug):
    event = team_event(slug)
    comp = results.load(event)
    return render(
        request, "teams/public/teams.html", {"event": event, "comp": comp, "teams": list(comp.teams.values())}
    )


def match(request, slug, match_id):
    event = team_event(slug)
    comp = results.load(event)
    row = next((r for r in comp.rows if r.pk == match_id and not r.bye), None)
    if row is None:
        raise Http404
    return render(request, "teams/public/match.html", match_context(comp, row, viewer=None))


def final_places(request, slug):
    event = team_event(slug)
    comp = results.load(event)
    context = {
        "event": event,
        "comp": comp,
        "ranking": comp.ranking(),
        "host": comp.host,
        "clubs": comp.eligible_clubs,
    }
    return render(request, "teams/public/results.html", context)


def bracket_pdf(request, slug):
    event = team_event(slug)
    return pdf_response(printing.bracket_pdf(results.load(event)), f"{event.slug}-joukkuekaavio.pdf")
