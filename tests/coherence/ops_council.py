"""Operations of the judges' council (issue #29): a pair's appeal on the match's secret link, and the
council's ruling on its page, which may order a forfeit through the result services. Like the others,
each returns what it did, or None when it does not apply now."""

from __future__ import annotations

from django.urls import reverse

from tests.coherence.forms import post
from tests.coherence.ops_results import DONE, OPEN, label, link, matches
from tournaments.actions import event_day
from tournaments.models import Appeal, Match, Pair

COUNCIL = ["Aino Ahola", "Bertta Berg", "Cecilia Carlsson"]


def appeal(world, rng):
    found = [m for m in matches(world, OPEN + DONE, team=False) if not m.confirmed_at]
    if not found or world.event.finished_at is not None:
        return None
    match, side = rng.choice(found), rng.choice("AB")
    post(world.referee, link(match, "appeal"), {"side": side, "subject": "Tuomarin ratkaisu"})
    return f"pair {side} appeals {label(match)}"


def ruling(world, rng):
    event = world.event
    found = list(Appeal.objects.filter(match__event=event, status=Appeal.Status.OPEN).select_related("match"))
    if not found:
        return None
    if len(event.judges or []) < 3:
        event_day.set_council(event, COUNCIL)
    chosen = rng.choice(found)
    match, prefix = chosen.match, f"a{chosen.pk}"
    upheld = rng.random() < 0.5
    # an upheld appeal of an open match: the council orders the other pair to forfeit it
    forfeit = upheld and match.status in (Match.Status.SCHEDULED, Match.Status.PLAYING)
    data = {
        "appeal": chosen.pk, f"{prefix}-members": COUNCIL, f"{prefix}-referee_heard": "on",
        f"{prefix}-pairs_heard": "on", f"{prefix}-decision": "upheld" if upheld else "rejected",
        f"{prefix}-reasons": "Kuultu.", f"{prefix}-effect": "forfeit" if forfeit else "none",
        f"{prefix}-side": "B" if chosen.side == "A" else "A",
    }
    post(world.desk, reverse("organiser:council_rule", args=[event.slug]), data)
    what = "upheld, forfeit ordered" if forfeit else ("upheld" if upheld else "rejected")
    return f"council rules on the appeal of pair {chosen.side} in {label(match)}: {what}"


def exclusion(world, rng):
    """The council excludes a player of a pair still in the event (before publication)."""
    event = world.event
    if event.finished_at is not None:
        return None
    pairs = list(Pair.objects.filter(event=event, withdrawn_at__isnull=True).order_by("number"))
    if not pairs:
        return None
    if len(event.judges or []) < 3:
        event_day.set_council(event, COUNCIL)
    pair = rng.choice(pairs)
    player = pair.members.order_by("position").first().player_id
    data = {"exclusion-player": f"{pair.pk}:{player}", "exclusion-members": COUNCIL, "exclusion-reason": "Häiriö"}
    post(world.desk, reverse("organiser:council_exclude", args=[event.slug]), data)
    return f"council excludes a player of pair {pair.number}"
