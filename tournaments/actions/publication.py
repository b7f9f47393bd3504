"""The published record of an event (issues #16 and #24): its final places and a SHA-256 digest of its
canonical result record, kept at publication and after every correction made after it, and checked again
by ``manage.py verify_event``.

The canonical record holds every fact the results and the cup points are made from, in a fixed order
and form: the event's kind, format, season and deal counts; the draw (its seed and swaps); every pair
with its number, its club as printed and its players in seat order (member number, first and last name,
as printed); whether it withdrew; every group with its pairs in slot order; every match with its pairs,
planned deals, workflow status, scoresheet lines (forfeits and penalties included), paper result and
substitutes; the play-offs; the Sunday seeding corrections; the final places; and the digest of the
record published before it (the chain). Pairs are named by their numbers, players by member number and
name, matches by stage, round and table, never by a database id: two databases holding the same facts
give the same digest, and a row changed behind the application's back (a player swapped in a pair, a
line edited) gives another one.

Each ``Publication`` row keeps the exact text it hashed and the digest of the row before it, so the rows
form a chain: a correction after publication adds a link and cannot silently replace the earlier record.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict

from scoring.draw import group_name_key
from tournaments import extensions
from tournaments.models import (
    DrawSwap,
    Entry,
    Event,
    Exclusion,
    Group,
    GroupEntry,
    Match,
    MatchSubstitute,
    Pair,
    PairMember,
    PaperResult,
    Playoff,
    Publication,
    Ruling,
    SeedingCorrection,
    Stage,
)
from tournaments.readmodel import build
from tournaments.readmodel.results import LINE_FIELDS, PAPER_FIELDS

FORM = 2  # the record's form: 2 since issue #24 (players, names, places, the chain)
# Form 3 (issue #27): an event kind of another app that names its places outside the database (the team
# competition: its places by team name, and its teams) — no database id left in the record. Records of
# form 2 kept before it are rebuilt in their own form when checked (``verify``), so they still verify.
NAMED_FORM = 3
STAGE_ORDER = {s: i for i, s in enumerate(Stage.values)}


def canonical_record(event_id: int, places: list | None, previous: str = "", form: int | None = None) -> dict:
    """Every fact of the event's results as plain JSON values, in a fixed order (a fixed number of
    queries). ``places`` are the final places as :func:`places_of` gives them (by pair id; written here
    by pair number), ``previous`` the digest of the record published before this one ("" for none).
    ``form``: the record's form (None: the newest for the event's kind; 2 for a record kept before a team
    competition's record named its teams)."""
    ev = Event.objects.select_related("season").get(pk=event_id)
    naming = extensions.places_naming(ev.kind)
    if naming is not None and form != FORM:
        return {
            **canonical_record(event_id, None, previous, FORM), "form": NAMED_FORM, **naming.record(event_id),
            "places": None if places is None else naming.named(event_id, places),
        }
    numbers: dict[int, int] = {}
    rows = Pair.objects.filter(event_id=event_id).order_by("number").values_list(
        "pk", "number", "club__name", "club__short_name", "withdrawn_at"
    )
    pairs = []
    for pk, number, club, short, withdrawn in rows:
        numbers[pk] = number
        pairs.append({"number": number, "club": [club, short], "withdrawn": withdrawn is not None, "players": []})
    players = {p["number"]: p["players"] for p in pairs}
    for pair_id, member, first, last in PairMember.objects.filter(event_id=event_id).order_by(
        "pair_id", "position"
    ).values_list("pair_id", "player__member_number", "player__first_name", "player__last_name"):
        players[numbers[pair_id]].append([member, first, last])
    groups = _groups(event_id, numbers)
    return {
        "form": FORM,
        "previous": previous,
        "event": {
            "slug": ev.slug, "kind": ev.kind, "format": ev.format, "group_count": ev.group_count,
            "season": ev.season.start.isoformat(),
            "deals": [ev.deals_saturday, ev.deals_sunday, ev.deals_placement],
        },
        "draw": {
            "seed": ev.draw_seed,
            "swaps": [[numbers[x], numbers[y]] for x, y in DrawSwap.objects.filter(event_id=event_id)
                      .order_by("swapped_at", "pk").values_list("pair_x_id", "pair_y_id")],
        },
        "pairs": pairs,
        "groups": [[stage, name, deals, members] for _pk, stage, name, deals, members in groups],
        "matches": _matches(event_id, numbers, {pk: name for pk, _s, name, _d, _m in groups}),
        "playoffs": [
            [stage, name, [numbers.get(p, p) for p in order]]
            for stage, name, order in Playoff.objects.filter(group__event_id=event_id).order_by("recorded_at", "pk")
            .values_list("group__stage", "group__name", "order")
        ],
        "seeding_corrections": [
            [[[numbers.get(p, p) for p in g] for g in before], [[numbers.get(p, p) for p in g] for g in after]]
            for before, after in SeedingCorrection.objects.filter(event_id=event_id).order_by("at", "pk")
            .values_list("before", "after")
        ],
        **_rulings(event_id, numbers),
        "places": None if places is None else (
            [[place, numbers.get(who, who)] for place, who in places] if ev.kind != Event.Kind.SM_TEAM
            else [list(p) for p in places]  # a team competition's places are its teams'
        ),
    }


