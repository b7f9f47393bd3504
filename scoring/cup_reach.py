"""What do I need: each entrant's best and worst reachable cup position (RULES.md §8, issue #28.5).

While a season still has legs (cup events) to play, :func:`reach` gives every ranked player (or fixed
pair) the best and the worst position reachable over every way the remaining legs can end.

Decisions (the model; each is what the code and the brute-force test in
``tests/scoring/test_cup_reach.py`` implement):

* **Decision (legs):** the remaining legs are known events with known weights (1, or 0.5 for the summer
  event). In each leg the places 1..len(table) go to different pairs, two players a pair; a place may
  also stay empty (an event may have fewer pairs). Anyone may play, players not yet ranked (newcomers)
  included, and anyone may skip a leg. Places beyond the table earn nothing and are left out.
* **Decision (position):** match wins cannot be foreseen, so a position is over points and the place
  counts only (the order of ``scoring.cup._order_key`` without its last member, over the counted
  events, best N included). Entrants level on both share the position:
  ``position = 1 + the number of entrants strictly ahead``. ``best`` is the smallest and ``worst`` the
  largest position over all outcomes. ``clinched`` (*varmistanut voiton*) is ``worst == 1``.
* **Best case (exact, argued):** X wins every remaining leg (with a newcomer partner) and every other
  place goes to newcomers. (1) X's key cannot be better: best N sums the N largest of X's results, and
  a first place is the largest result of its leg, so the points are maximal; when equal points could be
  reached otherwise, the wins give the most first places of all ways to reach them (every replaced
  result is a first place or the same result). (2) Nobody ranked gains anything, and adding results to
  an entrant never lowers its key, so nobody is ahead who would not be ahead in any outcome where X has
  that key. (3) A newcomer has at most the results of X's own legs at places 2.. or X's partner's
  (equal to X's new results, so at most level). The brute-force test checks this claim.
* **Worst case:** X skips every leg (X's results never lower its key, and a partner of X can play the
  same place with a newcomer instead); ``worst = 1 +`` the entrants already ahead ``+`` the most
  other entrants that can pass X in one outcome. Two methods find that most: the pooled model below
  where it applies, else the place-vector search (the last two points).
* **Worst case, pooled model** (``scoring.cup_reach_pool``; it applies when every result counts, that
  is best N is none or at least each entrant's results plus the legs left, when the legs left share
  one weight, and when the points table never rises). Write T for X's key and K for another entrant's, both as
  (points, place counts) vectors. The argument, step by step:

  1. *Additive.* With every result counted, an entrant's key after the legs is K + gain, the gain
     summing (points, one count at the place) over its new results. The lexicographic order is
     invariant under translation, so the entrant ends ahead of X iff gain > D = T - K, its *need*.
     Entrants with K > T are ahead already; the others (the candidates) have D >= 0; newcomers and
     entrants with no points have D = T, in any number.
  2. *Nested.* The outcomes that serve a need D (gain > D) shrink as D grows, so if some m candidates
     can be ahead at once, the m with the smallest needs can (the k-th smallest need of the m takes
     the results of the k-th smallest need of the set). The answer is the longest feasible prefix of
     the needs in ascending order, and feasibility is monotone in the prefix.
  3. *Pooled legs.* With one weight a result is worth the same in every leg, so what an entrant gets is
     a multiset of at most L places (L legs left). Multisets that use each place at most cap * L times
     (cap: 2 players or 1 pair a place) come from a real outcome: spread the uses of a place over cap
     copies of it, at most L each; the bipartite multigraph entrants / place copies has every degree
     at most L, so by König's edge-colouring theorem its edges take L colours (the legs) with no two
     alike at a node: an entrant plays a leg at most once, a place copy is used once a leg. Conversely
     every outcome gives such multisets. So the *items* are cap * L copies of each place, and an
     entrant takes at most L of them.
  4. *Minimal patterns, Hall.* A better place never lowers a gain (the table never rises, and the place
     count moves to a more significant position), so each served entrant may ask a *minimal pattern*
     (enough, and no item can be worsened by one place and stay enough) and take it or better. Asks
     are met iff, for every q, at most cap * L * q asks are for places 1..q (Hall's condition on the
     nested sets of places 1..p).
  5. *Single items.* If each of the places 1..q alone serves every need of a prefix of m needs, those
     M = cap * L * q items go one each to the hardest needs: in any solution an entrant holding one
     can drop the rest, and if an easier need holds one while a harder need holds a pattern of worse
     places, they swap (the pattern that serves the harder need serves the easier). So the prefix is
     feasible iff m <= M or its m - M easiest needs are feasible on the places after q (repeated).
  6. *Upper bounds* (each a count no solution passes). Points: if the needs from the k-th on ask at
     least P points, give an item of v points the weight min(P, v) / P; a pattern with P points weighs
     at least 1 (one item of P or more, or items all below P summing to P), and a pattern serving the
     i-th need (points P_i <= P) weighs at least P_i / P and holds at least one item, so
     m <= k + (sum of the weights - max(sum of P_i / P for i < k, the k smallest weights)).
     Split: for every q a served entrant holds an item of places 1..q or only worse items, at least
     s of them where s times the value of place q + 1 is the first multiple to beat its need, so
     m <= cap * L * q + the most needs the cap * L * (width - q) worse items serve at those costs
     (the cheapest, that is the easiest needs, first). Singles: if at most mu needs can hold one item
     each at once (a largest matching: items and needs ascending, greedily), the others hold two or
     more, so m <= (items + mu) // 2. Split and singles are also used on the places left by step 5.
     Prices (a bound of the linear relaxation's dual kind): give place p a price c_p >= 0 and take a
     cap M; the capped price of a pattern, sum of min(M, c_p), is at least min(M, pi(D)) where pi(D)
     is the cheapest price of any pattern whose gain beats D. The served needs hold disjoint items, so
     the sum over them of min(M, pi) is at most the capped price of every item; by step 2 the served
     needs may be the easiest m, so m is at most the longest prefix of the needs that passes that
     test. The prices tried are c_p = ceil((points of p, times 2, + a) / k) for the pairs (k, a) of
     ``PRICE_FAMILIES``; of the caps M up to the dearest pattern only those at the ends of the
     stretches where neither which needs cost less than M nor which items cost M or more changes
     (within such a stretch the count moves one way, so its ends give its least).
  7. *Constructions.* A greedy construction (hardest need first: the worst single item that is enough,
     else the best item then the worst completing ones) gives a lower bound, and when it falls short
     of the upper bound two more try that bound: the fewest items (hardest need first: the fewest
     items that are enough, of those the smallest gain, from the items left) and then the least points
     (easiest need first: the pattern from the items left of the fewest points; it keeps the better
     places for the harder needs and combines the cheap items). A construction takes a need's pattern
     for a whole run of equal needs at once: options only go, so it stays that need's best while all
     of it is left. Each is a real outcome, so it serves only what an outcome serves.
  8. *Linear relaxation* (``scoring.cup_reach_lp``, solved by HiGHS). Where a gap is left, the
     relaxation of "each need takes one minimal pattern, each place's items (better ones standing in
     for worse) are cap * L" gives both sides: its dual prices, rounded to integers, are prices for the
     prices bound of step 6 (any prices give a true bound, so rounding cannot make it wrong; the bound
     is checked in integers), and its solution rounded down is a real outcome (its asks checked
     against the prefix condition of step 4), completed by its fractional columns rounded up one
     each, the largest fractions first, where they keep that condition, else by a short depth-first
     search over minimal patterns, else by a dive (fix the solution's whole amounts, or its largest
     as one, and solve again on what is left), else by the search with ``LP_NODES`` nodes. Needs
     whose minimal patterns are the same are one row of it (the same programme, smaller); where its
     rounding falls short, the relaxation with a row for each need value is solved too. Prefixes one
     longer than what is reached are then decided by step 5, the split and singles bounds and the
     greedy on the places left, and last a depth-first search over minimal patterns (hardest need
     first, level needs taking patterns in a fixed order, states remembered, cut by the points bound).
     When lower and upper meet, ``worst`` is exact.
  9. *Not always decided.* The search is a bin covering with at most L items a bin; we know no exact
     polynomial method for it and claim none (on every season the benchmark tried the relaxation's
     value rounded down was reached, but that is an observation, not a theorem). It is cut at
     ``pooled_budget`` nodes a check and ``pooled_season_budget`` a season (the lower keys are done
     first: they are the cheap ones), the least-points constructions at ``construction_budget`` and
     the relaxations at ``lp_budget`` a season. An undecided row keeps ``worst_exact`` False and
     ``worst`` = 1 + ahead + the upper bound (a position it cannot be worse than), or what the
     place-vector search gives (within ``fallback_budget`` key evaluations and nodes) when that is
     exact or smaller. ``bench/cup_reach_speed.py`` prints how many rows were decided (every row of
     its season of 300 players with 3 legs left; every row with 1 leg left).
  10. *Fixed pairs.* The pooled model forgets that a player plays in one pair a leg, so its count is an
     upper bound there. What it serves is a real outcome when the served pairs share no player, and
     so is what it serves of the easiest pairs taken down the ranking, each sharing no player with an
     easier one taken (those pairs can all play; a pair dropped lets one further down in). Where that
     falls short, an outcome is built leg by leg (``scoring.cup_reach_legs``): each pair takes the worst
     place enough alone in a leg none of its players plays yet, else the best such place and then what
     completes it in another leg, so that two pairs sharing a player may both pass in different legs;
     the pairs hardest first, moving a pair that holds a place alone to make room, or easiest first.
     Where that falls short too, the pairs that can play together (easiest first, a pair left out
     when its players' pairs would ask more legs than are left, counting each pair's fewest items)
     are given to a linear relaxation leg by leg (``scoring.cup_reach_legs_lp``: each pair takes one
     *option*, a minimal pattern with its items in legs of their own; Hall's condition for each leg's
     places; a player's pairs take a leg at most once), solved by HiGHS over the columns its prices ask
     for (column generation) and branched on depth first
     (the fraction nearest a half rounded up, then down) until its amounts are whole numbers, then
     checked in integers (where the relaxation has no solution at all, nor has the search, which is
     then skipped); else a depth-first search leg by leg in the order of its amounts (``scoring.cup_reach_legs.by_search``: next the pair with the fewest legs left for
     its place enough alone, cut by counting the places the pairs left need); an outcome found for one
     pair of a key is tried first, with the two pairs swapped, for the next pair of that key, and
     otherwise the last outcome found for any key is carried over (each pair's option to the same
     players, as the first minimal pattern of its need here that it can stand for,
     ``scoring.cup_reach_legs.carried``): where that is no outcome, what of it clashes with nothing is
     kept and the search completes it (``start``, at most 300 nodes). Where none reaches the pooled
     bound, the same relaxation over every pair that can pass, maximised, gives a bound that knows
     the players: its dual prices, rounded up to millionths and repaired per pair so that every
     option's prices sum to 1, prove in integers that no more can pass; the constructions then try
     that bound (all of them where it is lower; for a key where it was lower once, the bound comes
     first), and last the relaxation branched over every pair that can pass, not only those that can
     play together: keeping the easiest pairs of a player may leave out the harder one an outcome
     needs in their place (on the benchmark's denser club seasons 262 of 352 pair rows exact where
     253 without it). The worst is exact when one of them reaches the least bound. All of it shares
     ``pair_search_budget`` nodes a season (100,000 by default; a relaxation solved counts as 250, the
     bound as 100 and one for every 40 nonzeros of its relaxation, about its time; the search at most
     3,000 a row). The pairs' side lives in ``scoring.cup_reach_pairs``. With ``exact_nodes`` (the cup's
     background refinement, ``cup/reach.py``; 0, not run, by default) a row still undecided gets last the
     same relaxation over every pair that can pass with whole amounts, solved by HiGHS's branch and cut
     (``scoring.cup_reach_legs_lp.exact``, at most that many nodes, outside the season's budget): its
     outcome checked in integers, its bound HiGHS's proof in floating point (the one count resting on
     the solver's arithmetic). Seconds a row on the denser club seasons, so never while a page waits.

  Checked against every assignment of every leg's places (1–3 legs, 1–4 entrants, tables with equal
  and unequal points), against every outcome of 1–2 legs for whole small seasons, and against the
  place-vector search on small random fields (players and fixed pairs).
* **Worst case, place-vector search (within budgets):** for best N that cuts, legs of different weights
  or more than 4 legs left. Each other entrant (and each newcomer, an entrant
  with no history) has the set of *minimal sufficient place vectors* over the legs: the vectors that
  put it strictly ahead of X, with no coordinate that could be worsened. A set of entrants can all be
  ahead at once iff each gets one of its vectors and, in every leg, the demanded places fit the slots:
  ``cap`` slots per place (2 players, or 1 pair), and since a better place serves any demand, a leg fits
  iff for every place p at most ``cap * p`` demands are p or better (Hall's condition for prefix
  intervals). Fixed pairs add: a player is in at most one pair per leg. A depth-first branch and bound
  over the entrants finds the largest such set exactly (checked against brute force over every
  outcome of 1–2 legs with the table (5, 3, 1) and up to 4 players plus newcomers).
* **Decision (budgets, not exact):** the minimal vectors cost about (places + 1) ** (legs - 1) *
  (legs + 7) key evaluations per entrant, and every vector tried in the search counts as a node. When
  the entrants that could pass X at all (their all-wins key beats X's), times that, exceed
  ``_Worst.vector_budget`` (30000 key evaluations), or the search passes ``node_budget`` nodes, or
  the whole season's work (vectors examined plus search nodes) passes ``season_budget``, no
  exact answer is given: ``worst_exact`` is False and ``worst`` is the safe bound 1 + the entrants
  already ahead + min(the entrants that could pass X, the slots of the legs), newcomers included when
  one could pass (or the pooled model's upper bound when that is smaller).
* Newcomers all have an empty history, so they are interchangeable: the search takes them as copies
  in a fixed order (symmetry), at most as many as there are slots.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import product

from scoring.cup import DEFAULT_POINTS, Standing
from scoring.cup_reach_pool import pooled_for

NONE = 0  # "does not play (or places beyond the table)" in a place vector


@dataclass(frozen=True)
class Reach:
    """One entrant's best and worst reachable position; ``worst_exact`` False: ``worst`` is a bound."""

    entrant: object
    best: int
    worst: int
    worst_exact: bool = True

    @property
    def clinched(self) -> bool:
        """*Varmistanut voiton*: nobody can pass the leader."""
        return self.worst == 1


