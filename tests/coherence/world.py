"""The world a coherence sequence changes: one season with a live two-day cup event (24 pairs, not drawn
yet), a finished counted cup event before it (so the season's cup shows results from the start), and a
drawn SM team competition; the organiser's desk, federation staff in the admin, and an anonymous phone.

Built with the suite's builders (``tests/web/builders.py``, ``tests/cup/builders.py``,
``tests/teams/builders.py``); nothing here goes around the services."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.test import Client

from cup.models import CupEvent
from registry.models import Club, Player, Season
from teams.actions import bracket as team_bracket
from tests.cup.builders import one_group_event
from tests.support.builders import add_pairs, clubs
from tests.teams.builders import add_team
from tournaments.models import Event

SATURDAY = dt.date(2026, 12, 12)
FINISHED_ON = dt.date(2026, 11, 7)


@dataclass
class World:
    seed: int
    rng: random.Random
    event_id: int
    done_id: int
    team_event_id: int
    season_id: int
    organiser: object
    desk: Client  # the organiser, logged in
    staff: Client  # federation staff in the admin
    referee: Client  # whoever holds a match's secret link
    done: list[str] = field(default_factory=list)  # the operations applied so far, described

    @property
    def event(self) -> Event:
        return Event.objects.select_related("season").get(pk=self.event_id)

    @property
    def team_event(self) -> Event:
        return Event.objects.get(pk=self.team_event_id)

    @property
    def season(self) -> Season:
        return Season.objects.get(pk=self.season_id)


def build(seed: int) -> World:
    user = get_user_model()
    organiser = user.objects.create_user(
        "jarjestaja", password="salasana-1", first_name="Olli", last_name="Organisoija"
    )
    staff_user = user.objects.create_superuser("liitto", password="salasana-2")
    home = clubs(4)
    finished = [
        Player.objects.create(first_name=f"Valmis{i}", last_name=f"Pelaaja{i}", club=home[i % 4])
        for i in range(8)
    ]
    done, _pairs = one_group_event(
        "Marraskisa",
        FINISHED_ON,
        [(finished[2 * i], finished[2 * i + 1], home[i]) for i in range(4)],
        weight=Decimal(1),
    )
    live = Event.objects.create(
        name="Joulukisa",
        slug="joulukisa",
        season=Season.for_date(SATURDAY),
        starts_on=SATURDAY,
        ends_on=SATURDAY + dt.timedelta(days=1),
        kind=Event.Kind.CUP,
        venue="Kemi",
    )
    live.organisers.add(organiser)
    CupEvent.objects.create(event=live, weight=Decimal(1))
    add_pairs(live, 24, club_list=home)
    teams = Event.objects.create(
        name="Joukkue-SM",
        slug="joukkue-sm",
        season=live.season,
        starts_on=SATURDAY,
        ends_on=SATURDAY + dt.timedelta(days=1),
        kind=Event.Kind.SM_TEAM,
    )
    teams.organisers.add(organiser)
    for i in range(4):
        add_team(teams, f"Joukkue {i + 1}", home=Club.objects.create(name=f"Joukkuekerho {i + 1}"))
    team_bracket.draw(teams, organiser, seed=seed)
    desk, staff = Client(), Client()
    desk.force_login(organiser)
    staff.force_login(staff_user)
    return World(
        seed=seed,
        rng=random.Random(seed),
        event_id=live.pk,
        done_id=done.pk,
        team_event_id=teams.pk,
        season_id=live.season_id,
        organiser=organiser,
        desk=desk,
        staff=staff,
        referee=Client(),
    )
