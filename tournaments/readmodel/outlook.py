"""Who is through (issue #20): each group's best and worst reachable positions, what they mean for going on
to Sunday or for the Sunday placement tier, the Sunday chart before Saturday ends, and the placement
bracket's slots still waiting for a winner.

The positions come from the rules core (``scoring.prospects.group_prospects``: exact, but up to a few
tenths of a second for a hard 9-pair group), so they are never computed in the snapshot
(``build.build`` stays fast): :func:`group_outlook` computes them per group, once per change of that
group, through ``caching.versioned`` under a key naming the event and the group's fingerprint (its pairs,
matches and play-offs). A result in group C leaves group A's outlook where it is.

Nothing here is translated when it is computed (the values are shared by every language): the labels are
properties that translate when a template shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from lib import caching
from scoring import prospects as prospects_core
from scoring import standings as standings_core
from scoring import sunday as sunday_core
from scoring.errors import ScoringError
from tournaments.models import Event, Match, Stage
from tournaments.readmodel import values as readmodel_values
from tournaments.readmodel.results import GroupTable, match_result

# The exact search is fast for the groups a two-day event draws (9 pairs at most up to 144 pairs: a few
# milliseconds, a few tenths at worst), but can take seconds for the large groups of a one-stage event
# with many matches still open. Beyond these sizes the positions are bounds from match points alone:
# never narrower than the truth (a pair shown as through or out is), only perhaps wider.
EXACT_PAIRS = 9
EXACT_OPEN = 10

ADVANCE_LABELS = {
    "through": gettext_lazy("jatkoon varmasti"),
    "out": gettext_lazy("putosi"),
    "open": gettext_lazy("vielä auki"),
}


def tier_places(best: int, worst: int) -> str:
    """The places a Sunday group position range leads to (RULES.md §5): 1 → "1.–4.", 1..2 → "1.–8."."""
    best, worst = max(1, min(best, 4)), max(1, min(worst, 4))
    return f"{4 * (best - 1) + 1}.–{4 * worst}."


@dataclass(frozen=True)
class PairOutlook:
    """One pair's reachable positions in its group and what they mean."""

    pair: int
    best: int
    worst: int
    kind: str  # "advance" (Saturday of a two-day event), "tier" (a Sunday group), "" (nothing follows)
    places: int = 0  # with "advance": how many of the group go on

    @property
    def decided(self) -> bool:
        return self.best == self.worst

    @property
    def state(self) -> str:
        """"through", "out" or "open" (a Sunday group: "through" once the tier is decided)."""
        if self.kind == "advance":
            return prospects_core.advancement(prospects_core.Prospect(self.pair, self.best, self.worst), self.places)
        return "through" if self.decided else "open"

    @property
    def label(self) -> str:
        if self.kind == "advance":
            return str(ADVANCE_LABELS[self.state])
        if self.kind == "tier":
            if self.decided:
                return _("varmistettu: sijat %(places)s") % {"places": tier_places(self.best, self.worst)}
            return _("vielä auki: sijat %(places)s") % {"places": tier_places(self.best, self.worst)}
        return ""


@dataclass(frozen=True)
class GroupOutlook:
    group: int  # the group's id
    stage: str
    rows: dict[int, PairOutlook]  # pair id → its outlook (the ranked pairs of the table)
    finished: bool  # every match in: the table is final (but for a play-off still to record)
    exact: bool  # False: positions are match-point bounds (a large group with many matches open)
    kind: str = ""  # as PairOutlook.kind
    places: int = 0

    @property
    def provisional(self) -> bool:
        return not self.finished

    def of(self, pair_id: int) -> PairOutlook | None:
        return self.rows.get(pair_id)

    def holder(self, position: int) -> int | None:
        """The pair certain to finish at ``position``, if one is."""
        return next((o.pair for o in self.rows.values() if o.best == o.worst == position), None)


# --- computing --------------------------------------------------------------------------------------


def advancing_places(snap: readmodel_values.EventSnapshot) -> int | None:
    """How many of each Saturday group go on to Sunday (RULES.md §4); None when nothing follows."""
    if snap.event.format != Event.Format.STANDARD:
        return None
    try:
        return sunday_core.advancing(len(snap.stage_tables(Stage.SATURDAY)))
    except ScoringError:
        return None


