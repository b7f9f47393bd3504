"""The fixed pairs' outcome built leg by leg (``scoring.cup_reach`` docstring, step 10): a construction, so
the number of pairs it lets pass X is a lower bound on the most that can.

Pure: no Django. The pooled model forgets that a player plays in one pair a leg; here every place is a
place of one leg, a pair's places are in different legs, and a player plays in at most one pair a leg,
so two pairs sharing a player may both pass in different legs.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate, permutations
from operator import add, sub

from scoring.cup_reach_lp import _meets

Slot = tuple[int, int]  # (leg, place index)
Option = tuple[tuple[int, int], ...]  # an entrant's items: (leg, place 1-based) each, sorted


def by_legs(entrants, values, legs, cap, target) -> dict[int, list[Slot]]:
    """The places each entrant passing X takes (by its index in ``entrants``), at most ``target`` of them.

    ``entrants``: (need, players) easiest first; ``values[p]``: the gain of place p + 1 (encoded, the
    scale of the needs), ``cap`` entrants a place a leg. Each entrant in turn takes the worst free place
    enough alone in a leg none of its players plays yet, else the best such place and then the same for
    what is left of its need in another leg. Two tries, the larger kept: the ``target`` easiest hardest
    first (an entrant that fits nowhere may take a place enough alone that another holds alone, when
    that one can move to other free places enough for it), then the rest; and every entrant easiest
    first."""
    best = {}
    hardest_first = [*range(min(target, len(entrants)))][::-1] + [*range(target, len(entrants))]
    for order, moving in ((hardest_first, True), (range(len(entrants)), False)):
        state = _Legs(values, legs, cap)
        for k in order:
            if len(state.taken) == target or not state.free:
                break
            need, players = entrants[k]
            state.place(k, need, players) or (
                moving and k < target and state.place_by_moving(k, need, players)
            )
        if len(state.taken) > len(best):
            best = state.taken
        if len(best) == target:
            break
    return best


class _Legs:
    def __init__(self, values, legs, cap):
        self.val, self.legs = values, legs
        self.left = [[cap] * len(values) for _ in range(legs)]  # free places by leg
        self.free = cap * len(values) * legs
        self.busy: dict[object, set[int]] = {}  # player -> the legs he plays
        self.alone: dict[Slot, list[tuple[int, int, frozenset]]] = {}  # slot -> (k, need, players)
        self.taken: dict[int, list[Slot]] = {}

    def open_legs(self, players) -> list[int]:
        return [g for g in range(self.legs) if not any(g in self.busy.get(p, ()) for p in players)]

    def place(self, k, need, players) -> bool:
        took = take_slots(need, self.open_legs(players), self.left, self.val)
        if took is None:
            return False
        self._hold(k, need, players, took)
        return True

    def place_by_moving(self, k, need, players) -> bool:
        """Take a place enough alone that another entrant holds alone, moving that one elsewhere."""
        for p in range(len(self.val) - 1, -1, -1):  # the worst places first
            if self.val[p] <= need:
                continue
            for g in range(self.legs):
                for held in list(self.alone.get((g, p), ())):
                    _, _, held_players = held
                    if any(g in self.busy.get(q, ()) and q not in held_players for q in players):
                        continue  # one of this entrant's players plays leg g in a third pair
                    if self._move(held, (g, p), players):
                        self.left[g][p] -= 1
                        self._hold(k, need, players, [(g, p)])
                        return True
        return False

    def _move(self, held, slot, coming) -> bool:
        """Move ``held`` off ``slot`` (kept free for the pair ``coming``, whose players) to other places
        enough for it: in leg ``slot[0]`` too only if it shares no player with ``coming``."""
        k, need, players = held
        g, p = slot
        self._drop(held, slot)
        self.left[g][p] -= 1  # not for the one moving
        legs = [x for x in self.open_legs(players) if x != g or not players & coming]
        took = take_slots(need, legs, self.left, self.val)
        self.left[g][p] += 1
        if took is None:  # it cannot move: as it was
            self.left[g][p] -= 1
            self._hold(k, need, players, [slot])
            return False
        self._hold(k, need, players, took)
        return True

    def _hold(self, k, need, players, took):
        self.taken[k] = took
        self.free -= len(took)
        for g, _ in took:
            for q in players:
                self.busy.setdefault(q, set()).add(g)
        if len(took) == 1:
            self.alone.setdefault(took[0], []).append((k, need, players))

    def _drop(self, held, slot):
        k, _, players = held
        del self.taken[k]
        self.free += 1
        self.alone[slot].remove(held)
        self.left[slot[0]][slot[1]] += 1
        for q in players:
            self.busy[q].discard(slot[0])


def take_slots(need, open_legs, left, val) -> list[Slot] | None:
    """Places (leg, place), of distinct legs among ``open_legs``, whose values sum above ``need``: the
    worst free place enough alone, else the best free place and then the same for what is left of the
    need in the other legs. Taken from ``left`` (free places by leg); None, nothing taken, if none do."""
    width = len(val)
    chosen, got, legs = [], 0, list(open_legs)
    while legs:
        enough = next(
            ((g, p) for p in range(width - 1, -1, -1) if got + val[p] > need for g in legs if left[g][p]),
            None,
        )
        if enough is not None:
            left[enough[0]][enough[1]] -= 1
            chosen.append(enough)
            return chosen
        best = next(((g, p) for p in range(width) for g in legs if left[g][p]), None)
        if best is None:
            break
        left[best[0]][best[1]] -= 1
        chosen.append(best)
        got += val[best[1]]
        legs.remove(best[0])
    for g, p in chosen:  # it failed: the places held are given back
        left[g][p] += 1
    return None


def by_search(
    entrants, minimal, legs, cap, width, budget, want=None, prefer=None, start=None
) -> tuple[dict[int, Option] | None, int]:
    """``want`` of ``entrants`` (all by default) passing X at once, searched leg by leg: (the option each
    takes, or None when no outcome serves them or ``budget`` nodes pass first; the nodes spent). An
    option: (leg, place) of each item, places 1-based, each the place asked or a better one
    (:func:`placed` gives the places).

    ``entrants``: (need, players) easiest first; ``minimal(need)``: its minimal patterns (places, 1-based,
    ascending, at most ``legs``; a better place serves as well). A leg's demands are met iff for every
    place p at most ``cap * p`` of them ask p or better (Hall's condition, the places given afterwards).
    Depth-first: next the entrant with the fewest legs where its worst place enough alone still fits
    (its players free there), the hardest of those; its options are its minimal patterns in their order
    (fewest items first), over the legs its players have free, a leg with nothing in it standing for
    every such leg; after them, skipping the entrant when more than ``want`` are given. With ``prefer``
    (by entrant, an amount for some options: ``scoring.cup_reach_legs_lp``), the options with the larger
    amounts first, and every leg tried (the amounts name legs). Cut where the entrants left cannot take a
    place each, counting one item for each that may still pass with one place alone and two for the
    others (:func:`_short`). With ``start`` (by entrant, an option: another row's outcome), each of its
    options that still can be taken (:meth:`_Search.seed`) is taken first and kept; the search is for
    the rest."""
    search = _Search(entrants, minimal, legs, cap, width, budget, prefer)
    want = len(entrants) if want is None else want
    for k, option in (start or {}).items():
        search.seed(k, option)
    if not search.dfs(want, len(search.left) - (want - len(search.taken))):
        return None, search.nodes
    return dict(search.taken), search.nodes


class _Search:
    """The state of :func:`by_search`: by leg the demands asking each place or better, their slack (by
    place - 1: demands more the leg takes) and the players playing it; the entrants left."""

    def __init__(self, entrants, minimal, legs, cap, width, budget, prefer):
        self.entrants, self.legs, self.cap, self.budget, self.prefer = entrants, legs, cap, budget, prefer
        self.patterns = [minimal(need) for need, _ in entrants]
        # each one's worst place enough alone, 0 none; and how many of those left have each
        self.alone = [next((t[0] for t in ts if len(t) == 1), 0) for ts in self.patterns]
        self.alone_left = [0] * (width + 1)
        for place in self.alone:
            self.alone_left[place] += 1
        self.demand = [[0] * (width + 1) for _ in range(legs)]
        self.known: dict[tuple, list[int]] = {}
        self.slack = [_slack(row, cap, self.known) for row in self.demand]
        self.busy: list[set] = [set() for _ in range(legs)]
        self.left = set(range(len(entrants)))
        self.taken: dict[int, Option] = {}
        self.nodes = 0

    def singles(self, k) -> int:
        players, place = self.entrants[k][1], self.alone[k]
        if not place:
            return 0
        return sum(1 for g in range(self.legs) if self.slack[g][place - 1] > 0 and not players & self.busy[g])

    def options(self, k) -> list[Option]:
        """Each item of a pattern in a leg of its own: a leg takes one more demand of place p iff its
        slack at p is positive."""
        players, slack = self.entrants[k][1], self.slack
        free = tuple(g for g in range(self.legs) if not players & self.busy[g])
        empty = tuple(g for g in free if not any(self.demand[g]))
        out = []
        for pattern in self.patterns[k]:
            for option in _placings(pattern, free, empty if self.prefer is None else ()):
                if all(slack[g][p - 1] > 0 for g, p in option):
                    out.append(option)
        if self.prefer is not None:
            amounts = self.prefer.get(k, {})
            out.sort(key=lambda o: -amounts.get(o, 0.0))
        return out

    def seed(self, k, option) -> None:
        """Start from entrant ``k`` taking ``option``, if it still can: its places one of the entrant's
        minimal patterns, its legs its own, its players free there, each leg's slack at its place
        positive."""
        players = self.entrants[k][1]
        legs = [g for g, _ in option]
        if k not in self.left or len(set(legs)) != len(legs):
            return
        if tuple(sorted(p for _, p in option)) not in self.patterns[k]:  # not one of its minimal patterns
            return
        if any(players & self.busy[g] or self.slack[g][p - 1] <= 0 for g, p in option):
            return
        self.left.discard(k)
        self.alone_left[self.alone[k]] -= 1
        self.put(k, option, 1)

    def put(self, k, option, step) -> None:
        players = self.entrants[k][1]
        for g, p in option:
            self.demand[g][p] += step
            self.slack[g] = _slack(self.demand[g], self.cap, self.known)
            if step > 0:
                self.busy[g] |= players
            else:
                self.busy[g] -= players  # no other pair of the leg has these players
        if step > 0:
            self.taken[k] = option
        else:
            del self.taken[k]

    def dfs(self, want, skips) -> bool:
        more = want - len(self.taken)
        if more <= 0:  # a start may hold more than are wanted
            return True
        self.nodes += 1
        left = self.left
        if self.nodes > self.budget or len(left) < more or _short(self.slack, self.alone_left, more):
            return False
        k = min(left, key=lambda j: (self.singles(j), -j))
        left.discard(k)
        self.alone_left[self.alone[k]] -= 1
        for option in self.options(k):
            self.put(k, option, 1)
            if self.dfs(want, skips):
                return True
            self.put(k, option, -1)
        if skips and self.dfs(want, skips - 1):
            return True
        left.add(k)
        self.alone_left[self.alone[k]] += 1
        return False


@lru_cache(maxsize=65536)
def _placings(pattern, free, empty) -> tuple[Option, ...]:
    """The options of ``pattern`` (places ascending) over the legs ``free``, each once, in the order of
    the legs' permutations (kept once a process): an empty leg (of ``empty``) stands for every empty leg,
    so of those the first ones are taken."""
    out, seen = [], set()
    for gs in permutations(free, len(pattern)):
        unused = [g for g in empty if g not in gs]
        if unused and any(g in empty and g > unused[0] for g in gs):
            continue
        option = tuple(sorted(zip(gs, pattern, strict=True)))
        if option not in seen:
            seen.add(option)
            out.append(option)
    return tuple(out)


def _slack(row, cap, known) -> list[int]:
    """A leg's slack by place - 1: how many more demands of that place or better Hall's condition lets it
    take, the fewest free places of the places 1..r over every r from that place on (kept in ``known``
    by the leg's demands)."""
    key = tuple(row)
    got = known.get(key)
    if got is None:
        rooms = list(map(sub, range(cap, cap * (len(row) - 1) + 1, cap), accumulate(row[1:])))
        got = known[key] = list(accumulate(reversed(rooms), min))[::-1]
    return got


def _short(slack, alone_left, want) -> bool:
    """Can ``want`` more entrants not take a place at all? Each takes one place, and two or more unless it
    takes one place enough alone (``alone_left[p]``: how many of them have p as their worst such place,
    ``alone_left[0]`` those with none). In a leg the new demands asking place r or better are at most its
    slack at r; so at most R(r), the legs' slacks at r summed, take one place r or better alone, and at
    most mu = min over r of R(r) + those whose place alone is worse than r take one place alone: they
    need at least mu + 2 * (want - mu) places, and the legs have their slacks at the last place free."""
    most = list(map(sum, zip(*slack, strict=True)))
    alone = sum(alone_left) - alone_left[0]
    worse = [alone - a for a in accumulate(alone_left[1:])]
    mu = min(alone, *map(add, most, worse), want)
    return mu + 2 * (want - mu) > most[-1]


def placed(taken, legs, cap) -> dict[int, list[Slot]]:
    """The places (0-based) the options ``taken`` get: in each leg the demand of the best place first
    takes the best place free (Hall's condition holds, so each gets its place or a better one)."""
    out: dict[int, list[Slot]] = {k: [] for k in taken}
    for g in range(legs):
        asks = sorted((p, k) for k, option in taken.items() for h, p in option if h == g)
        for i, (_, k) in enumerate(asks):
            out[k].append((g, i // cap))
    return out


def is_outcome(taken, entrants, legs, cap, width, want) -> bool:
    """Is ``taken`` (by entrant, an option) a real outcome, in integers: ``want`` entrants or more, each
    one's items in legs of their own, Hall's condition in every leg, and no player twice in a leg? (That
    each option's pattern is enough for its entrant is the caller's: it takes them from the minimal
    patterns of the entrant's need.)"""
    if len(taken) < want or any(len({g for g, _ in option}) != len(option) for option in taken.values()):
        return False
    if clashing(taken, entrants):
        return False
    asked = [[0] * (width + 1) for _ in range(legs)]
    for option in taken.values():
        for g, p in option:
            asked[g][p] += 1
    return all(_meets(row, cap) for row in asked)


def clashing(taken, entrants) -> set[int]:
    """The entrants of ``taken`` (by entrant, an option) with a player who plays a leg in another of them."""
    first: dict[tuple[object, int], int] = {}
    out = set()
    for k, option in taken.items():
        for g, _ in option:
            for q in entrants[k][1]:
                other = first.setdefault((q, g), k)
                if other != k:
                    out |= {k, other}
    return out


def reused(outcome, entrants) -> dict:
    """The options of ``outcome`` ((entrant, option) pairs: another row's) given to the same entrants here,
    and those left to the entrants here that were not in it, of the same need (the rows' X swapped)."""
    if not outcome:
        return {}
    by_entrant: dict[tuple, list] = {}
    for entrant, option in outcome:
        by_entrant.setdefault(entrant, []).append(option)
    taken = {}
    for k, entrant in enumerate(entrants):
        if by_entrant.get(entrant):
            taken[k] = by_entrant[entrant].pop()
    spare: dict[int, list] = {}
    for entrant, options in by_entrant.items():
        spare.setdefault(entrant[0], []).extend(options)
    for k, (need, _) in enumerate(entrants):
        if k not in taken and spare.get(need):
            taken[k] = spare[need].pop()
    return taken


def carried(outcome, entrants, minimal) -> dict:
    """Another row's ``outcome`` ((players, option) pairs) carried to ``entrants`` here, whose needs may
    be other: each pair's option to the same players, the newcomers' (no players) to the newcomers here
    in turn, each as the first minimal pattern of the need here that its items can stand for
    (:func:`fitted`); an option that stands for none is left out."""
    by_players: dict[frozenset, list] = {}
    for players, option in outcome or ():
        by_players.setdefault(players, []).append(option)
    taken = {}
    for k, (need, players) in enumerate(entrants):
        options = by_players.get(players)
        if options:
            option = fitted(options.pop(), minimal(need))
            if option is not None:
                taken[k] = option
    return taken


def fitted(option, patterns) -> Option | None:
    """The first of ``patterns`` (places ascending) that ``option`` stands for: each of the pattern's
    places asked in the leg of one of the option's items at that place or a better one; or None. (A
    pattern of m places is stood for iff the option's m best places, best first, are each at least as
    good as the pattern's in order: asking a worse place of a leg only leaves it more room.)"""
    items = sorted(option, key=lambda item: item[1])
    for pattern in patterns:
        if len(pattern) <= len(items) and all(p <= q for (_, p), q in zip(items, pattern, strict=False)):
            return tuple(sorted((g, q) for (g, _), q in zip(items, pattern, strict=False)))
    return None


def playable(entrants, legs, minimal) -> list[tuple[int, frozenset]]:
    """The entrants (easiest first) that can all play: a player's pairs take different legs for every
    item, so each is kept while its players' pairs kept ask at most ``legs`` items in all, counting for
    each pair the fewest items that pass it."""
    load: dict[object, int] = {}
    kept = []
    for need, players in entrants:
        fewest = len(minimal(need)[0])
        if all(load.get(q, 0) + fewest <= legs for q in players):
            for q in players:
                load[q] = load.get(q, 0) + fewest
            kept.append((need, players))
    return kept
