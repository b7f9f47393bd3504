"""Public pages of the team competition: the bracket, the teams, a team match, the final places and the
bracket as a PDF. Read-only, no account; live pages refresh their live part every 5 seconds by
conditional GET (``tournaments.live``), the competition kept in the caches by the results version."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language

from teams import printing, results
from teams.views.common import match_context
from tournaments import caching
from tournaments.live import event_page, live_part, render_live
from tournaments.models import Event
from tournaments.printing import pdf_response

team_page = event_page(kind=Event.Kind.SM_TEAM)


def _competition(head) -> results.Competition:
    event = get_object_or_404(Event.objects.select_related("organising_club"), pk=head.pk)
    return results.load(event)


@team_page
def bracket(request, head):
    comp = _competition(head)
    event = comp.event

    def live():
        return {
            "event": event, "comp": comp, "rounds": comp.slots(),
            "ranking": [(p, t) for p, t in comp.ranking() if p <= 4],
        }

    poll = event.status == "live" and not comp.finished
    html = live_part(
        request, "teams/public/_bracket_live.html", live,
        url=reverse("teams:bracket", args=[event.slug]), poll=poll,
    )
    return render_live(request, "teams/public/bracket.html", {"event": event, "comp": comp}, html)


@team_page
def teams(request, head):
    comp = _competition(head)
    return render(
        request, "teams/public/teams.html", {"event": comp.event, "comp": comp, "teams": list(comp.teams.values())}
    )


@team_page
def match(request, head, match_id):
    comp = _competition(head)
    row = next((r for r in comp.rows if r.pk == match_id and not r.bye), None)
    if row is None:
        raise Http404
    context = match_context(comp, row, viewer=None)
    poll = comp.event.status == "live" and not context["winner"]
    html = live_part(
        request, "teams/public/_match_live.html", lambda: context,
        url=reverse("teams:match", args=[comp.event.slug, row.pk]), poll=poll,
    )
    return render_live(request, "teams/public/match.html", context, html)


@team_page
def final_places(request, head):
    comp = _competition(head)
    context = {
        "event": comp.event, "comp": comp, "ranking": comp.ranking(), "host": comp.host,
        "clubs": comp.eligible_clubs,
    }
    poll = comp.event.status == "live" and not comp.finished
    html = live_part(
        request, "teams/public/_results_live.html", lambda: context,
        url=reverse("teams:final_places", args=[comp.event.slug]), poll=poll,
    )
    return render_live(request, "teams/public/results.html", context, html)


@event_page(kind=Event.Kind.SM_TEAM, personal=False)
def bracket_pdf(request, head):
    key = f"pdf:joukkuekaavio:{head.key}:{get_language()}"
    content = caching.versioned(key, lambda: printing.bracket_pdf(_competition(head)))
    return pdf_response(content, f"{head.slug}-joukkuekaavio.pdf")
