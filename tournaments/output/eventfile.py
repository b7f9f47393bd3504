"""The event file (issue #27): one pair event as a versioned JSON document (``"format": "tuppi-event"``,
``"version": 1``, schema ``docs/tuppi-event.schema.json``), written from the stored facts. Read only.

The file holds what rebuilds the event and what checks it: the event, its settings and times, the
officials, the clubs and players it uses (member numbers, names, home and season clubs), the pairs, the
withdrawals, the groups and the draw, every match with its scoresheet lines and paper result, acceptances
and confirmations, play-offs, seeding corrections, the judges' council's appeals, rulings and exclusions
(issue #29; written only for an event that has them, ``appeal_minutes`` only when not the default, so that
the files of other events stay as they were), the final places and the chain of published records with
their digests; and the parts other apps keep (``extensions.event_file_part``: the cup's counting and
fines). Beside the facts it states the results the server computed from them (each line's
points and totals, each match's result, each group's table), which ``python -m scoring verify`` computes
again without the server.

No database id is written: pairs by number, players by member number (a newcomer without one by a key of
this file, ``uusi-1``, …, with the name and club), matches by stage, group, round and table. The text is
canonical (sorted keys, fixed separators, stable order, a trailing newline): the same event exported from
two databases gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict

from django.conf import settings

from registry.models import Club, Player, SeasonClub
from scoring import match as engine
from scoring.draw import group_name_key
from scoring.errors import ScoringError
from tournaments import extensions
from tournaments.models import (
    Appeal,
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
    Withdrawal,
)
from tournaments.readmodel import build
from tournaments.readmodel.results import LINE_FIELDS, PAPER_FIELDS, engine_entry

FORMAT = "tuppi-event"
VERSION = 1
STAGE_ORDER = {s: i for i, s in enumerate(Stage.values)}
NEWCOMER = "uusi-"  # the key prefix of a player without a member number
APPEAL_MINUTES = Event._meta.get_field("appeal_minutes").default  # written only when an event has another


def stamp(value: dt.datetime | None) -> str | None:
    """A moment as ISO 8601 in UTC (microseconds kept), or None."""
    return None if value is None else value.astimezone(dt.UTC).isoformat()


def money(value) -> str | None:
    return None if value is None else f"{value:.2f}"


def text(data: dict) -> str:
    """The file's canonical text: sorted keys, two-space indentation, UTF-8 as it is, a trailing newline."""
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False, separators=(",", ": ")) + "\n"


def export_text(event: Event) -> str:
    return text(export(event))


def export(event: Event) -> dict:
    """The event file of ``event`` as plain JSON values."""
    ev = Event.objects.select_related("season", "organising_club", "drawn_by").get(pk=event.pk)
    pairs = list(Pair.objects.filter(event=ev).select_related("club").prefetch_related("members").order_by("number"))
    numbers = {p.pk: p.number for p in pairs}
    players, keys = _players(ev)
    groups = _groups(ev, numbers)
    group_names = {pk: name for pk, name in Group.objects.filter(event=ev).values_list("pk", "name")}
    refs = {
        pk: match_ref(stage, group_names.get(group_id, ""), rnd, table)
        for pk, stage, group_id, rnd, table in Match.objects.filter(event=ev).values_list(
            "pk", "stage", "group_id", "round", "table"
        )
    }
    snapshot = build.build(ev.pk)
    parts = {
        key: part.export(ev, refs, numbers, keys) for key, part in extensions.event_file_parts().items()
        if key != "teams" or ev.kind == Event.Kind.SM_TEAM  # the team competition's part: only in its file
    }
    clubs = {p.club for p in pairs} | {ev.organising_club} - {None}
    clubs |= set(Club.objects.filter(pk__in=[c for c in _player_club_ids(ev) if c]))
    named = {name for key, part in extensions.event_file_parts().items() if key in parts for name in part.clubs(parts[key])}
    clubs |= set(Club.objects.filter(name__in=named))
    exclusions = _exclusions(ev, numbers, keys)
    return {
        **parts,
        **({"exclusions": exclusions} if exclusions else {}),
        "format": FORMAT,
        "version": VERSION,
        "rules": {"overwhelming": settings.TUPPI_OVERWHELMING_RULE, "standings_first": settings.TUPPI_STANDINGS_FIRST},
        "event": _event(ev),
        "officials": {
            "judges": list(ev.judges or []),
            "drawn_by": "" if ev.drawn_by is None else (ev.drawn_by.get_full_name() or ev.drawn_by.username),
        },
        "clubs": sorted(
            ({"name": c.name, "short_name": c.short_name, "town": c.town} for c in clubs), key=lambda c: c["name"]
        ),
        "players": players,
        "pairs": [_pair(p, keys) for p in pairs],
        "withdrawals": _withdrawals(ev, numbers, refs),
        "draw": {
            "seed": ev.draw_seed,
            "drawn_at": stamp(ev.drawn_at),
            "swaps": [
                {"pairs": [numbers[x], numbers[y]], "at": stamp(at)}
                for x, y, at in DrawSwap.objects.filter(event=ev).order_by("swapped_at", "pk").values_list(
                    "pair_x_id", "pair_y_id", "swapped_at"
                )
            ],
        },
        "groups": _stated_tables(groups, snapshot, numbers),
        "matches": _matches(ev, numbers, keys, refs, snapshot),
        "playoffs": [
            {"stage": stage, "group": name, "order": [numbers.get(p, p) for p in order], "at": stamp(at)}
            for stage, name, order, at in Playoff.objects.filter(group__event=ev).order_by("recorded_at", "pk")
            .values_list("group__stage", "group__name", "order", "recorded_at")
        ],
        "seeding_corrections": [
            {"at": stamp(at), "before": _renumber(before, numbers), "after": _renumber(after, numbers)}
            for before, after, at in SeedingCorrection.objects.filter(event=ev).order_by("at", "pk")
            .values_list("before", "after", "at")
        ],
        "places": None if snapshot.final_places is None else [
            [place, numbers[pair_id]] for place, pair_id in snapshot.final_places
        ],
        "publications": _publications(ev, numbers, refs),
    }


