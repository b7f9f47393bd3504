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
  expected to finish its planned length after its round's estimated start;
* a round never ends before it starts (a result typed in later than the play, e.g. from a paper sheet,
  makes the estimate late rather than out of order): estimates never go backwards from round to round.

So, from the results alone, estimates move only when results come in: with no result at all every
round's estimate is its planned time.

**The clock** (issue #25.5; :func:`follow_clock`, or ``now`` given to :func:`timetable`). An estimate in
the past is no estimate: once ``now`` has passed a match's expected finish and its result is not in,
the match is expected to finish ``now`` plus what it has left, and the rounds after it move on with it:

* what a match has left is the time of the deals not yet on its sheet (``deals_played`` of its planned
  deals) and of the breaks it has still to play past (a break after deal 6 is still to come while its
  sheet has 6 deals); a match with no deal on its sheet (played on paper, or its sheet not begun) is
  taken to be nearly done once its planned length has passed: it has nothing left, and finishes no
  earlier than ``now``;
* a round whose estimated start has come (``now`` is at or past it) and whose previous round has
  finished is ``started``: it is being played, and its start is no longer an estimate.

The clock is an explicit input, in whole minutes as the caller gives it; the same results and the same
``now`` always give the same timetable, and a later ``now`` never makes an estimate earlier.

Pure Python, no clock of its own and no Django.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

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
    expected finish. ``deals_played``: the deals on its sheet so far (what it has left, for the clock)."""

    deals: int
    finished_at: dt.datetime | None = None
    finished: bool = False
    deals_played: int = 0

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
    result (a round without matches counts as finished); ``started`` (only with a clock): its start has
    come and the round before it has finished.

    The last three fields are what the results say of the round's length, whatever its start:
    ``finished_by`` the latest result time of its matches finished with one, ``length`` the longest
    planned length of its matches whose finish follows the round's start (those still to finish and
    those finished without a time), ``left`` the most time any of its matches still to finish has left
    after the deals on its sheet (None: none is still to finish). :func:`follow_clock` needs nothing else."""

    key: Hashable
    planned: dt.datetime
    estimated: dt.datetime
    ends: dt.datetime
    finished: bool
    first_of_day: bool
    started: bool = False
    finished_by: dt.datetime | None = None
    length: dt.timedelta = dt.timedelta(0)
    left: dt.timedelta | None = None

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


def left_minutes(deals: int, deals_played: int, minutes_per_deal: int, *,
                 break_minutes: int = BREAK_MINUTES) -> int:
    """What a match has left after ``deals_played`` of its ``deals``: the deals to go and the breaks still
    ahead (a break after deal 6 is ahead while 6 deals or fewer are on the sheet). A match with no deal
    on its sheet has nothing left: see the module text."""
    _check_count(deals_played, "deals_played", minimum=0)
    if deals_played == 0 or deals_played >= deals:
        return 0
    breaks = sum(1 for after in BREAK_AFTER if deals_played <= after < deals)
    return (deals - deals_played) * minutes_per_deal + breaks * break_minutes


def timetable(
    rounds: Sequence[PlannedRound],
    *,
    minutes_per_deal: int = DEFAULT_MINUTES_PER_DEAL,
    break_minutes: int = BREAK_MINUTES,
    now: dt.datetime | None = None,
) -> tuple[RoundTime, ...]:
    """Each round's planned and estimated start, in the order given (see the module text); with ``now``,
    as the clock has moved it (:func:`follow_clock`).

    The first round needs a fixed start (``starts``). Datetimes must all be aware or all naive, as the
    caller's clock gives them; the core only compares and adds them."""
    _check_count(minutes_per_deal, "minutes_per_deal", minimum=1)
    _check_count(break_minutes, "break_minutes", minimum=0)
    if rounds and rounds[0].starts is None:
        raise ScoringError("no_start", "the first round needs a planned start")
    out: list[RoundTime] = []
    planned_end: dt.datetime | None = None
    for r in rounds:
        lengths = [
            dt.timedelta(minutes=match_minutes(m.deals, minutes_per_deal, break_minutes=break_minutes))
            for m in r.matches
        ]
        planned = r.starts if r.starts is not None else planned_end
        open_ = [m for m in r.matches if not m.done]
        left = [
            dt.timedelta(minutes=left_minutes(m.deals, m.deals_played, minutes_per_deal, break_minutes=break_minutes))
            for m in open_
        ]
        out.append(
            RoundTime(
                key=r.key, planned=planned, estimated=planned, ends=planned,
                finished=not open_, first_of_day=r.starts is not None,
                finished_by=max((m.finished_at for m in r.matches if m.finished_at is not None), default=None),
                length=max((n for m, n in zip(r.matches, lengths, strict=True) if m.finished_at is None),
                           default=dt.timedelta(0)),
                left=max(left, default=None),
            )
        )
        planned_end = planned + max(lengths, default=dt.timedelta(0))
    return follow_clock(out, now)


def follow_clock(times: Sequence[RoundTime], now: dt.datetime | None) -> tuple[RoundTime, ...]:
    """The rounds' estimated starts and ends computed again from their plan and results (the fields of
    :class:`RoundTime`) at ``now`` (None: from the results alone). A caller that keeps a timetable made
    without the clock moves it here to the time it shows it at."""
    out: list[RoundTime] = []
    previous: RoundTime | None = None
    for t in times:
        estimated = t.planned if previous is None else max(t.planned, previous.ends)
        finishes = [estimated, estimated + t.length]
        if t.finished_by is not None:
            finishes.append(t.finished_by)
        if now is not None and t.left is not None:
            finishes.append(now + t.left)
        started = (now is not None and not t.finished and estimated <= now
                   and (previous is None or previous.finished))
        moved = replace(t, estimated=estimated, ends=max(finishes), started=started)
        out.append(moved)
        previous = moved
    return tuple(out)


def _check_count(value: object, name: str, *, minimum: int) -> None:
    if not is_whole(value) or value < minimum:
        raise ScoringError("bad_count", f"{name} must be a whole number of at least {minimum}, not {value!r}",
                           name=name, value=value)
