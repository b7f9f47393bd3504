"""Sunday of a two-day event: seeding, placement matches and final places (RULES.md §5, §4 small events).

Pure functions on pair ids (strings). The web layer ranks each group with the standings module first and
passes the resulting order here; a tie still waiting for its play-off must be settled (or the organiser
must correct the seeding by hand) before a Sunday group or a placement match can be formed, because these
functions never break a tie themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from scoring.errors import ScoringError, is_whole

GROUP_NAMES = "ABCDEFGHIJKLMNOP"

# RULES.md §5: the Sunday seeding chart, as (Saturday group, position) in the draw chart's order.
SEEDING_CHART_8: tuple[tuple[tuple[str, int], ...], ...] = (
    (("A", 1), ("B", 1), ("G", 2), ("H", 2)),
    (("C", 1), ("D", 1), ("F", 2), ("E", 2)),
    (("E", 1), ("F", 1), ("D", 2), ("C", 2)),
    (("G", 1), ("H", 1), ("B", 2), ("A", 2)),
)
# Decision (RULES.md §5, 16 Saturday groups): the group winners fill the chart the same way, the
# second half of the alphabet taking the places of the 8-group chart's seconds.
SEEDING_CHART_16: tuple[tuple[tuple[str, int], ...], ...] = (
    (("A", 1), ("B", 1), ("O", 1), ("P", 1)),
    (("C", 1), ("D", 1), ("N", 1), ("M", 1)),
    (("E", 1), ("F", 1), ("L", 1), ("K", 1)),
    (("G", 1), ("H", 1), ("J", 1), ("I", 1)),
)

SUNDAY_GROUPS = 4
SUNDAY_GROUP_SIZE = 4
TOP_PLACES = SUNDAY_GROUPS * SUNDAY_GROUP_SIZE  # 16

ROUNDS = ("semi", "final", "third")


# --- seeding -----------------------------------------------------------------------------------------


def advancing(n_groups: int) -> int:
    """Pairs that go on to Sunday from each Saturday group: 2 with 8 groups, 1 with 16 (RULES.md §4)."""
    if n_groups == 8:
        return 2
    if n_groups == 16:
        return 1
    raise ScoringError(
        "group_count",
        f"a two-day event has 8 or 16 Saturday groups, not {n_groups}",
        n_groups=n_groups,
    )


def sunday_groups(
    saturday_standings: Mapping[str, Sequence[str]], n_groups: int
) -> tuple[tuple[str, ...], ...]:
    """The four Sunday groups from the Saturday group orders, by the seeding chart of RULES.md §5.

    ``saturday_standings`` maps group name ("A", "B", …) to its pair ids in final group order. Each Sunday
    group keeps the chart's order (the draw chart's order), e.g. group 2 = (C1, D1, F2, E2).
    """
    per_group = advancing(n_groups)
    if len(saturday_standings) != n_groups:
        raise ScoringError(
            "group_count",
            f"expected {n_groups} Saturday groups, got {len(saturday_standings)}",
            n_groups=n_groups,
            got=len(saturday_standings),
        )
    names = GROUP_NAMES[:n_groups]
    for name in names:
        if name not in saturday_standings:
            raise ScoringError("group_missing", f"Saturday group {name} is missing", group=name)
    seen: dict[str, str] = {}
    for name in names:
        order = tuple(saturday_standings[name])
        if len(order) < per_group:
            raise ScoringError(
                "group_too_small",
                f"Saturday group {name} has {len(order)} pairs; {per_group} must go on to Sunday",
                group=name,
                size=len(order),
                needed=per_group,
            )
        for pair in order:
            if pair in seen:
                raise ScoringError(
                    "pair_duplicate",
                    f"pair {pair} is in Saturday groups {seen[pair]} and {name}",
                    pair=pair,
                    groups=[seen[pair], name],
                )
            seen[pair] = name
    chart = SEEDING_CHART_8 if n_groups == 8 else SEEDING_CHART_16
    return tuple(tuple(saturday_standings[group][position - 1] for group, position in row) for row in chart)


def validate_seeding(
    groups: Sequence[Sequence[str]], expected_pairs: Iterable[str]
) -> tuple[tuple[str, ...], ...]:
    """Check an organiser's corrected Sunday seeding (RULES.md §5): four groups of four, each advancing
    pair exactly once, no other pair. Returns the seeding as a tuple of tuples."""
    expected = set(expected_pairs)
    result = tuple(tuple(group) for group in groups)
    if len(result) != SUNDAY_GROUPS:
        raise ScoringError(
            "seeding_group_count",
            f"Sunday has {SUNDAY_GROUPS} groups, not {len(result)}",
            got=len(result),
        )
    for number, group in enumerate(result, start=1):
        if len(group) != SUNDAY_GROUP_SIZE:
            raise ScoringError(
                "seeding_group_size",
                f"Sunday group {number} has {len(group)} pairs, not {SUNDAY_GROUP_SIZE}",
                group=number,
                size=len(group),
            )
    where: dict[str, int] = {}
    for number, group in enumerate(result, start=1):
        for pair in group:
            if pair in where:
                raise ScoringError(
                    "seeding_pair_twice",
                    f"pair {pair} is in Sunday groups {where[pair]} and {number}",
                    pair=pair,
                    groups=[where[pair], number],
                )
            where[pair] = number
    for number, group in enumerate(result, start=1):
        for pair in group:
            if pair not in expected:
                raise ScoringError(
                    "seeding_pair_unknown",
                    f"pair {pair} in Sunday group {number} did not go on from Saturday",
                    pair=pair,
                    group=number,
                )
    missing = sorted(expected - where.keys())
    if missing:
        raise ScoringError(
            "seeding_pair_missing",
            f"pair {missing[0]} went on from Saturday but is in no Sunday group",
            pair=missing[0],
            pairs=missing,
        )
    return result


# --- placement matches -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlacementMatch:
    """One placement match (RULES.md §5): tier 1..4 (Sunday group winners, seconds, thirds, fourths),
    round "semi" (slot 1 = group 1 v group 2, slot 2 = group 3 v group 4), "final" or "third" (slot 1)."""

    tier: int
    round: str
    slot: int
    a: str
    b: str
    winner: str | None = None

    def __post_init__(self) -> None:
        if self.tier not in range(1, SUNDAY_GROUPS + 1):
            raise ScoringError(
                "placement_tier", f"placement tier must be 1..4, not {self.tier}", tier=self.tier
            )
        if self.round not in ROUNDS:
            raise ScoringError(
                "placement_round",
                f"placement round must be semi, final or third, not {self.round!r}",
                round=self.round,
            )
        slots = (1, 2) if self.round == "semi" else (1,)
        if self.slot not in slots:
            raise ScoringError(
                "placement_slot",
                f"a {self.round} has slot {' or '.join(map(str, slots))}, not {self.slot}",
                round=self.round,
                slot=self.slot,
            )
        if self.a == self.b:
            raise ScoringError("placement_same_pair", f"pair {self.a} cannot meet itself", pair=self.a)
        if self.winner is not None and self.winner not in (self.a, self.b):
            raise ScoringError(
                "winner_not_in_match",
                f"{self.winner} did not play the tier {self.tier} {self.round} ({self.a} v {self.b})",
                winner=self.winner,
                a=self.a,
                b=self.b,
            )

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.b if self.winner == self.a else self.a

    def with_winner(self, winner: str) -> PlacementMatch:
        """This match with its winner recorded (validated)."""
        return replace(self, winner=winner)


def placement_semis(sunday_standings: Sequence[Sequence[str]]) -> list[PlacementMatch]:
    """The eight placement semifinals from the four Sunday group orders (RULES.md §5).

    Tier t takes the t-th pair of each Sunday group: group 1 v group 2 (slot 1), group 3 v group 4
    (slot 2). Ordered by tier, then slot.
    """
    orders = validate_seeding(sunday_standings, (p for group in sunday_standings for p in group))
    return [
        PlacementMatch(tier, "semi", slot, orders[2 * slot - 2][tier - 1], orders[2 * slot - 1][tier - 1])
        for tier in range(1, SUNDAY_GROUPS + 1)
        for slot in (1, 2)
    ]


def _by_key(matches: Iterable[PlacementMatch]) -> dict[tuple[int, str, int], PlacementMatch]:
    found: dict[tuple[int, str, int], PlacementMatch] = {}
    for match in matches:
        key = (match.tier, match.round, match.slot)
        if key in found:
            raise ScoringError(
                "placement_duplicate",
                f"two tier {match.tier} {match.round} matches in slot {match.slot}",
                tier=match.tier,
                round=match.round,
                slot=match.slot,
            )
        found[key] = match
    return found


def placement_finals(matches: Iterable[PlacementMatch]) -> tuple[PlacementMatch, ...]:
    """The final and third-place match of every tier whose two semifinals both have winners
    (RULES.md §5): semifinal winners meet in the "final", losers in the "third". Tiers not ready yet
    are left out, so the result is empty until some tier's semifinals are both decided. Matches other
    than semifinals in ``matches`` are ignored."""
    found = _by_key(matches)
    result: list[PlacementMatch] = []
    for tier in range(1, SUNDAY_GROUPS + 1):
        first, second = found.get((tier, "semi", 1)), found.get((tier, "semi", 2))
        if first is None or second is None or first.winner is None or second.winner is None:
            continue
        result.append(PlacementMatch(tier, "final", 1, first.winner, second.winner))
        result.append(PlacementMatch(tier, "third", 1, first.loser, second.loser))  # type: ignore[arg-type]
    return tuple(result)


def placement_places(matches: Iterable[PlacementMatch]) -> dict[str, int]:
    """Places 1..16 from the decided finals and third-place matches (RULES.md §5): in tier t the final's
    winner is 4(t−1)+1, its loser +2, the third-place winner +3, its loser +4. Only decided matches
    give places, so the mapping grows as the Sunday goes on."""
    places: dict[str, int] = {}
    for (tier, round_, _slot), match in sorted(_by_key(matches).items()):
        if round_ == "semi" or match.winner is None:
            continue
        base = 4 * (tier - 1) + (1 if round_ == "final" else 3)
        for pair, place in ((match.winner, base), (match.loser, base + 1)):
            if pair in places:
                raise ScoringError(
                    "placement_pair_twice",
                    f"pair {pair} would get both place {places[pair]} and place {place}",
                    pair=pair,
                    places=[places[pair], place],
                )
            places[pair] = place  # type: ignore[index]
    return places


# --- final places ------------------------------------------------------------------------------------


class GroupRow(NamedTuple):
    """A pair's line in a group table: its position (the shared rank where a tie is unresolved, as the
    standings module reports it), match points and rise totals over all its group matches."""

    pair: str
    position: int
    match_points: int
    totals: int


def _rows(rows: Iterable[Sequence[object]]) -> list[GroupRow]:
    result: list[GroupRow] = []
    for raw in rows:
        if len(raw) != 4:
            raise ScoringError(
                "row_shape", "a group row is (pair, position, match points, totals)", row=list(raw)
            )
        row = GroupRow(*raw)  # type: ignore[arg-type]
        for field, minimum in (("position", 1), ("match_points", 0), ("totals", 0)):
            value = getattr(row, field)
            if not is_whole(value) or value < minimum:
                raise ScoringError(
                    "row_value",
                    f"pair {row.pair}: {field} must be a whole number of at least {minimum}, not {value!r}",
                    pair=row.pair,
                    field=field,
                    value=value,
                )
        result.append(row)
    return result


def _shared_ranking(rows: list[GroupRow], key, start: int) -> list[tuple[int, str]]:
    """Rank ``rows`` by ``key`` from place ``start``; rows with equal keys share the place of the
    first of them and the next place skips (17, 18, 18, 20). Within a shared place, pairs are listed
    by id (display order only)."""
    ordered = sorted(rows, key=lambda r: (key(r), r.pair))
    result: list[tuple[int, str]] = []
    place = start
    for index, row in enumerate(ordered):
        if index and key(row) != key(ordered[index - 1]):
            place = start + index
        result.append((place, row.pair))
    return result


def _cross_group_key(row: GroupRow) -> tuple[int, int, int]:
    return (row.position, -row.match_points, -row.totals)


def final_places(
    top16: Mapping[str, int], saturday_rows: Iterable[Sequence[object]]
) -> list[tuple[int, str]]:
    """Every pair's final place in a two-day event (RULES.md §5): 1..16 from the placement matches,
    then the pairs out on Saturday.

    **Decision (RULES.md §5, places 17 and on):** pairs out on Saturday are ranked after 16 by their
    Saturday group position, then match points, then rise totals; still level, they share the place
    (17, 18, 18, 20). A pair in a tie whose play-off was never played keeps the shared rank the
    standings gave it as its group position. ``saturday_rows`` are (pair, position, match points,
    totals); rows of pairs in ``top16`` are skipped, so the caller may pass every Saturday row.
    """
    if sorted(top16.values()) != list(range(1, TOP_PLACES + 1)):
        raise ScoringError(
            "top16_places",
            "places 1 to 16 must each be given to exactly one pair",
            places=sorted(top16.values()),
        )
    rows = _rows(saturday_rows)
    seen: set[str] = set()
    rest: list[GroupRow] = []
    for row in rows:
        if row.pair in seen:
            raise ScoringError("pair_duplicate", f"pair {row.pair} has two Saturday rows", pair=row.pair)
        seen.add(row.pair)
        if row.pair not in top16:
            rest.append(row)
    top = sorted(((place, pair) for pair, place in top16.items()))
    return top + _shared_ranking(rest, _cross_group_key, TOP_PLACES + 1)


def one_stage_places(groups: Sequence[Iterable[Sequence[object]]]) -> list[tuple[int, str]]:
    """Final places of a one-stage event (RULES.md §4, Decision small events).

    ``groups`` holds each group's rows (pair, position, match points, totals). With one group the
    places are the group order itself (a tie without its play-off shares the place). **Decision
    (several groups):** pairs are ranked by group position, then match points, then rise totals, as
    RULES.md §5 ranks the pairs out on Saturday; still level, they share the place.
    """
    if not groups:
        raise ScoringError("no_groups", "a one-stage event needs at least one group")
    all_rows: list[GroupRow] = []
    seen: set[str] = set()
    for number, group in enumerate(groups, start=1):
        rows = _rows(group)
        if not rows:
            raise ScoringError("group_empty", f"group {number} has no pairs", group=number)
        positions = sorted(row.position for row in rows)
        for position in positions:
            # A competition ranking: 1, 2, 2, 4 …; each position is 1 + the pairs strictly ahead.
            if position != 1 + sum(1 for p in positions if p < position):
                raise ScoringError(
                    "group_positions",
                    f"group {number}: positions {positions} are not a ranking (1, 2, 2, 4 …)",
                    group=number,
                    positions=positions,
                )
        for row in rows:
            if row.pair in seen:
                raise ScoringError("pair_duplicate", f"pair {row.pair} is in two groups", pair=row.pair)
            seen.add(row.pair)
        all_rows.extend(rows)
    if len(groups) == 1:
        return _shared_ranking(all_rows, lambda r: r.position, 1)
    return _shared_ranking(all_rows, _cross_group_key, 1)
