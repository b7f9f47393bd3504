"""PDF printouts of the team competition: the bracket, and a team match's three scoresheets (printed by
``tournaments.output.printing`` like every other scoresheet, one a page with its secret link's QR code); and
what the organiser's printouts page lists for it (registered in ``TeamsConfig.ready``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from teams import results
from tournaments.extensions import Printout, PrintoutSection
from tournaments.output.printing import qr_png, render_pdf, scoresheets_pdf


def bracket_pdf(comp: results.Competition) -> bytes:
    context = {
        "event": comp.event,
        "comp": comp,
        "rounds": comp.slots(),
        "ranking": comp.ranking(),
        "title": _("Joukkuekisan kaavio"),
    }
    return render_pdf("teams/print/bracket.html", context)


def team_match_sheets_pdf(comp: results.Competition, row: results.TeamMatchView, link_base: str) -> bytes:
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
    gives the address. ``teams`` are models read from the database by the organiser's view: the cached
    competition (``teams.results``) holds no secret link."""
    for team in teams:
        team.link = link(team)
        team.qr = qr_png(team.link)
    context = {"event": event, "teams": teams, "title": _("Joukkueenjohtajien linkit")}
    return render_pdf("teams/print/leaders.html", context)


def _pages(n: int) -> str:
    return ngettext("%(counter)s sivu", "%(counter)s sivua", n) % {"counter": n} + " (PDF)"


def printouts(event) -> list[PrintoutSection]:
    """The organiser's printouts page of a team competition: each round's scoresheets (the whole round in
    one PDF, and each team match's three), every leader's secret link, the bracket."""
    comp = results.load(event)
    return [_round_sheets(comp), _leaders(comp), _reports(comp)]


def _round_sheets(comp: results.Competition) -> PrintoutSection:
    """A team match has scoresheets once it has started: its pairs meet in the order the leaders declared."""
    slug = comp.event.slug
    started = [row for row in comp.rows if row.pair_matches]
    items = []
    for number in sorted({row.round for row in started}):
        rows = [row for row in started if row.round == number]
        names = ", ".join(dict.fromkeys(comp.label(row) for row in rows))  # the final round: and third place
        pages = sum(len(row.pair_matches) for row in rows)
        # the round's pair matches are tournaments' own matches of stage "team" (its printouts call it "joukkue")
        url = reverse("organiser:round_sheets", args=[slug, "joukkue", number])
        items.append(Printout(_("%(round)s: kaikki ottelut") % {"round": names}, url, _pages(pages)))
        for row in rows:
            label = f"{comp.label(row)}: {row.team_a.name} – {row.team_b.name}"
            url = reverse("teams_organiser:match_sheets", args=[slug, row.pk])
            items.append(Printout(label, url, _pages(len(row.pair_matches))))
    note = _(
        "Joukkueottelun kolme parien ottelua, kukin omalla sivullaan; QR-koodi vie ottelun pöytäkirjaan. "
        "Pöytäkirjat tulostuvat, kun ottelu on aloitettu (parit kohtaavat joukkueenjohtajien ilmoittamassa "
        "järjestyksessä). Pelatut ottelut tulostuvat täytettyinä."
    )
    empty = _("Yhtään joukkueottelua ei ole vielä aloitettu.")
    return PrintoutSection(_("Pöytäkirjat kierroksittain"), note, items, empty)


def _leaders(comp: results.Competition) -> PrintoutSection:
    items = []
    if comp.teams:
        url = reverse("teams_organiser:leader_links", args=[comp.event.slug])
        items.append(Printout(_("Joukkueenjohtajien linkit"), url, "PDF"))
    note = _(
        "Jokaisen joukkueen salainen linkki QR-koodeineen, leikattavaksi ja annettavaksi joukkueenjohtajalle: "
        "sillä ilmoitetaan parien järjestys ja varamies."
    )
    return PrintoutSection(_("Joukkueenjohtajat"), note, items, _("Joukkueita ei ole vielä ilmoitettu."))


def _reports(comp: results.Competition) -> PrintoutSection:
    items = []
    if comp.drawn:
        url = reverse("teams:bracket_pdf", args=[comp.event.slug])
        items.append(Printout(_("Joukkuekisan kaavio"), url, "PDF"))
    return PrintoutSection(_("Kisan raportit"), "", items, _("Kaaviota ei ole vielä arvottu."))
