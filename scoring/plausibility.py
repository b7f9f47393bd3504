"""A match result entered from a paper scoresheet's final figures: is it one some scoresheet gives?

Implements the paper-result entry of RULES.md §3: :func:`paper_result` takes the two rise totals, the
planned and played deal counts, who won by tuppi and who won the deciding deal, and gives the winner and
the match points (:func:`scoring.match.match_points`), or refuses figures that no valid scoresheet
(:func:`scoring.match.fold`) ends with. Pure and Django-free.

Public API::

    paper_result(total_a, total_b, deals_planned, deals_played, *, tuppi=None, deciding_winner=None,
                 overwhelming=None) -> PaperResult

A refused result raises ScoringError (``deal`` None) with the bound it breaks:

- a total that is negative, not whole, or not a multiple of 4: ``paper_total_invalid``;
  deals played not a whole number ≥ 0: ``paper_deals_played_invalid``;
- a tuppi for one pair and a deciding deal won by the other: ``paper_conflict``;
- no tuppi and fewer deals played than planned (only tuppi ends a match early): ``paper_too_few_deals``;
- no tuppi, equal totals, no deciding deal: ``paper_tie_needs_deciding_deal``;
- more deals than N + 12 without a deciding deal, or N + 13 with tuppi: ``paper_too_many_deals``;
- deals after N but no total that holds the rise played out over them:
  ``paper_played_out_rise_too_small``;
- totals too low for the deals played: ``paper_totals_too_low``; too high: ``paper_total_too_high``
  (``paper_tuppi_total_too_high`` for a tuppi, counted in wins);
- a deciding deal with fewer than N deals played: ``paper_deciding_deal_too_early``; after more than
  N + 13: ``paper_deciding_deal_too_late``; a difference that no deciding deal scores:
  ``paper_deciding_deal_impossible``; level totals before it that no sheet gives:
  ``paper_deciding_level_impossible`` (``values["cause"]`` is the bound those break);
- a tuppi that only a rise of 52 can explain, from a winner's total below 52: ``paper_tuppi_needs_rise``;
- figures that pass each bound alone but fit no scoresheet together: ``paper_result_unreachable``.

How the bounds read the rules (RULES.md §1–3):

- **Decision (ours): points penalties on paper.** A paper sheet does not list its points penalties,
  and each one is a deal won without a deal number (RULES.md §3): with no limit any totals would
  fit. Paper entry takes at most one points penalty per dealing turn, so at most deals played + 1
  of them (rule 2.2 gives one for a dealer's three errors in the same turn; the + 1 is the turn the
  match ended in), each worth a multiple of 4 from 4 to 56 (28 by the rules; the scoresheet form
  takes 4–56). A real sheet with more penalties than that must be entered deal by deal.
- **Decision (ours): a rise below 52.** A rise that does not end in tuppi reached at most 48 (rises are
  multiples of 4) and took at least one deal or penalty won; every rise but a last one (ended by a
  deciding deal, a tuppi penalty or a forfeit) fell, by another win that scores nothing. A deal scores
  4..28, or 32, 40, 48, 56 (RULES.md §1); only a tuppi rise exceeds 48, at most 48 + 56 = 104.
- **Decision (ours): the rise played out.** A rise running at deal N goes on until it falls or reaches
  tuppi; staying below 52 with each deal adding at least 4, it holds at most 12 deals, deal N
  included, so it falls by deal N + 12, and deals after N mean a rise of at least 4 per deal after N.
  A deciding deal is deal N + 13 at the latest, a tuppi (a nälsytuppi deciding deal) too.
- **Decision (ours): the deciding deal.** The totals were level before it and its points go to its
  winner (RULES.md §3 Decision), so the winner's total minus its points is the loser's: the
  difference must be a deal's score below 52, or a penalty's (the engine lets a points penalty decide,
  so a "deciding deal" at deal N itself is accepted as such a penalty), and for a deciding deal that
  ends in tuppi 56 (nälsytuppi) or a 52/56 penalty. It needs the N planned deals first.
- **Decision (ours): totals too low.** Every deal is won by someone: it adds at least 4 to a rise or
  makes one fall, and only a rise can fall, so d deals give totals of at least 2d; the deals after N
  are all in the rise played out, at least 4 each but its fall (12 deals of 12: at least 24; 24 deals
  of 12: 48 + 24).
- **Decision (ours): totals too high.** Totals t need at least ⌈t / 48⌉ rises below 52 each; every rise
  is won and, but a last one, lost again (two wins); the rises before the last fell before deal N,
  so in at most N − 1 deals and the penalties. 12 deals of 12 hold at most 12 rises (12 deals and 12
  penalties), 576 points; a tuppi rise holds up to 104 (two wins above 56).
- **Decision (ours): tuppi on paper.** A tuppi penalty or forfeit ends a running match at any score,
  and paper does not tell it from a rise of 52, so a tuppi is refused only when no running match
  has these figures and no rise of 52 (also none in a deciding deal) can give them; the winner's total
  is checked to include a rise of 52 only then. A tuppi with no deciding deal marked may still have
  come in one; a result with a deciding deal may be entered without marking it (same winner and
  match points).

Exact where the figures tell: every scoresheet's figures are accepted and a result is refused only
when no sheet within these Decisions fits. Conservative (accepted though no sheet may fit): a rise of
36 or 44 in one deal (no deal scores that, a penalty could), and penalties are only counted, not
placed one per dealing turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.deal import TUPPI, ByPair, Pair, as_pair
from scoring.errors import ScoringError, is_whole
from scoring.match import PENALTY_POINTS, check_deals_planned, check_rule, match_points

__all__ = ["PaperResult", "paper_result"]


@dataclass(frozen=True, slots=True)
class PaperResult:
    """A match result entered from a paper scoresheet's totals (see :func:`paper_result`)."""

    winner: Pair
    match_points: ByPair
    tuppi: bool
    overwhelming: bool


