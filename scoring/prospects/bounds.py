"""Bounds on a pair's place from step 1 of the group order alone (match points, or wins; RULES §4): the
pruning of :class:`scoring.prospects.search.Search`.

Each pair's step-1 value lies in a range (``key`` up to ``key + spread``). A pair whose range lies wholly
above or below p's is certainly above or below p; the others (the *rivals*) can still meet p, and the open
matches among them hand out a fixed number of step-1 points, which can force some of them past p whatever
the results (Hall's theorem on the points each set of rivals must take or can get).
"""

from __future__ import annotations

from scoring.prospects.outcomes import Assignment, Group, Outcome


class MatchPointBounds:
    """The step-1 bounds for one pair (``centre``) in one mode, reading the search's :class:`Assignment`
    (the same lists, changed in place as the search fixes matches)."""

    def __init__(self, group: Group, centre: int, best_mode: bool, done: Assignment) -> None:
        self.g = group
        self.p = centre
        self.best_mode = best_mode
        self.key = done.key
        self.spread = done.spread
        self.assigned = done.assigned

    def classify(self, value: int) -> tuple[int, int, int, int, list[bool], list[int], int]:
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
        if len(inner) > 1 and (bound + 1 == value if self.best_mode else bound - 1 == value):
            more = self.forced_by_room(inner, p_lo, p_hi) - extra
            if more > 0:
                bound += more if self.best_mode else -more
        return p_lo, p_hi, above, below, relevant, inner, bound

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

    def child_pruned(self, o: Outcome, p_lo: int, p_hi: int, above: int, below: int, value: int) -> bool:
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
            return 1 + above >= value
        return self.g.n - below <= value

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
