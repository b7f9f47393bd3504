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
:func:`scoring.standings.resolve_level` (steps 2–5); where step 4 is reached,
:func:`~scoring.prospects.totals.totals_orders` decides which orders of the rise totals the model allows
(a small transport problem, see there). The search is iterative deepening on the answer (is place b
reachable? then b + 1 …, from a bound: the pairs certainly above p, plus the rivals whose matches among
themselves must push some of them past p), with the match-point ranges pruning every branch that can no
longer reach the place tried, a memo of search states that cannot do better, and a cache of the
tie-break places of each level set.

The package, by phase: :mod:`~scoring.prospects.outcomes` (the open matches, their six outcomes, the
matches fixed so far), :mod:`~scoring.prospects.search` (the enumeration of the open matches, iterative
deepening and the memo), :mod:`~scoring.prospects.bounds` (the bounds by match points),
:mod:`~scoring.prospects.ties` (the leaf: who ends level with p, the tie-breaks and the recorded play-offs)
and :mod:`~scoring.prospects.totals` (the model of the rise totals).

Cost: the search is exponential in the worst case (the question is a combinatorial one). On this project's
2-core machine (``bench/prospects_speed.py``) a 9-pair group with 8 open matches takes a few milliseconds
typically (random results: median about 5 ms, the slowest of 40 about 60 ms); groups whose results are all
3–2 with near-equal totals, where many-way ties make every match matter, take about 25 ms typically and up
to about 0.2 s; groups of 12–15 pairs with 15–20 open matches, which only one-stage events have, can take
seconds. A caller showing it on a page should cache it per results version.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scoring.errors import ScoringError
from scoring.prospects.outcomes import Group, check_remaining
from scoring.prospects.search import Search
from scoring.standings import PRIMARY_CHOICES, MatchResult, Pair, Playoff, Primary, validate_group

__all__ = ["Advancement", "Prospect", "advancement", "group_prospects", "remaining_round_robin"]

Advancement = Literal["through", "out", "open"]


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
    opens = check_remaining(remaining, tally.pairs, tally.mutual)
    key = tally.match_points if primary == "match_points" else tally.wins
    group = Group(tally.pairs, tally.mutual, key, tally.totals, opens, playoff_sets, primary)
    return tuple(
        Prospect(pair, Search(group, i, "best").run(), Search(group, i, "worst").run())
        for i, pair in enumerate(tally.pairs)
    )


def remaining_round_robin(pairs: Sequence[Pair], results: Iterable[MatchResult]) -> list[tuple[Pair, Pair]]:
    """The matches a round robin still has to play: every two pairs without a finished match between them
    (RULES §4: every pair meets every other pair of its group once), in the order of ``pairs``."""
    played = {frozenset((r.a, r.b)) for r in results}
    pairs = list(pairs)
    return [
        (a, b) for i, a in enumerate(pairs) for b in pairs[i + 1:] if frozenset((a, b)) not in played
    ]