def match_ref(stage: str, group: str, rnd: int, table: int) -> dict:
    return {"stage": stage, "group": group, "round": rnd, "table": table}


def _ref_key(ref: dict) -> tuple:
    return (STAGE_ORDER.get(ref["stage"], 9), ref["round"], ref["table"])


def _event(ev: Event) -> dict:
    # the judges' council's time for appeals (issue #29): only when not the default, so that the files of
    # events that keep it stay as they were
    minutes = {} if ev.appeal_minutes == APPEAL_MINUTES else {"appeal_minutes": ev.appeal_minutes}
    return {
        **minutes,
        "slug": ev.slug, "name": ev.name, "kind": ev.kind, "format": ev.format,
        "season": ev.season.start.isoformat(), "starts_on": ev.starts_on.isoformat(),
        "ends_on": ev.ends_on.isoformat(), "venue": ev.venue,
        "organising_club": None if ev.organising_club is None else ev.organising_club.name,
        "group_count": ev.group_count,
        "deals": {"saturday": ev.deals_saturday, "sunday": ev.deals_sunday, "placement": ev.deals_placement},
        "require_acceptance": ev.require_acceptance, "link_paper_allowed": ev.link_paper_allowed,
        "times": {
            "draw": ev.draw_time.isoformat(), "play": ev.play_time.isoformat(),
            "sunday_play": ev.sunday_play_time.isoformat(), "minutes_per_deal": ev.minutes_per_deal,
        },
        "fee": {"amount": money(ev.entry_fee), "basis": ev.fee_basis},
        "finished_at": stamp(ev.finished_at),
    }


def _player_rows(ev: Event) -> list[Player]:
    ids = set(PairMember.objects.filter(event=ev).values_list("player_id", flat=True))
    for player_id, substitute_id in MatchSubstitute.objects.filter(match__event=ev).values_list("player_id", "substitute_id"):
        ids |= {player_id, substitute_id}
    ids |= set(Exclusion.objects.filter(event=ev).values_list("player_id", flat=True))
    for part in extensions.event_file_parts().values():  # the players another app names (a team's substitute)
        if part.players is not None:
            ids |= part.players(ev)
    return list(Player.objects.filter(pk__in=ids).select_related("club"))


def _player_club_ids(ev: Event) -> set[int]:
    players = _player_rows(ev)
    ids = {p.club_id for p in players}
    ids |= set(SeasonClub.objects.filter(season=ev.season, player__in=players).values_list("club_id", flat=True))
    return ids


