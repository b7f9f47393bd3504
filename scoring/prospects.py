"""Who can still finish where in a group (*kuka on jatkossa*): best and worst final positions.

Given one round-robin group's finished matches and the matches it still has to play, this module says
for every pair the best and the worst final position (1 = first) that it can still reach, over every way
the open matches can end, the final order being RULES.md §4 "Group order" in full, exactly as
:func:`scoring.standings.rank_group` computes it (the same code: :func:`scoring.standings.resolve_level`
runs steps 2–5 here). With the advancement rule of RULES.md §4 (8 groups: the first two go on; 16 groups:
the winner) the web layer turns the two numbers into *jatkoon varmasti* / *putosi* / *vielä auki*
(:func:`advancement`).

Public API::

    group_prospects(pairs, results, remaining, playoffs=(), *, primary="match_points") -> tuple[Prospect, ...]
    advancement(prospect, places) -> "through" | "out" | "open"

The model of what an open match can still bring (each line is the project's interpretation):

* **Decision (outcomes):** each open match ends with one of its two pairs winning 5–0, 4–1 or 3–2 (RULES §3:
  tuppi, overwhelming points win, points win); every such result is possible, whatever the match points
  of the other matches.
* **Decision (rise totals):** a pair's final rise total is the fixed sum over its finished matches (as
  recorded, RULES §4 step 4) plus what its open matches add. An open match adds to each of its two pairs
  a whole multiple of 4 (RULES §1: every deal scores in steps of 4, the deal-error penalty is 28), 0 or
  more, with no upper limit. So a pair with open matches can still gain totals but never lose them, and a
  pair without open matches keeps the totals it has.
* **Decision (points win):** in a 4–1 or 3–2 the winner's total in that match is greater than the loser's
  (RULES §3: "the higher total wins"; equal totals go to a deciding deal whose points are added to the
  winner). So a 4–1 or 3–2 winner gains at least 4 from that match, and the loser gains less than the winner
  does in that same match: a pair whose open matches are all points losses can only gain what its winners
  gain more.
* **Decision (tuppi):** a 5–0 puts no condition on the two totals: a tuppi penalty or a forfeit (RULES §3,
  "rise totals as they stood, 0–0 if unplayed") can come at any score, so the tuppi winner may end with
  less than the loser, and both may add 0.
* **Decision (relaxation, on purpose):** the model does not know the stage's planned deal count, so it does
  not use the overwhelming threshold (a 4–1 winner above it, a 3–2 winner at most it, RULES §3) nor the
  least totals that N played deals produce. Real scoresheets are a subset of the model's completions, so a
  position the function calls decided is decided for every real completion too; at worst it shows open a
  position that only an impossible scoresheet would reach.
* **Decision (undecided counts as open):** where the order would depend on rise totals still to be played
  (any ordering the model allows counts) or on a play-off not recorded, the pair can reach every position
  of its shared rank: a pair that needs a play-off with its tie at rank r of size s counts r as reachable
  and r + s − 1 as reachable, never one of them as decided.
* **Decision (recorded play-offs):** a recorded play-off (RULES §4 step 5) orders its pairs in each completion
  in which they are exactly one set still level after step 4, and is ignored in every other completion
  (a play-off recorded before the last match is honoured where it fits; it never raises
  ``playoff_not_needed`` here: the table itself, :func:`scoring.standings.rank_group`, does that).
  With no open match the result is exactly rank_group's: best = rank, worst = rank + size of its tie − 1.
* The open matches are given as pairs of pair ids; each must join two different pairs of the group that
  have no finished match between them, and appear once (``unknown_pair``, ``self_match``,
  ``duplicate_match``). Finished matches, play-offs and ``primary`` are checked as rank_group checks them.

How it is computed (exact under the model above, never an enumeration of all 6^k outcomes). For each pair
p and each of "best" and "worst" a search fixes, one at a time, only the open matches whose two pairs can
both still end level with p on step 1 (match points, or wins). A pair whose range of step-1 values lies
wholly above or below p's range is certainly above or below p and no longer matters; once one pair of a
match is certain whichever split its winner wins by, the three splits merge into one outcome that leaves
the other pair's gain open. When no match between two pairs that can meet p is left, each such pair's
step-1 value can be anything in its range independently of the others, so the search tries each value of
p's and each choice of who ends level with p, and orders the level pairs with
:func:`scoring.standings.resolve_level` (steps 2–5); where step 4 is reached, :func:`_totals_orders`
decides which orders of the rise totals the model allows (a small transport problem, see there). The
search is iterative deepening on the answer (is place b reachable? then b + 1 …, from a bound: the pairs
certainly above p, plus the rivals whose matches among themselves must push some of them past p), with
the match-point ranges pruning every branch that can no longer reach the place tried, a memo of search
states that cannot do better, and a cache of the tie-break places of each level set.

Cost: the search is exponential in the worst case (the question is a combinatorial one). On this project's
2-core machine (``bench/prospects_speed.py``) a 9-pair group with 8 open matches takes a few milliseconds
typically (random results: median about 5 ms, the slowest of 40 about 60 ms); groups whose results are all
3–2 with near-equal totals, where many-way ties make every match matter, take about 25 ms typically and up
to about 0.2 s; groups of 12–15 pairs with 15–20 open matches, which only one-stage events have, can take
seconds. A caller showing it on a page should cache it per results version.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scoring.errors import ScoringError
from scoring.standings import (
    PRIMARY_CHOICES,
    MatchResult,
    Pair,
    Playoff,
    Primary,
    resolve_level,
    validate_group,
)

__all__ = ["Advancement", "Prospect", "advancement", "group_prospects", "remaining_round_robin"]

Advancement = Literal["through", "out", "open"]

# RULES §1, §3: deals score in steps of 4 and the penalty is 28, so a match adds a multiple of 4.
RISE_STEP = 4

# RULES §3: the winner's match points in the three kinds of win; the loser gets 5 minus them.
_WIN_POINTS = (5, 4, 3)

_INF = float("inf")


@dataclass(frozen=True)
class Prospect:
    """A pair's best and worst reachable final position in its group (1 = first)."""

    pair: Pair
    best: int
    worst: int

    @property
    def decided(self) -> bool:
        """The final position is fixed whatever the open matches bring."""
        return self.best == self.worst

    def to_json(self) -> dict[str, Any]:
        return {"pair": self.pair, "best": self.best, "worst": self.worst}


