"""Organiser pages of the team competition: teams, the draw, rounds and their days, starting team matches,
each team match's pair matches and scoresheets, publishing the places. Every page needs a login and a
permission for the event (``organiser_required``); every change goes through ``teams.actions``."""

from __future__ import annotations

from functools import wraps

import segno
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from lib.http import int_param, pdf_response, private_link, public_url
from teams import entry, history, printing, results
from teams.actions import bracket, common, rosters, substitutes
from teams.actions import orders as orders_actions
from teams.actions import places as places_actions
from teams.forms import PLAYER_SLOTS, DayForm, DrawForm, SubstituteForm, TeamForm
from teams.models import Team, TeamMatch
from teams.views.common import match_context, search_candidates
from tournaments.actions import results as result_actions
from tournaments.models import Event
from tournaments.web.forms_results import confirmations
from tournaments.web.permissions import organiser_required
from tournaments.web.sure import unconfirmed


def team_organiser(view):
    """``organiser_required`` for a team competition's pages: any other event is not found here."""

    @organiser_required
    @wraps(view)
    def wrapper(request, event, *args, **kwargs):
        if event.kind != Event.Kind.SM_TEAM:
            raise Http404
        return view(request, event, *args, **kwargs)

    return wrapper


def _error(request, exc: ValidationError) -> None:
    messages.error(request, " ".join(exc.messages))


def link_url(request, token: str) -> str:
    """A leader's secret link (read from the database by the organiser's page, never from the caches)."""
    return public_url(request, reverse("teams:leader", args=[token]))


def tokens(*team_ids) -> dict[int, str]:
    return dict(Team.objects.filter(pk__in=team_ids).values_list("pk", "token"))


@team_organiser
def overview(request, event):
    """The teams (with their marks) and the draw."""
    comp = results.load(event)
    teams = list(comp.teams.values())
    context = {"event": event, "comp": comp, "teams": teams, "draw_form": DrawForm(), "section": "teams"}
    return render(request, "teams/organiser/overview.html", context)


def _team_form(request, event, team=None) -> TeamForm:
    """The team form as sent; a search submitted without JavaScript ("Hae") comes back unsaved."""
    if request.method == "POST" and "search" in request.POST:
        return TeamForm(initial=request.POST.dict(), event=event, team=team)
    return TeamForm(request.POST or None, event=event, team=team)


def _render_team_form(request, event, form, team=None):
    choices = entry.slot_choices(form)
    pairs = [
        {
            "number": k,
            "ready": form[f"pair{k}"],
            "club": form[f"pair{k}_club"],
            "players": [choices[f"pair{k}_player1"], choices[f"pair{k}_player2"]],
        }
        for k in (1, 2, 3)
    ]
    action = reverse("teams_organiser:team_edit", args=[event.slug, team.pk]) if team else reverse(
        "teams_organiser:team_new", args=[event.slug]
    )
    context = {
        "event": event, "form": form, "team": team, "pairs": pairs, "substitute": choices["substitute"],
        "action": action, "min_length": entry.MIN_LENGTH, "section": "teams",
    }
    return render(request, "teams/organiser/team_form.html", context)


def _team_fields(form) -> dict:
    data = form.cleaned_data
    return {
        "club": data["club"], "name": data["name"], "leader_name": data["leader_name"],
        "pairs": form.pair_specs, "substitute": form.substitute_player,
    }


@team_organiser
def team_new(request, event):
    """Adding a team before the draw: three pairs by search as you type, and possibly a substitute."""
    if event.drawn_at is not None:
        messages.error(request, _("Kaavio on jo arvottu: joukkueita ei voi enää lisätä."))
        return redirect("teams_organiser:overview", event.slug)
    form = _team_form(request, event)
    if form.is_bound and form.is_valid():
        try:
            team = rosters.create_team(event, **_team_fields(form))
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Joukkue %(name)s lisätty.") % {"name": team.name})
            return redirect("teams_organiser:overview", event.slug)
    return _render_team_form(request, event, form)


@team_organiser
def team_edit(request, event, team_id):
    """Editing a team until the draw (its substitute later: the team page)."""
    found = get_object_or_404(results.teams_queryset(event), pk=team_id)
    if event.drawn_at is not None:
        messages.error(request, _("Kaavio on jo arvottu: joukkuetta ei voi enää muokata (varamiehen voi)."))
        return redirect("teams_organiser:team", event.slug, found.pk)
    form = _team_form(request, event, found)
    if form.is_bound and form.is_valid():
        try:
            rosters.update_team(found, **_team_fields(form))
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Joukkue %(name)s tallennettu.") % {"name": form.cleaned_data["name"]})
            return redirect("teams_organiser:team", event.slug, found.pk)
    return _render_team_form(request, event, form, found)