# A result as the model sees it: (points * 2 as an int, place); place NONE never stored.
Result = tuple[int, int]


def history(standing: Standing, table_len: int) -> tuple[Result, ...]:
    """An entrant's results (every event, counted or not) from a :class:`scoring.cup.Standing`."""
    return tuple(
        (int(r.points * 2), r.place if r.place <= table_len else table_len + 1) for r in standing.events
    )


def key(results: Sequence[Result], best_n: int | None, width: int) -> tuple:
    """Points and place counts over the counted events (RULES §8), larger is better."""
    chosen = results
    if best_n is not None and len(results) > best_n:  # else every result counts, in any order
        chosen = sorted(results, key=lambda r: (-r[0], r[1]))[:best_n]
    counts = [0] * width
    for _, place in chosen:
        if place <= width:
            counts[place - 1] += 1
    return (sum(p for p, _ in chosen), tuple(counts))


def new_results(vector: Sequence[int], weights2: Sequence[int], table: Sequence[int]) -> list[Result]:
    """The results a place vector gives (``weights2``: the legs' weights times 2, 2 or 1)."""
    return [(table[p - 1] * w, p) for p, w in zip(vector, weights2, strict=True) if p != NONE]


def reach(
    standings: Sequence[Standing],
    weights: Sequence[Decimal | int | float],
    best_n: int | None = None,
    table: Sequence[int] = DEFAULT_POINTS,
    *,
    pairs: bool = False,
    node_budget: int = 20000,
    season_budget: int = 150000,
    pooled_budget: int = 200,
    pooled_season_budget: int = 300,
    fallback_budget: int = 2000,
    construction_budget: int = 40,
    lp_budget: int = 40,
    pair_search_budget: int = 100000,
    exact_nodes: int = 0,
) -> list[Reach]:
    """Best and worst reachable positions of every row of ``rank_players`` (or ``rank_pairs``)."""
    if not weights:
        return []
    table = tuple(table)
    width = len(table)
    weights2 = tuple(int(Decimal(str(w)) * 2) for w in weights)
    hist = [history(s, width) for s in standings]
    keys = [key(h, best_n, width) for h in hist]
    wins = (1,) * len(weights2)
    tops = [key(list(h) + new_results(wins, weights2, table), best_n, width) for h in hist]
    members = [frozenset(s.entrant) if pairs else frozenset([s.entrant]) for s in standings]
    solver = _Worst(table, weights2, best_n, 1 if pairs else 2, node_budget)
    solver.season_left = season_budget
    solver.newcomer_top = key(new_results(wins, weights2, table), best_n, width)
    sorted_keys = sorted(keys)
    pooled = pooled_for(hist, keys, weights2, best_n, table, 1 if pairs else 2, pooled_budget)
    found = {}
    if pooled is not None:
        pooled.pooled.season_left = pooled_season_budget
        pooled.pooled.tries_left = construction_budget
        pooled.pooled.lp_left = lp_budget
        pooled.pooled.search_left = pair_search_budget
        pooled.pooled.exact_nodes = exact_nodes
        # the lower keys first: they are the cheaper ones, so a spent season budget hits the costly
        # (fixed pairs: each outcome found is carried to the next row, scoring.cup_reach_pairs)
        for i in sorted(range(len(keys)), key=keys.__getitem__):
            found[i] = pooled.worst(i, members if pairs else None)
    out = []
    for i, s in enumerate(standings):
        # strictly ahead of X's best key: nobody else gains (X itself is never above its own top)
        best = 1 + len(keys) - bisect_right(sorted_keys, tops[i])
        bound = None
        if i in found:
            ahead, bound, exact = found[i]
            if exact:
                out.append(Reach(s.entrant, best, 1 + ahead, True))
                continue
        others = [(hist[j], keys[j], members[j], tops[j]) for j in range(len(standings)) if j != i]
        # the pooled model left it undecided: the place-vector search gets a smaller budget (on the
        # benchmark's seasons it never decided such a row, and spent most of the time there)
        ahead, exact = solver.max_ahead(keys[i], others, None if bound is None else fallback_budget)
        if not exact and bound is not None:
            ahead = min(ahead, bound)
        out.append(Reach(s.entrant, best, 1 + ahead, exact))
    return out


