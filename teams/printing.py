"""PDF printouts of the team competition: the bracket, and a team match's three scoresheets (printed by
``tournaments.printing`` like every other scoresheet, one a page with its secret link's QR code)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from teams import results
from tournaments.printing import qr_png, render_pdf, scoresheets_pdf


def bracket_pdf(comp: results.Competition) -> bytes:
    context = {
        "event": comp.event,
        "comp": comp,
        "rounds": comp.slots(),
        "ranking": comp.ranking(),
        "title": _("Joukkuekisan kaavio"),
    }
    return render_pdf("teams/print/bracket.html", context)


def team_match_sheets_pdf(comp: results.Competition, row, link_base: str) -> bytes:
    """The three pair matches of a team match; the page footer names the team match and the teams."""
    title = _("%(event)s: %(round)s, %(a)s – %(b)s") % {
        "event": comp.event.name,
        "round": comp.label(row),
        "a": row.team_a.name,
        "b": row.team_b.name,
    }
    return scoresheets_pdf(row.pair_matches, link_base, title)


def leader_links_pdf(event, teams: list, link) -> bytes:
    """Every team's leader with the secret link and its QR code, one cut-out slip a team; ``link(team)``
    gives the address."""
    for team in teams:
        team.link = link(team)
        team.qr = qr_png(team.link)
    context = {"event": event, "teams": teams, "title": _("Joukkueenjohtajien linkit")}
    return render_pdf("teams/print/leaders.html", context)
