"""Group standings with the official tie-breaks (*lohkon järjestys*).

Implements RULES.md §4 "Group order" and the ``standings`` command of §9. The steps, in order:

1. match points (**Decision (RULES §4, step 1):** match points, although the rules say *voitot*; the
   one setting ``primary="wins"`` switches this step, and only this step, to the number of match wins);
2. two pairs level: the winner of their mutual match is ahead;
3. three or more level: a table of the matches among them (*mini table*), by match points; where that
   separates some, steps 2–3 are applied again inside each group still level (*keskinäiset pelit
   uudelleen*);
4. still level: rise totals over all the pair's group matches (*kaikkien pelien pisteet*);
5. still level: a play-off of four extra deals. The pairs are marked ``playoff_required`` and share
   their rank until the organiser records the play-off's order; a tie is never broken silently.

Choices this module makes beyond RULES.md (each is named again where it applies):

* **Decision (step 4 recursion):** when totals separate a level group only partly (three level, totals
  split one from two), each subgroup still level goes back to step 2 (two pairs: mutual match; three or
  more: their own mini table), as the federation's "keskinäiset pelit uudelleen ja tarvittaessa kaikkien
  pelien pisteet" implies. Every recursion works on a strictly smaller group, and a group that no step
  separates goes to step 5, so it always ends.
* **Decision (mini table):** step 3 is by match points also under ``primary="wins"`` (the source:
  "vertaillaan keskinäisten pelien ottelupisteet"). It counts the finished matches among the level
  pairs only; an unplayed match adds nothing. A two-pair tie whose mutual match is not played yet goes
  on to step 4 (a finished match always has a winner, so there are no drawn mutual matches).
* **Decision (step 4):** "totals" is the sum of the pair's own rise totals over all its finished group
  matches (not a difference); more is better.
* **Decision (decided_by):** for each pair, the step at which its place became fixed, i.e. the step that
  separated it from the last pairs it was still level with: the primary key's name (``"match_points"``,
  or ``"wins"`` under that setting) when it was level with nobody on step 1; ``"head_to_head"``,
  ``"mini_table"``, ``"totals"`` for steps 2, 3, 4; ``"playoff"`` when a recorded play-off ordered it;
  ``"unresolved"`` while it still needs a play-off. Pairs of one tie can differ: in a three-way tie
  where the mini table puts A first and B beat C, A is ``"mini_table"`` and B, C ``"head_to_head"``.
* **Decision (play-offs):** a recorded play-off orders exactly the pairs of one set still level after
  step 4 (given in any order); a play-off for any other set is an error (``playoff_not_needed``), so a
  stale play-off is noticed when results change.
* Ranks are shared only by pairs that need a play-off (1, 2, 2, 4). Within a shared rank the list is
  ordered by pair id, only so that the output never depends on the input order; this order means
  nothing and the rank stays shared.
* The caller passes only finished matches of the group, never annulled ones; a withdrawn pair (RULES §4:
  all its matches annulled) is left out of ``pairs`` together with all its matches. A match naming a
  pair not in ``pairs`` is an error (``unknown_pair``), as are two matches between the same two pairs
  (``duplicate_match``). Pairs without matches still appear, with 0, 0, 0.
* Match points must be one of the winner–loser splits of RULES §3 (5–0, 4–1, 3–2). Rise totals are not
  compared with the winner: a forfeit or a signalling tuppi may give the match to the pair with less.
* ``python -m scoring standings`` also accepts an optional ``"primary": "match_points" | "wins"`` key,
  and gives each line ``best`` and ``worst``: the best and worst final position the pair can still reach
  (issue #20, :mod:`scoring.prospects`), every two listed pairs without a listed match still having to
  meet.
* :func:`validate_group` and :func:`resolve_level` expose this module's checks and steps 2–5 to
  :mod:`scoring.prospects`, so that the tie-breaks live in one place.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType
from typing import Any, Literal

from scoring.errors import ScoringError

Pair = Hashable
Primary = Literal["match_points", "wins"]
DecidedBy = Literal["match_points", "wins", "head_to_head", "mini_table", "totals", "playoff", "unresolved"]

# Decision (RULES §4, step 1): match points by default; "wins" is the one setting that switches step 1.
PRIMARY_CHOICES: tuple[str, ...] = ("match_points", "wins")

# RULES §3: match points winner–loser: tuppi 5–0, overwhelming points win 4–1, points win 3–2.
MATCH_POINT_SPLITS: frozenset[tuple[int, int]] = frozenset({(5, 0), (4, 1), (3, 2)})


# --------------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class MatchResult:
    """One finished, non-annulled group match between pairs ``a`` and ``b`` (RULES §3, §4).

    ``match_points`` and ``totals`` map both pairs to their match points and rise totals.
    """

    a: Pair
    b: Pair
    winner: Pair
    match_points: Mapping[Pair, int]
    totals: Mapping[Pair, int]

    def __post_init__(self) -> None:
        # Snapshot the mappings read-only, so a result cannot change after it has been ranked.
        for name in ("match_points", "totals"):
            value = getattr(self, name)
            if isinstance(value, Mapping) and not isinstance(value, MappingProxyType):
                object.__setattr__(self, name, MappingProxyType(dict(value)))

    @property
    def loser(self) -> Pair:
        """The pair that lost the match."""
        return self.b if self.winner == self.a else self.a


@dataclass(frozen=True)
class Playoff:
    """A recorded play-off (RULES §4 step 5): ``order`` ranks exactly the pairs of ``pairs``, best first."""

    pairs: tuple[Pair, ...]
    order: tuple[Pair, ...]

    def __post_init__(self) -> None:
        for name in ("pairs", "order"):
            value = getattr(self, name)
            if isinstance(value, Iterable) and not isinstance(value, str | bytes | tuple):
                object.__setattr__(self, name, tuple(value))


@dataclass(frozen=True)
class Standing:
    """One pair's line in the group table (RULES §9 ``standings`` output)."""

    pair: Pair
    rank: int
    match_points: int
    wins: int
    totals: int
    decided_by: DecidedBy
    playoff_required: bool

    def to_json(self) -> dict[str, Any]:
        """The line as ``python -m scoring standings`` prints it."""
        return {
            "pair": self.pair,
            "rank": self.rank,
            "match_points": self.match_points,
            "wins": self.wins,
            "totals": self.totals,
            "decided_by": self.decided_by,
            "playoff_required": self.playoff_required,
        }