def _rulings(event_id: int, numbers: dict[int, int]) -> dict:
    """The judges' council's rulings (issue #29), in order: the match (stage, round, table, pairs), the
    appeal's pair (or None), the members, the hearing, the decision, its effect and reasons; and its
    exclusions (the pair, the player, the members, the reason). Each only in the record of an event that
    has any, so that the records of events without them stay as they were."""
    rows = Ruling.objects.filter(event_id=event_id).order_by("ruled_at", "pk").values_list(
        "match__stage", "match__round", "match__table", "match__pair_a_id", "match__pair_b_id", "appeal__side",
        "members", "referee_heard", "pairs_heard", "decision", "effect", "reasons", "detail",
    )
    found = [
        [stage, rnd, table, [numbers[a], numbers[b]], side, list(members), heard_ref, heard_pairs, decision, effect,
         reasons, detail]
        for stage, rnd, table, a, b, side, members, heard_ref, heard_pairs, decision, effect, reasons, detail in rows
    ]
    excluded = [
        [numbers[pair_id], [member, first, last], list(members), reason]
        for pair_id, member, first, last, members, reason in Exclusion.objects.filter(event_id=event_id)
        .order_by("at", "pk").values_list(
            "pair_id", "player__member_number", "player__first_name", "player__last_name", "members", "reason"
        )
    ]
    return {**({"rulings": found} if found else {}), **({"exclusions": excluded} if excluded else {})}


def _groups(event_id: int, numbers: dict[int, int]) -> list[tuple]:
    members: dict[int, list[int]] = defaultdict(list)
    for group_id, pair_id in GroupEntry.objects.filter(group__event_id=event_id).order_by("group_id", "slot").values_list(
        "group_id", "pair_id"
    ):
        members[group_id].append(numbers[pair_id])
    rows = Group.objects.filter(event_id=event_id).values_list("pk", "stage", "name", "deals_planned")
    return sorted(
        ((pk, stage, name, deals, members.get(pk, [])) for pk, stage, name, deals in rows),
        key=lambda g: (STAGE_ORDER.get(g[1], 9), group_name_key(g[2])),
    )


def _matches(event_id: int, numbers: dict[int, int], group_names: dict[int, str]) -> list[dict]:
    lines: dict[int, list] = defaultdict(list)
    for row in Entry.objects.filter(match__event_id=event_id).order_by("match_id", "position").values_list(
        "match_id", *LINE_FIELDS
    ):
        lines[row[0]].append(list(row[1:]))
    papers = {row[0]: list(row[1:]) for row in PaperResult.objects.filter(match__event_id=event_id).values_list(
        "match_id", *PAPER_FIELDS
    )}
    subs: dict[int, list] = defaultdict(list)
    for row in MatchSubstitute.objects.filter(match__event_id=event_id).values_list(
        "match_id", "player__member_number", "player__first_name", "player__last_name",
        "substitute__member_number", "substitute__first_name", "substitute__last_name",
    ):
        subs[row[0]].append([list(row[1:4]), list(row[4:7])])
    out = []
    for pk, stage, group_id, rnd, table, a, b, deals, status, tier, p_round, slot in Match.objects.filter(
        event_id=event_id
    ).values_list(
        "pk", "stage", "group_id", "round", "table", "pair_a_id", "pair_b_id", "deals_planned", "status",
        "tier", "placement_round", "slot",
    ):
        out.append({
            "stage": stage, "group": group_names.get(group_id, ""), "round": rnd, "table": table,
            "placement": [tier, p_round, slot], "pairs": [numbers[a], numbers[b]], "deals": deals,
            "status": status, "lines": lines.get(pk, []), "paper": papers.get(pk),
            "substitutes": sorted(subs.get(pk, []), key=json.dumps),  # in Python: databases sort NULLs apart
        })
    return sorted(out, key=lambda m: (STAGE_ORDER.get(m["stage"], 9), m["round"], m["table"]))