class _Worst:
    """The largest number of entrants that can end strictly ahead of a threshold key (X skipping)."""

    # Above this many place vectors to examine for one X, the search is not started and ``worst`` is the
    # safe bound: entrants already ahead + min(entrants that could pass X at all, slots).
    vector_budget = 30000

    def __init__(self, table, weights2, best_n, cap, node_budget):
        self.table, self.weights2, self.best_n, self.cap = table, weights2, best_n, cap
        self.width = len(table)
        self.budget = node_budget
        self.legs = len(weights2)

    def minimal_vectors(self, hist, threshold) -> list[tuple[int, ...]]:
        """The minimal place vectors that put an entrant with ``hist`` strictly ahead of ``threshold``."""
        table, w2, width, best_n = self.table, self.weights2, self.width, self.best_n

        def enough(vec):
            return key(list(hist) + new_results(vec, w2, table), best_n, width) > threshold

        if not enough((1,) * self.legs):
            return []
        # Worse place = larger number; NONE (0) is worst of all: map to width + 1 for the ordering.
        levels = list(range(1, width + 1)) + [NONE]
        found = []
        for head in product(levels, repeat=self.legs - 1):
            if not enough(head + (1,)):
                continue
            lo, hi = 0, width  # index into levels of the worst sufficient last place (monotone)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if enough(head + (levels[mid],)):
                    lo = mid
                else:
                    hi = mid - 1
            found.append(head + (levels[lo],))
        return _minimal(found, enough, width)

    def max_ahead(self, threshold, others, budget=None) -> tuple[int, bool]:
        """(entrants that can be ahead of ``threshold`` at once, exact); ``budget``: the most key
        evaluations and the most search nodes (else ``vector_budget`` and the node budget)."""
        free = sum(1 for _, k, _, _ in others if k > threshold)
        able = [(h, m) for h, k, m, top in others if k <= threshold and top > threshold]
        newcomer_able = self.newcomer_top > threshold
        slots = self.cap * self.width * self.legs
        # key evaluations: per head of the vector, a check, a binary search and the minimality check
        work = (len(able) + newcomer_able) * (self.width + 1) ** (self.legs - 1) * (self.legs + 7)
        if work > (self.vector_budget if budget is None else budget) or work > self.season_left:
            return free + min(len(able) + (slots if newcomer_able else 0), slots), False
        self.season_left -= work
        cands = []
        for hist, mem in able:
            vecs = self.minimal_vectors(hist, threshold)
            if vecs:
                cands.append((vecs, mem, False))
        if newcomer_able:
            newcomer = self.minimal_vectors((), threshold)
            cands.extend((list(newcomer), frozenset([("new", n)]), True) for n in range(slots))
        cands.sort(key=lambda c: (c[2], -len(c[0])))
        for vecs in (c[0] for c in cands):
            vecs.sort(key=lambda v: -sum((self.width + 1 if p == NONE else p) for p in v))
        found, exact = self._search(cands, self.budget if budget is None else budget)
        return free + found, exact

    def _search(self, cands, budget) -> tuple[int, bool]:
        legs, cap, width = self.legs, self.cap, self.width
        # demand[leg][p] = entrants demanding place p in the leg
        demand = [[0] * (width + 2) for _ in range(legs)]
        used = [set() for _ in range(legs)]
        best = 0
        nodes = 0
        n = len(cands)
        slots = cap * width * legs

        def fits(leg, place):
            row = demand[leg]
            total = 0
            for p in range(1, width + 1):
                total += row[p] + (1 if p == place else 0)
                if p >= place and total > cap * p:
                    return False
            return True

        def dfs(i, count, used_slots, last_new):
            nonlocal best, nodes
            nodes += 1
            if count > best:
                best = count
            if nodes > budget or nodes > self.season_left or i == n:
                return
            if count + min(n - i, slots - used_slots) <= best:
                return
            vecs, mem, is_new = cands[i]
            start = last_new if is_new and last_new is not None else 0
            for vi in range(start, len(vecs)):
                nodes += 1  # every vector tried counts as a node of the search
                if nodes > budget or nodes > self.season_left:
                    return
                vec = vecs[vi]
                ok = True
                for leg, p in enumerate(vec):
                    if p != NONE and (not fits(leg, p) or mem & used[leg]):
                        ok = False
                        break
                if not ok:
                    continue
                played = [(leg, p) for leg, p in enumerate(vec) if p != NONE]
                for leg, p in played:
                    demand[leg][p] += 1
                    used[leg] |= mem
                dfs(i + 1, count + 1, used_slots + len(played), vi if is_new else None)
                for leg, p in played:
                    demand[leg][p] -= 1
                    used[leg] -= mem
            if is_new:
                return  # a skipped newcomer copy: the later copies are skipped too (symmetry)
            dfs(i + 1, count, used_slots, last_new)

        dfs(0, 0, 0, None)
        self.season_left -= nodes
        if nodes > budget or self.season_left < 0:
            return min(n, slots), False
        return best, True


def _worse(vec, i, width):
    p = vec[i]
    if p == NONE:
        return None
    return vec[:i] + ((p + 1 if p < width else NONE),) + vec[i + 1 :]


def _minimal(found, enough, width) -> list[tuple[int, ...]]:
    """Keep the vectors where no single coordinate can be worsened and stay sufficient."""
    out = []
    for v in found:
        if all((w := _worse(v, i, width)) is None or not enough(w) for i in range(len(v))):
            out.append(v)
    return sorted(set(out))