@dataclass(frozen=True)
class CrossCell:
    """One cell of the cross table: how the row pair did against the column pair."""

    match_points: int
    totals: int
    opponent_totals: int
    won: bool


# --------------------------------------------------------------------------------------------------
# Validation


@dataclass(frozen=True)
class GroupTally:
    """One checked group (:func:`validate_group`): its pairs, each pair's sums over its finished matches,
    and the finished match of each two pairs that have met (keyed by the frozenset of the two)."""

    pairs: tuple[Pair, ...]
    match_points: Mapping[Pair, int]
    wins: Mapping[Pair, int]
    totals: Mapping[Pair, int]
    mutual: Mapping[frozenset, MatchResult]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_sides(result: MatchResult, index: int, name: str, code: str) -> Mapping[Pair, int]:
    value = getattr(result, name)
    sides = {result.a, result.b}
    if not isinstance(value, Mapping) or set(value) != sides:
        raise ScoringError(
            code,
            f"match {index}: {name} must give a value for exactly its two pairs "
            f"{result.a!r} and {result.b!r}",
            match=index,
            field=name,
        )
    for pair in (result.a, result.b):
        if not _is_int(value[pair]) or value[pair] < 0:
            raise ScoringError(
                code,
                f"match {index}: {name} of {pair!r} must be a whole number, 0 or more, not {value[pair]!r}",
                match=index,
                field=name,
                pair=pair,
                value=value[pair],
            )
    return value