def _players(ev: Event) -> tuple[list[dict], dict[int, str]]:
    """The players the event uses, and each one's key in the file (its member number, or ``uusi-N`` for a
    newcomer, numbered in the order of name and club)."""
    rows = _player_rows(ev)
    season = {
        player_id: (club, first_event == ev.pk)
        for player_id, club, first_event in SeasonClub.objects.filter(season=ev.season, player__in=rows)
        .values_list("player_id", "club__name", "first_event_id")
    }
    keys: dict[int, str] = {}
    newcomers = sorted(
        (p for p in rows if not p.member_number),
        key=lambda p: (p.last_name, p.first_name, p.club.name if p.club else "", season.get(p.pk, ("",))[0]),
    )
    for n, p in enumerate(newcomers, start=1):
        keys[p.pk] = f"{NEWCOMER}{n}"
    for p in rows:
        keys.setdefault(p.pk, p.member_number)
    out = []
    for p in rows:
        club, first = season.get(p.pk, (None, False))
        out.append({
            "key": keys[p.pk], "member_number": p.member_number, "first_name": p.first_name,
            "last_name": p.last_name, "club": p.club.name if p.club else None,
            "season_club": None if club is None else {"club": club, "first_event": first},
        })
    out.sort(key=lambda p: (p["member_number"] is None, p["key"] if p["member_number"] else int(p["key"][5:])))
    return out, keys


def _pair(p: Pair, keys: dict[int, str]) -> dict:
    return {
        "number": p.number, "club": p.club.name,
        "players": [keys[m.player_id] for m in sorted(p.members.all(), key=lambda m: m.position)],
        "checked_in": p.checked_in, "withdrawn_at": stamp(p.withdrawn_at),
        "fee": None if p.fee_paid_at is None else {
            "paid_at": stamp(p.fee_paid_at), "method": p.fee_method, "amount": money(p.fee_amount),
        },
    }


def _withdrawals(ev: Event, numbers: dict, refs: dict) -> list[dict]:
    out = []
    for w in Withdrawal.objects.filter(pair__event=ev):
        annulled = [
            {"match": refs[int(pk)], "status": status} for pk, status in (w.annulled or {}).items() if int(pk) in refs
        ]
        out.append({
            "pair": numbers[w.pair_id], "at": stamp(w.at), "undone_at": stamp(w.undone_at),
            "annulled": sorted(annulled, key=lambda a: _ref_key(a["match"])),
        })
    return sorted(out, key=lambda w: (w["pair"], w["at"]))


def _groups(ev: Event, numbers: dict) -> list[tuple]:
    members: dict[int, list[int]] = defaultdict(list)
    for group_id, pair_id in GroupEntry.objects.filter(group__event=ev).order_by("group_id", "slot").values_list(
        "group_id", "pair_id"
    ):
        members[group_id].append(numbers[pair_id])
    rows = Group.objects.filter(event=ev).values_list("pk", "stage", "name", "deals_planned")
    return sorted(
        ((pk, stage, name, deals, members.get(pk, [])) for pk, stage, name, deals in rows),
        key=lambda g: (STAGE_ORDER.get(g[1], 9), group_name_key(g[2])),
    )


def _stated_tables(groups: list[tuple], snapshot, numbers: dict) -> list[dict]:
    """Each group with its pairs in slot order and the table the server computed (ranked pairs)."""
    tables = {t.group.pk: t for stage in snapshot.tables.values() for t in stage}
    out = []
    for pk, stage, name, deals, members in groups:
        table = tables.get(pk)
        out.append({
            "stage": stage, "name": name, "deals": deals, "pairs": members,
            "table": None if table is None else [
                {"pair": numbers[r.pair.pk], "rank": r.standing.rank, "match_points": r.standing.match_points,
                 "totals": r.standing.totals}
                for r in table.rows
            ],
        })
    return out


def _lines(rows: list[tuple], deals: int) -> tuple[list[dict], str | None]:
    """The scoresheet's lines with the points and totals the rules engine gives after each."""
    entries = [engine_entry(*row) for row in rows]
    try:
        folded, _state = engine.sheet(entries, deals, overwhelming=settings.TUPPI_OVERWHELMING_RULE)
    except ScoringError as exc:  # a stored sheet the engine refuses: stated as such, never hidden
        folded, error = [None] * len(rows), exc.code
    else:
        error = None
    out = []
    for row, line in zip(rows, folded, strict=True):
        item = dict(zip(LINE_FIELDS, row, strict=True))
        # what the line scored and the rise totals after it, as the rules engine gives them (stated)
        item["after"] = None if line is None else {"points": line.points, "totals": [line.totals.a, line.totals.b]}
        out.append(item)
    return out, error