def record_text(record: dict) -> str:
    """The record written as canonical JSON (sorted keys, no spaces): the text that is hashed and kept."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def digest(record: dict) -> str:
    """SHA-256 of the record written as canonical JSON (UTF-8)."""
    return sha256(record_text(record))


def places_of(event: Event) -> list[list[int]] | None:
    """The final places the rules engine gives from the stored facts now ([[place, pair id], …]; for an
    event kind of another app, as that app gives them: the team competition's are teams')."""
    own = extensions.final_places(event.kind)
    places = own(event) if own is not None else build.build(event.pk).final_places
    return None if places is None else [list(p) for p in places]


def _record(event: Event, kind: str, user, *, places, reason: str = "", match: Match | None = None) -> Publication:
    """A new link of the event's chain: the record as the facts give it now, naming the one before it."""
    if places is None:  # the services refuse such a change first (``services.republish``)
        raise ValueError("a published record always holds the final places")
    before = latest(event)
    previous = before.digest if before is not None else ""
    text = record_text(canonical_record(event.pk, places, previous))
    return Publication.objects.create(
        event=event, kind=kind, user=user, reason=reason, match=match, places=places,
        digest=sha256(text), previous_digest=previous, record=text,
    )


def record_publication(event: Event, user) -> Publication:
    """The record kept when the final places are published (inside the publishing transaction)."""
    return _record(event, Publication.Kind.PUBLISH, user, places=places_of(event))


def record_correction(event: Event, match: Match | None, user, reason: str, *, places=None) -> Publication:
    """The record kept after a change made once the results were published (same transaction), holding
    the final places as the change left them (``places``: computed by the caller, else here)."""
    return _record(
        event, Publication.Kind.CORRECTION, user, reason=reason.strip() or "-", match=match,
        places=places if places is not None else places_of(event),
    )


def chain(event: Event) -> list[Publication]:
    """The event's published records in the order they were kept."""
    return list(Publication.objects.filter(event=event).order_by("pk"))


def latest(event: Event) -> Publication | None:
    return Publication.objects.filter(event=event).order_by("-pk").first()


# --- checking -------------------------------------------------------------------------------------------


def verify(event: Event) -> list[str]:
    """What no longer agrees between the published records and the stored facts (empty: all agree): each
    link of the chain, then the latest record against the facts now, and the final places."""
    links = chain(event)
    if not links:
        return ["no published record: the event's results have not been published"]
    problems = chain_problems(links)
    found = links[-1]
    places = places_of(event)
    if found.record:
        kept = json.loads(found.record)
        # a team competition's record of form 2 named its teams by the ids of the database it was made in:
        # rebuilt with its own places (the places are checked below against the ones kept beside it)
        old_ids = kept.get("form") == FORM and extensions.places_naming(event.kind) is not None
        now = canonical_record(event.pk, kept.get("places") if old_ids else places, found.previous_digest, kept.get("form"))
        if digest(now) != found.digest:
            problems.append(f"the result record's digest is {digest(now)}, the published one {found.digest}")
            problems += differences(json.loads(found.record), now)
    else:  # kept before issue #24: its digest is of the older form
        now_digest = digest(legacy_record(event.pk))
        if now_digest != found.digest:
            problems.append(f"the result record's digest is {now_digest}, the published one {found.digest}")
    if places != found.places:
        problems.append(f"the final places computed now ({_short(places)}) differ from the published ones "
                        f"({_short(found.places)})")
    return problems


def _link(n: int, row: Publication) -> str:
    what = "the publication" if row.kind == Publication.Kind.PUBLISH else f"the correction {row.reason!r}"
    return f"link {n} ({what} of {row.at:%Y-%m-%d %H:%M})"


