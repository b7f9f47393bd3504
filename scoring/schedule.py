"""The Saturday group schedule (RULES.md §4): round robin, same-club matches first, deals, table numbers.

**The round robin** is the circle method. With n positions (n even; an odd group gets a rest, the
"bye", as an extra position) we number the positions 0 … q-1 around the circle (q = n - 1, odd) plus one
fixed position ∞. In circle round r (0 … q-1) the fixed position meets position r and position r + i
meets position r - i (mod q) for i = 1 … n/2 - 1. Equivalently: positions x and y meet in the round r
with 2r ≡ x + y (mod q), and ∞ meets x in round x. Every pair of positions meets exactly once and every
position plays once a round, whatever pair sits where and in whatever order the rounds are played.

**Same-club pairs first** (RULES.md §4: *saman kerhon jäsenet pelaavat heti keskinäisen pelinsä*, "in
round 1 where they can, otherwise as early as possible"). The circle method leaves two freedoms: which
pair sits at which position, and the order of the rounds. The criterion we optimise (project's reading of
"as early as possible", documented here and in the tests):

    Among all circle-method schedules, take one that minimises, lexicographically, the ascending tuple
    of the round numbers in which same-club matches are played.

Equivalently: as many same-club matches as possible in round 1, then as many as possible in rounds 1-2,
and so on. Round 1 then always holds a maximum matching of the same-club graph (no round can hold more
matches of disjoint pairs, and the circle method can put any matching into round 1).

The search. "Same club" is an equivalence relation, so the same-club graph is a disjoint union of cliques
(one per club with two or more pairs in the group), and pairs of one club are interchangeable for the
criterion: only the *set of positions* each club occupies matters. For a fixed placement the best round
order is by the number of same-club matches, most first. So a branch-and-bound search places the clubs'
pairs on positions (largest club first), scoring a placement by its per-round counts sorted in descending
order (to be maximised lexicographically). It starts from a placement that puts a maximum matching in
one round (so round 1 is right even if the search stops early), removes the circle's symmetries
(rotating the positions, x -> x + b, or scaling them by a unit, x -> a x, only renumbers the rounds),
prunes with an optimistic bound (each club's best on its own, precomputed) and stops after
``SEARCH_NODE_LIMIT`` nodes. The result is proven best for every club make-up of a group of up to 14
pairs (checked exhaustively; the slowest takes under a second); for larger groups it is the best
found within the limit. No randomness and no clock: the same input always gives the same schedule.

Pair ids are ints or strings (as in ``scoring.draw``); the schedule depends only on the set of ids and
their clubs, not on the order the caller lists them in.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.draw import PairId, check_int, group_name_key, pair_id_key, sorted_unique_ids
from scoring.errors import ScoringError

# RULES.md §4 planned deals: groups of 2, 3 or 4 pairs play 16 deals, larger groups 12.
DEALS_SMALL_GROUP = 16
DEALS_LARGE_GROUP = 12
SMALL_GROUP_MAX_PAIRS = 4
# RULES.md §4: cup events play at least 12 deals in the Saturday groups.
CUP_MIN_DEALS = 12
# Branch-and-bound budget per group (nodes visited, about a second at most): enough to prove the best
# schedule for every club make-up of a group of up to 14 pairs.
SEARCH_NODE_LIMIT = 60_000


@dataclass(frozen=True)
class Round:
    """One round of a group: its 1-based ``number``, its ``matches`` (a, b) and the pair that rests, if any."""

    number: int
    matches: tuple[tuple[PairId, PairId], ...]
    resting: PairId | None = None


@dataclass(frozen=True)
class ScheduledMatch:
    """One group match as the web layer stores it: group name, 1-based round, table number, the two pairs."""

    group: str
    round: int
    table: int
    a: PairId
    b: PairId


# --- planned deals -----------------------------------------------------------------------------------


def minimum_deals(*, cup_event: bool) -> int:
    """The fewest planned deals a match may have: 12 in a cup event (RULES.md §4), else 1. The event form
    and the schedule both ask this function."""
    return CUP_MIN_DEALS if cup_event else 1


def planned_deals(group_size: int, *, cup_event: bool = True, chosen: int | None = None) -> int:
    """Planned deals per match in a Saturday group (RULES.md §4).

    Default: 16 for groups of 2, 3 or 4 pairs, 12 for larger groups (**Decision:** 2-pair groups as
    3-pair ones). ``chosen`` is the organiser's own count: any positive number, but at least 12 in a cup
    event (code ``too_few_deals``), as the rules allow the organiser to set the count with that minimum.
    """
    check_int(group_size, "group_size")
    if group_size < 2:
        raise ScoringError(
            "group_too_small",
            f"a group needs at least 2 pairs, this one has {group_size}",
            group_size=group_size,
        )
    if chosen is None:
        return DEALS_SMALL_GROUP if group_size <= SMALL_GROUP_MAX_PAIRS else DEALS_LARGE_GROUP
    check_int(chosen, "chosen")
    minimum = minimum_deals(cup_event=cup_event)
    if chosen < minimum:
        raise ScoringError(
            "too_few_deals",
            f"a match must have at least {minimum} planned deals"
            + (" in a cup event" if cup_event else "")
            + f", not {chosen}",
            chosen=chosen,
            minimum=minimum,
        )
    return chosen


# --- one group ---------------------------------------------------------------------------------------


def round_robin(
    pair_ids: Iterable[PairId], clubs: Mapping[PairId, Hashable | None] | None = None
) -> tuple[Round, ...]:
    """The rounds of one group's round robin, same-club matches first (RULES.md §4; see the module docstring).

    ``clubs`` maps a pair to its club (any hashable value); a pair missing from it, or mapped to None,
    has no club-mates. With an odd number of pairs each round has one resting pair and every pair rests
    exactly once. Within a round the matches are listed by their first pair, each match as (a, b) with
    a before b in id order (ints numerically, then strings).
    """
    ids = sorted_unique_ids(pair_ids)
    if len(ids) < 2:
        raise ScoringError(
            "group_too_small",
            f"a group needs at least 2 pairs, this one has {len(ids)}",
            group_size=len(ids),
        )
    clubs = clubs or {}
    classes = _club_classes(ids, clubs)
    n = len(ids) + len(ids) % 2
    q = n - 1
    placement = _best_placement(tuple(len(c) for c in classes), q)
    at = _seat(ids, classes, placement, n)
    club_of = {pair: clubs.get(pair) for pair in ids}
    circle_rounds = []
    for r in range(q):
        matches, resting = _circle_matches(at, r, q)
        same = sum(1 for a, b in matches if club_of[a] is not None and club_of[a] == club_of[b])
        circle_rounds.append((same, r, matches, resting))
    # Play the rounds with the most same-club matches first (ties in circle order).
    circle_rounds.sort(key=lambda item: (-item[0], item[1]))
    return tuple(
        Round(number=i + 1, matches=matches, resting=resting)
        for i, (_same, _r, matches, resting) in enumerate(circle_rounds)
    )


def _club_classes(ids: list[PairId], clubs: Mapping[PairId, Hashable | None]) -> list[tuple[PairId, ...]]:
    """The clubs with two or more pairs here, each as its pairs in id order: largest first, ties by their
    first pair id (never by the club value, which need not be orderable)."""
    members: dict[Hashable, list[PairId]] = {}
    for pair in ids:
        club = clubs.get(pair)
        if club is not None:
            members.setdefault(club, []).append(pair)
    return sorted(
        (tuple(m) for m in members.values() if len(m) >= 2),
        key=lambda m: (-len(m), pair_id_key(m[0])),
    )


def _seat(
    ids: list[PairId], classes: list[tuple[PairId, ...]], placement: tuple[tuple[int, ...], ...], n: int
) -> list[PairId | None]:
    """The pair at each of the ``n`` positions: each club's pairs on its positions (both in ascending
    order), then the other pairs on the free positions in ascending order; the bye (None) takes the last
    free position."""
    at: list[PairId | None] = [None] * n
    for cls, positions in zip(classes, placement, strict=True):
        for pair, p in zip(cls, positions, strict=True):
            at[p] = pair
    in_class = {pair for cls in classes for pair in cls}
    free_positions = [p for p in range(n) if at[p] is None]
    for pair, p in zip((p for p in ids if p not in in_class), free_positions, strict=False):
        at[p] = pair
    return at


def _circle_matches(
    at: list[PairId | None], r: int, q: int
) -> tuple[tuple[tuple[PairId, PairId], ...], PairId | None]:
    """Circle round r's matches, listed by their first pair, each (a, b) in id order, and its resting pair."""
    matches = []
    resting = None
    for x, y in _circle_round(r, q):
        a, b = at[x], at[y]
        if a is None or b is None:
            resting = b if a is None else a
            continue
        matches.append(tuple(sorted((a, b), key=pair_id_key)))
    matches.sort(key=lambda m: pair_id_key(m[0]))
    return tuple(matches), resting