def _validate(pairs: Sequence[Pair], results: Iterable[MatchResult]) -> GroupTally:
    """Check one group's pairs and finished matches and add them up (RULES §4, §9)."""
    if isinstance(pairs, str | bytes) or not isinstance(pairs, Iterable):
        raise ScoringError("bad_input", "pairs must be a list of pair ids")
    pairs = tuple(pairs)
    seen: set[Pair] = set()
    for pair in pairs:
        if pair in seen:
            raise ScoringError("duplicate_pair", f"pair {pair!r} is listed twice", pair=pair)
        seen.add(pair)

    match_points = dict.fromkeys(pairs, 0)
    wins = dict.fromkeys(pairs, 0)
    totals = dict.fromkeys(pairs, 0)
    mutual: dict[frozenset, MatchResult] = {}
    for index, result in enumerate(results, start=1):
        if not isinstance(result, MatchResult):
            raise ScoringError("bad_input", f"match {index} is not a match result", match=index)
        for pair in (result.a, result.b):
            if pair not in seen:
                # Withdrawn pairs are removed by the caller with all their matches (RULES §4).
                raise ScoringError(
                    "unknown_pair",
                    f"match {index} names pair {pair!r}, which is not in this group "
                    "(a withdrawn pair's matches must be left out)",
                    match=index,
                    pair=pair,
                )
        if result.a == result.b:
            raise ScoringError(
                "self_match",
                f"match {index}: pair {result.a!r} cannot play itself",
                match=index,
                pair=result.a,
            )
        if result.winner != result.a and result.winner != result.b:
            raise ScoringError(
                "bad_winner",
                f"match {index}: the winner {result.winner!r} is neither {result.a!r} nor {result.b!r}",
                match=index,
                winner=result.winner,
            )
        points = _check_sides(result, index, "match_points", "bad_match_points")
        split = (points[result.winner], points[result.loser])
        if split not in MATCH_POINT_SPLITS:
            raise ScoringError(
                "bad_match_points",
                f"match {index}: match points {split[0]}–{split[1]} (winner–loser) are not 5–0, 4–1 or 3–2",
                match=index,
                winner_points=split[0],
                loser_points=split[1],
            )
        rise = _check_sides(result, index, "totals", "bad_totals")
        key = frozenset((result.a, result.b))
        if key in mutual:
            raise ScoringError(
                "duplicate_match",
                f"match {index}: {result.a!r} and {result.b!r} have already met in this group",
                match=index,
                a=result.a,
                b=result.b,
            )
        mutual[key] = result
        for pair in (result.a, result.b):
            match_points[pair] += points[pair]
            totals[pair] += rise[pair]
        wins[result.winner] += 1
    return GroupTally(pairs, match_points, wins, totals, mutual)


def _validate_playoffs(playoffs: Iterable[Playoff], known: set[Pair]) -> dict[frozenset, tuple[Pair, ...]]:
    by_set: dict[frozenset, tuple[Pair, ...]] = {}
    for index, playoff in enumerate(playoffs, start=1):
        if not isinstance(playoff, Playoff):
            raise ScoringError("bad_playoff", f"play-off {index} is not a play-off", playoff=index)
        if isinstance(playoff.pairs, str | bytes) or isinstance(playoff.order, str | bytes):
            raise ScoringError(
                "bad_playoff", f"play-off {index}: pairs and order must be lists", playoff=index
            )
        members, order = tuple(playoff.pairs), tuple(playoff.order)
        key = frozenset(members)
        if len(members) < 2 or len(key) != len(members):
            raise ScoringError(
                "bad_playoff",
                f"play-off {index} must name two or more different pairs",
                playoff=index,
                pairs=list(members),
            )
        unknown = [pair for pair in members if pair not in known]
        if unknown:
            raise ScoringError(
                "bad_playoff",
                f"play-off {index} names pair {unknown[0]!r}, which is not in this group",
                playoff=index,
                pair=unknown[0],
            )
        if len(order) != len(members) or set(order) != key:
            raise ScoringError(
                "bad_playoff",
                f"play-off {index}: the order must list each of its pairs exactly once",
                playoff=index,
                pairs=list(members),
                order=list(order),
            )
        if key in by_set:
            raise ScoringError(
                "duplicate_playoff",
                f"play-off {index} repeats a play-off already recorded for the same pairs",
                playoff=index,
                pairs=list(members),
            )
        by_set[key] = order
    return by_set


# --------------------------------------------------------------------------------------------------
# Ranking

_Block = tuple[tuple[Pair, ...], str]  # pairs in one place (more than one only while unresolved), decided_by


def _canonical(pairs: Iterable[Pair]) -> tuple[Pair, ...]:
    """Pairs in id order: only so output never depends on input order; it never ranks anyone."""
    pairs = list(pairs)
    try:
        return tuple(sorted(pairs))
    except TypeError:
        return tuple(sorted(pairs, key=repr))