def chain_problems(links: list[Publication]) -> list[str]:
    """Where the chain breaks: a record that does not name the one before it, or whose kept text no
    longer gives its digest (the row was changed)."""
    problems = []
    for n, row in enumerate(links, start=1):
        expected = links[n - 2].digest if n > 1 else ""
        if row.previous_digest != expected:
            problems.append(
                f"the chain breaks at {_link(n, row)}: it names {row.previous_digest or 'no record'} as the record "
                f"before it, but {'link ' + str(n - 1) + ' holds ' + expected if n > 1 else 'it is the first'}"
            )
        if not row.record:
            continue
        if sha256(row.record) != row.digest:
            problems.append(f"the chain breaks at {_link(n, row)}: its kept record does not give its digest "
                            f"{row.digest}: the row was changed")
        elif json.loads(row.record).get("previous") != row.previous_digest:
            problems.append(f"the chain breaks at {_link(n, row)}: its kept record names another record before it")
    return problems


def differences(published: dict, now: dict) -> list[str]:
    """What differs between a published record and the record the facts give now, in words: each pair
    whose players, club or withdrawal changed, each match whose sheet changed, then any other part."""
    out = _pair_differences(published.get("pairs", []), now["pairs"])
    out += _match_differences(published.get("matches", []), now["matches"])
    for part in ("event", "draw", "groups", "playoffs", "seeding_corrections", "rulings", "exclusions", "places"):
        if published.get(part) != now.get(part):
            out.append(f"the {part.replace('_', ' ')} differ from the published record")
    return out


def _names(players: list) -> str:
    return ", ".join(f"{first} {last} ({member or 'no member number'})" for member, first, last in players)


def _pair_differences(published: list, now: list) -> list[str]:
    before, after = {p["number"]: p for p in published}, {p["number"]: p for p in now}
    out = []
    for number in sorted(before.keys() | after.keys()):
        old, new = before.get(number), after.get(number)
        if old is None or new is None:
            out.append(f"pair {number} {'is new' if old is None else 'is gone'} since the published record")
            continue
        if old["players"] != new["players"]:
            out.append(f"pair {number}: its players were {_names(old['players'])}; now {_names(new['players'])}")
        if old["club"] != new["club"]:
            out.append(f"pair {number}: its club was {old['club'][0]}; now {new['club'][0]}")
        if old["withdrawn"] != new["withdrawn"]:
            out.append(f"pair {number}: {'withdrawn' if new['withdrawn'] else 'no longer withdrawn'} since publication")
    return out


def _match_differences(published: list, now: list) -> list[str]:
    def key(m):
        return (m["stage"], m["round"], m["table"])

    before, after = {key(m): m for m in published}, {key(m): m for m in now}
    out = []
    for k in sorted(before.keys() | after.keys(), key=lambda k: (STAGE_ORDER.get(k[0], 9), k[1], k[2])):
        old, new = before.get(k), after.get(k)
        label = f"the {k[0]} match of round {k[1]}, table {k[2]}"
        if old is None or new is None:
            out.append(f"{label} {'is new' if old is None else 'is gone'} since the published record")
            continue
        changed = [part for part in ("pairs", "status", "lines", "paper", "substitutes", "deals") if old[part] != new[part]]
        if changed:
            out.append(f"{label} (pairs {' – '.join(map(str, new['pairs']))}): its {', '.join(changed)} differ")
    return out


def _short(places) -> str:
    if places is None:
        return "not complete"
    return ", ".join(f"{place}. #{pair}" for place, pair in places[:6]) + (" …" if len(places) > 6 else "")


def legacy_record(event_id: int) -> dict:
    """The record in its form before issue #24 (database ids, no players, no places, no chain): only to
    check the digests published then (``Publication.record`` empty)."""
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
    match_fields = ("pk", "stage", "group_id", "round", "table", "pair_a_id", "pair_b_id", "deals_planned", "status",
                    "tier", "placement_round", "slot")
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
            [*row, lines.get(row[0], []), papers.get(row[0])]
            for row in Match.objects.filter(event_id=event_id).order_by("pk").values_list(*match_fields)
        ],
        "playoffs": [
            list(p) for p in Playoff.objects.filter(group__event_id=event_id).order_by("recorded_at", "pk")
            .values_list("group_id", "order")
        ],
        "seeding_corrections": [
            list(c) for c in SeedingCorrection.objects.filter(event_id=event_id).order_by("at", "pk")
            .values_list("before", "after")
        ],
    }