def same_club_rounds(rounds: Iterable[Round], clubs: Mapping[PairId, Hashable | None]) -> tuple[int, ...]:
    """The ascending round numbers of the same-club matches: the quantity the schedule minimises."""
    result = []
    for rnd in rounds:
        for a, b in rnd.matches:
            ca, cb = clubs.get(a), clubs.get(b)
            if ca is not None and ca == cb:
                result.append(rnd.number)
    return tuple(sorted(result))


# --- the whole event ---------------------------------------------------------------------------------


def assign_tables(groups_rounds: Mapping[str, Sequence[Round]]) -> list[ScheduledMatch]:
    """Table numbers for all groups' matches, so no table has two matches in one round (RULES.md §4).

    In each round the matches of all groups are numbered 1 … M in group order (A, B, … Z, AA, …), group
    A's matches first, each group's in the order of its ``Round.matches``. Returned sorted by round and
    table.
    """
    for name in groups_rounds:
        if not isinstance(name, str) or not name:
            raise ScoringError(
                "group_name", f"a group name must be a non-empty string, not {name!r}", group=repr(name)
            )
    result: list[ScheduledMatch] = []
    next_table: dict[int, int] = {}
    for name in sorted(groups_rounds, key=group_name_key):
        for rnd in groups_rounds[name]:
            for a, b in rnd.matches:
                table = next_table.get(rnd.number, 1)
                next_table[rnd.number] = table + 1
                result.append(ScheduledMatch(group=name, round=rnd.number, table=table, a=a, b=b))
    result.sort(key=lambda m: (m.round, m.table))
    return result


