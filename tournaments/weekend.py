"""A pair's weekend as its page shows it, and the small derivations the public pages share: rest rounds
(*lepovuoro*: an odd-sized group rests one pair a round), resting pairs of a round, place labels with
shared places ("5.–8.") and the names of placement matches.

Pure functions over an event's snapshot (``tournaments.readmodel``): no database, no cache.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournaments import readmodel
from tournaments.models import Match, Stage

OPEN = (Match.Status.SCHEDULED, Match.Status.PLAYING)


def rank_labels(ranks: Sequence[int]) -> list[str]:
    """Places as shown: "5.", or "5.–8." for a place four pairs share (RULES.md §5, places 17 and on)."""
    sizes = Counter(ranks)
    return [f"{r}." if sizes[r] == 1 else f"{r}.–{r + sizes[r] - 1}." for r in ranks]


def labelled_places(places: Sequence[tuple[int, object]]) -> list[tuple[str, int, object]]:
    """(label, place, pair) for a list of (place, pair)."""
    return [(label, place, pair) for label, (place, pair) in zip(rank_labels([p for p, _ in places]), places,
                                                                   strict=True)]


def pair_place(snap: readmodel.EventSnapshot, pair_id: int) -> str | None:
    """The pair's final place as shown ("5." or "17.–18."), once the placements or the final places fix it."""
    if snap.final_places is not None:
        for label, _place, pid in labelled_places(list(snap.final_places)):
            if pid == pair_id:
                return label
        return None
    place = snap.top_places.get(pair_id)
    return None if place is None else f"{place}."


# --- rest rounds ------------------------------------------------------------------------------------


def pair_times(snap: readmodel.EventSnapshot, matches: Sequence[readmodel.MatchView]) -> tuple:
    """The estimated starts of the rounds of ``matches`` (the pair's: its page shows them, so they are part
    of its fingerprint)."""
    rounds = {(m.stage, m.round) for m in matches}
    return tuple(t for t in snap.timetable if (t.stage, t.round) in rounds)


def rest_rounds(matches: Sequence[readmodel.MatchView], pair_id: int) -> list[int]:
    """The rounds of a group (its matches) in which the pair has no match: its rest rounds."""
    mine = {m.round for m in matches if pair_id in (m.pair_a_id, m.pair_b_id)}
    return sorted({m.round for m in matches} - mine)


def resting_pairs(snap: readmodel.EventSnapshot, stage: str, round_number: int) -> list[tuple[object, list]]:
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


def placement_title(m: readmodel.MatchView) -> str:
    places = tier_range(m.tier or 1, m.placement_round)
    if m.placement_round == "semi":
        return _("välierä, sijat %(places)s") % {"places": places}
    if m.placement_round == "final":
        return _("loppuottelu, sijat %(places)s") % {"places": places}
    return _("pronssiottelu, sijat %(places)s") % {"places": places}


def where(m: readmodel.MatchView) -> str:
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
    group: object  # readmodel.GroupView
    table: object  # results.GroupTable
    row: object | None
    outlook: object | None  # outlook.PairOutlook
    items: list = field(default_factory=list)  # MatchView or Bye, by round
    matches: list = field(default_factory=list)
    times: dict = field(default_factory=dict)  # round → timetable.RoundTimeView (its estimated start)

    @property
    def provisional(self) -> bool:
        return not self.table.finished

    @property
    def title(self) -> str:
        if self.stage == Stage.SUNDAY:
            return _("Sunnuntain lohko %(name)s") % {"name": self.group.name}
        return str(self.group)


def part(snap: readmodel.EventSnapshot, pair, stage: str, outlook_of=None) -> Part | None:
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
    return Part(stage, group, table, table.row_of(pair.pk), found, items, matches, snap.round_times(stage))


def weekend(snap: readmodel.EventSnapshot, pair, outlook_of=None) -> dict:
    """Everything the pair page shows: the Saturday and Sunday parts, the placement matches, the next
    match (the first not finished, Saturday, then Sunday, then placement) with the rest rounds before it,
    what the pair waits for when no match of its is scheduled yet, and its final place."""
    saturday = part(snap, pair, Stage.SATURDAY, outlook_of)
    sunday = part(snap, pair, Stage.SUNDAY, outlook_of)
    placements = [m for m in snap.placements if pair.pk in (m.pair_a_id, m.pair_b_id)]
    ordered = (saturday.matches if saturday else []) + (sunday.matches if sunday else []) + placements
    upcoming = [m for m in ordered if m.outcome.status in OPEN]
    next_match = upcoming[0] if upcoming and pair.active else None
    rests: list[int] = []
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
        "next_time": snap.round_time(next_match.stage, next_match.round) if next_match else None,
        "place": place, "complete": snap.complete, "played_all": bool(ordered) and not upcoming,
    }


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
