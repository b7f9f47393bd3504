"""The event day's timetable: when each round is expected to start, following the real progress.

The federation's general rules fix the day starts (Saturday: the group draw at 11.00, play at 11.15;
Sunday: play at 9.00) and give the players two 5-minute breaks in a match, after deals 6 and 12. Nothing
fixes how long a deal takes, so the organiser gives an estimate (minutes per deal).

**The plan.** A day's first round starts at the day's planned start; every later round is planned to
start when the round before it is planned to end. A match is planned to take
``deals × minutes_per_deal`` plus a break after deal 6 and one after deal 12 where play goes on past
them (:func:`match_minutes`); a round lasts as long as its longest match.

**The estimate** follows the results (RULES.md has no timetable; these are the project's Decisions):

* a round starts when the previous round's last match finishes, or at its planned time, whichever is
  later: an early finish never pulls a round before its planned time;
* a finished match finishes when its result came in (``finished_at``); a match still to finish is
  expected to finish its planned length after its round's estimated start (and, when ``now`` is given,
  no earlier than ``now``);
* a round never ends before it starts (a result typed in later than the play, e.g. from a paper sheet,
  makes the estimate late rather than out of order): estimates never go backwards from round to round.

So estimates move only when results come in (or when ``now`` passes an expected finish, for a caller
that gives ``now``): with no result at all every round's estimate is its planned time.

Pure Python, no clock and no Django: the same input always gives the same timetable.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from scoring.errors import ScoringError, is_whole

# The general rules: "two 5-minute breaks during the match, after the 6th and the 12th deal".
BREAK_AFTER = (6, 12)
BREAK_MINUTES = 5
# Decision: a deal takes about five minutes (a 12-deal match about 65 minutes with its break, a 16-deal
# match about 90); the organiser changes it per event.
DEFAULT_MINUTES_PER_DEAL = 5


@dataclass(frozen=True)
class PlannedMatch:
    """One match of a round: its planned deals, and when its result came in (None: not finished).
    ``finished`` without a time (a result older than the times were kept): it counts as finished at its
    expected finish."""

    deals: int
    finished_at: dt.datetime | None = None
    finished: bool = False

    @property
    def done(self) -> bool:
        return self.finished or self.finished_at is not None


@dataclass(frozen=True)
class PlannedRound:
    """A round in playing order. ``starts``: the round's fixed planned start (a day's first round);
    None: planned to start when the round before it is planned to end."""

    key: Hashable
    matches: tuple[PlannedMatch, ...]
    starts: dt.datetime | None = None


@dataclass(frozen=True)
class RoundTime:
    """A round's planned and estimated start and its estimated end; ``finished``: every match has its
    result (a round without matches counts as finished)."""

    key: Hashable
    planned: dt.datetime
    estimated: dt.datetime
    ends: dt.datetime
    finished: bool
    first_of_day: bool

    @property
    def delay(self) -> dt.timedelta:
        """How much later than planned the round is expected to start (never negative)."""
        return self.estimated - self.planned


def match_minutes(deals: int, minutes_per_deal: int, *, break_minutes: int = BREAK_MINUTES) -> int:
    """A match's planned length in minutes: its deals and the breaks it plays past (after deals 6 and 12;
    a 12-deal match has one break, a 16-deal match two)."""
    _check_count(deals, "deals", minimum=0)
    _check_count(minutes_per_deal, "minutes_per_deal", minimum=1)
    _check_count(break_minutes, "break_minutes", minimum=0)
    breaks = sum(1 for after in BREAK_AFTER if deals > after)
    return deals * minutes_per_deal + breaks * break_minutes


def timetable(
    rounds: Sequence[PlannedRound],
    *,
    minutes_per_deal: int = DEFAULT_MINUTES_PER_DEAL,
    break_minutes: int = BREAK_MINUTES,
    now: dt.datetime | None = None,
) -> tuple[RoundTime, ...]:
    """Each round's planned and estimated start, in the order given (see the module text).

    The first round needs a fixed start (``starts``). Datetimes must all be aware or all naive, as the
    caller's clock gives them; the core only compares and adds them."""
    _check_count(minutes_per_deal, "minutes_per_deal", minimum=1)
    _check_count(break_minutes, "break_minutes", minimum=0)
    if rounds and rounds[0].starts is None:
        raise ScoringError("no_start", "the first round needs a planned start")
    out: list[RoundTime] = []
    planned_end: dt.datetime | None = None
    estimated_end: dt.datetime | None = None
    for r in rounds:
        lengths = [
            dt.timedelta(minutes=match_minutes(m.deals, minutes_per_deal, break_minutes=break_minutes))
            for m in r.matches
        ]
        longest = max(lengths, default=dt.timedelta(0))
        planned = r.starts if r.starts is not None else planned_end
        estimated = planned if estimated_end is None else max(planned, estimated_end)
        finishes = []
        for m, length in zip(r.matches, lengths, strict=True):
            expected = estimated + length
            if m.finished_at is not None:
                finishes.append(m.finished_at)
            elif m.finished:
                finishes.append(expected)
            else:
                finishes.append(expected if now is None else max(expected, now))
        ends = max([estimated, *finishes])
        out.append(
            RoundTime(
                key=r.key, planned=planned, estimated=estimated, ends=ends,
                finished=all(m.done for m in r.matches), first_of_day=r.starts is not None,
            )
        )
        planned_end, estimated_end = planned + longest, ends
    return tuple(out)


def _check_count(value: object, name: str, *, minimum: int) -> None:
    if not is_whole(value) or value < minimum:
        raise ScoringError("bad_count", f"{name} must be a whole number of at least {minimum}, not {value!r}",
                           name=name, value=value)