def _split(level: tuple[Pair, ...], key: Mapping[Pair, int]) -> list[tuple[Pair, ...]]:
    """``level`` in groups of equal ``key``, highest first."""
    groups: dict[int, list[Pair]] = {}
    for pair in level:
        groups.setdefault(key[pair], []).append(pair)
    return [tuple(groups[value]) for value in sorted(groups, reverse=True)]


class _Resolver:
    """Steps 2–5 of RULES §4 "Group order" for the pairs level after step 1."""

    def __init__(self, group: GroupTally, playoffs: Mapping[frozenset, tuple[Pair, ...]]) -> None:
        self.group = group
        self.playoffs = playoffs
        self.used: set[frozenset] = set()

    def resolve(self, level: tuple[Pair, ...], via: str) -> list[_Block]:
        """Order ``level``, a group still level; ``via`` is the step that set it apart from the rest."""
        if len(level) == 1:
            return [(level, via)]
        if len(level) == 2:
            # Step 2: the winner of the mutual match is ahead; not played yet: on to step 4.
            match = self.group.mutual.get(frozenset(level))
            if match is not None:
                return [((match.winner,), "head_to_head"), ((match.loser,), "head_to_head")]
            return self.by_totals(level)
        # Step 3: the mini table of the (finished) matches among the level pairs, by match points
        # (Decision: by match points also under primary="wins").
        mini = dict.fromkeys(level, 0)
        for x, y in combinations(level, 2):
            match = self.group.mutual.get(frozenset((x, y)))
            if match is not None:
                mini[x] += match.match_points[x]
                mini[y] += match.match_points[y]
        groups = _split(level, mini)
        if len(groups) > 1:
            # "keskinäiset pelit uudelleen": steps 2–3 again inside each group still level.
            return [block for sub in groups for block in self.resolve(sub, "mini_table")]
        return self.by_totals(level)

    def by_totals(self, level: tuple[Pair, ...]) -> list[_Block]:
        """Step 4: rise totals over all group matches (*kaikkien pelien pisteet*)."""
        groups = _split(level, self.group.totals)
        if len(groups) > 1:
            # Decision (step 4 recursion): subgroups still level go back to step 2.
            return [block for sub in groups for block in self.resolve(sub, "totals")]
        return self.by_playoff(level)

    def by_playoff(self, level: tuple[Pair, ...]) -> list[_Block]:
        """Step 5: a recorded play-off orders the pairs; otherwise they share a place, unresolved."""
        key = frozenset(level)
        order = self.playoffs.get(key)
        if order is None:
            return [(_canonical(level), "unresolved")]
        self.used.add(key)
        return [((pair,), "playoff") for pair in order]


def rank_group(
    pairs: Sequence[Pair],
    results: Iterable[MatchResult],
    playoffs: Iterable[Playoff] = (),
    *,
    primary: Primary = "match_points",
) -> tuple[Standing, ...]:
    """Rank one group by RULES §4 "Group order": the group table, best first.

    ``results`` are the group's finished, non-annulled matches; a withdrawn pair must be left out of
    ``pairs`` with all its matches. ``playoffs`` are the recorded play-offs (step 5). ``primary`` is the
    step-1 setting: ``"match_points"`` (default) or ``"wins"``. Raises ScoringError on invalid input.
    """
    if primary not in PRIMARY_CHOICES:
        raise ScoringError(
            "bad_primary", f"primary must be 'match_points' or 'wins', not {primary!r}", primary=primary
        )
    group = _validate(pairs, results)
    resolver = _Resolver(group, _validate_playoffs(playoffs, set(group.pairs)))

    # Step 1 (Decision, RULES §4: match points, or wins under the one setting).
    first = group.match_points if primary == "match_points" else group.wins
    blocks: list[_Block] = []
    for level in _split(_canonical(group.pairs), first):
        blocks.extend(resolver.resolve(level, primary))

    unused = [key for key in resolver.playoffs if key not in resolver.used]
    if unused:
        members = list(_canonical(unused[0]))
        raise ScoringError(
            "playoff_not_needed",
            f"a play-off was recorded for {', '.join(map(repr, members))}, but those pairs are not "
            "exactly one set of pairs still level after the tie-breaks",
            pairs=members,
        )

    table: list[Standing] = []
    for block_pairs, decided_by in blocks:
        rank = len(table) + 1
        unresolved = decided_by == "unresolved"
        for pair in block_pairs:
            table.append(
                Standing(
                    pair=pair,
                    rank=rank,
                    match_points=group.match_points[pair],
                    wins=group.wins[pair],
                    totals=group.totals[pair],
                    decided_by=decided_by,  # type: ignore[arg-type]
                    playoff_required=unresolved,
                )
            )
    return tuple(table)