def paper_result(
    total_a: int,
    total_b: int,
    deals_planned: int,
    deals_played: int,
    *,
    tuppi: Pair | str | None = None,
    deciding_winner: Pair | str | None = None,
    overwhelming: object = None,
) -> PaperResult:
    """Winner and match points from a paper scoresheet's final figures (RULES.md §3).

    ``tuppi`` is the pair that won by tuppi (a rise of 52, a tuppi penalty or the opponents' forfeit),
    ``deciding_winner`` the winner of the deciding deal when the totals were level after the rise was
    played out. A result is accepted only if some valid scoresheet (:func:`scoring.match.fold`) ends with
    exactly these figures; otherwise it is refused (ScoringError, ``deal`` None) with the bound it breaks
    (the codes and the Decisions behind each bound: the module docstring).
    """
    n = check_deals_planned(deals_planned)
    rule = check_rule(overwhelming)
    totals, d = _figures(total_a, total_b, deals_played)
    tuppi_pair = None if tuppi is None else as_pair(tuppi, "tuppi", None)
    decider = None if deciding_winner is None else as_pair(deciding_winner, "deciding_winner", None)
    if tuppi_pair is not None:
        _check_tuppi_result(totals, tuppi_pair, decider, n, d)
        return PaperResult(
            tuppi_pair, match_points(tuppi_pair, totals, n, tuppi=True, rule=rule), True, False
        )
    winner = _points_winner(totals, decider, n, d)
    points = match_points(winner, totals, n, tuppi=False, rule=rule)
    return PaperResult(winner, points, False, points[winner] == 4)


