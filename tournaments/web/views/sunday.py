"""Sunday pages: the organiser advances the event, corrects the seeding, follows the placement bracket
and publishes the final places; the public sees the Sunday groups, the bracket and the final places."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.actions import results as result_actions
from tournaments.actions import sunday
from tournaments.models import Event, Stage
from tournaments.readmodel import outlook, weekend
from tournaments.readmodel import snapshot as readmodel
from tournaments.readmodel.live import Page, Shown, event_page
from tournaments.web.forms_results import confirmations
from tournaments.web.permissions import organiser_required
from tournaments.web.sure import unconfirmed


@organiser_required
def organiser_sunday(request, event):
    snap = readmodel.snapshot(event)
    context = {
        "event": event,
        "section": "sunday",
        "blockers": sunday.saturday_blockers(snap) if event.format == Event.Format.STANDARD else [],
        "tables": snap.stage_tables(Stage.SUNDAY),
        "tiers": snap.bracket(),
        "started": sunday.sunday_started(event),
        "corrections": event.seeding_corrections.select_related("user"),
        "complete": snap.complete,
        "unconfirmed": result_actions.unconfirmed(event).select_related("pair_a", "pair_b").prefetch_related(
            "pair_a__members__player", "pair_b__members__player"
        ),
        "unsettled": _saturday_unsettled(snap),
    }
    return render(request, "tournaments/sunday/organiser.html", context)


def _saturday_unsettled(snap) -> dict[str, int]:
    """The Saturday results neither accepted by both pairs nor confirmed (issue #25), said before advancing:
    the advance needs every group played (``sunday.saturday_blockers``), not confirmed; the publication does."""
    acceptance = snap.event.require_acceptance
    reviews = [m.review(acceptance) for m in snap.matches if m.stage == Stage.SATURDAY]
    counts = {
        "acceptance": reviews.count("awaiting_acceptance"),
        "confirmation": reviews.count("awaiting_confirmation") + reviews.count("corrected"),
    }
    return {**counts, "total": sum(counts.values())}


@organiser_required
@require_POST
def advance(request, event):
    try:
        sunday.advance(event, request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Sunnuntain lohkot on muodostettu ja ottelut laadittu."))
    return redirect("organiser:sunday", event.slug)


@organiser_required
@require_POST
def correct(request, event):
    if unconfirmed(request):  # the Sunday groups and their schedule are replaced
        return redirect("organiser:sunday", event.slug)
    groups = []
    for name in sunday.SUNDAY_NAMES:
        try:
            groups.append([int(v) for v in request.POST.getlist(f"group{name}")])
        except ValueError:
            groups.append([])
    try:
        sunday.correct_seeding(event, groups, request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Sunnuntain sijoitus on tallennettu."))
    return redirect("organiser:sunday", event.slug)


@organiser_required
@require_POST
def publish(request, event):
    if request.POST.get("sure") != "1":
        messages.error(request, _("Vahvista julkaisu rastilla."))
        return redirect("organiser:sunday", event.slug)
    try:
        sunday.publish(event, request.user, confirm=confirmations(request.POST))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Lopputulokset on julkaistu."))
    return redirect("organiser:sunday", event.slug)


def _sunday(snap) -> Shown:
    """The Sunday groups and the placement bracket; before the Sunday groups exist, the chart of RULES.md
    §5 with the places already decided."""
    tables = snap.stage_tables(Stage.SUNDAY)
    live = {
        "event": snap.event, "tables": tables, "tiers": outlook.public_bracket(snap),
        "sunday_rows": [(t, outlook.group_outlook(snap, t)) for t in tables],
        "preview": None if tables else outlook.sunday_preview(snap),
        "seconds_go_on": outlook.advancing_places(snap) == 2,
    }
    url = reverse("sunday", args=[snap.event.slug])
    return Shown(page={"event": snap.event}, live=live, url=url, poll=snap.event.status == "live")


def _final_places(snap) -> Shown:
    live = {
        "event": snap.event, "places": weekend.labelled_places(snap.ranking()), "complete": snap.complete,
        "record": snap.published_record, "corrections": snap.corrections,
    }
    url = reverse("final_places", args=[snap.event.slug])
    poll = snap.event.status == "live" and not snap.complete
    return Shown(page={"event": snap.event}, live=live, url=url, poll=poll)


public_sunday = event_page(
    Page("sunday", "tournaments/sunday/public.html", _sunday, live="tournaments/sunday/_public_live.html")
)
public_results = event_page(
    Page("final_places", "tournaments/sunday/results.html", _final_places, live="tournaments/sunday/_results_live.html")
)
