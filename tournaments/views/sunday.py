"""Sunday pages: the organiser advances the event, corrects the seeding, follows the placement bracket
and publishes the final places; the public sees the Sunday groups, the bracket and the final places."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import sunday
from tournaments.models import Event, Match, Pair
from tournaments.permissions import organiser_required
from tournaments.results import load_outcomes, stage_tables
from tournaments.views.common import pair_members_prefetch

TIER_PLACES = {1: "1.–4.", 2: "5.–8.", 3: "9.–12.", 4: "13.–16."}


def placement_matches(event: Event) -> list[Match]:
    """The placement matches with their pairs and ``.outcome``, in a fixed number of queries."""
    matches = list(
        Match.objects.filter(event=event, stage="placement")
        .select_related("pair_a__club", "pair_b__club")
        .prefetch_related(pair_members_prefetch("pair_a__"), pair_members_prefetch("pair_b__"))
        .order_by("tier", "round", "table")
    )
    outcomes = load_outcomes(matches)
    for m in matches:
        m.outcome = outcomes[m.pk]
    return matches


def bracket(event: Event, matches: list[Match] | None = None) -> list[dict]:
    """The placement matches by tier, each tier's semifinals then its final and third-place match."""
    matches = placement_matches(event) if matches is None else matches
    tiers = {t: {"tier": t, "places": TIER_PLACES[t], "semis": [], "final": None, "third": None} for t in range(1, 5)}
    for m in matches:
        if m.placement_round == "semi":
            tiers[m.tier]["semis"].append(m)
        else:
            tiers[m.tier][m.placement_round] = m
    return list(tiers.values())


def ranking(event: Event, *, saturday=None, placements=None) -> tuple[list[tuple[int, Pair]], bool]:
    """(place, pair) for the final places, complete or as far as the placement matches have decided them."""
    placements = placement_matches(event) if placements is None else placements
    places = sunday.final_places(event, saturday=saturday, placements=placements)
    complete = places is not None
    if places is None:
        places = sorted(
            (place, pair_id) for pair_id, place in sunday.partial_top_places(event, placements=placements).items()
        )
    if saturday is not None:  # every placed pair is in a Saturday table, already loaded
        by_id = {row.pair.pk: row.pair for table in saturday for row in table.rows}
    else:
        pairs = Pair.objects.filter(pk__in=[p for _place, p in places]).select_related("club").prefetch_related(
            pair_members_prefetch("")
        )
        by_id = {p.pk: p for p in pairs}
    return [(place, by_id[pair_id]) for place, pair_id in places], complete


@organiser_required
def organiser_sunday(request, event):
    context = {
        "event": event,
        "section": "sunday",
        "blockers": sunday.saturday_blockers(event) if event.format == Event.Format.STANDARD else [],
        "tables": stage_tables(event, "sunday"),
        "tiers": bracket(event),
        "started": sunday.sunday_started(event),
        "corrections": event.seeding_corrections.select_related("user"),
        "complete": sunday.final_places(event) is not None,
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
    try:
        sunday.publish(event, request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Lopputulokset on julkaistu."))
    return redirect("organiser:sunday", event.slug)


def _event(slug):
    return get_object_or_404(Event.objects.select_related("organising_club"), slug=slug)


def public_sunday(request, slug):
    event = _event(slug)
    context = {"event": event, "tables": stage_tables(event, "sunday"), "tiers": bracket(event)}
    return render(request, "tournaments/sunday/public.html", context)


def public_results(request, slug):
    event = _event(slug)
    places, complete = ranking(event)
    return render(request, "tournaments/sunday/results.html", {"event": event, "places": places, "complete": complete})
