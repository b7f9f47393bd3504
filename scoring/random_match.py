"""Random valid matches (RULES.md §1–3), for property tests and for simulating whole events.

:func:`random_match` plays one match deal by deal from a :class:`random.Random` and returns its
scoresheet entries; the same generator state always gives the same match. Deals are realistic
rather than uniform (rami more often than nolo, trick counts near 6–7, the occasional nälsytuppi),
deals that make the up pair fall or reach tuppi are often recorded stopped early as RULES.md §2
allows, and knobs add points penalties, signalling (tuppi) penalties, forfeits and level totals, so
that matches end in every way the rules know: tuppi, a fall after the planned deals, a played-out
rise, a deciding deal, a tuppi penalty, a forfeit.
"""

from __future__ import annotations

import random

from scoring.deal import SEVEN, TRICKS, TUPPI, ByPair, Deal, Game, Pair, deal_points
from scoring.match import (
    PENALTY_POINTS,
    Entry,
    Forfeit,
    MatchState,
    PointsPenalty,
    TuppiPenalty,
    apply,
    start,
)

# A match that somehow keeps rising after its planned deals is closed by forcing a fall after this
# many extra deals, so the generator always terminates (the real game ends with probability 1 anyway).
_MAX_EXTRA_DEALS = 60


def random_match(
    rng: random.Random,
    deals_planned: int = 16,
    *,
    penalties: float = 0.0,
    tuppi_penalty: float = 0.0,
    forfeit: float = 0.0,
    early_stop: float = 0.5,
    penalised: float = 0.02,
    level: float = 0.0,
    overwhelming: object = None,
) -> tuple[Entry, ...]:
    """The entries of one finished, valid random match (RULES.md §1–3).

    - ``penalties``: chance of a 28-point penalty (deal errors, rule 2.2) before each deal;
    - ``tuppi_penalty``: chance that the match is ended by a signalling penalty (rule 5.2) at a
      random point; ``forfeit``: the same for a forfeit (possibly before the first deal);
    - ``early_stop``: chance that a deal which makes the up pair fall, or reaches tuppi, is recorded
      with only the tricks played until the result was certain (RULES.md §2);
    - ``penalised``: chance that a deal is marked "remaining tricks to the opponents";
    - ``level``: chance that the last deals are steered towards level totals, so that the match
      needs a deciding deal (rare in natural play).
    """
    state = start(deals_planned, overwhelming=overwhelming)
    entries: list[Entry] = []
    # At most one match-ending penalty or forfeit, at a random entry position (0 = before any deal).
    stop_at, stop_entry = None, None
    if rng.random() < forfeit:
        stop_at, stop_entry = rng.randint(0, deals_planned), Forfeit(rng.choice(list(Pair)))
    elif rng.random() < tuppi_penalty:
        stop_at, stop_entry = rng.randint(1, deals_planned), TuppiPenalty(rng.choice(list(Pair)))
    steer = rng.random() < level
    steer_from = max(0, deals_planned - 6)

    def push(entry: Entry) -> None:
        nonlocal state
        state = apply(state, entry)
        entries.append(entry)

    while not state.finished:
        if stop_entry is not None and len(entries) >= stop_at:
            push(stop_entry)
            break
        if rng.random() < penalties:
            push(PointsPenalty(rng.choice(list(Pair)), PENALTY_POINTS))
            continue
        target = None
        if state.deals_played >= deals_planned + _MAX_EXTRA_DEALS and state.up is not None:
            target = (state.up.other, None)  # force the fall that ends the played-out rise
        elif steer and state.deals_played >= steer_from and not state.awaiting_deciding_deal:
            target = _towards_level(rng, state)
        push(_deal(rng, state, target, early_stop, penalised))
    return tuple(entries)


def _towards_level(rng: random.Random, state: MatchState) -> tuple[Pair, int | None] | None:
    """The deal outcome (winner, points or None for any) that brings the rise totals level."""
    totals = state.totals
    if state.up is not None:
        up, other = state.up, state.up.other
        gap = totals[other] - totals[up]
        if gap <= 0:
            return other, None  # the up pair is level or ahead: let it fall
        return up, min(gap, 28)  # the trailing pair is up: let it catch up
    if totals.a == totals.b:
        return None
    trailing = Pair.A if totals.a < totals.b else Pair.B
    return trailing, min(abs(totals.a - totals.b), 28)


def _full_deal(
    rng: random.Random, target: tuple[Pair, int | None] | None
) -> tuple[Game, Pair | None, ByPair]:
    """A deal with all 13 tricks; with ``target`` = (winner, points), one that pair wins for that."""
    if target is not None:
        winner, points = target
        if points is None:
            points = 4 * rng.randint(1, 7)
        if points > 28 or (points % 8 == 0 and rng.random() < 0.15):
            # A robbery: the defenders take T tricks for 8 × (T − 6).
            t = 6 + points // 8
            return Game.RAMI, winner.other, ByPair(0, 0).replace(winner, t).replace(winner.other, TRICKS - t)
        t = 6 + points // 4
        if rng.random() < 0.6:
            return Game.RAMI, winner, ByPair(0, 0).replace(winner, t).replace(winner.other, TRICKS - t)
        # A nolo won by ``winner``: the loser takes T tricks.
        return Game.NOLO, None, ByPair(0, 0).replace(winner.other, t).replace(winner, TRICKS - t)
    if rng.random() < 0.62:
        caller = rng.choice(list(Pair))
        roll = rng.random()
        if roll < 0.004:
            made = 0  # nälsytuppi
        elif roll < 0.01:
            made = TRICKS
        else:
            made = sum(rng.random() < 0.55 for _ in range(TRICKS))
        return Game.RAMI, caller, ByPair(0, 0).replace(caller, made).replace(caller.other, TRICKS - made)
    a = sum(rng.random() < 0.5 for _ in range(TRICKS))
    return Game.NOLO, None, ByPair(a, TRICKS - a)


def _deal(
    rng: random.Random,
    state: MatchState,
    target: tuple[Pair, int | None] | None,
    early_stop: float,
    penalised: float,
) -> Deal:
    game, caller, tricks = _full_deal(rng, target)
    winner, points, robbed, t = deal_points(game, caller, tricks)
    holder = Pair.A if tricks.a >= SEVEN else Pair.B
    stop_at = None
    if state.up is not None and winner is not state.up:
        stop_at = SEVEN  # rule 6.5: a deal that makes the up pair fall is not played past seven tricks
    elif not state.awaiting_deciding_deal:
        rise = state.rise if winner is state.up else 0
        per_trick = 8 if robbed else 4
        reaching = [k for k in range(SEVEN, t + 1) if rise + per_trick * (k - 6) >= TUPPI]
        if reaching:
            stop_at = reaching[0]  # tuppi ends play at once (RULES.md §2)
    if stop_at is not None and rng.random() < early_stop:
        # When the holder took its stop_at-th trick the other pair held somewhere between 0 and its
        # final count.
        other = rng.randint(0, TRICKS - t)
        tricks = ByPair(0, 0).replace(holder, stop_at).replace(holder.other, other)
    return Deal(game, tricks, caller, rng.random() < penalised)
