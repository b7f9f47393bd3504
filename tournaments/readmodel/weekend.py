"""A pair's weekend as its page shows it, and the small derivations the public pages share: rest rounds
(*lepovuoro*: an odd-sized group rests one pair a round), resting pairs of a round, place labels with
shared places ("5.–8.") and the names of placement matches.

Pure functions over an event's snapshot (``tournaments.readmodel.snapshot``): no database, no cache. The round
times they show are the snapshot's timetable moved to the ``now`` the page gives (``tournaments.readmodel.timetable``,
issue #25.5): no clock is read here.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from tournaments.models import Match, Stage
from tournaments.readmodel import timetable as day_clock
from tournaments.readmodel import values

OPEN = (Match.Status.SCHEDULED, Match.Status.PLAYING)


def rank_labels(ranks: Sequence[int]) -> list[str]:
    """Places as shown: "5.", or "5.–8." for a place four pairs share (RULES.md §5, places 17 and on)."""
    sizes = Counter(ranks)
    return [f"{r}." if sizes[r] == 1 else f"{r}.–{r + sizes[r] - 1}." for r in ranks]


def labelled_places(places: Sequence[tuple[int, object]]) -> list[tuple[str, int, object]]:
    """(label, place, pair) for a list of (place, pair)."""
    return [(label, place, pair) for label, (place, pair) in zip(rank_labels([p for p, _ in places]), places,
                                                                   strict=True)]


def pair_place(snap: values.EventSnapshot, pair_id: int) -> str | None:
    """The pair's final place as shown ("5." or "17.–18."), once the placements or the final places fix it."""
    if snap.final_places is not None:
        for label, _place, pid in labelled_places(list(snap.final_places)):
            if pid == pair_id:
                return label
        return None
    place = snap.top_places.get(pair_id)
    return None if place is None else f"{place}."


# --- rest rounds ------------------------------------------------------------------------------------


def pair_times(snap: values.EventSnapshot, matches: Sequence[values.MatchView],
               now: dt.datetime | None = None) -> tuple:
    """The estimated starts of the rounds of ``matches`` at ``now`` (the pair's: its page shows them, so
    they are part of its fingerprint), and of the round being played in their stages (whether it is under
    way says whether a resting pair rests now)."""
    rounds = {(m.stage, m.round) for m in matches}
    rounds |= {(stage, snap.current_round(stage)) for stage in {m.stage for m in matches}}
    return tuple(t for t in day_clock.on_clock(snap.timetable, now) if (t.stage, t.round) in rounds)


def rest_rounds(matches: Sequence[values.MatchView], pair_id: int) -> list[int]:
    """The rounds of a group (its matches) in which the pair has no match: its rest rounds."""
    mine = {m.round for m in matches if pair_id in (m.pair_a_id, m.pair_b_id)}
    return sorted({m.round for m in matches} - mine)


def resting_pairs(snap: values.EventSnapshot, stage: str, round_number: int) -> list[tuple[object, list]]:
    """(group, [pairs]) resting in a round: pairs of a group playing that round that have no match in it.
    A group with no match in the round (a smaller group already done) rests nobody; withdrawn pairs are
    left out."""
    matches = snap.matches_of(stage, round_number)
    out = []
    for group in snap.stage_groups(stage):
        playing = {p for m in matches if m.group_id == group.pk for p in (m.pair_a_id, m.pair_b_id)}
        if not playing:
            continue
        rest = [p for p in group.pairs if p.pk not in playing and p.active]
        if rest:
            out.append((group, rest))
    return out


# --- a match's place in the weekend ----------------------------------------------------------------


def tier_range(tier: int, placement_round: str) -> str:
    """The places a placement match decides: a tier's semifinal 1.–4., its final 1.–2., its third 3.–4."""
    first = 4 * (tier - 1) + 1
    if placement_round == "semi":
        return f"{first}.–{first + 3}."
    if placement_round == "final":
        return f"{first}.–{first + 1}."
    return f"{first + 2}.–{first + 3}."


def placement_title(m: values.MatchView) -> str:
    places = tier_range(m.tier or 1, m.placement_round)
    if m.placement_round == "semi":
        return _("välierä, sijat %(places)s") % {"places": places}
    if m.placement_round == "final":
        return _("loppuottelu, sijat %(places)s") % {"places": places}
    return _("pronssiottelu, sijat %(places)s") % {"places": places}


def placement_labels(matches) -> dict[int, str]:
    """What a placement match is called where another match says "kierros 1" (the match page, the
    scoresheet): "Välierä, sijat 1.–4." (``tournaments.extensions.register_match_labels``)."""
    return {m.pk: capfirst(placement_title(m)) for m in matches}


def where(m: values.MatchView) -> str:
    """Where a match stands in the weekend, as the pair page says it: "Lohko A, kierros 3"."""
    if m.stage == Stage.PLACEMENT:
        return _("Sijoitusottelu: %(what)s") % {"what": placement_title(m)}
    if m.stage == Stage.SUNDAY and m.group is not None:
        return _("Sunnuntain lohko %(name)s, kierros %(round)s") % {"name": m.group.name, "round": m.round}
    if m.group is not None:
        return _("%(group)s, kierros %(round)s") % {"group": str(m.group), "round": m.round}
    return _("kierros %(round)s") % {"round": m.round}


# --- the pair's weekend -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Bye:
    """A rest round of the pair in its group's list of matches."""

    round: int
    bye: bool = True


