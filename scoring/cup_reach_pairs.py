"""The fixed pairs' worst case in the pooled model (``scoring.cup_reach`` docstring, step 10): the pooled
count is an upper bound for them (a player plays in one pair a leg); the outcomes leg by leg of
``scoring.cup_reach_legs`` and ``scoring.cup_reach_legs_lp`` and the bound that knows the players decide
the rest, within the season's ``search_left`` nodes.

Pure: no Django. :class:`FixedPairs` is mixed into ``scoring.cup_reach_pool._Season`` and reads its
attributes (``pooled``, ``enc``, ``zero``, ``order``, ``outcomes``, ``last``, ``lowered``) and methods
(``_candidates``, ``_solve``).
"""

from __future__ import annotations

from scoring.cup_reach_legs import by_legs, by_search, carried, clashing, is_outcome, playable, reused
from scoring.cup_reach_legs_lp import by_relaxation, exact, sized_bound

# The fixed pairs' outcome leg by leg (cup_reach_legs_lp, then cup_reach_legs.by_search): the easiest pairs
# that can play together, SEARCH_SPARE more than the target; the search at most SEARCH_NODES nodes
SEARCH_SPARE = 4
SEARCH_NODES = 3000
SOLVE_NODES = 250  # a relaxation solved counts as this many nodes of the search (about its time)
COMPLETE_NODES = 300  # the search completing another row's outcome carried here
# the bound leg by leg, a relaxation of every pair that can pass, counts BOUND_NODES and a node for every
# BOUND_SIZE nonzeros of it (its time grows with them)
BOUND_NODES = 100
BOUND_SIZE = 40