def _figures(total_a: object, total_b: object, deals_played: object) -> tuple[ByPair, int]:
    """The two rise totals and the deals played, each checked on its own (``paper_total_invalid``,
    ``paper_deals_played_invalid``)."""
    for pair, total in (("A", total_a), ("B", total_b)):
        if not is_whole(total) or total < 0 or total % 4:
            raise ScoringError(
                "paper_total_invalid",
                f"pair {pair}'s rise total must be a whole multiple of 4, at least 0, not {total!r}",
                pair=pair,
                total=total,
            )
    if not is_whole(deals_played) or deals_played < 0:
        raise ScoringError(
            "paper_deals_played_invalid",
            f"deals played must be a whole number of at least 0, not {deals_played!r}",
            deals_played=deals_played,
        )
    return ByPair(total_a, total_b), deals_played


def _check_tuppi_result(totals: ByPair, tuppi_pair: Pair, decider: Pair | None, n: int, d: int) -> None:
    """Raises the bound a tuppi won by ``tuppi_pair`` (in the deciding deal if ``decider`` is given) breaks."""
    if decider is not None and decider is not tuppi_pair:
        raise ScoringError(
            "paper_conflict",
            f"pair {tuppi_pair} won by tuppi, so pair {decider} cannot have won the deciding deal",
            tuppi=str(tuppi_pair),
            deciding_winner=str(decider),
        )
    if decider is not None:
        error = _check_deciding(totals, decider, n, d, tuppi=True)
    else:
        error = _check_tuppi(totals, tuppi_pair, n, d)
    if error is not None:
        raise error


def _points_winner(totals: ByPair, decider: Pair | None, n: int, d: int) -> Pair:
    """The winner of a match that ended without tuppi: ``decider`` (the deciding deal's winner) or the
    higher total; raises the bound the figures break."""
    if decider is not None:
        error = _check_deciding(totals, decider, n, d, tuppi=False)
        if error is not None:
            raise error
        return decider
    if d < n:
        raise ScoringError(
            "paper_too_few_deals",
            f"only {d} of {n} deals played: without tuppi a match ends after the planned deals",
            deals_played=d,
            deals_planned=n,
        )
    if totals.a == totals.b:
        raise ScoringError(
            "paper_tie_needs_deciding_deal",
            f"the totals are level ({totals.a}–{totals.b}): give the winner of the deciding deal",
            total=totals.a,
        )
    error = _check_points_win(totals, n, d)
    if error is not None:
        raise error
    return Pair.A if totals.a > totals.b else Pair.B


# --- the bounds ----------------------------------------------------------------------------------------

# What the figures of a paper scoresheet must fit (the Decision lines are in the module docstring).
_RISE_MAX = TUPPI - 4  # 48: a rise that does not end in tuppi stays below 52, on the 4-point scale
_DEAL_SCORES = frozenset(4 * k for k in range(1, 8)) | frozenset(8 * k for k in range(1, 8))  # RULES.md §1
_PENALTY_MAX = 2 * PENALTY_POINTS  # 56: the most a points penalty is taken to be worth on paper
_PENALTY_SCORES = range(4, _PENALTY_MAX + 1, 4)
_PLAYED_OUT = _RISE_MAX // 4  # 12: the most deals a rise below 52 can hold, each adding at least 4
_TUPPI_RISE_MAX = _RISE_MAX + max(max(_DEAL_SCORES), _PENALTY_MAX)  # 104: 48 and then a 56


def _penalty_budget(deals_played: int) -> int:
    """The most points penalties a paper result is taken to include: one per dealing turn (Decision)."""
    return deals_played + 1


