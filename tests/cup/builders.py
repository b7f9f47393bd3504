"""Builders for the cup tests: small one-stage events whose final places are decided by paper results.

``one_group_event`` enters the given pairs in one group of a one-stage event, lets every pair beat every
pair listed after it (40–20 rise totals, a points win 3–2) and publishes the final places. In a group of
n pairs the k-th listed pair thus finishes k-th with n − k match wins: places and wins by hand.
"""

from __future__ import annotations

import datetime as dt
from io import BytesIO

from openpyxl import load_workbook

from cup.models import CupEvent
from registry.models import Club, Player, Season
from tests.support.results_helpers import table_rows  # noqa: F401  (the cup tests read pages with it)
from tournaments.actions import draw, entries, sunday
from tournaments.actions import results as result_actions
from tournaments.actions.simulation import confirm_all
from tournaments.models import Event, Match


def club(name: str, short: str = "") -> Club:
    return Club.objects.get_or_create(name=name, defaults={"short_name": short})[0]


def player(first: str, last: str, home: Club | None = None) -> Player:
    return Player.objects.create(first_name=first, last_name=last, club=home)


def beat(winner, loser, *, reason: str = "") -> Match:
    """Record from paper that ``winner`` beat ``loser`` 40–20 over the planned deals (``reason``: the
    organiser's reason, needed once the results are published)."""
    match = Match.objects.get(pair_a__in=[winner, loser], pair_b__in=[winner, loser])
    a, b = (40, 20) if match.pair_a_id == winner.pk else (20, 40)
    return result_actions.save_paper(
        match, result_actions.PaperData(a, b, match.deals_planned), version=None, actor=result_actions.Actor(user=None),
        reason=reason,
    )


def one_group_event(name: str, starts_on: dt.date, order, *, kind=Event.Kind.CUP, weight=None, publish=True):
    """A one-stage event of one group; ``order`` lists (player, player, club) best first.

    Returns the event and its pairs in ``order``. With ``weight`` the event is counted for the cup.
    """
    event = Event.objects.create(
        name=name,
        slug=f"kisa-{Event.objects.count() + 1}-{starts_on:%Y%m%d}",
        season=Season.for_date(starts_on),
        starts_on=starts_on,
        ends_on=starts_on,
        kind=kind,
        format=Event.Format.ONE_STAGE,
        group_count=1,
    )
    pairs = []
    for p1, p2, represents in order:
        pair = entries.create_pair(event, p1, p2, represents)
        entries.set_checked_in(pair, True)
        pairs.append(pair)
    draw.draw_groups(event, None, seed=7)
    for i, better in enumerate(pairs):
        for worse in pairs[i + 1 :]:
            beat(better, worse)
    if publish:
        confirm_all(event)
        sunday.publish(event, None)
        event.refresh_from_db()
    if weight is not None:
        CupEvent.objects.create(event=event, weight=weight)
    return event, pairs


def workbook(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    return load_workbook(BytesIO(response.content))


def sheet_rows(ws, *, until_blank: bool = True) -> list[list]:
    """The data rows under the header, up to the first empty row."""
    rows = []
    for row in ws.iter_rows(min_row=2):
        if until_blank and all(c.value is None for c in row):
            break
        rows.append(list(row))
    return rows