def _matches(ev: Event, numbers: dict, keys: dict, refs: dict, snapshot) -> list[dict]:
    lines: dict[int, list] = defaultdict(list)
    for row in Entry.objects.filter(match__event=ev).order_by("match_id", "position").values_list("match_id", *LINE_FIELDS):
        lines[row[0]].append(row[1:])
    papers = {
        row[0]: dict(zip(PAPER_FIELDS, row[1:], strict=True))
        for row in PaperResult.objects.filter(match__event=ev).values_list("match_id", *PAPER_FIELDS)
    }
    subs: dict[int, list] = defaultdict(list)
    for match_id, player, substitute in MatchSubstitute.objects.filter(match__event=ev).values_list(
        "match_id", "player_id", "substitute_id"
    ):
        subs[match_id].append({"player": keys[player], "substitute": keys[substitute]})
    outcomes = {m.pk: m.outcome for m in snapshot.matches}
    council = _council(ev)
    out = []
    for m in Match.objects.filter(event=ev):
        sheet, error = _lines(lines.get(m.pk, []), m.deals_planned)
        o = outcomes.get(m.pk)
        out.append({
            **refs[m.pk],
            "placement": None if m.stage != Stage.PLACEMENT else {
                "tier": m.tier, "round": m.placement_round, "slot": m.slot,
            },
            "pairs": [numbers[m.pair_a_id], numbers[m.pair_b_id]], "deals": m.deals_planned, "status": m.status,
            "referee": m.referee, "link_closed": m.link_closed,
            "accepted": [stamp(m.accepted_a_at), stamp(m.accepted_b_at)],
            "confirmed_at": stamp(m.confirmed_at), "corrected_at": stamp(m.corrected_at),
            "finished_at": stamp(m.finished_at),
            "lines": sheet, "paper": papers.get(m.pk),
            "substitutes": sorted(subs.get(m.pk, []), key=lambda s: (s["player"], s["substitute"])),
            "result": None if o is None else _result(o, numbers, error),
            **council.get(m.pk, {}),
        })
    return sorted(out, key=_ref_key)


def _council(ev: Event) -> dict[int, dict]:
    """Each match's appeals (in the order filed) and the council's rulings on it (in the order given; an
    appeal's ruling names it by its place in the match's ``appeals``, 1, 2, …), by match id; a match
    without any has neither key, so that the files of events without them stay as they were."""
    out: dict[int, dict] = defaultdict(dict)
    places: dict[int, int] = {}
    for a in Appeal.objects.filter(match__event=ev).order_by("match_id", "filed_at", "pk"):
        appeals = out[a.match_id].setdefault("appeals", [])
        appeals.append({
            "side": a.side, "subject": a.subject, "line": a.line, "filed_at": stamp(a.filed_at),
            "by_organiser": a.filed_by_organiser, "status": a.status, "ruled_at": stamp(a.ruled_at),
        })
        places[a.pk] = len(appeals)
    for r in Ruling.objects.filter(event=ev).order_by("ruled_at", "pk"):
        out[r.match_id].setdefault("rulings", []).append({
            "appeal": places.get(r.appeal_id), "members": list(r.members), "referee_heard": r.referee_heard,
            "pairs_heard": r.pairs_heard, "decision": r.decision, "effect": r.effect, "detail": r.detail,
            "reasons": r.reasons, "at": stamp(r.ruled_at),
        })
    return out


def _exclusions(ev: Event, numbers: dict, keys: dict) -> list[dict]:
    """The players the council excluded from the event (issue #29), in the order decided."""
    return [
        {"pair": numbers[pair_id], "player": keys[player_id], "members": list(members), "reason": reason,
         "at": stamp(at)}
        for pair_id, player_id, members, reason, at in Exclusion.objects.filter(event=ev).order_by("at", "pk")
        .values_list("pair_id", "player_id", "members", "reason", "at")
    ]


def _result(o, numbers: dict, error: str | None) -> dict:
    return {
        "finished": o.finished, "winner": None if o.winner is None else numbers[o.winner], "tuppi": o.tuppi,
        "totals": list(o.totals), "match_points": None if o.match_points is None else list(o.match_points),
        "error": error or o.error,
    }


def _renumber(value, numbers: dict):
    """Pair ids (in nested lists) as pair numbers."""
    if isinstance(value, list):
        return [_renumber(v, numbers) for v in value]
    return numbers.get(value, value)


def _publications(ev: Event, numbers: dict, refs: dict) -> list[dict]:
    naming = extensions.places_naming(ev.kind)  # a team competition's places: by team name

    def named(places):
        if naming is not None:
            return naming.named(ev.pk, places)
        return [[place, numbers.get(who, who)] for place, who in places]

    return [
        {
            "kind": p.kind, "at": stamp(p.at), "reason": p.reason,
            "match": refs.get(p.match_id) if p.match_id else None,
            "places": None if p.places is None else named(p.places),
            "digest": p.digest, "previous_digest": p.previous_digest, "record": p.record,
        }
        for p in Publication.objects.filter(event=ev).order_by("pk")
    ]