def _rises(total: int) -> int:
    """The fewest rises below 52 that add up to ``total``."""
    return -(-total // _RISE_MAX)


def _fallen(a: int, b: int, d: int) -> int | None:
    """The fewest points penalties for rises worth ``a`` (pair A) and ``b`` (pair B) in all, each below 52
    and each ended by a fall, over exactly ``d`` deals; None when no such rises hold ``d`` deals.

    Each rise needs a win and a fall; a deal either adds at least 4 to a rise or makes one fall, so the
    rises hold at most (a + b) / 2 deals; the wins a penalty can stand in for are the ones the deals miss.
    """
    if a + b == 0:
        return 0 if d == 0 else None
    if 2 * d > a + b:
        return None
    return max(0, 2 * (_rises(a) + _rises(b)) - d)


def _split(ta: int, tb: int, pair: Pair, value: int) -> tuple[int, int]:
    return (ta - value, tb) if pair is Pair.A else (ta, tb - value)


def _at_table_after_n(ta: int, tb: int, n: int, d: int) -> int | None:
    """Fewest points penalties for a sheet of ``d`` deals whose last rise fell with deal ``n`` played: a
    points win, or level totals awaiting the deciding deal. None if there is none.

    The rises before the last one fell before deal N (``_fallen`` over d1 ≤ N − 1 deals); the last rise,
    below 52, was running at deal N and holds the other d2 = d − d1 deals but its fall (each adding at
    least 4); its fall is a deal or a penalty.
    """
    if d < n:
        return None
    best = None
    for pair in Pair:
        for value in range(4, min(_RISE_MAX, ta if pair is Pair.A else tb) + 1, 4):
            a1, b1 = _split(ta, tb, pair, value)
            for d2 in range(max(1, d - n + 1), min(d, value // 4 + 1) + 1):
                p = _fallen(a1, b1, d - d2)
                if p is not None and (best is None or p + max(0, 2 - d2) < best):
                    best = p + max(0, 2 - d2)  # one deal: the rise or its fall is a penalty
                    if best == 0:
                        return 0
    return best


def _running(ta: int, tb: int, n: int, d: int) -> int | None:
    """Fewest points penalties for a match still running after ``d`` deals with totals ``ta``–``tb`` (what a
    tuppi penalty or forfeit can end): at the table before deal N, a rise running (the falls before it
    came before deal N), or level totals awaiting the deciding deal."""
    candidates = []
    if d < n:
        candidates.append(_fallen(ta, tb, d))
    for pair in Pair:
        for value in range(4, min(_RISE_MAX, ta if pair is Pair.A else tb) + 1, 4):
            a1, b1 = _split(ta, tb, pair, value)
            for d_open in range(max(0, d - n + 1), min(d, value // 4) + 1):
                p = _fallen(a1, b1, d - d_open)
                if p is not None:
                    candidates.append(p + max(0, 1 - d_open))  # a rise with no deal was a penalty
                    if candidates[-1] == 0:
                        return 0
    if ta == tb:
        candidates.append(_at_table_after_n(ta, tb, n, d))
    return min((c for c in candidates if c is not None), default=None)


def _tuppi_rise(ta: int, tb: int, pair: Pair, n: int, d: int) -> int | None:
    """Fewest points penalties for a sheet of ``d`` deals ended by ``pair``'s rise reaching 52 (not as the
    deciding deal): rises that fell before deal N, then a rise r < 52 over at most r / 4 deals (running
    past deal N as long as it likes) and a deal or penalty that brings it to 52 or more."""
    total, other = (ta, tb) if pair is Pair.A else (tb, ta)
    best = None
    for r in range(0, _RISE_MAX + 1, 4):
        for deal_win, scores in ((True, _DEAL_SCORES), (False, _PENALTY_SCORES)):
            for q in scores:
                if r + q < TUPPI or r + q > total:
                    continue
                rest = total - r - q
                for d_r in range(0, r // 4 + 1):
                    d1 = d - d_r - deal_win
                    if d1 < 0 or d1 > n - 1:
                        continue
                    p = _fallen(*((rest, other) if pair is Pair.A else (other, rest)), d1)
                    if p is None:
                        continue
                    p += max(0, (r > 0) - d_r) + (not deal_win)
                    if best is None or p < best:
                        best = p
                        if best == 0:
                            return 0
    return best


def _decider_scores(tuppi: bool) -> tuple[frozenset[int], frozenset[int]]:
    """What a deciding deal can score: (as a deal, as a points penalty); with ``tuppi``, the scores that
    take a rise from the table to 52 (a nälsytuppi 56; a 52 or 56 penalty)."""
    if tuppi:
        return frozenset({max(_DEAL_SCORES)}), frozenset(q for q in _PENALTY_SCORES if q >= TUPPI)
    return (
        frozenset(q for q in _DEAL_SCORES if q < TUPPI),
        frozenset(q for q in _PENALTY_SCORES if q < TUPPI),
    )


def _deciding(total_w: int, total_l: int, n: int, d: int, *, tuppi: bool) -> int | None:
    """Fewest points penalties for a sheet of ``d`` deals whose deciding deal (or deciding penalty) was won
    for ``total_w − total_l`` after level totals ``total_l``–``total_l``."""
    margin = total_w - total_l
    deal_scores, penalty_scores = _decider_scores(tuppi)
    candidates = []
    if margin in deal_scores and d >= 1:
        candidates.append(_at_table_after_n(total_l, total_l, n, d - 1))
    if margin in penalty_scores:
        p = _at_table_after_n(total_l, total_l, n, d)
        candidates.append(None if p is None else p + 1)
    return min((c for c in candidates if c is not None), default=None)


def _low_at_table(n: int, d: int) -> int:
    """The least totals (together) of a sheet of ``d`` ≥ ``n`` deals whose last rise fell after deal N.

    Every deal adds at least 4 to a rise or makes one fall, and only a rise can fall: d deals before the
    last rise give at least 2d. Deals after N are all in the rise played out, which gains at least 4 from
    each of them but its fall.
    """
    return 4 * -(-n // 2) if d == n else 4 * (d - n) + 4 * (n // 2)


def _low_tuppi(n: int, d: int, *, level: bool) -> int:
    """The least totals (together) of a sheet of ``d`` deals ended by tuppi: a tuppi penalty or forfeit in
    a running match (awaiting the deciding deal only with ``level`` totals), a rise reaching 52, or a
    tuppi deciding deal (same reasoning as ``_low_at_table``)."""
    def block(deals: int) -> int:  # rises that fell before deal N: half the deals add 4, half fall
        return 4 * -(-deals // 2)

    lows = []
    if d < n:
        lows.append(block(d))
    for last in range(max(0, d - n + 1), min(d, _PLAYED_OUT + 1) + 1):  # deals of the last rise
        if last <= _PLAYED_OUT:  # a rise still running
            lows.append(4 * max(1, last) + block(d - last))
        lows.append(max(TUPPI, 4 * last) + block(d - last))  # the rise that reached tuppi
    if d >= n:
        lows.append(_low_at_table(n, d) + TUPPI)  # a 52-point penalty decides
        if level:
            lows.append(_low_at_table(n, d))
    if d >= n + 1:
        lows.append(_low_at_table(n, d - 1) + max(_DEAL_SCORES))  # a nälsytuppi decides
    return min(lows)


def _explain_at_table(ta: int, tb: int, n: int, d: int, budget: int, what: str) -> ScoringError | None:
    """The first bound a sheet that ended at the table after deal N (``_at_table_after_n``) breaks."""
    totals = f"{ta}–{tb}"
    if d > n + _PLAYED_OUT:
        return ScoringError(
            "paper_too_many_deals",
            f"{d} deals {what} in a match of {n}: a rise running at deal {n} stays below 52 and each deal it "
            f"survives adds at least 4, so it holds at most {_PLAYED_OUT} deals, and falls at deal "
            f"{n + _PLAYED_OUT} at the latest",
            deals_played=d, deals_planned=n, limit=n + _PLAYED_OUT,
        )
    if d > n and max(ta, tb) < 4 * (d - n):
        return ScoringError(
            "paper_played_out_rise_too_small",
            f"{d} deals {what} in a match of {n}: the deals after deal {n} were played because the rise "
            f"running at deal {n} went on, so it reached at least {4 * (d - n)} (each deal it survives adds "
            f"at least 4), but the higher total is {max(ta, tb)}",
            deals_played=d, deals_planned=n, extra=d - n, minimum=4 * (d - n), higher=max(ta, tb),
        )
    low = _low_at_table(n, d)
    if ta + tb < low:
        return ScoringError(
            "paper_totals_too_low",
            f"totals {totals} {what} after {d} deals (of {n}) are too low: each deal adds at least 4 to a "
            f"rise or makes one fall, and only a rise can fall, so they add up to at least {low}",
            total_a=ta, total_b=tb, deals_played=d, deals_planned=n, minimum=low,
        )
    # Each rise needs a win and a fall; the rises but the last fell before deal N; with d > N the last
    # one holds d − N + 1 deals or more. So 2(k − 1) wins fit in the N − 1 deals before it and the penalties.
    most = (budget + d) // 2 if d == n else (budget + n + 1) // 2
    needed = _rises(ta) + _rises(tb)
    if needed > most:
        return ScoringError(
            "paper_total_too_high",
            f"totals {totals} {what} after {d} deals (of {n}) are too high: a rise that does not end in tuppi "
            f"stays below 52, so they need at least {needed} rises, each won and lost again; {d} deals and "
            f"at most {budget} points penalties allow at most {most} rises, at most {_RISE_MAX * most} points",
            total_a=ta, total_b=tb, deals_played=d, deals_planned=n, rises_needed=needed,
            rises_max=most, points_max=_RISE_MAX * most, penalties_max=budget,
        )
    return None


def _unreachable(ta: int, tb: int, n: int, d: int, how: str) -> ScoringError:
    return ScoringError(
        "paper_result_unreachable",
        f"no scoresheet of {n} planned deals ends {ta}–{tb} after {d} deals{how}: each bound holds on "
        "its own, but the totals cannot be split into rises that fit the deals played",
        total_a=ta, total_b=tb, deals_played=d, deals_planned=n,
    )


def _check_deciding(
    totals: ByPair, winner: Pair, n: int, d: int, *, tuppi: bool
) -> ScoringError | None:
    """None if a sheet of ``d`` deals can end with ``winner`` winning the deciding deal (by tuppi with
    ``tuppi``); otherwise the first bound it breaks."""
    budget = _penalty_budget(d)
    total_w, total_l = totals[winner], totals[winner.other]
    p = _deciding(total_w, total_l, n, d, tuppi=tuppi)
    if p is not None and p <= budget:
        return None
    if d < n:
        return ScoringError(
            "paper_deciding_deal_too_early",
            f"a deciding deal comes only after the {n} planned deals, but {d} were played",
            deals_played=d, deals_planned=n,
        )
    if d > n + _PLAYED_OUT + 1:
        return ScoringError(
            "paper_deciding_deal_too_late",
            f"a deciding deal after {d} deals in a match of {n}: the rise running at deal {n} stays below "
            f"52, holds at most {_PLAYED_OUT} deals and falls at deal {n + _PLAYED_OUT} at the latest, so the "
            f"deciding deal is deal {n + _PLAYED_OUT + 1} at the latest",
            deals_played=d, deals_planned=n, limit=n + _PLAYED_OUT + 1,
        )
    deal_scores, penalty_scores = _decider_scores(tuppi)
    margin = total_w - total_l
    possible = (deal_scores if d >= n + 1 else frozenset()) | (
        penalty_scores if d <= n + _PLAYED_OUT else frozenset()
    )
    if margin not in possible:
        kind = "ends in tuppi: a nälsytuppi (56) or a 52 or 56 penalty" if tuppi else "scores 4 to 48"
        return ScoringError(
            "paper_deciding_deal_impossible",
            f"the totals were level before the deciding deal and its points go to its winner, so pair "
            f"{winner}'s {total_w} minus the deciding deal's points must be pair {winner.other}'s "
            f"{total_l}; a deciding deal that {kind} after {d} deals (of {n}) cannot give {margin}",
            deciding_winner=str(winner), total_a=totals.a, total_b=totals.b, margin=margin,
            deals_played=d, deals_planned=n,
        )
    # The level totals before it: after d − 1 deals if it was a deal, after d if it was a penalty.
    variants = []
    if margin in deal_scores and d >= n + 1:
        variants.append((d - 1, budget))
    if margin in penalty_scores and d <= n + _PLAYED_OUT:
        variants.append((d, budget - 1))
    causes = [(d_level, _explain_at_table(total_l, total_l, n, d_level, b, "before the deciding deal"))
              for d_level, b in variants]
    if any(cause is None for _, cause in causes):
        return _unreachable(totals.a, totals.b, n, d, f" with pair {winner} winning the deciding deal")
    d_level, cause = causes[0]
    return ScoringError(
        "paper_deciding_level_impossible",
        f"before the deciding deal the totals were level at {total_l}–{total_l} after {d_level} deals, "
        f"which no scoresheet gives: {cause.message}",
        level=total_l, deals_before=d_level, deals_played=d, deals_planned=n, cause=cause,
    )


def _check_points_win(totals: ByPair, n: int, d: int) -> ScoringError | None:
    """None if a sheet of ``d`` deals can end in a points win with these totals (also one whose deciding
    deal was left unmarked: it gives the same winner and match points); else the first bound broken."""
    budget = _penalty_budget(d)
    p = _at_table_after_n(totals.a, totals.b, n, d)
    if p is not None and p <= budget:
        return None
    if totals.a != totals.b:
        leader = Pair.A if totals.a > totals.b else Pair.B
        q = _deciding(totals[leader], totals[leader.other], n, d, tuppi=False)
        if q is not None and q <= budget:
            return None
        if d == n + _PLAYED_OUT + 1:  # this late only a deciding deal ends a match: say why it cannot
            return _check_deciding(totals, leader, n, d, tuppi=False)
    cause = _explain_at_table(totals.a, totals.b, n, d, budget, "without a deciding deal")
    return cause or _unreachable(totals.a, totals.b, n, d, "")


def _at_table_penalties(k: int, n: int, d: int) -> int:
    """Points penalties that ``k`` rises need at least, by counting, in a sheet of ``d`` ≥ ``n`` deals whose
    last rise fell after deal N: 2k wins; the rises but the last fell before deal N, in at most N − 1
    deals, and the last one holds the other deals (``_explain_at_table``'s rise count, as penalties)."""
    return max(0, 2 * k - d) if d == n else max(0, 2 * k - n - 1)


def _tuppi_wins(totals: ByPair, winner: Pair, n: int, d: int) -> tuple[int, int]:
    """(wins, points penalties) that a tuppi result needs at least, by counting: every rise below 52 is won
    and, all but the last, lost again while deal N is not yet played; the last rise (still running, or
    the tuppi one, up to 104 and two wins above 56) takes the later deals. After deal N a match awaiting
    its deciding deal (level totals) and a tuppi deciding deal (52 or 56 more) count as
    ``_at_table_penalties`` says."""
    total_w, total_l = totals[winner], totals[winner.other]
    options = []  # (wins of the rises that fell, wins of the last rise)
    k = _rises(total_w) + _rises(total_l)
    if d < n:
        options.append((2 * k, 0))  # at the table
    if k:
        options.append((2 * (k - 1), 1))  # a rise running
    for value in range(TUPPI, min(total_w, _TUPPI_RISE_MAX) + 1, 4):
        options.append((2 * (_rises(total_w - value) + _rises(total_l)), 1 if value <= _PENALTY_MAX else 2))
    best: tuple[int, int] | None = None

    def consider(wins: int, penalties: int) -> None:
        nonlocal best
        if best is None or penalties < best[1]:
            best = (wins, penalties)

    for fell, last in options:
        for d1 in range(max(0, d - _PLAYED_OUT - 1), min(d, n - 1) + 1):
            consider(fell + last, max(0, fell - d1) + max(0, last - (d - d1)))
    level = 2 * _rises(total_l)
    if d >= n and total_w == total_l:
        consider(level, _at_table_penalties(level, n, d))
    if d >= n and total_w - total_l in (TUPPI, _PENALTY_MAX):
        consider(level + 1, _at_table_penalties(level, n, d) + 1)
    if d >= n + 1 and total_w - total_l == max(_DEAL_SCORES):
        consider(level + 1, _at_table_penalties(level, n, d - 1))
    return best if best is not None else (0, 0)


def _check_tuppi(totals: ByPair, winner: Pair, n: int, d: int) -> ScoringError | None:
    """None if a sheet of ``d`` deals can end with ``winner`` winning by tuppi (a rise of 52, a tuppi
    penalty or the opponents' forfeit, also in a deciding deal); else the first bound broken."""
    budget = _penalty_budget(d)
    ta, tb = totals.a, totals.b
    running = _running(ta, tb, n, d)
    for p in (
        running,
        _tuppi_rise(ta, tb, winner, n, d),
        _deciding(totals[winner], totals[winner.other], n, d, tuppi=True),
    ):
        if p is not None and p <= budget:
            return None
    if d > n + _PLAYED_OUT + 1:
        return ScoringError(
            "paper_too_many_deals",
            f"{d} deals in a match of {n}: a rise running at deal {n} stays below 52 and each deal it "
            f"survives adds at least 4, so it falls or reaches tuppi by deal {n + _PLAYED_OUT}, and a "
            f"deciding deal is deal {n + _PLAYED_OUT + 1} at the latest",
            deals_played=d, deals_planned=n, limit=n + _PLAYED_OUT + 1,
        )
    low = _low_tuppi(n, d, level=ta == tb)
    if ta + tb < low:
        return ScoringError(
            "paper_totals_too_low",
            f"totals {ta}–{tb} after {d} deals (of {n}) are too low for a tuppi: each deal adds at least 4 "
            f"to a rise or makes one fall, and only a rise can fall"
            + (f"; deals after deal {n} are in one rise" if d > n else "")
            + f", so they add up to at least {low}",
            total_a=ta, total_b=tb, deals_played=d, deals_planned=n, minimum=low,
        )
    total_w = totals[winner]
    if d == n + _PLAYED_OUT + 1:  # only a nälsytuppi deciding deal ends a match this late
        return _check_deciding(totals, winner, n, d, tuppi=True)
    wins, penalties = _tuppi_wins(totals, winner, n, d)
    if penalties > budget:
        return ScoringError(
            "paper_tuppi_total_too_high",
            f"totals {ta}–{tb} after {d} deals (of {n}) are too high: a rise stays below 52 unless it is "
            f"the tuppi (at most {_TUPPI_RISE_MAX}, two wins above 56), and every rise is won and, but the "
            f"last, lost again before deal {n}, so they need at least {wins} deals or penalties won, at "
            f"least {penalties} of them points penalties; at most {budget} go with {d} deals",
            total_a=ta, total_b=tb, deals_played=d, deals_planned=n, wins_needed=wins,
            penalties_needed=penalties, penalties_max=budget,
        )
    if (running is None or running > budget) and total_w < TUPPI:
        return ScoringError(
            "paper_tuppi_needs_rise",
            f"a tuppi penalty or forfeit ends only a running match, and none is running after {d} deals "
            f"(of {n}) with totals {ta}–{tb}; so pair {winner}'s tuppi was a rise of 52 or more, but its "
            f"total is {total_w}",
            pair=str(winner), total=total_w, total_a=ta, total_b=tb, deals_played=d, deals_planned=n,
        )
    return _unreachable(ta, tb, n, d, f" with pair {winner} winning by tuppi")


