"""The team leader's secret link (``/joukkue/<token>/``), made for a phone and needing no account: the
team's next match, the declaration of its pairs' order (hidden from the other team until both have
declared, locked from then on and once the match starts) and naming the substitute."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from teams import results, services
from teams.forms import OrderForm, SubstituteForm
from teams.models import Team
from teams.views.common import match_context, search_candidates


def leader(request, token):
    team = get_object_or_404(Team.objects.select_related("event"), token=token)
    event = team.event
    comp = results.load(event)
    team = comp.teams[team.pk]
    current = comp.current_row(team)
    form = None
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "declare":
                if current is None or str(current.pk) != request.POST.get("match"):
                    raise ValidationError(
                        _("Tämä ottelu ei ole joukkueesi seuraava ottelu: lataa sivu uudelleen.")
                    )
                form = OrderForm(request.POST, team=team)
                if form.is_valid():
                    services.declare_order(
                        current,
                        team,
                        form.pair_ids,
                        services.Actor(via_link=True),
                        substitute_for=form.substitute_for,
                    )
                    messages.success(request, _("Järjestys ilmoitettu."))
                    return redirect("teams:leader", token)
            elif action in ("substitute", "clear_substitute"):
                player = None
                if action == "substitute":
                    substitute_form = SubstituteForm(request.POST)
                    if not substitute_form.is_valid():
                        raise ValidationError(substitute_form.error_text())
                    player = substitute_form.cleaned_data["player"]
                services.name_substitute(team, player, services.Actor(via_link=True))
                messages.success(request, _("Varamies nimetty.") if player else _("Varamies poistettu."))
                return redirect("teams:leader", token)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            if form is None or not form.is_bound:
                return redirect("teams:leader", token)
        # an invalid form is shown again with what was chosen
        comp = results.load(event)
        team = comp.teams[team.pk]
        current = comp.current_row(team)
    context = {
        "event": event,
        "comp": comp,
        "team": team,
        "current": current,
        "query": request.GET.get("haku", "").strip(),
    }
    context["candidates"] = search_candidates(event, context["query"])
    context["played"] = [r for r in comp.team_rows(team) if r.winner_id is not None]
    context["place"] = comp.places.get(team.pk)
    context["out"] = comp.out(team)
    if current is not None:
        context.update(match_context(comp, current, viewer=team))
        context["own_order"] = current.declared.get(team.pk)
        context["can_declare"] = current.started_at is None and not context["locked"]
        if context["can_declare"] and form is None:
            order = context["own_order"]
            initial = {f"order{k}": tp.pair_id for k, tp in enumerate(team.team_pairs.all(), start=1)}
            if order is not None:
                initial = {f"order{k}": pk for k, pk in enumerate(order.pair_ids, start=1)}
                initial["substitute_for"] = order.substitute_for_id
            form = OrderForm(initial=initial, team=team)
        context["opponent"] = current.team_b if current.team_a_id == team.pk else current.team_a
    context["form"] = form
    context["team"] = team
    # the next-match part refreshes itself while something is awaited from others (not while the leader
    # is still to declare, and never while a form has the focus)
    context["poll"] = (
        comp.drawn and not context["out"] and (current is None or context.get("own_order") is not None)
    )
    return render(request, "teams/leader.html", context)