def advancement(prospect: Prospect, places: int) -> Advancement:
    """Whether a pair goes on when the first ``places`` of the group advance (RULES §4: 2 with 8 groups,
    1 with 16): ``"through"`` (*jatkoon varmasti*) when even its worst position advances, ``"out"``
    (*putosi*) when even its best does not, else ``"open"`` (*vielä auki*)."""
    if prospect.worst <= places:
        return "through"
    if prospect.best > places:
        return "out"
    return "open"


# --------------------------------------------------------------------------------------------------
# Input


def _check_remaining(remaining: Iterable[Any], pairs: tuple[Pair, ...], played: Mapping[frozenset, Any]
                     ) -> list[tuple[Pair, Pair]]:
    if isinstance(remaining, str | bytes) or not isinstance(remaining, Iterable):
        raise ScoringError("bad_input", "remaining must be a list of two-pair matches")
    known = set(pairs)
    seen: set[frozenset] = set()
    opens: list[tuple[Pair, Pair]] = []
    for index, item in enumerate(remaining, start=1):
        if isinstance(item, str | bytes) or not isinstance(item, Iterable):
            raise ScoringError("bad_input", f"open match {index} must be two pair ids", remaining=index)
        sides = tuple(item)
        if len(sides) != 2:
            raise ScoringError("bad_input", f"open match {index} must be two pair ids", remaining=index)
        for pair in sides:
            if pair not in known:
                raise ScoringError(
                    "unknown_pair",
                    f"open match {index} names pair {pair!r}, which is not in this group",
                    remaining=index,
                    pair=pair,
                )
        a, b = sides
        if a == b:
            raise ScoringError(
                "self_match", f"open match {index}: pair {a!r} cannot play itself", remaining=index, pair=a
            )
        key = frozenset(sides)
        if key in played or key in seen:
            raise ScoringError(
                "duplicate_match",
                f"open match {index}: {a!r} and {b!r} have already met or are listed twice",
                remaining=index,
                a=a,
                b=b,
            )
        seen.add(key)
        opens.append((a, b))
    return opens


@dataclass(frozen=True, slots=True)
class _Outcome:
    """One way an open match can end: key gains on step 1, whether it is a points win, the result."""

    winner: int
    loser: int
    gain_winner: int
    gain_loser: int
    points_win: bool  # 4–1 or 3–2 (the winner's share is greater); False for a tuppi 5–0
    result: MatchResult
    code: int  # 0..5, which of the six outcomes of its match; 6.. for a merged one (below)
    # A merged outcome stands for the three splits of one winner when one of the two pairs is certainly
    # above or below p whichever split it is: ``flex`` is the other pair, whose gain is then anything from
    # its gain here up to 2 more under match points (a loser 0–2, a winner 3–5; under wins the splits
    # gain alike); -1 when there is none to track.
    flex: int = -1
    flex_win: bool = False


def _points_wins_needed(primary: Primary, most: int) -> list[list[int]]:
    """``table[j][d]``: the fewest points wins (4–1, 3–2) among j open matches that give d match points.

    Under ``primary="wins"`` step 1 counts wins and every win may be a 5–0, so it is always 0. Under match
    points a match gives 0, 1, 2 or 5 without a points win and 3 or 4 only with one.
    """
    table = [[0]]
    for j in range(1, most + 1):
        row = []
        for d in range(5 * j + 1):
            if primary == "wins":
                row.append(0)
                continue
            best = None
            for gain in range(6):
                if 0 <= d - gain <= 5 * (j - 1):
                    cost = table[j - 1][d - gain] + (1 if gain in (3, 4) else 0)
                    best = cost if best is None else min(best, cost)
            row.append(best if best is not None else 0)
        table.append(row)
    return table


# --------------------------------------------------------------------------------------------------
# The rise totals (RULES §4 step 4) under the model of the module docstring


