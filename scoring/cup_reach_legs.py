"""The fixed pairs' outcome built leg by leg (``scoring.cup_reach`` docstring, step 10): a construction, so
the number of pairs it lets pass X is a lower bound on the most that can.

Pure: no Django. The pooled model forgets that a player plays in one pair a leg; here every place is a
place of one leg, a pair's places are in different legs, and a player plays in at most one pair a leg,
so two pairs sharing a player may both pass in different legs.
"""

from __future__ import annotations

Slot = tuple[int, int]  # (leg, place index)


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
