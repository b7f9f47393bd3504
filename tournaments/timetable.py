"""The event day's clock over the snapshot (issue #19): each round's estimated start, and the late-forfeit
deadline of each match not yet started.

The estimates come from the pure core ``scoring.timetable``, given the event's day starts and minutes per
deal and each match's planned deals and result time (``Match.finished_at``). They are computed once per
results version with the snapshot (``EventSnapshot.timetable``), so they move when a result comes in,
never with the clock alone: every page and the JSON API show the same figures for one version.

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
from dataclasses import dataclass

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
                        finished=finished and m.finished_at is None,
                    )
                )
        for i, (key, planned) in enumerate(by_round.items()):
            rounds.append(core.PlannedRound(key, tuple(planned), starts[day] if i == 0 else None))
    times = core.timetable(rounds, minutes_per_deal=info.minutes_per_deal)
    return tuple(
        RoundTimeView(t.key[0], t.key[1], t.planned, t.estimated, t.ends, t.finished, t.first_of_day) for t in times
    )


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
