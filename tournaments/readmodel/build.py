"""Building an event's snapshot: its facts loaded in a fixed number of queries (fourteen, whatever the
event's size), and derived once each: every match's outcome, the Saturday and Sunday tables, the placement
bracket and the final places (RULES.md §3–5). Served by ``tournaments.readmodel.snapshot``."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import fields, replace

from django.conf import settings
from django.db.models import OuterRef, Subquery

from scoring import sunday as sunday_core
from scoring.draw import group_name_key
from scoring.errors import ScoringError
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
    Stage,
)
from tournaments.readmodel import timetable as day_clock
from tournaments.readmodel.results import (
    LINE_FIELDS,
    PAPER_FIELDS,
    GroupTable,
    engine_entry,
    fold_outcome,
    group_table,
)
from tournaments.readmodel.values import (
    AppealView,
    ClubView,
    EventInfo,
    EventSnapshot,
    GroupView,
    MatchView,
    PairView,
    PlayerView,
    PublicationView,
    RulingView,
    SwapView,
)

STAGE_ORDER = {s: i for i, s in enumerate(Stage.values)}  # the order pages show the stages in


def pair_view(pair: Pair) -> PairView:
    """A loaded pair (club and members prefetched, ``prefetch.with_pairs``) as the read model shows it."""
    club = ClubView(pair.club_id, pair.club.name, pair.club.short_name)
    players = tuple(PlayerView(p.pk, p.first_name, p.last_name) for p in pair.players)
    return PairView(pair.pk, pair.number, club, players, pair.withdrawn_at)


def match_pairs(matches) -> dict[int, tuple[PairView, PairView]]:
    """Each loaded match's two pairs as they sat at its table, substitutes in their places (one query)."""
    subs: dict[int, dict[int, PlayerView]] = defaultdict(dict)
    team = [m.pk for m in matches if m.stage == Stage.TEAM]
    for row in MatchSubstitute.objects.filter(match__in=team).select_related("substitute") if team else ():
        s = row.substitute
        subs[row.match_id][row.player_id] = PlayerView(s.pk, s.first_name, s.last_name, substitute=True)
    return {
        m.pk: (pair_view(m.pair_a).with_substitutes(subs[m.pk]), pair_view(m.pair_b).with_substitutes(subs[m.pk]))
        for m in matches
    }



def build(event_id: int, *, stages: tuple[str, ...] | None = None) -> EventSnapshot:
    """The snapshot of one event from the database, in fourteen queries whatever the event's size (a team
    competition's, fifteen: its substitutes).

    ``stages`` limits the matches, groups and lines loaded to those stages (a service that needs only
    Sunday's tables); such a snapshot has no final places and is never cached."""
    found = build_many([event_id], stages=stages)
    if event_id not in found:
        raise Event.DoesNotExist(f"no event {event_id}")
    return found[event_id]


def build_many(event_ids, *, stages: tuple[str, ...] | None = None) -> dict[int, EventSnapshot]:
    """The snapshots of several events (a season's cup), in fourteen queries whatever their number."""
    ids = list(dict.fromkeys(event_ids))
    events = {e.pk: e for e in Event.objects.select_related("organising_club", "drawn_by").filter(pk__in=ids)}
    pairs_q = Pair.objects.filter(event_id__in=ids)
    members = PairMember.objects.filter(event_id__in=ids)
    groups_q = Group.objects.filter(event_id__in=ids)
    entries_q = GroupEntry.objects.filter(group__event_id__in=ids)
    matches_q = Match.objects.filter(event_id__in=ids)
    lines_q = Entry.objects.filter(match__event_id__in=ids)
    papers_q = PaperResult.objects.filter(match__event_id__in=ids)
    if stages is not None:
        groups_q, entries_q = groups_q.filter(stage__in=stages), entries_q.filter(stage__in=stages)
        matches_q, lines_q = matches_q.filter(stage__in=stages), lines_q.filter(match__stage__in=stages)
        papers_q = papers_q.filter(match__stage__in=stages)

    pairs, all_pairs = _pairs(members, pairs_q)
    groups, group_by_id = _groups(groups_q, entries_q, all_pairs)
    matches, raw_lines = _matches(ids, matches_q, lines_q, papers_q, all_pairs, group_by_id)
    playoffs, swaps, published = _history(ids, all_pairs)
    council = _council(ids)

    # The facts were read in several statements: if a change committed in between, a snapshot may mix
    # two versions, so it is served once but not kept (the next request builds it again).
    now = dict(Event.objects.filter(pk__in=ids).values_list("pk", "results_version"))
    out = {}
    for event_id, ev in events.items():
        event_matches = sorted(
            (council.get(m.pk, lambda m: m)(m) for m in matches[event_id]),
            key=lambda m: (STAGE_ORDER.get(m.stage, 9), m.round, m.table),
        )
        out[event_id] = _assemble(
            ev, pairs[event_id], groups[event_id], event_matches, playoffs, tuple(swaps[event_id]), stages,
            publications=tuple(published[event_id]),
            cacheable=stages is None and now.get(event_id) == ev.results_version,
            lines={m.pk: tuple(raw_lines[m.pk]) for m in event_matches if raw_lines.get(m.pk)},
        )
    return out


