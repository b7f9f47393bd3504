"""The published record of an event (issue #16): its final places and a SHA-256 digest of its canonical
result record, kept at publication and after every correction made after it, and checked again by
``manage.py verify_event``.

The canonical record holds every fact the results are made from, in a fixed order and form: the event's
format and deal counts, the draw (its seed and swaps), every group with its pairs in slot order, every
match with its pairs, planned deals, workflow status, scoresheet lines and paper result, the play-offs
and the Sunday seeding corrections. Two databases holding the same facts give the same digest; a row
changed behind the application's back gives another one.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict

from tournaments import extensions, readmodel
from tournaments.models import (
    DrawSwap,
    Entry,
    Event,
    Group,
    GroupEntry,
    Match,
    Pair,
    PaperResult,
    Playoff,
    Publication,
    SeedingCorrection,
)
from tournaments.results import LINE_FIELDS, PAPER_FIELDS


def canonical_record(event_id: int) -> dict:
    """Every fact of the event's results as plain JSON values, in a fixed order (a fixed number of queries)."""
    ev = Event.objects.get(pk=event_id)
    lines: dict[int, list] = defaultdict(list)
    for row in Entry.objects.filter(match__event_id=event_id).order_by("match_id", "position").values_list(
        "match_id", *LINE_FIELDS
    ):
        lines[row[0]].append(list(row[1:]))
    papers = {row[0]: list(row[1:]) for row in PaperResult.objects.filter(match__event_id=event_id).values_list(
        "match_id", *PAPER_FIELDS
    )}
    members: dict[int, list[int]] = defaultdict(list)
    for group_id, pair_id in GroupEntry.objects.filter(group__event_id=event_id).order_by("group_id", "slot").values_list(
        "group_id", "pair_id"
    ):
        members[group_id].append(pair_id)
    return {
        "event": {
            "id": ev.pk, "kind": ev.kind, "format": ev.format, "group_count": ev.group_count,
            "deals": [ev.deals_saturday, ev.deals_sunday, ev.deals_placement],
        },
        "draw": {
            "seed": ev.draw_seed,
            "swaps": [list(s) for s in DrawSwap.objects.filter(event_id=event_id).order_by("swapped_at", "pk")
                      .values_list("pair_x_id", "pair_y_id")],
        },
        "pairs": [
            [pk, number, club_id, withdrawn is not None]
            for pk, number, club_id, withdrawn in Pair.objects.filter(event_id=event_id).order_by("pk").values_list(
                "pk", "number", "club_id", "withdrawn_at"
            )
        ],
        "groups": [
            [pk, stage, name, deals, members.get(pk, [])]
            for pk, stage, name, deals in Group.objects.filter(event_id=event_id).order_by("pk").values_list(
                "pk", "stage", "name", "deals_planned"
            )
        ],
        "matches": [
            [pk, stage, group_id, rnd, table, a, b, deals, status, tier, p_round, slot, lines.get(pk, []),
             papers.get(pk)]
            for pk, stage, group_id, rnd, table, a, b, deals, status, tier, p_round, slot in
            Match.objects.filter(event_id=event_id).order_by("pk").values_list(
                "pk", "stage", "group_id", "round", "table", "pair_a_id", "pair_b_id", "deals_planned", "status",
                "tier", "placement_round", "slot",
            )
        ],
        "playoffs": [
            [group_id, order]
            for group_id, order in Playoff.objects.filter(group__event_id=event_id).order_by("recorded_at", "pk")
            .values_list("group_id", "order")
        ],
        "seeding_corrections": [
            [before, after]
            for before, after in SeedingCorrection.objects.filter(event_id=event_id).order_by("at", "pk")
            .values_list("before", "after")
        ],
    }


def digest(record: dict) -> str:
    """SHA-256 of the record written as canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def places_of(event: Event) -> list[list[int]] | None:
    """The final places the rules engine gives from the stored facts now ([[place, pair id], …]; for an
    event kind of another app, as that app gives them: the team competition's are teams')."""
    own = extensions.final_places(event.kind)
    places = own(event) if own is not None else readmodel.build(event.pk).final_places
    return None if places is None else [list(p) for p in places]


def record_publication(event: Event, user) -> Publication:
    """The record kept when the final places are published (inside the publishing transaction)."""
    return Publication.objects.create(
        event=event, kind=Publication.Kind.PUBLISH, user=user, places=places_of(event),
        digest=digest(canonical_record(event.pk)),
    )


def record_correction(event: Event, match: Match | None, user, reason: str) -> Publication:
    """The record kept after a change made once the results were published (same transaction)."""
    return Publication.objects.create(
        event=event, kind=Publication.Kind.CORRECTION, user=user, reason=reason.strip() or "-", match=match,
        places=places_of(event), digest=digest(canonical_record(event.pk)),
    )


def latest(event: Event) -> Publication | None:
    return Publication.objects.filter(event=event).order_by("-at", "-pk").first()


def verify(event: Event) -> list[str]:
    """What no longer agrees between the latest published record and the stored facts (empty: all agree)."""
    found = latest(event)
    if found is None:
        return ["no published record: the event's results have not been published"]
    problems = []
    now = digest(canonical_record(event.pk))
    if now != found.digest:
        problems.append(f"the result record's digest is {now}, the published one {found.digest}")
    places = places_of(event)
    if places != found.places:
        problems.append(f"the final places computed now ({_short(places)}) differ from the published ones "
                        f"({_short(found.places)})")
    return problems


def _short(places) -> str:
    if places is None:
        return "not complete"
    return ", ".join(f"{place}. #{pair}" for place, pair in places[:6]) + (" …" if len(places) > 6 else "")