class FixedPairs:
    """The fixed pairs' steps of ``_Season.worst``."""

    def worst_of_pair(self, i, members, free, t, tp) -> tuple[int, int, bool]:
        """(pairs that can be ahead of pair i at once, a safe bound on it, exact); ``free``: those ahead
        already, ``t`` and ``tp`` its key encoded and its points."""
        cands = self._candidates(i)
        # fixed pairs: the pooled model ignores that a player plays in one pair a leg, so its count is
        # an upper bound; what it serves is a real outcome when those pairs share no player, and so is
        # what it serves of the easiest pairs each sharing no player with an easier one taken (further
        # down the ranking than the first candidates when some are dropped)
        served, high, _ = self._solve(t, tp, cands)
        if not _disjoint([members[j] for j in cands[:served]]):
            served = self._solve(t, tp, self._candidates(i, members))[0]
            if served < high:
                served = max(served, self._by_legs(i, members, high))
            # the pooled bound may count an outcome no pairs can play: the bound leg by leg knows the
            # players, and an outcome may reach what it leaves; first where it did for this key before
            bounded = served < high and t in self.lowered
            if bounded:
                high = min(high, self._legs_bound(i, members))
            if served < high and self._by_search(i, members, high, wide=bounded):
                served = high
            if served < high and not bounded:
                bound = self._legs_bound(i, members)
                lowered = bound < high
                if lowered:
                    self.lowered.add(t)
                    high = bound
                # searched again: every stage where the bound is lower, else only the wide one
                if served < high and self._by_search(i, members, high, wide=True, narrow=lowered):
                    served = high
        if served < high and self.pooled.exact_nodes:  # the background refinement's last step
            served, high = self._exact(i, members, served, high)
        return free + served, free + high, served == high

    def _exact(self, i, members, served, high) -> tuple[int, int]:
        """(served, high) narrowed by the integer programme over every pair that can pass
        (``scoring.cup_reach_legs_lp.exact``, ``exact_nodes`` nodes; outside the season's budget)."""
        pooled = self.pooled
        cap = pooled.per_place // pooled.legs
        able = self._able(i, members)
        taken, upper = exact(able, pooled.minimal, pooled.legs, cap, pooled.width, pooled.exact_nodes)
        if taken is not None and len(taken) > served:
            served = min(len(taken), high)
            self._keep(able, taken, self.enc[i], served)
        if upper is not None:
            high = max(served, min(high, upper))
        return served, high

    def _legs_bound(self, i, members) -> int:
        """At most how many pairs can pass entrant i, by the relaxation leg by leg over every pair that can
        (``scoring.cup_reach_legs_lp.sized_bound``; ``BOUND_NODES`` nodes of the season's ``search_left``
        and one for every ``BOUND_SIZE`` nonzeros of the relaxation; without them, or without an optimum,
        no bound: the places' count)."""
        pooled = self.pooled
        if pooled.search_left <= 0:
            return pooled.total
        cap = pooled.per_place // pooled.legs
        got, size = sized_bound(self._able(i, members), pooled.minimal, pooled.legs, cap, pooled.width)
        pooled.search_left -= BOUND_NODES + size // BOUND_SIZE
        return pooled.total if got is None else got

    def _able(self, i, members) -> list[tuple[int, frozenset]]:
        """(need, players) of the pairs that can pass entrant i winning every leg: the ranked easiest
        first, then newcomers (new players)."""
        t = self.enc[i]
        ranked = self._candidates(i, limit=len(self.order))
        entrants = [(t - self.enc[j], members[j]) for j in ranked]
        entrants += [(t - self.zero, frozenset())] * self.pooled.total
        return [e for e in entrants if e[0] < self.pooled.top]

    def _by_legs(self, i, members, target) -> int:
        """Pairs passing entrant i in an outcome built leg by leg (``scoring.cup_reach_legs``)."""
        pooled = self.pooled
        cap = pooled.per_place // pooled.legs
        return len(by_legs(self._able(i, members), pooled.values, pooled.legs, cap, target))

    def _by_search(self, i, members, target, wide=False, narrow=True) -> bool:
        """Can ``target`` pairs all pass entrant i? Of the pairs that can play together
        (``cup_reach_legs.playable``), the ``target`` and ``SEARCH_SPARE`` more of the easiest: the outcome
        found for an entrant of the same key with the two swapped (``cup_reach_legs.reused``), else the
        relaxation leg by leg (``scoring.cup_reach_legs_lp``), else the depth-first search leg by leg in
        the order of its amounts (``scoring.cup_reach_legs.by_search``, ``SEARCH_NODES`` nodes and what is
        left of the season's ``search_left``). ``narrow`` False skips all of that (tried before for this
        target); ``wide``: where it finds nothing, the relaxation over every pair that can pass
        (:meth:`_widened`)."""
        pooled, t = self.pooled, self.enc[i]
        if pooled.search_left <= 0:
            return False
        cap = pooled.per_place // pooled.legs
        able = self._able(i, members)
        entrants = playable(able, pooled.legs, pooled.minimal)
        if not narrow or len(entrants) < target:
            return wide and self._widened(able, entrants, cap, target, t)
        taken = reused(self.outcomes.get((t, target)), entrants[: target + SEARCH_SPARE])
        if not taken and self.last is not None:
            taken = carried(self.last, entrants, pooled.minimal)
        if taken and not is_outcome(taken, entrants, pooled.legs, cap, pooled.width, target):
            taken = self._completed(entrants, cap, target, taken)
        if not taken or not is_outcome(taken, entrants, pooled.legs, cap, pooled.width, target):
            taken = self._relaxed(entrants, cap, target)
            if taken is None:
                return wide and self._widened(able, entrants, cap, target, t)
        self._keep(entrants, taken, t, target)
        return True

    def _widened(self, able, entrants, cap, target, t) -> bool:
        """The relaxation leg by leg over every pair that can pass (``able``), where the pairs that can play
        together (``entrants``) are fewer: ``playable`` keeps the easiest, but an outcome may need a
        harder pair in place of an easier one that shares its player."""
        pooled = self.pooled
        if len(able) == len(entrants) or pooled.search_left <= 0:
            return False
        taken, _, solves = by_relaxation(able, pooled.minimal, pooled.legs, cap, pooled.width, target)
        pooled.search_left -= solves * SOLVE_NODES
        if taken is None:
            return False
        self._keep(able, taken, t, target)
        return True

    def _keep(self, entrants, taken, t, target) -> None:
        """Keep the outcome found for the next row of key ``t`` and for the next key."""
        self.outcomes[(t, target)] = [(entrants[k], option) for k, option in taken.items()]
        self.last = [(entrants[k][1], option) for k, option in taken.items()]

    def _completed(self, entrants, cap, target, taken) -> dict | None:
        """The options ``taken`` (another row's outcome given to the entrants here) that clash with none
        (``cup_reach_legs.clashing``) kept, and the search leg by leg for the rest from them
        (``COMPLETE_NODES`` nodes at most)."""
        pooled = self.pooled
        clash = clashing(taken, entrants)
        start = {k: option for k, option in taken.items() if k not in clash}
        budget = min(COMPLETE_NODES, pooled.search_left)
        args = (entrants, pooled.minimal, pooled.legs, cap, pooled.width, budget, target)
        taken, nodes = by_search(*args, start=start)
        pooled.search_left -= nodes
        return taken

    def _relaxed(self, entrants, cap, target) -> dict | None:
        """The options of ``target`` of ``entrants`` passing X: the relaxation leg by leg over the easiest
        ``target + SEARCH_SPARE`` of them, then over all of them, then the search in the order of the
        last relaxation's amounts (``SOLVE_NODES`` nodes a relaxation solved, ``SEARCH_NODES`` nodes at
        most the search, all from the season's ``search_left``)."""
        pooled = self.pooled
        for some in (entrants[: target + SEARCH_SPARE], entrants):
            if pooled.search_left <= 0:
                return None
            args = (some, pooled.minimal, pooled.legs, cap, pooled.width)
            taken, amounts, solves = by_relaxation(*args, target)
            pooled.search_left -= solves * SOLVE_NODES
            if taken is not None:
                return taken
            if len(some) == len(entrants):
                break
        if not amounts:  # the relaxation of all of them has no solution (the first solve): nor the search
            return None
        budget = min(SEARCH_NODES, pooled.search_left)
        taken, nodes = by_search(*args, budget, target, amounts)
        pooled.search_left -= nodes
        return taken


def _disjoint(sets) -> bool:
    seen = set()
    for m in sets:
        if seen & m:
            return False
        seen |= m
    return True