def _pairs(members, pairs_q) -> tuple[dict[int, dict[int, PairView]], dict[int, PairView]]:
    """The pairs of each event (id → view) and of all of them, with their players and clubs (two queries)."""
    players: dict[int, list[PlayerView]] = defaultdict(list)
    for pair_id, player_id, first, last in members.order_by("pair_id", "position").values_list(
        "pair_id", "player_id", "player__first_name", "player__last_name"
    ):
        players[pair_id].append(PlayerView(player_id, first, last))
    clubs: dict[int, ClubView] = {}
    pairs: dict[int, dict[int, PairView]] = defaultdict(dict)
    all_pairs: dict[int, PairView] = {}
    # the council's exclusion, if any, in the same statement (a subquery: the query count stays)
    excluded = Exclusion.objects.filter(pair=OuterRef("pk")).order_by("-at", "-pk").values("reason")[:1]
    for pk, event_id, number, club_id, club_name, club_short, withdrawn_at, reason in pairs_q.order_by(
        "event_id", "number"
    ).annotate(excluded=Subquery(excluded)).values_list(
        "pk", "event_id", "number", "club_id", "club__name", "club__short_name", "withdrawn_at", "excluded"
    ):
        club = clubs.setdefault(club_id, ClubView(club_id, club_name, club_short))
        all_pairs[pk] = pairs[event_id][pk] = PairView(
            pk, number, club, tuple(players.get(pk, ())), withdrawn_at, excluded=reason or ""
        )
    return pairs, all_pairs


def _groups(groups_q, entries_q, all_pairs) -> tuple[dict[int, list[GroupView]], dict[int, GroupView]]:
    """The groups of each event in the order pages show them, with their pairs by slot (two queries)."""
    slots: dict[int, list[PairView]] = defaultdict(list)
    for group_id, pair_id in entries_q.order_by("group_id", "slot").values_list("group_id", "pair_id"):
        slots[group_id].append(all_pairs[pair_id])
    groups: dict[int, list[GroupView]] = defaultdict(list)
    group_by_id: dict[int, GroupView] = {}
    for pk, event_id, stage, name, deals in groups_q.values_list("pk", "event_id", "stage", "name", "deals_planned"):
        group_by_id[pk] = view = GroupView(pk, stage, name, deals, tuple(slots.get(pk, ())))
        groups[event_id].append(view)
    for event_groups in groups.values():
        event_groups.sort(key=lambda g: (STAGE_ORDER.get(g.stage, 9), group_name_key(g.name)))
    return groups, group_by_id


