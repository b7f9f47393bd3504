"""The cup's part of the event file (issue #27, ``tournaments.output.eventfile``): whether the event counts
for its season's cup and with what weight, and its clubs' fines for forfeits (``cup.fines``), each named by
its match (stage, group, round, table), the forfeiting pair's number and the club's name.

Read back by ``import_event`` in its transaction: the fines as the file has them (amount, reason, dates,
paid or not, the staff's note), then the cup counting, whose own signal finds every fine already there.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from cup.models import ClubFine, CupEvent
from tournaments.models import Stage

STAGE_ORDER = {s: i for i, s in enumerate(Stage.values)}


def export(event, refs: dict, numbers: dict, keys: dict | None = None) -> dict:
    cup = CupEvent.objects.filter(event=event).first()
    fines = [
        {
            "match": refs[f.match_id], "pair": numbers[f.pair_id], "club": f.club.name, "amount": f"{f.amount:.2f}",
            "reason": f.reason, "forfeited_on": f.forfeited_on.isoformat(),
            "paid_on": None if f.paid_on is None else f.paid_on.isoformat(), "note": f.note,
        }
        for f in ClubFine.objects.filter(event=event).select_related("club")
    ]
    fines.sort(key=lambda f: (STAGE_ORDER.get(f["match"]["stage"], 9), f["match"]["round"], f["match"]["table"]))
    return {"weight": None if cup is None else f"{cup.weight:.1f}", "fines": fines}


def read(event, value: dict, match_of, pair_of, club_of, player_of=None) -> None:
    for row in value["fines"]:
        ClubFine.objects.create(
            season=event.season, club=club_of(row["club"]), event=event, match=match_of(row["match"]),
            pair=pair_of(row["pair"]), amount=Decimal(row["amount"]), reason=row["reason"],
            forfeited_on=dt.date.fromisoformat(row["forfeited_on"]),
            paid_on=None if row["paid_on"] is None else dt.date.fromisoformat(row["paid_on"]), note=row["note"],
        )
    if value["weight"] is not None:
        CupEvent.objects.create(event=event, weight=Decimal(value["weight"]))


def clubs(value: dict) -> set[str]:
    return {row["club"] for row in value["fines"]}