@dataclass
class Part:
    """The pair in one group stage: its group, table row, outlook and matches with its rest rounds."""

    stage: str
    group: object  # values.GroupView
    table: object  # results.GroupTable
    row: object | None
    outlook: object | None  # outlook.PairOutlook
    items: list = field(default_factory=list)  # MatchView or Bye, by round
    matches: list = field(default_factory=list)
    times: dict = field(default_factory=dict)  # round → timetable.RoundTimeView (its estimated start)

    @property
    def provisional(self) -> bool:
        return not self.table.finished or self.table.under_appeal

    @property
    def title(self) -> str:
        if self.stage == Stage.SUNDAY:
            return _("Sunnuntain lohko %(name)s") % {"name": self.group.name}
        return str(self.group)


def part(snap: values.EventSnapshot, pair, stage: str, outlook_of=None, times=None) -> Part | None:
    """The pair in one group stage; ``times``: the timetable its rounds' estimates come from (default the
    snapshot's, without the clock)."""
    group = snap.pair_group(pair.pk, stage)
    if group is None:
        return None
    table = snap.table(group.pk)
    matches = [m for m in table.matches if pair.pk in (m.pair_a_id, m.pair_b_id)]
    items: list = list(matches)
    if pair.active:
        items += [Bye(r) for r in rest_rounds(table.matches, pair.pk)]
    items.sort(key=lambda x: (x.round, 0 if isinstance(x, Bye) else x.table))
    found = outlook_of(snap, table).of(pair.pk) if outlook_of is not None else None
    times = snap.timetable if times is None else times
    return Part(stage, group, table, table.row_of(pair.pk), found, items, matches, day_clock.round_times(times, stage))


def weekend(snap: values.EventSnapshot, pair, outlook_of=None, now: dt.datetime | None = None) -> dict:
    """Everything the pair page shows: the Saturday and Sunday parts, the placement matches, the next
    match (the first not finished, Saturday, then Sunday, then placement) with the rest rounds before it
    (``resting_now``: the round being played is one of them), what the pair waits for when no match of
    its is scheduled yet, and its final place. Round times are estimated at ``now``."""
    times = day_clock.on_clock(snap.timetable, now)
    saturday = part(snap, pair, Stage.SATURDAY, outlook_of, times)
    sunday = part(snap, pair, Stage.SUNDAY, outlook_of, times)
    placements = [m for m in snap.placements if pair.pk in (m.pair_a_id, m.pair_b_id)]
    ordered = (saturday.matches if saturday else []) + (sunday.matches if sunday else []) + placements
    upcoming = [m for m in ordered if m.outcome.status in OPEN]
    next_match = upcoming[0] if upcoming and pair.active else None
    rests: list[int] = []
    current = None
    if next_match is not None and next_match.group is not None:
        current = snap.current_round(next_match.stage) or next_match.round
        group_part = saturday if next_match.stage == Stage.SATURDAY else sunday
        rests = [r for r in rest_rounds(group_part.table.matches, pair.pk) if current <= r < next_match.round]
    place = pair_place(snap, pair.pk)
    waiting = None
    if next_match is None and place is None and pair.active:
        waiting = _waiting(snap, pair, saturday, sunday, placements)
    return {
        "saturday": saturday, "sunday": sunday, "parts": [p for p in (sunday, saturday) if p is not None],
        "placements": [(m, placement_title(m)) for m in placements], "next_match": next_match,
        "next_where": where(next_match) if next_match else "", "rests": rests, "waiting": waiting,
        "resting_now": bool(rests) and rests[0] == current and _under_way(times, next_match.stage, current, now),
        "next_time": day_clock.round_time(times, next_match.stage, next_match.round) if next_match else None,
        "place": place, "complete": snap.complete, "played_all": bool(ordered) and not upcoming,
    }


def _under_way(times, stage: str, number: int | None, now: dt.datetime | None) -> bool:
    """Is the round being played at ``now``? (Without a clock, the current round is taken to be.) A pair
    resting in round 1 the evening before the event rests "next", not "now"."""
    found = day_clock.round_time(times, stage, number) if number is not None else None
    return now is None or (found is not None and found.started)


def _waiting(snap, pair, saturday: Part | None, sunday: Part | None, placements) -> str | None:
    """What comes next for a pair with no match scheduled: the Sunday group, a placement match."""
    if placements:
        last = placements[-1]
        if last.placement_round == "semi" and last.outcome.finished and last.outcome.winner is not None:
            other = 2 if last.slot == 1 else 1
            won = last.outcome.winner == pair.pk
            round_name = "final" if won else "third"
            places = tier_range(last.tier, round_name)
            if won:
                return _("Seuraavaksi loppuottelu (sijat %(places)s): vastustaja on välierän %(n)s voittaja.") % {
                    "places": places, "n": other}
            return _("Seuraavaksi pronssiottelu (sijat %(places)s): vastustaja on välierän %(n)s häviäjä.") % {
                "places": places, "n": other}
        return None
    if sunday is not None:
        if sunday.outlook is not None and sunday.outlook.decided:
            return _("Seuraavaksi välierä (sijat %(places)s): vastustaja selviää, kun kaikki sunnuntain lohkot "
                     "on pelattu.") % {"places": tier_range(sunday.outlook.best, "semi")}
        return _("Seuraavaksi sijoitusottelu: se selviää, kun kaikki sunnuntain lohkot on pelattu.")
    if saturday is not None and saturday.outlook is not None and saturday.outlook.kind == "advance":
        if saturday.outlook.state == "through" and not snap.stage_groups(Stage.SUNDAY):
            return _("Jatkoon sunnuntaihin: sunnuntain lohkot muodostetaan, kun kaikki alkulohkot on pelattu.")
    return None
