"""The team leader's secret link (``/joukkue/<token>/``), made for a phone and needing no account: the
team's next match, the declaration of its pairs' order (hidden from the other team until both have
declared, locked from then on and once the match starts) and naming the substitute. One view per
action, each from the link's access helper; once the results are published the link only shows."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from teams import results
from teams.actions import common, orders, substitutes
from teams.forms import OrderForm, SubstituteForm
from teams.models import Team, TeamMatch
from teams.views.common import match_context, search_candidates
from tournaments.readmodel.weekend import rank_labels
from tournaments.web.sure import unconfirmed

LINK = common.Actor(via_link=True)


def leader_link(view):
    """The link's access: this team only, whoever holds the link."""

    @wraps(view)
    def wrapper(request, token, **kwargs):
        team = get_object_or_404(Team.objects.select_related("event"), token=token)
        return view(request, team, **kwargs)

    return wrapper


def roster(team: Team) -> Team:
    """The team as a model with its pairs (club and players) and substitute, for the order form (three
    queries; the page itself reads the cached competition)."""
    found = results.teams_queryset(team.event).get(pk=team.pk)
    found.event = team.event
    return found


def show(request, team: Team, *, form=None):
    comp = results.load(team.event)
    own = comp.teams[team.pk]
    current = comp.current_row(own)
    closed = team.event.finished_at is not None
    query = request.GET.get("haku", "").strip()
    context = {
        "event": comp.event, "comp": comp, "team": own, "token": team.token, "current": current, "query": query,
        "closed": closed, "candidates": search_candidates(team.event, query), "out": comp.out(own),
        "place": _place(comp, own), "played": [r for r in comp.team_rows(own) if r.winner_id is not None],
    }
    if current is not None:
        context.update(match_context(comp, current, viewer=own))
        context["own_order"] = current.declared.get(own.pk)
        context["can_declare"] = current.started_at is None and not context["locked"] and not closed
        if context["can_declare"] and form is None:
            form = OrderForm(initial=_initial_order(own, context["own_order"]), team=roster(team))
        context["opponent"] = current.team_b if current.team_a_id == own.pk else current.team_a
    context["form"] = form
    # the next-match part refreshes itself while something is awaited from others (not while the leader
    # is still to declare, and never while a form has the focus)
    context["poll"] = not closed and comp.drawn and not context["out"] and (
        current is None or context.get("own_order") is not None
    )
    return render(request, "teams/leader.html", context)


def _place(comp, team) -> str | None:
    """The team's place as shown: "3.", or "5.–8." for a place four teams share (as the pair events say it)."""
    place = comp.places.get(team.pk)
    return None if place is None else rank_labels([place] * list(comp.places.values()).count(place))[0]


def _initial_order(team: results.TeamView, order: results.OrderView | None) -> dict:
    if order is None:
        return {f"order{k}": pk for k, pk in enumerate(team.pair_ids, start=1)}
    return {**{f"order{k}": pk for k, pk in enumerate(order.pair_ids, start=1)}, "substitute_for": order.substitute_for_id}


@require_POST
def declare(request, team: Team):
    comp = results.load(team.event)
    current = comp.current_row(team)
    if current is None or str(current.pk) != request.POST.get("match"):
        messages.error(request, _("Tämä ottelu ei ole joukkueesi seuraava ottelu: lataa sivu uudelleen."))
        return redirect("teams:leader", team.token)
    found = roster(team)
    form = OrderForm(request.POST, team=found)
    # the form comes filled with the registration order: declaring it takes a ticked box, not one tap
    if not form.is_valid() or unconfirmed(request):
        return show(request, team, form=form)
    row = TeamMatch.objects.get(pk=current.pk)
    try:
        orders.declare_order(row, found, form.pair_ids, LINK, substitute_for=form.substitute_for)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return show(request, team, form=form)
    messages.success(request, _("Järjestys ilmoitettu."))
    return redirect("teams:leader", team.token)


@require_POST
def substitute(request, team: Team):
    form = SubstituteForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.error_text())
        return redirect("teams:leader", team.token)
    return _name(request, team, form.cleaned_data["player"], _("Varamies nimetty."))


@require_POST
def clear_substitute(request, team: Team):
    return _name(request, team, None, _("Varamies poistettu."))


def _name(request, team: Team, player, done: str):
    try:
        substitutes.name_substitute(team, player, LINK)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, done)
    return redirect("teams:leader", team.token)
