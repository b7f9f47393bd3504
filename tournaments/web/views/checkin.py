"""The organiser's morning check-in: who came, the pairs found by a name typed, the absent withdrawn."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from lib.http import int_param
from registry.bans import bans_for
from registry.search import fold
from tournaments.actions import entries as entry_actions
from tournaments.models import Event, Pair
from tournaments.web.permissions import organiser_required
from tournaments.web.views import day
from tournaments.web.views.pairs import pairs_with_players


def _add_search_text(pair: Pair) -> Pair:
    """What the check-in search looks in (number, players, club), folded as the search folds: the page's
    script filters the list by it as the organiser types (static/js/filter.js)."""
    words = [str(pair.number), *(p.full_name for p in pair.players), pair.club.name]
    pair.search_text = fold(" ".join(words)).lower()
    return pair


def flag_bans(event: Event, pairs: list[Pair]) -> list[Pair]:
    """Mark each pair with ``ban`` (the ban of one of its players on the event's dates, or None): a pair
    entered before the board banned a player (issue #29; the entry services refuse one after). One query."""
    found = bans_for([p for pair in pairs for p in pair.players], event.starts_on, event.ends_on)
    for pair in pairs:
        pair.ban = None
        for player in pair.players:
            if player.pk in found:
                pair.ban = found[player.pk]
                pair.ban.player = player  # the name shown, without another query
                break
    return pairs


def pair_matches(pair: Pair, query: str) -> bool:
    """The check-in search without the script: a number finds that pair, words find the pairs whose
    players or club contain every one of them (diacritics ignored)."""
    query = query.strip()
    if not query:
        return True
    if query.isascii() and query.isdigit():  # "²" is a digit to str.isdigit, not to int()
        return pair.number == int(query)
    return all(word in pair.search_text for word in fold(query).lower().split())


def _checkin_counts(event: Event) -> dict[str, int]:
    return event.pairs.filter(withdrawn_at__isnull=True).aggregate(
        total=Count("id"), present=Count("id", filter=Q(checked_in=True))
    )


@organiser_required
@require_POST
def checkin_withdraw_absent(request, event):
    """The pairs not checked in are withdrawn (the page asked first: ``?vahvista=1``)."""
    try:
        withdrawn = entry_actions.withdraw_absent(event, request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        text = ngettext(
            "%(count)d poissaoleva pari poistettiin kisasta.", "%(count)d poissaolevaa paria poistettiin kisasta.",
            withdrawn,
        )
        messages.success(request, text % {"count": withdrawn})
    return redirect("organiser:checkin", event.slug)


@organiser_required
def checkin(request, event):
    """The morning check-in: every pair, one tap each (``checkin_toggle``), found by name or number."""
    drawn = event.drawn_at is not None
    pair_list = list(pairs_with_players(event))
    active = [p for p in pair_list if p.active]
    absent = [p for p in active if not p.checked_in]
    for pair in pair_list:
        _add_search_text(pair)
    flag_bans(event, active)
    query = request.GET.get("haku", "")[:100].strip()
    for pair in active:  # the search hides the others (the script can show them again as one types)
        pair.filtered_out = not pair_matches(pair, query)
    context = {
        "event": event,
        "section": "checkin",
        "drawn": drawn,
        "pairs": active,
        "query": query,
        "found": sum(1 for p in active if not p.filtered_out),
        "withdrawn": [p for p in pair_list if not p.active],
        "absent": absent,
        "counts": {"total": len(active), "present": len(active) - len(absent)},
        "confirm": request.GET.get("vahvista") == "1" and not drawn and bool(absent),
    }
    context.update(day.checkin_context(request, event))  # issue #19: entry fees, the late-forfeit deadline
    return render(request, "tournaments/organiser/entries/checkin.html", context)


@organiser_required
@require_POST
def checkin_toggle(request, event):
    """A pair present, or not present after all: the row and the count come back for htmx."""
    drawn = event.drawn_at is not None
    pair = get_object_or_404(Pair, pk=int_param(request.POST.get("pair")) or 0, event=event)
    refusal = None
    if drawn:
        refusal = _("Lohkot on jo arvottu: ilmoittautumista ei enää muuteta.")
    elif pair.withdrawn_at is not None:
        refusal = _("Pari %(number)d on luopunut.") % {"number": pair.number}
    if refusal:
        messages.error(request, refusal)
        if request.htmx:
            return HttpResponseClientRefresh()
        return redirect("organiser:checkin", event.slug)
    entry_actions.set_checked_in(pair, request.POST.get("present") == "1")
    if not request.htmx:
        return redirect(f"{reverse('organiser:checkin', args=[event.slug])}#pari-{pair.number}")
    pair = _add_search_text(pairs_with_players(event).get(pk=pair.pk))
    flag_bans(event, [pair])
    context = {"event": event, "pair": pair, "drawn": drawn, "counts": _checkin_counts(event), "oob": True}
    html = render_to_string("tournaments/organiser/entries/_checkin_row.html", context, request=request)
    html += render_to_string("tournaments/organiser/entries/_checkin_count.html", context, request=request)
    return HttpResponse(html)
