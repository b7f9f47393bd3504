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

from teams import results, services
from teams.forms import OrderForm, SubstituteForm
from teams.models import Team
from teams.views.common import match_context, search_candidates

LINK = services.Actor(via_link=True)


def leader_link(view):
    """The link's access: this team only, whoever holds the link."""

    @wraps(view)
    def wrapper(request, token, **kwargs):
        team = get_object_or_404(Team.objects.select_related("event"), token=token)
        return view(request, team, **kwargs)

    return wrapper


def show(request, team: Team, *, form=None):
    comp = results.load(team.event)
    team = comp.teams[team.pk]
    current = comp.current_row(team)
    closed = team.event.finished_at is not None
    query = request.GET.get("haku", "").strip()
    context = {
        "event": comp.event, "comp": comp, "team": team, "current": current, "query": query, "closed": closed,
        "candidates": search_candidates(team.event, query), "out": comp.out(team), "place": comp.places.get(team.pk),
        "played": [r for r in comp.team_rows(team) if r.winner_id is not None],
    }
    if current is not None:
        context.update(match_context(comp, current, viewer=team))
        context["own_order"] = current.declared.get(team.pk)
        context["can_declare"] = current.started_at is None and not context["locked"] and not closed
        if context["can_declare"] and form is None:
            form = OrderForm(initial=_initial_order(team, context["own_order"]), team=team)
        context["opponent"] = current.team_b if current.team_a_id == team.pk else current.team_a
    context["form"] = form
    # the next-match part refreshes itself while something is awaited from others (not while the leader
    # is still to declare, and never while a form has the focus)
    context["poll"] = not closed and comp.drawn and not context["out"] and (
        current is None or context.get("own_order") is not None
    )
    return render(request, "teams/leader.html", context)


def _initial_order(team: Team, order) -> dict:
    if order is None:
        return {f"order{k}": tp.pair_id for k, tp in enumerate(team.team_pairs.all(), start=1)}
    return {**{f"order{k}": pk for k, pk in enumerate(order.pair_ids, start=1)}, "substitute_for": order.substitute_for_id}


@require_POST
def declare(request, team: Team):
    comp = results.load(team.event)
    current = comp.current_row(comp.teams[team.pk])
    if current is None or str(current.pk) != request.POST.get("match"):
        messages.error(request, _("Tämä ottelu ei ole joukkueesi seuraava ottelu: lataa sivu uudelleen."))
        return redirect("teams:leader", team.token)
    form = OrderForm(request.POST, team=comp.teams[team.pk])
    if not form.is_valid():
        return show(request, team, form=form)
    try:
        services.declare_order(current, comp.teams[team.pk], form.pair_ids, LINK, substitute_for=form.substitute_for)
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
        services.name_substitute(team, player, LINK)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, done)
    return redirect("teams:leader", team.token)
