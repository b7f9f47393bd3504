"""The cup's part of the demo season (``setup_demo``): the finished demo events count for their season's
cup with the weights of RULES.md §8, so that ``/cup/`` shows a ranking on a fresh machine."""

from __future__ import annotations

from cup.models import CupEvent, default_weight
from tournaments import extensions
from tournaments.models import Event


def count_finished_events(organiser, today) -> list[str]:
    lines = []
    finished = Event.objects.filter(kind__in=Event.CUP_KINDS, finished_at__isnull=False, cup__isnull=True)
    for event in finished.order_by("starts_on"):
        CupEvent.objects.create(event=event, weight=default_weight(event.kind))
        lines.append(f"Counted {event.name} for the Tuppicup {event.season}.")
    return lines


extensions.register_demo("cup", count_finished_events, order=10)