@team_organiser
def player_search(request, event):
    """An HTML fragment: one slot's search results (htmx, as the organiser types)."""
    slot = request.GET.get("slot", "")
    if slot not in PLAYER_SLOTS:
        raise Http404
    query = (request.GET.get(f"{slot}_q") or request.GET.get("q") or "")[:100]
    team = Team.objects.filter(event=event, pk=int_param(request.GET.get("joukkue"))).first()
    players = entry.search(event, query, team)
    context = {
        "slot": slot, "label": entry.slot_label(slot), "query": query, "players": players, "picked_id": None,
        "min_length": entry.MIN_LENGTH,
    }
    return render(request, "teams/organiser/_player_choices.html", context)



@team_organiser
@require_POST
def draw(request, event):
    form = DrawForm(request.POST)
    if unconfirmed(request):
        return redirect("teams_organiser:overview", event.slug)
    if not form.is_valid():
        messages.error(request, _("Siemenen on oltava kokonaisluku."))
        return redirect("teams_organiser:overview", event.slug)
    try:
        bracket.draw(event, request.user, seed=form.cleaned_data["seed"])
    except ValidationError as exc:
        _error(request, exc)
        return redirect("teams_organiser:overview", event.slug)
    messages.success(request, _("Kaavio on arvottu."))
    return redirect("teams_organiser:rounds", event.slug)


@team_organiser
def team(request, event, team_id):
    """One team: its pairs, the leader's secret link, the substitute."""
    comp = results.load(event)
    found = comp.teams.get(team_id)
    if found is None:
        raise Http404
    query = request.GET.get("haku", "").strip()
    link = link_url(request, tokens(found.pk)[found.pk])
    context = {
        "event": event,
        "comp": comp,
        "team": found,
        "link": link,
        # the same link as a QR code, for the leader to scan with a phone at the venue
        "link_qr": segno.make(link, error="m").svg_data_uri(scale=4, border=2),
        "query": query,
        "candidates": search_candidates(event, query),
        "section": "teams",
        "team_rows": [r for r in comp.team_rows(found) if not r.bye],
    }
    return render(request, "teams/organiser/team.html", context)


@team_organiser
@require_POST
def substitute(request, event, team_id):
    found = get_object_or_404(Team, event=event, pk=team_id)
    player = None
    if request.POST.get("player"):
        form = SubstituteForm(request.POST)
        if not form.is_valid():
            messages.error(request, form.error_text())
            return redirect("teams_organiser:team", event.slug, found.pk)
        player = form.cleaned_data["player"]
    try:
        substitutes.name_substitute(found, player, common.Actor(user=request.user))
    except ValidationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("Varamies tallennettu.") if player else _("Varamies poistettu."))
    return redirect("teams_organiser:team", event.slug, found.pk)


@team_organiser
@require_POST
def team_delete(request, event, team_id):
    found = get_object_or_404(Team, event=event, pk=team_id)
    if unconfirmed(request):
        return redirect("teams_organiser:team", event.slug, found.pk)
    try:
        rosters.delete_team(found)
    except ValidationError as exc:
        _error(request, exc)
        return redirect("teams_organiser:team", event.slug, found.pk)
    messages.success(request, _("Joukkue %(name)s poistettu.") % {"name": found.name})
    return redirect("teams_organiser:overview", event.slug)


@team_organiser
def rounds(request, event):
    """The desk: each round with its day and team matches, who has declared, start buttons and results."""
    comp = results.load(event)
    views = []
    for view in comp.slots():
        rows = [s.row for s in view.slots if s.row is not None and not s.row.bye]
        number = view.number
        is_third = any(s.third_place for s in view.slots)
        # a round is started with one button, in its first view (the final's starts the third place too)
        in_round = [r for r in comp.rows if r.round == number and not r.bye and r.started_at is None]
        button = None
        if not is_third and in_round:
            label = view.label
            if comp.bracket and number == comp.bracket.rounds and comp.bracket.third_place is not None:
                label = _("loppuottelu ja pronssiottelu")
            button = _("Aloita kierros %(n)s (%(label)s)") % {"n": number, "label": label}
        views.append(
            {
                "view": view,
                "rows": rows,
                "byes": [s.a for s in view.slots if s.bye],
                "day_form": DayForm(initial={"day": view.day}, auto_id=f"r{number}-%s"),
                "button": button,
                "startable": sum(1 for r in in_round if len(r.declared) == 2),
                "waiting": sum(1 for r in in_round if len(r.declared) < 2),
                "started": any(r.started_at is not None for r in comp.rows if r.round == number),
                "is_third": is_third,
            }
        )
    unconfirmed = result_actions.unconfirmed(event).select_related("pair_a", "pair_b").prefetch_related(
        "pair_a__members__player", "pair_b__members__player"
    ) if comp.finished else []
    context = {"event": event, "comp": comp, "rounds": views, "section": "rounds", "unconfirmed": unconfirmed}
    return render(request, "teams/organiser/rounds.html", context)


