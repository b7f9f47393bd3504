"""The hall screen (issue #18.7): a kiosk page for a projector or a TV that shows, one panel after another,
the current round's tables and every group's standings (with who is through), the Sunday chart as far as
Saturday has decided it, then the placement bracket and the final places. This module cuts the event's
snapshot into panels that each fit one screen, and gives the order they are shown in (:func:`rotation`:
the current round's tables come back between the other panels); ``static/js/hall.js`` shows them in turn
and the live part refreshes like every public page's. Round times are the timetable moved to the ``now``
the page gives (``tournaments.readmodel.timetable.on_clock``).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournaments.models import Stage
from tournaments.readmodel import outlook, values
from tournaments.readmodel import timetable as day_clock
from tournaments.readmodel.weekend import labelled_places

TABLES_PER_PANEL = 12  # two columns of six
ROWS_PER_PANEL = 10  # a group's standings; a larger group (one-stage events) goes on in a second panel
PLACES_PER_PANEL = 16  # two columns of eight
TIERS_PER_PANEL = 2  # the placement bracket: two tiers side by side, names whole
# Decision (issue #25.10): the current round's tables come back at least every 30 seconds at the screen's
# 10 seconds a panel: between two showings of the tables at most this many seconds of other panels.
TABLES_EVERY = 30
SECONDS_PER_PANEL = 10


@dataclass
class Panel:
    key: str  # stable while the panel shows the same thing: the screen stays on it across refreshes
    kind: str  # "tables", "group", "chart", "bracket", "places", "empty"
    title: str
    items: list = field(default_factory=list)
    table: object = None  # "group": results.GroupTable
    outlook: object = None  # "group": outlook.GroupOutlook
    note: str = ""
    number: int = 0
    count: int = 0
    round_time: object = None  # "tables": the round's estimated start (timetable.RoundTimeView)
    next_time: object = None  # "tables", once the round is under way: the next round's estimated start


def balanced(items: list, most: int) -> list[list]:
    """``items`` in as few panels of at most ``most`` as will do, the panels as even as can be (16 tables:
    8 and 8, not 12 and 4)."""
    if not items:
        return []
    count = -(-len(items) // most)
    size = -(-len(items) // count)
    return [items[i:i + size] for i in range(0, len(items), size)]


def now_stage(snap: values.EventSnapshot) -> str | None:
    """The stage being played: the first with a match still to finish (None: nothing is in play)."""
    for stage in (Stage.SATURDAY, Stage.SUNDAY, Stage.PLACEMENT):
        if snap.current_round(stage) is not None:
            return stage
    return None


def round_title(stage: str, number: int) -> str:
    if stage == Stage.PLACEMENT:
        return _("Sijoitusottelut: välierät") if number == 1 else _("Sijoitusottelut: loppu- ja pronssiottelut")
    if stage == Stage.SUNDAY:
        return _("Sunnuntain lohkot, kierros %(n)s") % {"n": number}
    return _("Kierros %(n)s") % {"n": number}


def shown_times(snap: values.EventSnapshot, now: dt.datetime | None = None) -> tuple:
    """The round times the screen shows at ``now``: the current round's and, once it is under way, the
    next round's (None where there is none). Part of the screen's fingerprint."""
    stage = now_stage(snap)
    if stage is None:
        return (None, None)
    times = day_clock.on_clock(snap.timetable, now)
    number = snap.current_round(stage)
    index = next((i for i, t in enumerate(times) if (t.stage, t.round) == (stage, number)), None)
    if index is None:
        return (None, None)
    later = times[index + 1] if index + 1 < len(times) else None
    if later is None or later.first_of_day or not times[index].started:
        later = None  # (another day's first round: the day's programme says when)
    return (times[index], later)


def panels(snap: values.EventSnapshot, now: dt.datetime | None = None) -> list[Panel]:
    out: list[Panel] = []
    stage = now_stage(snap)
    if stage is not None:
        number = snap.current_round(stage)
        matches = snap.matches_of(stage, number)
        chunks = balanced(matches, TABLES_PER_PANEL)
        round_time, next_time = shown_times(snap, now)
        for index, chunk in enumerate(chunks, start=1):
            title = round_title(stage, number)
            note = ""
            if len(chunks) > 1:
                note = _("pöydät %(first)s–%(last)s") % {"first": chunk[0].table, "last": chunk[-1].table}
            out.append(Panel(f"tables-{stage}-{number}-{index}", "tables", title, list(chunk), note=note,
                             round_time=round_time, next_time=next_time))
    group_stage = Stage.SUNDAY if snap.stage_tables(Stage.SUNDAY) else Stage.SATURDAY
    if stage != Stage.PLACEMENT:
        for table in snap.stage_tables(group_stage):
            found = outlook.group_outlook(snap, table)
            rows = list(table.rows)
            chunks = balanced(rows, ROWS_PER_PANEL) or [[]]
            for index, chunk in enumerate(chunks, start=1):
                title = str(table.group) if group_stage == Stage.SATURDAY else _(
                    "Sunnuntain lohko %(name)s") % {"name": table.group.name}
                note = f"{index}/{len(chunks)}" if len(chunks) > 1 else ""
                out.append(Panel(f"group-{table.group.pk}-{index}", "group", title, chunk, table=table,
                                 outlook=found, note=note))
    if group_stage == Stage.SATURDAY and any(m.outcome.finished for m in snap.matches_of(Stage.SATURDAY)):
        preview = outlook.sunday_preview(snap)  # None for a one-stage event
        if preview is not None:
            out.append(Panel("chart", "chart", _("Sunnuntain lohkot (ennakko)"), preview))
    if snap.placements:
        tiers = balanced(outlook.public_bracket(snap), TIERS_PER_PANEL)
        for index, chunk in enumerate(tiers, start=1):
            note = f"{index}/{len(tiers)}" if len(tiers) > 1 else ""
            out.append(Panel(f"bracket-{index}", "bracket", _("Sijoitusottelut"), chunk, note=note))
    ranking = snap.ranking()
    if ranking and (snap.complete or stage is None or stage == Stage.PLACEMENT):
        top = labelled_places(ranking)[:PLACES_PER_PANEL]
        out.append(Panel("places", "places", _("Lopputulokset") if snap.complete else _("Ratkenneet sijat"), top))
    if not out:
        out.append(Panel("empty", "empty", snap.event.name, note=_("Lohkoja ei ole vielä arvottu.")))
    for number, panel in enumerate(out, start=1):
        panel.number, panel.count = number, len(out)
    return out


def rotation(shown: list[Panel]) -> list[str]:
    """The order the screen shows the panels in, one cycle of keys (a key may come more than once): the
    current round's tables come back between the other panels (issue #25.10).

    Up to two panels of tables (24 tables): all of them, then as many other panels as bring each panel of
    tables back within ``TABLES_EVERY`` seconds (one panel: two others; two panels: one), until every
    other panel has been shown. Three panels of tables or more (a large event): a panel of tables and
    another panel in turn, so that some of the round's tables are always at most one panel away and the
    standings still get half the time."""
    tables = [p.key for p in shown if p.kind == "tables"]
    others = [p.key for p in shown if p.kind != "tables"]
    if not tables or not others:
        return tables + others
    out: list[str] = []
    room = TABLES_EVERY // SECONDS_PER_PANEL - len(tables)
    if room >= 1:
        for start in range(0, len(others), room):
            out += tables + others[start:start + room]
        return out
    for i in range(math.lcm(len(tables), len(others))):
        out += [tables[i % len(tables)], others[i % len(others)]]
    return out


def screen(snap: values.EventSnapshot, now: dt.datetime | None = None) -> dict:
    """What the screen's live part shows at ``now``: its panels, the order they rotate in, and how many
    matches of the stage being played are finished."""
    shown = panels(snap, now)
    played, total = snap.progress(now_stage(snap) or Stage.SATURDAY)
    return {"panels": shown, "rotation": rotation(shown), "played": played, "total": total}