def event_schedule(
    groups: Mapping[str, Iterable[PairId]],
    clubs: Mapping[PairId, Hashable | None] | None = None,
) -> list[ScheduledMatch]:
    """The whole Saturday schedule: every group's round robin (``round_robin``) with table numbers (``assign_tables``).

    ``groups`` maps a group name to its pair ids, ``clubs`` a pair to its club (None or missing: no
    club). A pair may be in one group only (code ``pair_in_two_groups``).
    """
    seen: dict[tuple[int, int | str], str] = {}
    groups_rounds: dict[str, tuple[Round, ...]] = {}
    for name, members in groups.items():
        members = list(members)
        for pair in members:
            key = pair_id_key(pair)
            if key in seen and seen[key] != name:
                raise ScoringError(
                    "pair_in_two_groups",
                    f"pair {pair} is in groups {seen[key]} and {name}",
                    pair=pair,
                    groups=(seen[key], name),
                )
            seen[key] = name
        groups_rounds[name] = round_robin(members, clubs)
    return assign_tables(groups_rounds)


# --- the circle and the search -----------------------------------------------------------------------


def _circle_round(r: int, q: int) -> list[tuple[int, int]]:
    """The position pairs of circle round r (position q is the fixed one, ∞)."""
    return [(q, r)] + [((r + i) % q, (r - i) % q) for i in range(1, (q + 1) // 2)]


def _round_of(x: int, y: int, q: int) -> int:
    """The circle round in which positions x and y meet (q is ∞): 2r ≡ x + y (mod q), or r = x against ∞."""
    if x == q:
        return y
    if y == q:
        return x
    return (x + y) * ((q + 1) // 2) % q


def _best_placement(sizes: tuple[int, ...], q: int) -> tuple[tuple[int, ...], ...]:
    """Positions (ascending) for each club of ``sizes`` (descending), best by the module's criterion."""
    if not sizes:
        return ()  # no club has two pairs here: every placement is as good
    return _PlacementSearch(sizes, q, SEARCH_NODE_LIMIT).run()[0]


class _Found(Exception):
    """A placement reaches the optimistic bound: no other can be better."""


class _OutOfNodes(Exception):
    """The branch has used its share of the node budget."""


class _PlacementSearch:
    """The branch and bound of the module docstring for clubs of ``sizes`` (descending) on the circle of
    ``q`` + 1 positions, within ``limit`` nodes. :meth:`run` gives the best placement found, its descending
    per-round counts and whether it is proven best. The phases: the optimistic bound (:meth:`bound`), the
    starting placement (:meth:`start`), the branches left by the circle's symmetries (:meth:`run`), and the
    depth-first placement of one pair at a time (:meth:`visit`, :meth:`candidates`)."""

    def __init__(self, sizes: tuple[int, ...], q: int, limit: int) -> None:
        self.sizes, self.q, self.limit = sizes, q, limit
        self.n = q + 1
        self.nu = sum(s // 2 for s in sizes)  # maximum matching of the same-club graph
        self.total_edges = sum(s * (s - 1) // 2 for s in sizes)
        self.rounds = [[_round_of(x, y, q) for y in range(self.n)] for x in range(self.n)]
        self.caps = [_clique_prefix_caps(s, q) for s in sizes]
        # future[c][k]: the caps of clubs c+1, c+2, … summed (index k = k largest rounds, k = 0 … q).
        self.future: list[list[int]] = [[]] * len(sizes)
        acc = [0] * (q + 1)
        for c in range(len(sizes) - 1, -1, -1):
            self.future[c] = acc
            acc = [a + b for a, b in zip(acc, self.caps[c], strict=True)]
        # The search's state: each club's positions so far, the per-round counts (all, and each club's).
        self.placed: list[list[int]] = [[] for _ in sizes]
        self.hist = [0] * q
        self.club_hists = [[0] * q for _ in sizes]
        self.nodes = 0
        self.branch_limit = limit
        self.prefix: tuple[int, ...] = ()  # the current branch's fixed first positions
        self.best: tuple[tuple[int, ...], ...] = ()
        self.best_score: tuple[int, ...] = ()
        self.ideal: tuple[int, ...] = ()

    def run(self) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], bool]:
        """The best placement found, its descending per-round counts, and whether it is proven best."""
        sizes, q, limit = self.sizes, self.q, self.limit
        if not sizes:
            return (), (0,) * q, True
        self.best = self.start()
        self.best_score = self.score(self.best)
        self.ideal = self.bound(0, 0, [0] * q, [0] * q, self.total_edges)
        if self.best_score == self.ideal:
            return self.best, self.best_score, True
        # Branch and bound. Pairs are placed club by club, each club's positions ascending; clubs of equal
        # size in ascending order of their first position. Symmetry: rotating the circle (x -> x + b) or
        # scaling it by a unit (x -> a x, gcd(a, q) = 1) permutes the rounds and keeps the counts, so the
        # first club can be taken to hold 0 and d, where d (a divisor of q) is the smallest gcd(y - x, q)
        # over its positions x < y. One branch per d, each with a fair share of the node budget.
        exact = True
        branches = [(0, d) for d in _divisors_below(q)] if sizes[0] >= 3 else [(0,)]
        for i, branch in enumerate(branches):
            self.prefix = branch
            self.branch_limit = self.nodes + (limit - self.nodes) // (len(branches) - i)
            try:
                self.visit(0, self.total_edges)
            except _Found:
                break
            except _OutOfNodes:
                exact = False
            # An exception leaves the state mid-search: start the next branch clean.
            self.hist[:] = [0] * q
            for cls, club_hist in zip(self.placed, self.club_hists, strict=True):
                cls.clear()
                club_hist[:] = [0] * q
        return self.best, self.best_score, exact

    def score(self, placement: Sequence[Sequence[int]]) -> tuple[int, ...]:
        """A placement's per-round counts of same-club matches, in descending order."""
        rounds = self.rounds
        hist = [0] * self.q
        for positions in placement:
            for i, x in enumerate(positions):
                for y in positions[:i]:
                    hist[rounds[x][y]] += 1
        return tuple(sorted(hist, reverse=True))

    def start(self) -> tuple[tuple[int, ...], ...]:
        """The starting placement: round 0's position pairs {∞, 0}, {1, q-1}, {2, q-2}, … dealt to the
        clubs, two pairs of a club per position pair; a club's odd pair goes to the lowest free position
        afterwards (so round 1 holds a maximum matching even if the search stops early)."""
        q = self.q
        slots = [(0, q)] + [(i, q - i) for i in range(1, (q + 1) // 2)]
        start: list[list[int]] = []
        used = set()
        for s in self.sizes:
            positions = []
            for _ in range(s // 2):
                positions.extend(slots.pop(0))
            used.update(positions)
            start.append(positions)
        for s, positions in zip(self.sizes, start, strict=True):
            if s % 2:
                p = min(p for p in range(self.n) if p not in used)
                used.add(p)
                positions.append(p)
        return tuple(tuple(sorted(p)) for p in start)

    def bound(self, c: int, j: int, hist: list[int], club_hist: list[int], edges_left: int) -> tuple[int, ...]:
        """An upper bound (lexicographic) on the descending round counts of any completion.

        With clubs before c complete and j pairs of club c placed, the sum of the k largest final round
        counts is at most each of: (a) the same sum now + at most R new matches a round (R = one per two
        unplaced-club pairs), (b) the clubs done + club c's own best (its cap, or what it has + one match
        a round per pair it still has to place) + each later club's best alone, (c) k times nu. The
        largest non-increasing vector under these prefix limits bounds every completion.
        """
        sizes, nu = self.sizes, self.nu
        size = sizes[c]
        done = sorted((h - ch for h, ch in zip(hist, club_hist, strict=True)), reverse=True)
        mine = sorted(club_hist, reverse=True)
        alls = sorted(hist, reverse=True)
        per_round = size // 2 + sum(s // 2 for s in sizes[c + 1 :])
        club_left = size * (size - 1) // 2 - j * (j - 1) // 2
        club_per_round = min(size // 2, size - j)
        fut = self.future[c]
        cap = self.caps[c]
        out = []
        pd = pc = pa = got = 0
        prev = nu
        for k in range(1, self.q + 1):
            pd += done[k - 1]
            pc += mine[k - 1]
            pa += alls[k - 1]
            limit_k = min(
                pa + min(edges_left, k * per_round),
                pd + min(cap[k], pc + min(club_left, k * club_per_round)) + fut[k],
                k * nu,
            )
            g = max(0, min(prev, limit_k - got))
            out.append(g)
            got += g
            prev = g
        return tuple(out)

    def visit(self, c: int, edges_left: int) -> None:
        """Place the next pair of club ``c`` (or go on to the next club), keeping the best placement."""
        self.nodes += 1
        if self.nodes > self.branch_limit:
            raise _OutOfNodes
        hist = self.hist
        if c == len(self.sizes):
            current = tuple(sorted(hist, reverse=True))
            if current > self.best_score:
                self.best_score = current
                self.best = tuple(tuple(p) for p in self.placed)
                if current == self.ideal:
                    raise _Found
            return
        mine = self.placed[c]
        j = len(mine)
        if j == self.sizes[c]:
            self.visit(c + 1, edges_left)
            return
        club_hist = self.club_hists[c]
        if self.bound(c, j, hist, club_hist, edges_left) <= self.best_score:
            return
        rounds = self.rounds
        for p in self.candidates(c, j):
            new_rounds = [rounds[p][x] for x in mine]
            for r in new_rounds:
                hist[r] += 1
                club_hist[r] += 1
            mine.append(p)
            self.visit(c, edges_left - len(new_rounds))
            mine.pop()
            for r in new_rounds:
                hist[r] -= 1
                club_hist[r] -= 1

    def candidates(self, c: int, j: int) -> list[int]:
        """The positions the (j + 1)-th pair of club ``c`` may take, most promising first: above the club's
        last one (and the previous club's first, for clubs of equal size), leaving room for the rest, in
        the current branch's prefix for the first club."""
        sizes, placed, q, prefix = self.sizes, self.placed, self.q, self.prefix
        mine = placed[c]
        size = sizes[c]
        if c == 0 and j < len(prefix):
            return [prefix[j]]
        low = mine[-1] + 1 if j else (placed[c - 1][0] + 1 if sizes[c - 1] == size else 0)
        taken = {p for cls in placed for p in cls}
        free = [p for p in range(low, self.n) if p not in taken]
        need = size - j
        candidates = free[: len(free) - need + 1] if len(free) >= need else []
        if c == 0 and len(prefix) == 2:
            d = prefix[1]  # no two finite positions of the first club closer than d (see run)
            candidates = [p for p in candidates if p == q or all(math.gcd(p - x, q) >= d for x in mine)]
        if j:
            # Try first the positions whose new matches land in the fullest rounds.
            hist, rounds = self.hist, self.rounds
            candidates.sort(key=lambda p: (-sum(hist[rounds[p][x]] for x in mine), p))
        return candidates


# Enumerate at most this many position sets when computing one club's best on its own.
_CLIQUE_ENUMERATION_LIMIT = 20_000


@functools.cache
def _clique_prefix_caps(size: int, q: int) -> tuple[int, ...]:
    """caps[k] ≥ the sum of the k largest round counts of a club of ``size`` pairs alone (k = 0 … q).

    Exact (the maximum over all its position sets, up to the circle's symmetries, as in ``_PlacementSearch``)
    when that enumeration is small, else the trivial k × (size // 2) limit.
    """
    edges = size * (size - 1) // 2
    trivial = tuple(min(k * (size // 2), edges) for k in range(q + 1))
    if size < 3 or math.comb(q, size - 2) > _CLIQUE_ENUMERATION_LIMIT:
        return trivial
    best = [0] * (q + 1)
    for d in _divisors_below(q):
        for rest in itertools.combinations(range(d + 1, q + 1), size - 2):
            positions = (0, d, *rest)
            finite = [x for x in positions if x != q]
            if any(math.gcd(y - x, q) < d for i, y in enumerate(finite) for x in finite[:i]):
                continue
            hist = [0] * q
            for i, x in enumerate(positions):
                for y in positions[:i]:
                    hist[_round_of(x, y, q)] += 1
            hist.sort(reverse=True)
            total = 0
            for k, h in enumerate(hist, start=1):
                total += h
                if total > best[k]:
                    best[k] = total
    return tuple(best)


def _divisors_below(q: int) -> list[int]:
    """Divisors of q smaller than q, ascending (the possible gaps 0, d of a normalised club, see
    ``_PlacementSearch.run``)."""
    return [d for d in range(1, q) if q % d == 0]
