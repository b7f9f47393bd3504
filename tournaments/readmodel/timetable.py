"""The event day's clock over the snapshot (issue #19): each round's estimated start, and the late-forfeit
deadline of each match not yet started.

The estimates come from the pure core ``scoring.timetable``, given the event's day starts and minutes per
deal and each match's planned deals, deals on its sheet and result time (``Match.finished_at``). They are
computed once per results version with the snapshot (``EventSnapshot.timetable``), from the results
alone: the snapshot is cached per version and knows no clock.

**The clock (issue #25.5).** An estimate in the past is no estimate: a page moves the snapshot's
timetable to the minute it is shown at (:func:`on_clock`, given :func:`minute_now`), so a round still
being played past its expected end pushes the rounds after it to "now + what is left", and a round that
has begun shows as under way rather than with a start in the past. Every page and the JSON API take the
time as an explicit argument at page level, and name the moved times in their ETags: an answer changes
when a result comes in or when the clock moves an estimate it shows, at most once a minute.

**Decision (days).** The Saturday groups (or a team competition's rounds) start on the event's first day
at its play start (11.15 by default); the Sunday groups on the second day (the last day, for a one-day
event) at the Sunday play start (9.00), and the placement matches follow the Sunday groups. A day's first
round never starts before its planned time, nor before the previous day's last match finishes.

**Decision (the late-forfeit deadline).** The general rules: a player more than 15 minutes late from the
announced time has forfeited with their pair ("klo 11.30 voi myöhästyneen pelaajan katsoa
luovuttaneen"). A match's deadline is 15 minutes after its round's start: for a day's first round the
day's play start (11.15 → 11.30, Sunday 9.00 → 9.15); for a later round its estimated start once every
match of the round before it has finished (its planned time or the last result's time, whichever is
later). Until then the round's start is not known and no deadline runs.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field

from django.utils import timezone

from scoring import timetable as core
from tournaments.models import Match, Stage

LATE_MINUTES = 15
# The days: which stages run in one chain of rounds, from which of the event's play starts.
DAYS = (
    ("saturday", (Stage.SATURDAY, Stage.TEAM)),
    ("sunday", (Stage.SUNDAY, Stage.PLACEMENT)),
)


@dataclass(frozen=True)
class RoundTimeView:
    """One round's times as the pages and the API show them."""

    stage: str
    round: int
    planned: dt.datetime
    estimated: dt.datetime
    ends: dt.datetime
    finished: bool
    first_of_day: bool
    started: bool = False  # (moved to a clock) the round has begun: its start is no longer an estimate
    # the core's own record of the round, which the clock moves (not part of what a page shows)
    basis: core.RoundTime | None = field(default=None, repr=False, compare=False)

    @property
    def delay_minutes(self) -> int:
        """How many minutes later than planned the round is expected to start."""
        return int((self.estimated - self.planned).total_seconds() // 60)

    @property
    def behind(self) -> bool:
        """Five minutes or more behind the plan: worth saying on a page."""
        return self.delay_minutes >= 5


def day_starts(info) -> dict[str, dt.datetime]:
    """The planned play start of each day as aware datetimes in the site's time zone."""
    tz = timezone.get_default_timezone()
    second_day = min(info.starts_on + dt.timedelta(days=1), max(info.ends_on, info.starts_on))
    return {
        "saturday": timezone.make_aware(dt.datetime.combine(info.starts_on, info.play_time), tz),
        "sunday": timezone.make_aware(dt.datetime.combine(second_day, info.sunday_play_time), tz),
    }


def event_timetable(info, matches) -> tuple[RoundTimeView, ...]:
    """Every round of the event with its planned and estimated start, days in order (see the module text).

    ``info`` has the event's dates, play starts and minutes per deal; ``matches`` have ``stage``,
    ``round``, ``deals_planned``, ``outcome`` and ``finished_at``. Annulled matches are not played and
    take no time."""
    starts = day_starts(info)
    rounds: list[core.PlannedRound] = []
    for day, stages in DAYS:
        by_round: dict[tuple[str, int], list[core.PlannedMatch]] = {}
        for stage in stages:
            for m in sorted((m for m in matches if m.stage == stage), key=lambda m: m.round):
                if m.outcome.status == Match.Status.ANNULLED:
                    continue
                finished = m.outcome.finished
                by_round.setdefault((stage, m.round), []).append(
                    core.PlannedMatch(
                        m.deals_planned, m.finished_at if finished else None,
                        finished=finished and m.finished_at is None, deals_played=m.outcome.deals_played,
                    )
                )
        for i, (key, planned) in enumerate(by_round.items()):
            rounds.append(core.PlannedRound(key, tuple(planned), starts[day] if i == 0 else None))
    return tuple(_view(t) for t in core.timetable(rounds, minutes_per_deal=info.minutes_per_deal))


def _view(t: core.RoundTime) -> RoundTimeView:
    return RoundTimeView(t.key[0], t.key[1], t.planned, t.estimated, t.ends, t.finished, t.first_of_day,
                         t.started, t)


# --- the clock ------------------------------------------------------------------------------------------


def minute_now() -> dt.datetime:
    """The time the pages show the timetable at: now, down to the whole minute (an estimate names a
    minute, and a page's ETag then moves at most once a minute)."""
    return timezone.localtime(timezone.now()).replace(second=0, microsecond=0)


def on_clock(times: tuple[RoundTimeView, ...], now: dt.datetime | None) -> tuple[RoundTimeView, ...]:
    """The snapshot's timetable (``EventSnapshot.timetable``) moved to ``now`` (see the module text);
    None: as the results alone give it."""
    if now is None or not times or any(t.basis is None for t in times):  # (a snapshot cached before #25)
        return tuple(times)
    return tuple(_view(t) for t in core.follow_clock([t.basis for t in times], now))


def round_time(times, stage: str, number: int, now: dt.datetime | None = None) -> RoundTimeView | None:
    """One round's times in a timetable, moved to ``now`` (None: no such round)."""
    return next((t for t in on_clock(times, now) if t.stage == stage and t.round == number), None)


def round_times(times, stage: str, now: dt.datetime | None = None) -> dict[int, RoundTimeView]:
    """Round number → its times at ``now``, for one stage (a template looks a round up with ``get_item``)."""
    return {t.round: t for t in on_clock(times, now) if t.stage == stage}


# --- the late-forfeit deadline --------------------------------------------------------------------------


@dataclass(frozen=True)
class LateWatch:
    """A match not yet started whose round has begun: its deadline and the minutes left until it."""

    match: object  # a readmodel.MatchView
    deadline: dt.datetime
    minutes_left: int

    @property
    def overdue(self) -> bool:
        """The deadline has passed: the absent pair may be given a forfeit."""
        return self.minutes_left == 0


def round_deadlines(snap) -> dict[tuple[str, int], tuple[dt.datetime, dt.datetime]]:
    """(stage, round) → (the round's start, its late-forfeit deadline), for the rounds whose start is known."""
    out = {}
    previous = None
    for t in snap.timetable:
        if t.first_of_day or (previous is not None and previous.finished):
            out[(t.stage, t.round)] = (t.estimated, t.estimated + dt.timedelta(minutes=LATE_MINUTES))
        previous = t
    return out


def deadline_of(snap, match_id: int) -> dt.datetime | None:
    """The late-forfeit deadline of one match (None: its round's start is not known yet)."""
    m = snap.match(match_id)
    if m is None:
        return None
    found = round_deadlines(snap).get((m.stage, m.round))
    return None if found is None else found[1]


def late_watch(snap, now: dt.datetime) -> list[LateWatch]:
    """The matches not yet started in rounds that have begun (from the play start on), each with the
    minutes left until its deadline (0 once it has passed), by stage, round and table."""
    deadlines = round_deadlines(snap)
    out = []
    for m in snap.matches:
        found = deadlines.get((m.stage, m.round))
        if found is None or m.outcome.status != Match.Status.SCHEDULED:
            continue
        start, deadline = found
        if now < start:
            continue
        left = max(0, math.ceil((deadline - now).total_seconds() / 60))
        out.append(LateWatch(m, deadline, left))
    return out
