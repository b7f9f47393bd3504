"""Public pages of the team competition: the bracket, the teams, a team match, the final places and the
bracket as a PDF. Read-only, no account; each is declared once (``tournaments.readmodel.live.Page``) and built from
the competition (``teams.results``: plain values, kept in the caches by the event's results version), which
is its source: its ETag and cached renderings follow from exactly what it shows."""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse

from teams import printing, results
from teams.views.common import match_context
from tournaments.models import Event
from tournaments.readmodel.live import Answer, Page, Shown, serve_answer, serve_page, source


def _source(slug: str) -> results.Competition:
    return source(slug, kind=Event.Kind.SM_TEAM, make=results.load)


def _bracket(comp) -> Shown:
    event = comp.event
    live = {
        "event": event, "comp": comp, "rounds": comp.slots(),
        "ranking": [(p, t) for p, t in comp.ranking() if p <= 4],
    }
    poll = event.status == "live" and not comp.finished
    return Shown({"event": event, "comp": comp}, live, reverse("teams:bracket", args=[event.slug]), poll)


def _teams(comp) -> Shown:
    return Shown({"event": comp.event, "comp": comp, "teams": list(comp.teams.values())})


def _match(comp, match_id) -> Shown:
    row = next((r for r in comp.rows if r.pk == match_id and not r.bye), None)
    if row is None:
        raise Http404
    context = match_context(comp, row, viewer=None)
    poll = comp.event.status == "live" and not context["winner"]
    return Shown(context, context, reverse("teams:match", args=[comp.event.slug, row.pk]), poll)


def _final_places(comp) -> Shown:
    context = {
        "event": comp.event, "comp": comp, "ranking": comp.ranking(), "host": comp.host,
        "clubs": comp.eligible_clubs,
    }
    poll = comp.event.status == "live" and not comp.finished
    return Shown(context, context, reverse("teams:final_places", args=[comp.event.slug]), poll)


BRACKET = Page("team_bracket", "teams/public/bracket.html", _bracket, live="teams/public/_bracket_live.html")
TEAMS = Page("team_teams", "teams/public/teams.html", _teams)
MATCH = Page("team_match", "teams/public/match.html", _match, live="teams/public/_match_live.html")
FINAL_PLACES = Page(
    "team_final_places", "teams/public/results.html", _final_places, live="teams/public/_results_live.html"
)
BRACKET_PDF = Answer(
    "joukkuekaavio", lambda comp: comp, printing.bracket_pdf, "application/pdf",
    filename=lambda comp: f"{comp.event.slug}-joukkuekaavio.pdf", disposition="inline",
)


def bracket(request, slug):
    return serve_page(request, _source(slug), BRACKET, {})


def teams(request, slug):
    return serve_page(request, _source(slug), TEAMS, {})


def match(request, slug, match_id):
    return serve_page(request, _source(slug), MATCH, {"match_id": match_id})


def final_places(request, slug):
    return serve_page(request, _source(slug), FINAL_PLACES, {})


def bracket_pdf(request, slug):
    return serve_answer(request, _source(slug), BRACKET_PDF, {})
