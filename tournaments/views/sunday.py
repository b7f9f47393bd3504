"""Sunday pages: the organiser advances the event, corrects the seeding, follows the placement bracket
and publishes the final places; the public sees the Sunday groups, the bracket and the final places."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import outlook, readmodel, services, sunday, weekend
from tournaments.forms_results import confirmations
from tournaments.live import event_page, live_part, render_live
from tournaments.models import Event, Stage
from tournaments.permissions import organiser_required
from tournaments.sure import unconfirmed


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
        "unconfirmed": services.unconfirmed(event).select_related("pair_a", "pair_b").prefetch_related(
            "pair_a__members__player", "pair_b__members__player"
        ),
    }
    return render(request, "tournaments/sunday/organiser.html", context)


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


def _sunday_scope(request, snap):
    """The Sunday groups, their play-offs and the placement matches; before the Sunday groups exist, the
    Saturday groups too (the chart's preview fills in the places already decided)."""
    preview = ()
    if not snap.stage_tables(Stage.SUNDAY):
        preview = ([m for t in snap.stage_tables(Stage.SATURDAY) for m in t.matches],
                   {t.group.pk: snap.playoffs.get(t.group.pk) for t in snap.stage_tables(Stage.SATURDAY)})
    return snap.fingerprint([m for t in snap.stage_tables(Stage.SUNDAY) for m in t.matches], list(snap.placements),
                            {t.group.pk: snap.playoffs.get(t.group.pk) for t in snap.stage_tables(Stage.SUNDAY)},
                            *preview)


def _results_scope(request, snap):
    return snap.fingerprint(snap.final_places, sorted(snap.top_places.items()),
                            [(p.kind, p.at, p.digest) for p in snap.publications])


@event_page(scope=_sunday_scope)
def public_sunday(request, head):
    snap = head.snapshot()

    def live():
        tables = snap.stage_tables(Stage.SUNDAY)
        return {
            "event": snap.event, "tables": tables, "tiers": outlook.public_bracket(snap),
            "sunday_rows": [(t, outlook.group_outlook(snap, t)) for t in tables],
            "preview": None if tables else outlook.sunday_preview(snap),
            "seconds_go_on": outlook.advancing_places(snap) == 2,
        }

    url = reverse("sunday", args=[snap.event.slug])
    poll = snap.event.status == "live"
    html = live_part(
        request, "tournaments/sunday/_public_live.html", live, url=url, poll=poll)
    return render_live(request, "tournaments/sunday/public.html", {"event": snap.event}, html)


@event_page(scope=_results_scope)
def public_results(request, head):
    snap = head.snapshot()

    def live():
        return {
            "event": snap.event, "places": weekend.labelled_places(snap.ranking()), "complete": snap.complete,
            "record": snap.published_record, "corrections": snap.corrections,
        }

    url = reverse("final_places", args=[snap.event.slug])
    poll = snap.event.status == "live" and not snap.complete
    html = live_part(
        request, "tournaments/sunday/_results_live.html", live, url=url, poll=poll)
    return render_live(request, "tournaments/sunday/results.html", {"event": snap.event}, html)