def group_outlook(snap: readmodel_values.EventSnapshot, table: GroupTable) -> GroupOutlook:
    """The group's outlook, computed once per change of the group (and shared by every process)."""
    group_id = table.group.pk
    playoffs = snap.playoffs.get(group_id, ())
    ev = snap.event
    key = (
        f"outlook:{ev.pk}.{ev.created_at.timestamp():.6f}:"
        f"{snap.fingerprint(group_id, table.matches, playoffs, len(snap.stage_tables(Stage.SATURDAY)))}:"
        f"{readmodel_values.rules_key()}"
    )
    kind, places = "", 0
    if table.group.stage == Stage.SUNDAY:
        kind = "tier"
    elif table.group.stage == Stage.SATURDAY:
        advancing = advancing_places(snap)
        if advancing is not None:
            kind, places = "advance", advancing
    return caching.versioned(key, lambda: compute(table, playoffs, kind=kind, places=places))


def outlooks(snap: readmodel_values.EventSnapshot, stage: str) -> dict[int, GroupOutlook]:
    """Group id → outlook for every group of a stage."""
    return {t.group.pk: group_outlook(snap, t) for t in snap.stage_tables(stage)}


def compute(table: GroupTable, playoffs: Sequence[Sequence[int]] = (), *, kind: str = "", places: int = 0
            ) -> GroupOutlook:
    """The outlook of one group table (pure: no cache, no database)."""
    pairs = [r.pair.pk for r in table.rows]
    active = set(pairs)
    counted = [m for m in table.matches if m.outcome.status != Match.Status.ANNULLED]
    results = [r for r in (match_result(m) for m in counted) if r is not None]
    played = {frozenset((r.a, r.b)) for r in results}
    remaining, seen = [], set()
    for m in counted:
        sides = frozenset((m.pair_a_id, m.pair_b_id))
        if m.outcome.finished or sides in played or sides in seen or not sides <= active or len(sides) != 2:
            continue
        seen.add(sides)
        remaining.append((m.pair_a_id, m.pair_b_id))
    primary = settings.TUPPI_STANDINGS_FIRST
    reach = None
    exact = len(pairs) <= EXACT_PAIRS or len(remaining) <= EXACT_OPEN
    if exact:
        reach = _exact(pairs, results, remaining, playoffs, primary)
        exact = reach is not None
    if reach is None:
        reach = _bounds(table, remaining, primary)
    rows = {p: PairOutlook(p, best, worst, kind, places) for p, (best, worst) in reach.items()}
    return GroupOutlook(table.group.pk, table.group.stage, rows, table.finished, exact, kind, places)


def _exact(pairs, results, remaining, playoffs, primary) -> dict[int, tuple[int, int]] | None:
    recorded = [standings_core.Playoff(tuple(o), tuple(o)) for o in playoffs]
    for attempt in (recorded, []):  # a play-off that no longer fits a tie (after a correction) is set aside
        try:
            found = prospects_core.group_prospects(pairs, results, remaining, attempt, primary=primary)
        except ScoringError:
            continue
        return {p.pair: (p.best, p.worst) for p in found}
    return None


def _bounds(table: GroupTable, remaining, primary) -> dict[int, tuple[int, int]]:
    """Positions bounded by step 1 alone: a pair certainly above p has more at its least than p at its most."""
    step = 5 if primary == "match_points" else 1
    still = {r.pair.pk: 0 for r in table.rows}
    for a, b in remaining:
        still[a] += 1
        still[b] += 1
    low = {
        r.pair.pk: (r.standing.match_points if primary == "match_points" else r.standing.wins) for r in table.rows
    }
    high = {p: low[p] + step * still[p] for p in low}
    n = len(low)
    return {
        p: (1 + sum(1 for q in low if q != p and low[q] > high[p]),
            n - sum(1 for q in low if q != p and high[q] < low[p]))
        for p in low
    }


# --- the Sunday chart before Saturday ends ------------------------------------------------------------


@dataclass(frozen=True)
class ChartSlot:
    """A place of the Sunday seeding chart (RULES.md §5): a Saturday group's position, and its pair once
    that position is certain."""

    group: str
    position: int
    pair: object | None  # readmodel_values.PairView

    @property
    def code(self) -> str:
        return f"{self.group}{self.position}"

    @property
    def label(self) -> str:
        if self.pair is None:
            return _("%(slot)s (auki)") % {"slot": self.code}
        return f"{self.code} {self.pair.name}"


