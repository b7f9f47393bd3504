"""The rise totals at step 4 of the group order (RULES §4) under the model of :mod:`scoring.prospects`:
which orders of the final totals the open matches can still give a set of pairs level on steps 1–3.

:func:`totals_orders` answers one question (can every asked pair end above, level with or below the centre
pair?) in three phases: what each asked relation says about the centre's gain τ (:func:`_limits`), the
Hall conditions of the bound pairs' least gains (:func:`_hall_conditions`), and a bisection over τ for one
at which all of them hold (:func:`_some_gain_fits`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# RULES §1, §3: deals score in steps of 4 and the penalty is 28, so a match adds a multiple of 4.
RISE_STEP = 4

_INF = float("inf")

# A bound member left to place: ("A" above or "E" equal, its offset, the members it lost to).
_Left = tuple[str, int, tuple[int, ...]]
# One Hall condition: the (kind, offset) supplies of a set of bound members, how many winners they have,
# and the winners' capacities.
_Condition = tuple[list[tuple[str, int]], int, list[int]]


def totals_orders(
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
    limits = _limits(centre, members, fixed, forced, bound_to, relation)
    if limits is None:
        return False
    lower, upper, caps, left, spread = limits
    if lower > upper:
        return False
    conditions = _hall_conditions(left, caps)
    if not conditions:
        return True
    return _some_gain_fits(conditions, lower, upper, spread)


def _offset(rel: str, diff: int) -> int | None:
    """The bound on g_q − τ, in units of 4, that relation ``rel`` gives when the centre's fixed total is
    ``diff`` more than q's: at least it (above), exactly it (equal; None if the difference is not a multiple
    of 4, so that no gains make them level) or at most it (below)."""
    if rel == "A":
        return diff // RISE_STEP + 1
    if rel == "E":
        if diff % RISE_STEP:
            return None
        return diff // RISE_STEP
    return -((-diff) // RISE_STEP) - 1


def _limits(
    centre: int,
    members: Sequence[int],
    fixed: Mapping[int, int],
    forced: Mapping[int, int],
    bound_to: Mapping[int, tuple[int, ...] | None],
    relation: Mapping[int, str],
) -> tuple[int, float, dict[int, int | None], list[_Left], int] | None:
    """Phase 1: τ's lower and upper limit from the relations alone, each winner's capacity (``caps``: c with
    capacity τ + c, or None for unlimited), the bound members that may have to gain (``left``), and a
    bound on how far τ matters (``spread``); None if an asked relation cannot hold whatever the gains."""
    lower, upper = 0, _INF
    caps: dict[int, int | None] = {}  # winner -> c with capacity τ + c, or None for unlimited
    left: list[_Left] = []  # bound members that may have to gain
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
        offset = _offset(rel, fixed[centre] - fixed[q])
        if offset is None:
            return None
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
    return lower, upper, caps, left, spread


def _hall_conditions(left: list[_Left], caps: Mapping[int, int | None]) -> list[_Condition]:
    """Phase 2: Hall's condition for every set of bound members whose winners all have a capacity."""
    conditions: list[_Condition] = []
    for mask in range(1, 1 << len(left)):
        chosen = [left[i] for i in range(len(left)) if mask >> i & 1]
        winners_of = {w for _kind, _offset, ws in chosen for w in ws}
        if any(caps.get(w, None) is None for w in winners_of):
            continue
        conditions.append(([(kind, offset) for kind, offset, _ws in chosen], len(winners_of),
                           [caps[w] for w in winners_of]))  # type: ignore[misc]
    return conditions


def _some_gain_fits(conditions: list[_Condition], lower: int, upper: float, spread: int) -> bool:
    """Phase 3: is there a τ from ``lower`` to ``upper`` at which every condition holds? The largest
    violation is convex in τ, so it is minimised by bisection (beyond ``2 * spread + 2`` it is linear)."""

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