def rank_with_recorded(
    pairs: Sequence[Pair],
    results: Iterable[MatchResult],
    orders: Iterable[Sequence[Pair]] = (),
    *,
    primary: Primary = "match_points",
) -> tuple[Standing, ...]:
    """:func:`rank_group` with the play-off ``orders`` recorded (each the tied pairs, best first). When a
    result was corrected after a play-off was recorded and some play-off no longer fits a tie, the ones
    that still fit are kept (the missing play-off is then asked for again): the server's read model and
    the event file's verifier rank a group the same way."""
    results = list(results)
    recorded = [Playoff(tuple(order), tuple(order)) for order in orders]
    try:
        return rank_group(list(pairs), results, recorded, primary=primary)
    except ScoringError as exc:
        if exc.code not in ("playoff_not_needed", "bad_playoff", "duplicate_playoff"):
            raise
    fitting: list[Playoff] = []
    for playoff in recorded:
        try:
            rank_group(list(pairs), results, [*fitting, playoff], primary=primary)
        except ScoringError:
            continue
        fitting.append(playoff)
    return rank_group(list(pairs), results, fitting, primary=primary)


def validate_group(
    pairs: Sequence[Pair], results: Iterable[MatchResult], playoffs: Iterable[Playoff] = ()
) -> tuple[GroupTally, Mapping[frozenset, tuple[Pair, ...]]]:
    """Check one group exactly as :func:`rank_group` does and return its tally and play-offs by pair set.

    The one check left out is whether each play-off is needed by the current table
    (``playoff_not_needed``): a caller looking at matches still to play (``scoring.prospects``) decides
    that per completion. Raises ScoringError on invalid input.
    """
    group = _validate(pairs, results)
    return group, MappingProxyType(_validate_playoffs(playoffs, set(group.pairs)))


def resolve_level(
    level: Iterable[Pair],
    mutual: Mapping[frozenset, MatchResult],
    totals: Mapping[Pair, int],
    playoffs: Mapping[frozenset, tuple[Pair, ...]] = MappingProxyType({}),
) -> tuple[tuple[tuple[Pair, ...], DecidedBy], ...]:
    """Steps 2–5 of RULES §4 "Group order" for ``level``, pairs level after step 1: the same code
    :func:`rank_group` runs, on data the caller has already checked (no validation here).

    ``mutual`` maps the frozenset of two pairs to their finished match (only pairs of ``level`` are looked
    up), ``totals`` gives each pair of ``level`` its rise total (step 4), ``playoffs`` the recorded play-off
    orders by pair set (step 5). Returns the places best first: each a tuple of pairs (more than one only
    while a play-off is required, then in id order) and its ``decided_by``. Play-offs that do not apply
    are ignored.
    """
    tally = GroupTally(tuple(level), MappingProxyType({}), MappingProxyType({}), totals, mutual)
    return tuple(_Resolver(tally, playoffs).resolve(_canonical(tally.pairs), "match_points"))  # type: ignore[misc]


def cross_table(
    pairs: Sequence[Pair], results: Iterable[MatchResult]
) -> Mapping[tuple[Pair, Pair], CrossCell | None]:
    """The group's cross table (RULES §4): for each ordered pair (x, y), x's result against y.

    Every ordered pair of different pairs has a key; the value is ``None`` while their match is not
    played. Raises ScoringError on invalid input, as :func:`rank_group` does.
    """
    group = _validate(pairs, results)
    cells: dict[tuple[Pair, Pair], CrossCell | None] = {}
    for x in group.pairs:
        for y in group.pairs:
            if x == y:
                continue
            match = group.mutual.get(frozenset((x, y)))
            cells[(x, y)] = (
                None
                if match is None
                else CrossCell(
                    match_points=match.match_points[x],
                    totals=match.totals[x],
                    opponent_totals=match.totals[y],
                    won=match.winner == x,
                )
            )
    return MappingProxyType(cells)