def _matches(ids, matches_q, lines_q, papers_q, all_pairs, group_by_id) -> tuple[dict[int, list[MatchView]], dict]:
    """The matches of each event with their outcomes folded from the scoresheet lines or the paper result
    (three queries, a fourth for the team competition's substitutes); the raw lines by match."""
    lines: dict[int, list] = defaultdict(list)
    raw_lines: dict[int, list[tuple]] = defaultdict(list)
    for row in lines_q.order_by("match_id", "position").values_list("match_id", *LINE_FIELDS):
        lines[row[0]].append(engine_entry(*row[1:]))
        raw_lines[row[0]].append(row[1:])
    papers = {row[0]: row[1:] for row in papers_q.values_list("match_id", *PAPER_FIELDS)}

    match_rows = list(matches_q.values_list(
        "pk", "event_id", "stage", "group_id", "round", "table", "pair_a_id", "pair_b_id", "deals_planned",
        "status", "tier", "placement_round", "slot", "version", "confirmed_at", "accepted_a_at", "accepted_b_at",
        "link_closed", "corrected_at", "finished_at", "referee",
    ))
    # Substitutes sit only at the team competition's tables: one more query, and only where there are some.
    substitutes: dict[int, dict[int, PlayerView]] = defaultdict(dict)
    if any(row[2] == Stage.TEAM for row in match_rows):
        for match_id, player_id, sub_id, first, last in MatchSubstitute.objects.filter(
            match__event_id__in=ids
        ).values_list("match_id", "player_id", "substitute_id", "substitute__first_name", "substitute__last_name"):
            substitutes[match_id][player_id] = PlayerView(sub_id, first, last, substitute=True)
    matches: dict[int, list[MatchView]] = defaultdict(list)
    for (pk, event_id, stage, group_id, rnd, table, a, b, deals, status, tier, p_round, slot, version, confirmed,
         accepted_a, accepted_b, closed, corrected, finished_at, referee) in match_rows:
        result = fold_outcome(status, deals, (a, b), lines.get(pk, ()), papers.get(pk))
        pair_a, pair_b = all_pairs[a], all_pairs[b]
        if pk in substitutes:
            pair_a, pair_b = pair_a.with_substitutes(substitutes[pk]), pair_b.with_substitutes(substitutes[pk])
        matches[event_id].append(
            MatchView(
                pk, stage, group_by_id.get(group_id), rnd, table, pair_a, pair_b, deals, status, tier,
                p_round, slot, version, confirmed, result, (accepted_a is not None, accepted_b is not None), closed,
                corrected, finished_at, referee,
            )
        )
    return matches, raw_lines


def _history(ids, all_pairs) -> tuple[dict, dict, dict]:
    """The playoffs by group, the draw's swaps and the publications by event (three queries)."""
    playoffs: dict[int, list[list[int]]] = defaultdict(list)
    for group_id, order in Playoff.objects.filter(group__event_id__in=ids).order_by("recorded_at", "pk").values_list(
        "group_id", "order"
    ):
        playoffs[group_id].append(order)
    swaps: dict[int, list] = defaultdict(list)
    for event_id, x, y in DrawSwap.objects.filter(event_id__in=ids).order_by("swapped_at", "pk").values_list(
        "event_id", "pair_x_id", "pair_y_id"
    ):
        swaps[event_id].append(SwapView(all_pairs[x], all_pairs[y]))

    published: dict[int, list[PublicationView]] = defaultdict(list)
    for event_id, kind, at, reason, digest in Publication.objects.filter(event_id__in=ids).order_by("at", "pk").values_list(
        "event_id", "kind", "at", "reason", "digest"
    ):
        published[event_id].append(PublicationView(kind, at, reason, digest))
    return playoffs, swaps, published


def _council(ids) -> dict:
    """The judges' council's appeals and rulings by match (issue #29; two queries, whatever the event's
    size): for each match with any, a function giving its view with them."""
    appeals: dict[int, list[AppealView]] = defaultdict(list)
    for match_id, *row in Appeal.objects.filter(match__event_id__in=ids).order_by("filed_at", "pk").values_list(
        "match_id", "pk", "side", "status", "filed_at", "ruled_at"
    ):
        appeals[match_id].append(AppealView(*row))
    rulings: dict[int, list[RulingView]] = defaultdict(list)
    for match_id, *row in Ruling.objects.filter(event_id__in=ids).order_by("ruled_at", "pk").values_list(
        "match_id", "pk", "appeal_id", "decision", "effect", "reasons", "ruled_at"
    ):
        rulings[match_id].append(RulingView(*row))
    return {
        pk: (lambda m, a=tuple(appeals[pk]), r=tuple(rulings[pk]): replace(m, appeals=a, rulings=r))
        for pk in {*appeals, *rulings}
    }