def sunday_preview(snap: readmodel_values.EventSnapshot) -> list[tuple[str, list[ChartSlot]]] | None:
    """The four Sunday groups as the chart will form them, each slot filled where its Saturday position is
    already certain; None when the event has no Sunday (one stage, or not 8 or 16 groups)."""
    tables = snap.stage_tables(Stage.SATURDAY)
    if advancing_places(snap) is None:
        return None
    chart = sunday_core.SEEDING_CHART_8 if len(tables) == 8 else sunday_core.SEEDING_CHART_16
    by_name = {t.group.name: t for t in tables}
    known = {name: group_outlook(snap, t) for name, t in by_name.items()}
    out = []
    for number, row in enumerate(chart, start=1):
        slots = []
        for group, position in row:
            holder = known[group].holder(position) if group in known else None
            slots.append(ChartSlot(group, position, snap.pairs.get(holder) if holder is not None else None))
        out.append((str(number), slots))
    return out


# --- the placement bracket's slots waiting for a winner ---------------------------------------------


@dataclass(frozen=True)
class BracketSlot:
    """One side of a placement match not created yet: who it waits for, and the pair once known."""

    source: str  # "group" (a Sunday group's position), "winner" or "loser" (of a semifinal)
    number: int  # the Sunday group (1–4) or the semifinal (1, 2)
    position: int = 0  # with "group": the position in the Sunday group, the tier
    pair: object | None = None

    @property
    def label(self) -> str:
        if self.source == "group":
            words = {
                1: _("lohkon %(n)s voittaja"),
                2: _("lohkon %(n)s kakkonen"),
                3: _("lohkon %(n)s kolmonen"),
                4: _("lohkon %(n)s nelonen"),
            }
            return words.get(self.position, words[1]) % {"n": self.number}
        if self.source == "winner":
            return _("välierän %(n)s voittaja") % {"n": self.number}
        return _("välierän %(n)s häviäjä") % {"n": self.number}


def bracket_slots(tier: dict, sunday: dict[int, GroupOutlook] | None = None, sunday_groups=(), pairs=None) -> dict:
    """The slots of a tier (``EventSnapshot.bracket()``'s dict) still waiting for their pairs: the two
    semifinals until they exist (tier t: the t-th of Sunday groups 1 v 2 and 3 v 4, filled where a Sunday
    group's position is certain), the final and the third-place match until both semifinals have winners
    (filled with the winner and loser of a semifinal already decided). ``pairs``: pair id → pair, to fill
    a semifinal's side from ``sunday`` (the Sunday groups' outlooks by group id, groups in order)."""
    t = tier["tier"]
    out: dict = {"semis": [], "final": None, "third": None}
    if not tier["semis"]:
        for slot in (1, 2):
            sides = []
            for number in (2 * slot - 1, 2 * slot):
                pair = None
                if sunday and pairs and len(sunday_groups) >= number:
                    found = sunday.get(sunday_groups[number - 1].pk)
                    holder = found.holder(t) if found else None
                    pair = pairs.get(holder) if holder is not None else None
                sides.append(BracketSlot("group", number, t, pair))
            out["semis"].append(tuple(sides))
        out["semis_awaited"] = any(side.pair is None for sides in out["semis"] for side in sides)
    semis = {m.slot: m for m in tier["semis"]}
    if tier["final"] is None or tier["third"] is None:
        final, third = [], []
        for slot in (1, 2):
            m = semis.get(slot)
            winner = loser = None
            if m is not None and m.outcome.finished and m.outcome.winner is not None:
                winner = m.outcome.winner
                loser = m.pair_b_id if winner == m.pair_a_id else m.pair_a_id
            final.append(BracketSlot("winner", slot, pair=_pair_of(m, winner)))
            third.append(BracketSlot("loser", slot, pair=_pair_of(m, loser)))
        if tier["final"] is None:
            out["final"] = tuple(final)
        if tier["third"] is None:
            out["third"] = tuple(third)
    return out


def _pair_of(match, pair_id):
    if match is None or pair_id is None:
        return None
    return match.pair_a if match.pair_a_id == pair_id else match.pair_b


def public_bracket(snap: readmodel_values.EventSnapshot) -> list[dict]:
    """``snap.bracket()`` with each tier's waiting slots, filled from the Sunday groups' outlook."""
    tables = snap.stage_tables(Stage.SUNDAY)
    sunday = outlooks(snap, Stage.SUNDAY) if tables else None
    groups = [t.group for t in tables]
    return [{**tier, "waiting": bracket_slots(tier, sunday, groups, snap.pairs)} for tier in snap.bracket()]