def _totals_orders(
    centre: int,
    members: Sequence[int],
    fixed: Mapping[int, int],
    forced: Mapping[int, int],
    bound_to: Mapping[int, tuple[int, ...] | None],
    relation: Mapping[int, str],
) -> bool:
    """Can the open matches' rise totals end so that each pair q of ``relation`` has a final total above
    (``"A"``), equal to (``"E"``) or below (``"B"``) the final total of pair ``centre``? Members left out of
    ``relation`` may end anywhere.

    ``members`` are the pairs compared at step 4 (``centre`` among them); the totals of any other pair do not
    matter. For each member: ``fixed`` its total from finished matches; ``forced`` how many of its open
    matches it wins on points (each adds at least 4 to it, Decision (points win)); ``bound_to`` is None for
    a *free* member — one that can raise its total on its own without limit: it has an open match that is a
    tuppi (either side), a points win, or a points loss to a non-member (whose total does not matter) — and
    otherwise (a *bound* member: every open match of it is a points loss to another member, or it has none)
    the members it loses those matches to.

    Work in units of 4 (Decision (rise totals)). Let g_q be q's gain and τ = g_centre. Without loss of
    generality a free member loses its points losses to members with share 0 (it can take what it needs
    from its own free match, and a smaller loser share only lowers its winner's least total). So, for
    shares y_e ≥ 0 on the points losses e of bound members: a bound member gains exactly Σ y_e over its
    losses; a free member w gains any amount from ``forced[w]`` + Σ y_e (the shares of the bound members it
    beat, each winner share exceeding its loser share) upwards. A relation is a bound on g_q − τ derived from
    ``fixed``: above g_q ≥ τ + a_q, equal g_q = τ + e_q (only if the fixed difference is a multiple of 4),
    below g_q ≤ τ + b_q. For a fixed τ this is a supply-and-capacity problem on the bipartite graph of bound
    members and their winners: each bound member must send at least its least gain to its winners, each
    winner that must stay at or below τ + c can take at most τ + c − forced, a winner that may go above
    takes any amount. By Hall's theorem (and integral flows) it is solvable iff for every set S of bound
    members the least gains of S fit in the capacities of S's winners. Each such condition is convex
    piecewise linear in τ, so the feasible τ form an interval: the largest violation, a convex function,
    is minimised by bisection over τ ≥ 0 (beyond all break and crossing points it is linear).
    """
    c_centre = fixed[centre]
    lower, upper = 0, _INF
    caps: dict[int, int | None] = {}  # winner -> c with capacity τ + c, or None for unlimited
    left: list[tuple[str, int, tuple[int, ...]]] = []  # bound members that may have to gain
    spread = 2 + forced[centre]
    if bound_to[centre] is None:
        lower = max(lower, forced[centre])
        caps[centre] = -forced[centre]
    elif bound_to[centre]:
        left.append(("E", 0, bound_to[centre]))  # type: ignore[arg-type]
    else:
        upper = 0  # the centre gains nothing
    for q in members:
        if q == centre:
            continue
        rel = relation.get(q)
        if rel is None:  # not asked: no condition (a free member may take any amount)
            if bound_to[q] is None:
                caps[q] = None
            continue
        diff = c_centre - fixed[q]
        if rel == "A":
            offset = diff // RISE_STEP + 1
        elif rel == "E":
            if diff % RISE_STEP:
                return False
            offset = diff // RISE_STEP
        else:
            offset = -((-diff) // RISE_STEP) - 1
        spread += abs(offset) + forced[q] + 2
        winners = bound_to[q]
        if winners is None:
            if rel == "A":
                caps[q] = None
            else:
                caps[q] = offset - forced[q]
                lower = max(lower, forced[q] - offset)
        elif rel == "B":
            lower = max(lower, -offset)  # it stays at its fixed total, which must be below
        elif rel == "E":
            lower = max(lower, -offset)
            if winners:
                left.append(("E", offset, winners))
            else:
                upper = min(upper, -offset)
        elif winners:
            left.append(("A", offset, winners))
        else:
            upper = min(upper, -offset)  # it must gain nothing, so its fixed total must be above
    if lower > upper:
        return False
    # Hall's condition for every set of bound members whose winners all have a capacity.
    conditions: list[tuple[list[tuple[str, int]], int, list[int]]] = []
    for mask in range(1, 1 << len(left)):
        chosen = [left[i] for i in range(len(left)) if mask >> i & 1]
        winners_of = {w for _kind, _offset, ws in chosen for w in ws}
        if any(caps.get(w, None) is None for w in winners_of):
            continue
        conditions.append(([(kind, offset) for kind, offset, _ws in chosen], len(winners_of),
                           [caps[w] for w in winners_of]))  # type: ignore[misc]
    if not conditions:
        return True

    def violation(tau: int) -> int:
        worst = None
        for supplies, count, capacity in conditions:
            need = 0
            for kind, offset in supplies:
                need += max(0, tau + offset) if kind == "A" else tau + offset
            value = need - count * tau - sum(capacity)
            worst = value if worst is None else max(worst, value)
        return worst  # type: ignore[return-value]

    hi = upper if upper != _INF else max(lower, 2 * spread + 2)
    lo = lower
    hi = int(hi)
    while lo < hi:
        mid = (lo + hi) // 2
        if violation(mid + 1) >= violation(mid):
            hi = mid
        else:
            lo = mid + 1
    if violation(lo) <= 0:
        return True
    # Still falling at the far end with no upper limit: linear from there on, so it reaches 0.
    return upper == _INF and violation(lo + 1) < violation(lo)


# --------------------------------------------------------------------------------------------------
# The search


class _Group:
    """One group prepared for the searches: pairs by index, step-1 values, open matches and outcomes."""

    def __init__(
        self,
        pairs: tuple[Pair, ...],
        results_by_pair: Mapping[frozenset, MatchResult],
        key: Mapping[Pair, int],
        totals: Mapping[Pair, int],
        opens: list[tuple[Pair, Pair]],
        playoffs: Mapping[frozenset, tuple[Pair, ...]],
        primary: Primary,
    ) -> None:
        self.pairs = pairs
        self.n = len(pairs)
        self.index = {pair: i for i, pair in enumerate(pairs)}
        self.finished = dict(results_by_pair)
        self.base_key = [key[pair] for pair in pairs]
        self.fixed_totals = [totals[pair] for pair in pairs]
        self.playoffs = playoffs
        self.primary = primary
        # Step 1 gains: match points, or wins (Decision (RULES §4, step 1) in scoring.standings).
        self.step = 5 if primary == "match_points" else 1
        self.winner_least = 3 if primary == "match_points" else 1  # what a winner gains at least
        self.flex = 2 if primary == "match_points" else 0  # how far the three splits of a win differ
        self.loser_most = 2 if primary == "match_points" else 0  # what a loser gains at most
        self.ends: list[tuple[int, int]] = []
        self.outcomes: list[tuple[_Outcome, ...]] = []
        self.matches_of: list[list[int]] = [[] for _ in pairs]
        for number, (a, b) in enumerate(opens):
            i, j = self.index[a], self.index[b]
            self.ends.append((i, j))
            self.matches_of[i].append(number)
            self.matches_of[j].append(number)
            ways = []
            for w, lose in ((i, j), (j, i)):
                for points in _WIN_POINTS:
                    wp, lp = pairs[w], pairs[lose]
                    result = MatchResult(wp, lp, wp, {wp: points, lp: 5 - points}, {wp: 0, lp: 0})
                    if primary == "match_points":
                        gains = (points, 5 - points)
                    else:
                        gains = (1, 0)
                    ways.append(_Outcome(w, lose, gains[0], gains[1], points != 5, result, len(ways)))
            self.outcomes.append(tuple(ways))
        self.kappa = _points_wins_needed(primary, max((len(m) for m in self.matches_of), default=0))
        self.zeros = dict.fromkeys(pairs, 0)

    def search(self, centre: int, mode: str) -> int:
        return _Search(self, centre, mode).run()


class _Stop(Exception):
    """A completion reaches the place being tried: the search for it is over."""


class _Search:
    """The search for one pair's (``centre``) best or worst place (``mode`` ``"best"`` / ``"worst"``)."""

    def __init__(self, group: _Group, centre: int, mode: str) -> None:
        self.g = group
        self.p = centre
        self.best_mode = mode == "best"
        self.key = list(group.base_key)
        self.unfixed = [len(ms) for ms in group.matches_of]
        # How much more each pair can still gain: its open matches and its merged ones.
        self.spread = [group.step * len(ms) for ms in group.matches_of]
        self.flex_loss = [0] * group.n
        self.flex_win = [0] * group.n
        self.assigned: list[_Outcome | None] = [None] * len(group.ends)
        self.fixed: list[int] = []  # the assigned matches, in order
        self.mutual = dict(group.finished)
        self.value = group.n + 1 if self.best_mode else 0
        self.target = 0
        self.memo: dict[tuple, int] = {}
        self.cache: dict[tuple, int] = {}

    def run(self) -> int:
        """Iterative deepening on the answer: try the bound at the root first, then one place worse,
        until a completion reaches it (each failed try proves that place unreachable; the memo keeps
        what it learnt for the next)."""
        p_lo, p_hi, above, below, relevant, inner, bound = self.classify()
        if self.alone(relevant, inner, p_lo, p_hi):
            return bound
        # A tighter start: how many rivals at most can stay on p's side of its best value (best mode)
        # or get to p's worst value (worst mode) all at once.
        rivals = sum(relevant) - 1
        most = self.most_rivals(relevant, inner, p_lo, p_hi)
        if self.best_mode:
            bound = max(bound, 1 + above + rivals - most)
        else:
            bound = min(bound, 1 + above + most)
        targets = range(bound, self.g.n + 1) if self.best_mode else range(bound, 0, -1)
        for target in targets:
            self.target = target
            self.value = target + 1 if self.best_mode else target - 1
            try:
                self.node()
            except _Stop:
                return self.value
        raise AssertionError("every group order has a place for every pair")  # pragma: no cover

    # -- one node -----------------------------------------------------------------------------------

    def classify(self) -> tuple[int, int, int, int, list[bool], list[int], int]:
        """p's range of step-1 values, how many pairs are certainly above and below it, which pairs can
        still meet it, the open matches between two of those, and the bound on p's place."""
        g, p, key, spread = self.g, self.p, self.key, self.spread
        p_lo = key[p]
        p_hi = p_lo + spread[p]
        above = below = 0
        relevant = [False] * g.n
        for x in range(g.n):
            lo = key[x]
            if lo > p_hi:
                above += 1
            elif lo + spread[x] < p_lo:
                below += 1
            else:
                relevant[x] = True  # p itself lands here
        assigned = self.assigned
        inner = [m for m, (a, b) in enumerate(g.ends) if relevant[a] and relevant[b] and assigned[m] is None]
        extra = self.forced_by_matches(inner, p_lo, p_hi) if inner else 0
        bound = 1 + above + extra if self.best_mode else g.n - below - extra
        # The finer count costs more: only where one more pair would already prune.
        if len(inner) > 1 and (bound + 1 == self.value if self.best_mode else bound - 1 == self.value):
            more = self.forced_by_room(inner, p_lo, p_hi) - extra
            if more > 0:
                bound += more if self.best_mode else -more
        return p_lo, p_hi, above, below, relevant, inner, bound

    def node(self) -> None:
        g, p = self.g, self.p
        p_lo, p_hi, above, below, relevant, inner, bound = self.classify()
        if bound >= self.value if self.best_mode else bound <= self.value:
            return
        state = self.state(relevant, above, below, inner)
        known = self.memo.get(state)
        if known is not None and (known >= self.value if self.best_mode else known <= self.value):
            return
        if not inner:
            self.leaf(relevant, above)
            if self.value <= self.target if self.best_mode else self.value >= self.target:
                raise _Stop
        else:
            m = self.choose(inner)
            a, b = g.ends[m]
            for outcome in self.order(self.children(m, p_lo, p_hi)):
                if p != a and p != b and self.child_pruned(outcome, p_lo, p_hi, above, below):
                    continue
                self.apply(m, outcome)
                self.node()
                self.undo(m, outcome)
        # Memo: no completion below this state does better than ``self.value`` (what was pruned was no
        # better than the value at the time, and the value only improves).
        self.memo[state] = self.value

    def alone(self, relevant: list[bool], inner: list[int], p_lo: int, p_hi: int) -> bool:
        """Can the open matches end with every pair that can still meet p strictly below it (best mode:
        p wins its matches 5–0 and ends on its highest value) or strictly above it (worst mode: p loses
        them 0–5)? Then p is alone on its value and its place is the bound (no pair is forced past it by
        the match points, so the bound is the certain pairs alone). Each match between two rivals hands
        out ``step`` step-1 points in any split (5–0 … 0–5, or one win), so by Hall's theorem this holds
        iff no set of rivals must take more (best) or can get less (worst) than its matches give."""
        g, p = self.g, self.p
        step = g.step
        rivals = [x for x in range(g.n) if relevant[x] and x != p]
        index = {x: i for i, x in enumerate(rivals)}
        among = [(a, b) for m in inner for a, b in (g.ends[m],) if p not in (a, b)]
        need = []
        for x in rivals:
            if self.best_mode:
                room = p_hi - 1 - self.key[x]  # what x may still take from matches among rivals
                if room < 0:
                    return False
                need.append(room)
            else:
                # x takes the most from its matches against p and certain pairs, the rest from rivals.
                count = sum(1 for a, b in among if x in (a, b))
                top = self.key[x] + self.spread[x] - step * count
                need.append(max(0, p_lo + 1 - top))
        edges = [(1 << index[a]) | (1 << index[b]) for a, b in among]
        for mask in range(1, 1 << len(rivals)):
            total = sum(need[i] for i in range(len(rivals)) if mask >> i & 1)
            if self.best_mode:
                if step * sum(1 for e in edges if e & mask == e) > total:
                    return False
            elif total > step * sum(1 for e in edges if e & mask):
                return False
        return True

    def most_rivals(self, relevant: list[bool], inner: list[int], p_lo: int, p_hi: int) -> int:
        """The largest set of rivals (pairs that can still meet p) that can all, in one completion, stay
        at or below p's highest value (best mode: p wins its matches 5–0, so the others can only be
        passed by more) or reach p's lowest value (worst mode: p loses them 0–5). Every other rival then
        ends above (below) p in every completion: in a completion where more rivals were on p's side,
        giving p all its matches (or none) would keep them there. Each match between two rivals hands out
        ``step`` step-1 points in any split; a set is possible iff Hall's condition holds for its subsets.
        Exact, by a search over sets adding rivals one at a time (a subset of a possible set is
        possible)."""
        g, p = self.g, self.p
        step = g.step
        rivals = [x for x in range(g.n) if relevant[x] and x != p]
        among = [g.ends[m] for m in inner if p not in g.ends[m]]
        room: dict[int, int] = {}
        for x in rivals:
            count = sum(1 for a, b in among if x in (a, b))
            if self.best_mode:
                room[x] = p_hi - self.key[x]  # what x may take from matches among rivals
            else:
                top = self.key[x] + self.spread[x] - step * count
                room[x] = max(0, p_lo - top)  # what x must take from them
        if self.best_mode:
            candidates = sorted((x for x in rivals if room[x] >= 0), key=lambda x: -room[x])
        else:
            count_of = {x: sum(1 for a, b in among if x in (a, b)) for x in rivals}
            candidates = sorted((x for x in rivals if room[x] <= step * count_of[x]), key=room.__getitem__)
        index = {x: i for i, x in enumerate(candidates)}
        edges = [(1 << index[a] if a in index else 0) | (1 << index[b] if b in index else 0)
                 for a, b in among]
        both = [(1 << index[a]) | (1 << index[b]) for a, b in among if a in index and b in index]

        def fits(mask: int, new: int) -> bool:
            # Hall's condition for the subsets of ``mask`` that contain ``new``.
            rest = mask & ~(1 << new)
            sub = rest
            while True:
                chosen = sub | (1 << new)
                total = sum(room[candidates[i]] for i in range(len(candidates)) if chosen >> i & 1)
                if self.best_mode:
                    if step * sum(1 for e in both if e & chosen == e) > total:
                        return False
                elif total > step * sum(1 for e in edges if e & chosen):
                    return False
                if sub == 0:
                    return True
                sub = (sub - 1) & rest

        best = 0
        steps = [0]

        def extend(i: int, mask: int, size: int) -> None:
            nonlocal best
            steps[0] += 1
            best = max(best, size)
            if size + len(candidates) - i <= best or steps[0] > 20000:
                return
            for j in range(i, len(candidates)):
                if size + len(candidates) - j <= best:
                    return
                if fits(mask | (1 << j), j):
                    extend(j + 1, mask | (1 << j), size + 1)

        extend(0, 0, 0)
        if steps[0] > 20000:
            return len(candidates)  # search cut short: the count of candidates is still a bound
        return best

    def state(self, relevant: list[bool], above: int, below: int, inner: list[int]) -> tuple:
        """What the rest of the search depends on: the certain counts, each pair that can still meet p
        with its step-1 value and matches left, the open matches between two such pairs, the fixed results
        between two such pairs (tie-breaks, totals), and for each such pair the fixed results against the
        others (they only make it free on totals and may force gains)."""
        ends, assigned, key, unfixed = self.g.ends, self.assigned, self.key, self.unfixed
        outside = [0] * self.g.n
        fixed_inside = []
        for m in self.fixed:
            a, b = ends[m]
            o = assigned[m]
            if o.flex >= 0 or o.code >= 6:  # type: ignore[union-attr]
                continue  # merged: one side is certain, the other's part is in its flex counts
            if relevant[a]:
                if relevant[b]:
                    fixed_inside.append(m * 8 + o.code)  # type: ignore[union-attr]
                else:
                    outside[a] += 1 + 64 * (o.winner == a and o.points_win)  # type: ignore[union-attr]
            elif relevant[b]:
                outside[b] += 1 + 64 * (o.winner == b and o.points_win)  # type: ignore[union-attr]
        pairs = tuple(
            (key[x], unfixed[x], outside[x], self.flex_loss[x], self.flex_win[x]) if rel else None
            for x, rel in enumerate(relevant)
        )
        return (above, below, pairs, tuple(inner), tuple(sorted(fixed_inside)))

    def child_pruned(self, o: _Outcome, p_lo: int, p_hi: int, above: int, below: int) -> bool:
        """The bound of the node ``o`` leads to, without building it (p's range stays the same; only the
        two pairs of the match can become certainly above or below)."""
        step = self.g.step
        if o.code >= 6:
            return False  # merged outcomes are few; let the node judge
        for x, gain in ((o.winner, o.gain_winner), (o.loser, o.gain_loser)):
            lo = self.key[x] + gain
            if lo > p_hi:
                above += 1
            elif lo + self.spread[x] - step < p_lo:
                below += 1
        if self.best_mode:
            return 1 + above >= self.value
        return self.g.n - below <= self.value

    def forced_by_room(self, inner: list[int], p_lo: int, p_hi: int) -> int:
        """Each match among rivals hands out ``step`` step-1 points in any split. A rival has room for
        what it may still take without passing p's highest value (best mode), or lose without dropping
        below p's lowest (worst mode). Removing a set T of rivals frees at most Σ_T (step·degree − room)
        of the points a set must absorb, so T must be at least that large. Tried on the rivals of least
        room first."""
        g, p = self.g, self.p
        step = g.step
        matches = [g.ends[m] for m in inner if p not in g.ends[m]]
        if not matches:
            return 0
        room: dict[int, int] = {}
        for a, b in matches:
            for x in (a, b):
                if x not in room:
                    if self.best_mode:
                        room[x] = p_hi - self.key[x]
                    else:
                        room[x] = self.key[x] + self.spread[x] - p_lo
        ranked = sorted(room, key=room.__getitem__)
        best = 0
        for size in range(2, len(ranked) + 1):
            chosen = set(ranked[:size])
            degree = dict.fromkeys(chosen, 0)
            count = 0
            for a, b in matches:
                if a in chosen and b in chosen:
                    degree[a] += 1
                    degree[b] += 1
                    count += 1
            need = step * count - sum(room[x] for x in chosen)
            if need <= 0:
                continue
            freed = sorted((step * degree[x] - room[x] for x in chosen), reverse=True)
            total = t = 0
            while total < need:
                total += freed[t]
                t += 1
            best = max(best, t)
        return best

    def forced_by_matches(self, inner: list[int], p_lo: int, p_hi: int) -> int:
        """How many more pairs the open matches among p's rivals force above p (best mode) or below it
        (worst mode) whatever their results: disjoint matches whose winner passes p's highest value
        either way (or whose loser drops below p's lowest either way)."""
        g, p = self.g, self.p
        used: set[int] = set()
        count = 0
        for m in inner:
            a, b = g.ends[m]
            if p in (a, b) or a in used or b in used:
                continue
            if self.best_mode:
                if self.key[a] + g.winner_least > p_hi and self.key[b] + g.winner_least > p_hi:
                    used.update((a, b))
                    count += 1
            else:
                top_a = self.key[a] + self.spread[a]
                top_b = self.key[b] + self.spread[b]
                loss = g.step - g.loser_most
                if top_a - loss < p_lo and top_b - loss < p_lo:
                    used.update((a, b))
                    count += 1
        return count

    def choose(self, inner: list[int]) -> int:
        """p's own matches first; then a match of the rivals with the most matches still open among
        them, whose results move the most rivals at once."""
        g, p = self.g, self.p
        for m in inner:
            if p in g.ends[m]:
                return m
        degree = [0] * g.n
        for m in inner:
            a, b = g.ends[m]
            degree[a] += 1
            degree[b] += 1
        return max(inner, key=lambda m: degree[g.ends[m][0]] + degree[g.ends[m][1]])

    def children(self, m: int, p_lo: int, p_hi: int) -> list[_Outcome]:
        """The outcomes of open match m worth telling apart. When, for one winner, one of the two pairs is
        certainly above p (or certainly below) whichever of the three splits it is, that pair no longer
        matters and the three splits differ only in the other pair's gain: they become one merged outcome
        whose other pair keeps that gain open (a loser 0–2 more, a winner 3–5), like an open match."""
        g, p = self.g, self.p
        a, b = g.ends[m]
        ways = g.outcomes[m]
        if p in (a, b):
            return list(ways)
        step = g.step

        def side(x: int, gain: int) -> int:
            lo = self.key[x] + gain
            if lo > p_hi:
                return 1
            if lo + self.spread[x] - step < p_lo:
                return -1
            return 0

        result: list[_Outcome] = []
        for w, lose in ((a, b), (b, a)):
            splits = [o for o in ways if o.winner == w]
            winner_sides = {side(w, o.gain_winner) for o in splits}
            loser_sides = {side(lose, o.gain_loser) for o in splits}
            most, least = max(splits, key=lambda o: o.gain_winner), min(splits, key=lambda o: o.gain_winner)
            if len(winner_sides) == 1 and 0 not in winner_sides:
                gain_w = least.gain_winner if 1 in winner_sides else most.gain_winner
                if len(loser_sides) == 1 and 0 not in loser_sides:
                    gain_l = most.gain_loser if 1 in loser_sides else least.gain_loser
                    result.append(_Outcome(w, lose, gain_w, gain_l, False, most.result, 8))
                else:
                    result.append(_Outcome(w, lose, gain_w, most.gain_loser, False, most.result, 6, lose, False))
            elif len(loser_sides) == 1 and 0 not in loser_sides:
                gain_l = most.gain_loser if 1 in loser_sides else least.gain_loser
                result.append(_Outcome(w, lose, least.gain_winner, gain_l, False, most.result, 7, w, True))
            else:
                result.extend(splits)
        return result

    def order(self, ways: list[_Outcome]) -> list[_Outcome]:
        """Outcomes most promising first, so that a good bound is found early."""
        p = self.p

        def score(o: _Outcome) -> tuple:
            if p == o.winner:
                return (-o.gain_winner,) if self.best_mode else (o.gain_winner,)
            if p == o.loser:
                return (-o.gain_loser,) if self.best_mode else (o.gain_loser,)
            new_w = self.key[o.winner] + o.gain_winner
            new_l = self.key[o.loser] + o.gain_loser
            # Best mode keeps both rivals as low as it can, worst mode both as high.
            return (max(new_w, new_l),) if self.best_mode else (-min(new_w, new_l),)

        ways.sort(key=score)
        return ways

    def apply(self, m: int, o: _Outcome) -> None:
        self.assigned[m] = o
        self.fixed.append(m)
        self.key[o.winner] += o.gain_winner
        self.key[o.loser] += o.gain_loser
        self.unfixed[o.winner] -= 1
        self.unfixed[o.loser] -= 1
        step = self.g.step
        self.spread[o.winner] -= step
        self.spread[o.loser] -= step
        if o.code >= 6:
            if o.flex >= 0:
                self.spread[o.flex] += self.g.flex
                (self.flex_win if o.flex_win else self.flex_loss)[o.flex] += 1
            return  # a certain pair is never level with p: its result is never looked up
        self.mutual[frozenset((self.g.pairs[o.winner], self.g.pairs[o.loser]))] = o.result

    def undo(self, m: int, o: _Outcome) -> None:
        self.assigned[m] = None
        self.fixed.pop()
        self.key[o.winner] -= o.gain_winner
        self.key[o.loser] -= o.gain_loser
        self.unfixed[o.winner] += 1
        self.unfixed[o.loser] += 1
        step = self.g.step
        self.spread[o.winner] += step
        self.spread[o.loser] += step
        if o.code >= 6:
            if o.flex >= 0:
                self.spread[o.flex] -= self.g.flex
                (self.flex_win if o.flex_win else self.flex_loss)[o.flex] -= 1
            return
        del self.mutual[frozenset((self.g.pairs[o.winner], self.g.pairs[o.loser]))]

    # -- a leaf: no open match joins two pairs that can both still meet p ---------------------------

    def leaf(self, relevant: list[bool], above: int) -> None:
        g, p = self.g, self.p
        others = [x for x in range(g.n) if relevant[x] and x != p]
        memo: dict[tuple[frozenset, int], int] = {}
        lo_p = self.key[p]
        for level_value in range(lo_p, lo_p + self.spread[p] + 1):
            count = above
            fixed_level = [p]
            optional: list[tuple[int, int]] = []  # (pair, 1 if its other choice is above p else 0)
            for x in others:
                lo = self.key[x]
                hi = lo + self.spread[x]
                can_above, can_level, can_below = hi > level_value, lo <= level_value <= hi, lo < level_value
                if self.best_mode:
                    if can_below:
                        if can_level:
                            optional.append((x, 0))
                    elif can_level:
                        if can_above:
                            optional.append((x, 1))
                        else:
                            fixed_level.append(x)
                    else:
                        count += 1
                else:
                    if can_above:
                        if can_level:
                            optional.append((x, 1))
                        else:
                            count += 1
                    elif can_level:
                        if can_below:
                            optional.append((x, 0))
                        else:
                            fixed_level.append(x)
            for mask in range(1 << len(optional)):
                level = list(fixed_level)
                extra = count
                for bit, (x, other_above) in enumerate(optional):
                    if mask >> bit & 1:
                        level.append(x)
                    else:
                        extra += other_above
                if self.best_mode and extra + 1 >= self.value:
                    continue
                if not self.best_mode and extra + len(level) <= self.value:
                    continue
                key = (frozenset(level), level_value)
                if key not in memo:
                    memo[key] = self.within(level, level_value)
                if self.best_mode:
                    self.value = min(self.value, extra + memo[key])
                else:
                    self.value = max(self.value, extra + memo[key])

    def within(self, level: list[int], level_value: int) -> int:
        """p's best (best mode) or worst (worst mode) place inside ``level``, the pairs level with it on
        step 1 when its step-1 value is ``level_value``, 1-based."""
        if len(level) == 1:
            return 1
        # The answer depends only on the results among ``level`` and, for each of its pairs, its step-1
        # value, its matches left and its fixed results against the others (totals facts): cache on that.
        g = self.g
        inside = set(level)
        among = []
        facts = dict.fromkeys(level, 0)
        for m, o in enumerate(self.assigned):
            if o is None:
                continue
            a, b = g.ends[m]
            if o.code >= 6:
                continue  # merged: one side is certain (not in ``level``), the other's flex counts below
            if a in inside and b in inside:
                among.append((m, o.winner, o.result.match_points[o.result.winner]))
            elif a in inside or b in inside:
                q = a if a in inside else b
                facts[q] += 1 + 64 * (o.winner == q and o.points_win)
        key = (
            frozenset(level),
            level_value,
            tuple(among),
            tuple(
                (q, self.key[q], self.unfixed[q], facts[q], self.flex_loss[q], self.flex_win[q])
                for q in sorted(level)
            ),
        )
        known = self.cache.get(key)
        if known is None:
            known = self.cache[key] = self.place_within(level, level_value)
        return known

    def place_within(self, level: list[int], level_value: int) -> int:
        g = self.g
        centre = g.pairs[self.p]
        blocks = resolve_level([g.pairs[x] for x in level], self.mutual, g.zeros)
        offset = 0
        for block, _how in blocks:
            if centre in block:
                break
            offset += len(block)
        if len(block) == 1:
            return offset + 1
        # With equal totals p shares a place with ``block``: these pairs reach step 4 together.
        return offset + self.by_totals([g.index[x] for x in block], level_value)

    def least_points_wins(self, full: int, losses: int, wins: int, gain: int) -> int:
        """The fewest 4–1 / 3–2 wins with which ``full`` open matches (0–5 each), ``losses`` merged losses
        (0–2 more each, never a win) and ``wins`` merged wins (3–5 each, where only 5 is a tuppi) give
        ``gain`` more step-1 points (merged wins counted from 3)."""
        g = self.g
        if g.primary == "wins":
            return 0  # every win may be a 5–0
        best = None
        for from_wins in range(0, min(gain, 2 * wins) + 1):
            cost_wins = wins - from_wins // 2
            rest = gain - from_wins
            for from_losses in range(0, min(rest, 2 * losses) + 1):
                left = rest - from_losses
                if 0 <= left <= 5 * full:
                    cost = cost_wins + g.kappa[full][left]
                    best = cost if best is None else min(best, cost)
        return best if best is not None else 0

    def by_totals(self, members: list[int], level_value: int) -> int:
        """Steps 4–5 for the pairs ``members`` (p among them): p's best place (best mode: the top of its
        shared place) or worst place (worst mode: the bottom of it) inside them, 1-based, over every order
        of the final rise totals that the model allows (:func:`_totals_orders`)."""
        g, p = self.g, self.p
        inside = set(members)
        forced: dict[int, int] = {}
        bound_to: dict[int, tuple[int, ...] | None] = {}
        for q in members:
            u, nl, nw = self.unfixed[q], self.flex_loss[q], self.flex_win[q]
            # A match against a pair that cannot meet p (open, or merged) gives a free share.
            free = u + nl + nw > 0
            # Decision (points win): only 4–1 and 3–2 force a gain; take the fewest the key allows.
            wins = self.least_points_wins(u, nl, nw, level_value - self.key[q]) if free else 0
            winners: list[int] = []
            for m in g.matches_of[q]:
                o = self.assigned[m]
                if o is None or o.code >= 6:
                    continue
                if o.winner == q:
                    free = True
                    wins += o.points_win
                elif not o.points_win or o.winner not in inside:
                    free = True
                else:
                    winners.append(o.winner)
            forced[q] = wins
            bound_to[q] = None if free else tuple(winners)
        fixed = {q: g.fixed_totals[q] for q in members}
        centre = g.pairs[p]
        # Pairs that cannot gain first: they have the fewest choices, so dead ends show early.
        others = sorted((q for q in members if q != p), key=lambda q: bound_to[q] is None)
        size = len(members)
        # Best mode tries "below" first (it never puts p lower than "above" does), worst mode "above".
        choices = ("B", "E", "A") if self.best_mode else ("A", "E", "B")
        relation: dict[int, str] = {}
        found = [size + 1 if self.best_mode else 0]

        def place() -> None:
            # Representative totals with this order: above 2, level 1, below 0 (only the order counts).
            totals = {g.pairs[q]: {"A": 2, "E": 1, "B": 0}[relation[q]] for q in others}
            totals[centre] = 1
            blocks = resolve_level([g.pairs[q] for q in members], self.mutual, totals, g.playoffs)
            offset = 0
            for block, _how in blocks:
                if centre in block:
                    break
                offset += len(block)
            if self.best_mode:
                found[0] = min(found[0], offset + 1)
            else:
                found[0] = max(found[0], offset + len(block))

        def extend(i: int, above: int, below: int) -> None:
            if self.best_mode and above + 1 >= found[0]:
                return
            if not self.best_mode and size - below <= found[0]:
                return
            if not _totals_orders(p, members, fixed, forced, bound_to, relation):
                return
            if i == len(others):
                place()
                return
            q = others[i]
            for rel in choices:
                relation[q] = rel
                extend(i + 1, above + (rel == "A"), below + (rel == "B"))
            del relation[q]

        extend(0, 0, 0)
        return found[0]


def group_prospects(
    pairs: Sequence[Pair],
    results: Iterable[MatchResult],
    remaining: Iterable[Iterable[Pair]],
    playoffs: Iterable[Playoff] = (),
    *,
    primary: Primary = "match_points",
) -> tuple[Prospect, ...]:
    """Every pair's best and worst final position in its group (RULES §4), in the order of ``pairs``.

    ``results`` are the group's finished, non-annulled matches (as for
    :func:`scoring.standings.rank_group`), ``remaining`` the matches still to play as pairs of pair ids,
    ``playoffs`` the recorded play-offs, ``primary`` the step-1 setting. Exact under the model of the module
    docstring. Raises ScoringError on invalid input.
    """
    if primary not in PRIMARY_CHOICES:
        raise ScoringError(
            "bad_primary", f"primary must be 'match_points' or 'wins', not {primary!r}", primary=primary
        )
    results = list(results)
    tally, playoff_sets = validate_group(pairs, results, playoffs)
    opens = _check_remaining(remaining, tally.pairs, tally.mutual)
    key = tally.match_points if primary == "match_points" else tally.wins
    group = _Group(tally.pairs, tally.mutual, key, tally.totals, opens, playoff_sets, primary)
    return tuple(
        Prospect(pair, group.search(i, "best"), group.search(i, "worst")) for i, pair in enumerate(tally.pairs)
    )


def remaining_round_robin(pairs: Sequence[Pair], results: Iterable[MatchResult]) -> list[tuple[Pair, Pair]]:
    """The matches a round robin still has to play: every two pairs without a finished match between them
    (RULES §4: every pair meets every other pair of its group once), in the order of ``pairs``."""
    played = {frozenset((r.a, r.b)) for r in results}
    pairs = list(pairs)
    return [
        (a, b) for i, a in enumerate(pairs) for b in pairs[i + 1:] if frozenset((a, b)) not in played
    ]