@team_organiser
@require_POST
def round_day(request, event, number):
    form = DayForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Anna päivä muodossa vvvv-kk-pp."))
    else:
        try:
            bracket.set_round_day(event, number, form.cleaned_data["day"])
        except ValidationError as exc:
            _error(request, exc)
        else:
            messages.success(request, _("Kierroksen %(n)s päivä tallennettu.") % {"n": number})
    return redirect("teams_organiser:rounds", event.slug)


@team_organiser
@require_POST
def start_round(request, event, number):
    if unconfirmed(request):
        return redirect("teams_organiser:rounds", event.slug)
    try:
        started, waiting = orders_actions.start_round(event, number, request.user)
    except ValidationError as exc:
        _error(request, exc)
    else:
        if started:
            messages.success(
                request,
                ngettext("%(count)d joukkueottelu alkoi.", "%(count)d joukkueottelua alkoi.", len(started))
                % {"count": len(started)},
            )
        if waiting:
            names = ", ".join(f"{r.team_a.name} – {r.team_b.name}" for r in waiting)
            messages.error(
                request,
                _("Odottaa järjestyksen ilmoittamista (aloita myöhemmin uudelleen): %(matches)s.")
                % {"matches": names},
            )
    return redirect("teams_organiser:rounds", event.slug)


def _row(event, match_id) -> tuple[results.Competition, results.TeamMatchView]:
    comp = results.load(event)
    row = next((r for r in comp.rows if r.pk == match_id and not r.bye), None)
    if row is None:
        raise Http404
    return comp, row


@team_organiser
def match(request, event, match_id):
    """One team match: both teams, the declarations (each order shown once both are in), the three pair
    matches with their scoresheets, printing them, starting or undoing the start."""
    comp, row = _row(event, match_id)
    links = tokens(row.team_a_id, row.team_b_id)
    context = {
        **match_context(comp, row, viewer=None, organiser=True),
        "event": event,
        "history": history.history(row),
        "section": "rounds",
        "link_a": link_url(request, links[row.team_a_id]),
        "link_b": link_url(request, links[row.team_b_id]),
    }
    return render(request, "teams/organiser/match.html", context)


def _match_step(request, event, match_id, step, done: str):
    """One of a team match's confirmed steps (start, cancel the start, reopen the orders): the ticked box,
    the service, its refusal or ``done``, and back to the match."""
    found = get_object_or_404(TeamMatch, event=event, pk=match_id)
    if not unconfirmed(request):
        try:
            step(found, request.user)
        except ValidationError as exc:
            _error(request, exc)
        else:
            messages.success(request, done)
    return redirect("teams_organiser:match", event.slug, found.pk)


@team_organiser
@require_POST
def start_match(request, event, match_id):
    done = _("Ottelu alkoi: parien ottelut ja pöytäkirjat ovat valmiina.")
    return _match_step(request, event, match_id, orders_actions.start_team_match, done)


@team_organiser
@require_POST
def cancel_start(request, event, match_id):
    return _match_step(request, event, match_id, orders_actions.cancel_start, _("Aloitus peruttu."))


@team_organiser
@require_POST
def reopen_orders(request, event, match_id):
    done = _("Järjestykset avattu: molemmat joukkueenjohtajat ilmoittavat ne uudelleen.")
    return _match_step(request, event, match_id, orders_actions.reopen_orders, done)


@team_organiser
@private_link
def match_sheets(request, event, match_id):
    """The team match's three scoresheets (one a page, with the QR code of each pair match's link)."""
    comp, row = _row(event, match_id)
    if not row.pair_matches:
        raise Http404
    pdf = printing.team_match_sheets_pdf(comp, row, public_url(request, ""))
    return pdf_response(pdf, f"{event.slug}-joukkueottelu-{row.round}-{row.slot}.pdf")


@team_organiser
@private_link
def leader_links(request, event):
    """Every leader's secret link with its QR code on one printout (slips to cut and hand out)."""
    teams = list(results.teams_queryset(event))
    pdf = printing.leader_links_pdf(event, teams, lambda team: link_url(request, team.token))
    return pdf_response(pdf, f"{event.slug}-joukkueenjohtajat.pdf")


@team_organiser
@require_POST
def publish(request, event):
    if request.POST.get("sure") != "1":
        messages.error(request, _("Vahvista julkaisu rastilla."))
        return redirect("teams_organiser:rounds", event.slug)
    try:
        places_actions.publish(event, request.user, confirm=confirmations(request.POST))
    except ValidationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("Lopputulokset on julkaistu."))
    return redirect("teams_organiser:rounds", event.slug)
