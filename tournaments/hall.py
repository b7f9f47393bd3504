"""The hall screen (issue #18.7): a kiosk page for a projector or a TV that shows, one panel after another,
the current round's tables and every group's standings (with who is through), the Sunday chart as far as
Saturday has decided it, then the placement bracket and the final places. This module cuts the event's snapshot into panels that each fit one
screen; ``static/js/hall.js`` shows them in turn and the live part refreshes like every public page's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournaments import outlook, readmodel
from tournaments.models import Stage
from tournaments.weekend import labelled_places

TABLES_PER_PANEL = 12  # two columns of six
ROWS_PER_PANEL = 10  # a group's standings; a larger group (one-stage events) goes on in a second panel
PLACES_PER_PANEL = 16  # two columns of eight


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


def balanced(items: list, most: int) -> list[list]:
    """``items`` in as few panels of at most ``most`` as will do, the panels as even as can be (16 tables:
    8 and 8, not 12 and 4)."""
    if not items:
        return []
    count = -(-len(items) // most)
    size = -(-len(items) // count)
    return [items[i:i + size] for i in range(0, len(items), size)]


def now_stage(snap: readmodel.EventSnapshot) -> str | None:
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


def panels(snap: readmodel.EventSnapshot) -> list[Panel]:
    out: list[Panel] = []
    stage = now_stage(snap)
    if stage is not None:
        number = snap.current_round(stage)
        matches = snap.matches_of(stage, number)
        chunks = balanced(matches, TABLES_PER_PANEL)
        for index, chunk in enumerate(chunks, start=1):
            title = round_title(stage, number)
            note = ""
            if len(chunks) > 1:
                note = _("pöydät %(first)s–%(last)s") % {"first": chunk[0].table, "last": chunk[-1].table}
            out.append(Panel(f"tables-{stage}-{number}-{index}", "tables", title, list(chunk), note=note,
                             round_time=snap.round_time(stage, number)))
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
        out.append(Panel("bracket", "bracket", _("Sijoitusottelut"), outlook.public_bracket(snap)))
    ranking = snap.ranking()
    if ranking and (snap.complete or stage is None or stage == Stage.PLACEMENT):
        top = labelled_places(ranking)[:PLACES_PER_PANEL]
        out.append(Panel("places", "places", _("Lopputulokset") if snap.complete else _("Ratkenneet sijat"), top))
    if not out:
        out.append(Panel("empty", "empty", snap.event.name, note=_("Lohkoja ei ole vielä arvottu.")))
    for number, panel in enumerate(out, start=1):
        panel.number, panel.count = number, len(out)
    return out