def _assemble(
    ev, pairs, groups, matches, playoffs, swaps, stages, *, publications, cacheable: bool, lines=None
) -> EventSnapshot:
    """One event's snapshot from its loaded rows: the group tables, the placements, the final places."""
    primary = settings.TUPPI_STANDINGS_FIRST
    by_group: dict[int, list[MatchView]] = defaultdict(list)
    for m in matches:
        if m.group is not None:
            by_group[m.group.pk].append(m)
    tables: dict[str, list[GroupTable]] = {Stage.SATURDAY: [], Stage.SUNDAY: []}
    for g in groups:
        if g.stage in tables:
            tables[g.stage].append(group_table(g, g.pairs, by_group[g.pk], playoffs[g.pk], primary=primary))
    placements = tuple(
        sorted(
            (m for m in matches if m.stage == Stage.PLACEMENT),
            key=lambda m: (m.tier, sunday_core.ROUNDS.index(m.placement_round), m.slot),
        )
    )
    top = _top_places(placements)
    club = ev.organising_club
    info = EventInfo(
        pk=ev.pk, slug=ev.slug, name=ev.name, season_id=ev.season_id, starts_on=ev.starts_on,
        ends_on=ev.ends_on, venue=ev.venue, kind=ev.kind, format=ev.format,
        organising_club=None if club is None else ClubView(club.pk, club.name, club.short_name),
        draw_seed=ev.draw_seed, drawn_at=ev.drawn_at,
        drawn_by="" if ev.drawn_by is None else (ev.drawn_by.get_full_name() or ev.drawn_by.username),
        finished_at=ev.finished_at, created_at=ev.created_at, require_acceptance=ev.require_acceptance,
        draw_time=ev.draw_time, play_time=ev.play_time, sunday_play_time=ev.sunday_play_time,
        minutes_per_deal=ev.minutes_per_deal, judges=tuple(ev.judges or ()),
    )
    return EventSnapshot(
        event=info,
        version=ev.results_version,
        pairs=pairs,
        groups=tuple(groups),
        matches=tuple(matches),
        tables={stage: tuple(t) for stage, t in tables.items()},
        placements=placements,
        swaps=swaps,
        final_places=None if stages is not None else _final_places(ev.format, tuple(tables[Stage.SATURDAY]), top),
        top_places=top,
        publications=publications,
        playoffs={g.pk: tuple(tuple(o) for o in playoffs[g.pk]) for g in groups if playoffs[g.pk]},
        structure=_structure_digest(info, pairs, groups, swaps),
        cacheable=cacheable,
        timetable=day_clock.event_timetable(info, matches),
        lines=lines or {},
    )


def _structure_digest(info: EventInfo, pairs: dict, groups, swaps) -> str:
    """What every page of the event shows besides results, as a digest the same in every process."""
    text = repr((
        astuple_info(info),
        [(p.pk, p.number, p.club.name, p.club.short_name, [(x.first_name, x.last_name) for x in p.players],
          p.withdrawn_at is not None, p.excluded) for p in pairs.values()],
        [(g.pk, g.stage, g.name, g.deals_planned, [p.pk for p in g.pairs]) for g in groups],
        [(s.pair_x.pk, s.pair_y.pk) for s in swaps],
    ))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def astuple_info(info: EventInfo) -> tuple:
    return tuple(getattr(info, f.name) for f in fields(info))


def _core(placements) -> list[sunday_core.PlacementMatch]:
    return [
        sunday_core.PlacementMatch(
            m.tier, m.placement_round, m.slot, m.pair_a.pk, m.pair_b.pk,
            m.outcome.winner if m.outcome.finished else None,
        )
        for m in placements
    ]


def _top_places(placements) -> dict[int, int]:
    try:
        return sunday_core.placement_places(_core(placements))
    except ScoringError:
        return {}


def _final_places(fmt: str, saturday, top: dict[int, int]) -> tuple[tuple[int, int], ...] | None:
    """(place, pair id) for every pair, or None until every place is known (RULES.md §5, §4 small events)."""
    if not saturday or not all(t.finished for t in saturday):
        return None
    rows = [[(r.pair.pk, r.standing.rank, r.standing.match_points, r.standing.totals) for r in t.rows] for t in saturday]
    try:
        if fmt == Event.Format.ONE_STAGE:
            return tuple(sunday_core.one_stage_places(rows))
        if len(top) < sunday_core.TOP_PLACES:
            return None
        return tuple(sunday_core.final_places(top, [row for group in rows for row in group]))
    except ScoringError:
        return None  # places that cannot be settled from the stored results are not complete


def placement_core(placements) -> list[sunday_core.PlacementMatch]:
    """The placement matches as the Sunday core takes them (for the services that extend the bracket)."""
    return _core(placements)
