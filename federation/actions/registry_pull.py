"""Bringing the federation's registry (``federation.readmodel.registry``) into this installation: the
venue laptop before the day, so that its events use the federation's clubs, member numbers and season
clubs instead of duplicates of its own.

Clubs are matched by name, players by member number; what is missing is created. What differs is
reported and left as it is here (a member number with another name, a club with another short name or
town, a season club or a season's best N of another value): nothing is overwritten silently. A player
entered here without a member number becomes the registry's player of that number when exactly one such
player has the same name and home club (reported as linked). One transaction: a document that cannot be
applied changes nothing. Bringing the same document twice changes nothing the second time."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from django.db import transaction

from registry.matching import name_key, typed
from registry.models import Ban, Club, Player, Season, SeasonClub, Transfer


class Refused(ValueError):
    """The document names what it does not hold (a club, a player, a season) or is not a registry."""


@dataclass
class Report:
    created: Counter = field(default_factory=Counter)  # kind → rows created
    linked: list[str] = field(default_factory=list)  # players here given their member number
    conflicts: list[str] = field(default_factory=list)  # what differs, left as it is here


class Pull:
    def __init__(self, doc: dict):
        self.doc = doc
        self.report = Report()
        self.clubs = {typed(c.name): c for c in Club.objects.all()}
        self.players = {p.member_number: p for p in Player.objects.filter(member_number__isnull=False)}
        self.seasons = {s.start: s for s in Season.objects.all()}

    def club(self, name: str | None) -> Club | None:
        return self.clubs.get(typed(name)) if name else None

    def need_club(self, name: str) -> Club:
        found = self.club(name)
        if found is None:
            raise Refused(f"the registry document names a club it does not hold: {name}")
        return found

    def run(self) -> Report:
        for row in self.doc["clubs"]:
            self.pull_club(row)
        for row in self.doc["players"]:
            self.pull_player(row)
        for row in self.doc["seasons"]:
            self.pull_season(row)
        for row in self.doc["season_clubs"]:
            self.pull_season_club(row)
        for row in self.doc["transfers"]:
            self.pull_transfer(row)
        for row in self.doc["bans"]:
            self.pull_ban(row)
        return self.report

    def pull_club(self, row: dict) -> None:
        here = self.club(row["name"])
        if here is None:
            self.clubs[typed(row["name"])] = Club.objects.create(
                name=row["name"], short_name=row["short_name"], town=row["town"]
            )
            self.report.created["clubs"] += 1
        elif (here.short_name, here.town) != (row["short_name"], row["town"]):
            self.report.conflicts.append(
                f"club {row['name']}: here {here.short_name!r}, {here.town!r}; "
                f"the registry {row['short_name']!r}, {row['town']!r}"
            )

    def pull_player(self, row: dict) -> None:
        number, club = row["member_number"], self.need_club(row["club"]) if row["club"] else None
        here = self.players.get(number)
        if here is None:
            here = self.link(row, club)
        if here is None:
            self.players[number] = Player.objects.create(
                member_number=number, first_name=row["first_name"], last_name=row["last_name"], club=club
            )
            self.report.created["players"] += 1
            return
        if name_key(here.first_name, here.last_name) != name_key(row["first_name"], row["last_name"]):
            self.report.conflicts.append(
                f"member number {number}: here {here.full_name}, the registry {row['first_name']} {row['last_name']}"
            )
        elif here.club_id != (club.pk if club else None):
            self.report.conflicts.append(
                f"member number {number} ({here.full_name}): home club here "
                f"{here.club.name if here.club else '-'}, the registry {row['club'] or '-'}"
            )

    def link(self, row: dict, club: Club | None) -> Player | None:
        """The one player here without a number of the same name and home club: he gets the number."""
        first, last = row["first_name"], row["last_name"]
        same = [
            p for p in Player.objects.filter(member_number__isnull=True, last_name__iexact=last)
            if name_key(p.first_name, p.last_name) == name_key(first, last) and p.club_id == (club.pk if club else None)
        ]
        if len(same) != 1:
            return None
        player = same[0]
        player.member_number = row["member_number"]
        player.save(update_fields=["member_number"])
        self.players[player.member_number] = player
        self.report.linked.append(f"{player.full_name} ({player.member_number})")
        return player

    def pull_season(self, row: dict) -> None:
        start = dt.date.fromisoformat(row["start"])
        here = self.seasons.get(start)
        if here is None:
            self.seasons[start] = Season.objects.create(start=start, best_n=row["best_n"])
            self.report.created["seasons"] += 1
        elif here.best_n != row["best_n"]:
            self.report.conflicts.append(f"season {here}: best N here {here.best_n}, the registry {row['best_n']}")

    def pull_season_club(self, row: dict) -> None:
        season, player = self.seasons[dt.date.fromisoformat(row["season"])], self.players[row["member_number"]]
        club = self.need_club(row["club"])
        here = SeasonClub.objects.filter(season=season, player=player).select_related("club").first()
        if here is None:
            SeasonClub.objects.create(season=season, player=player, club=club)
            self.report.created["season clubs"] += 1
        elif here.club_id != club.pk:
            self.report.conflicts.append(
                f"{player.full_name} ({player.member_number}) in {season}: club here {here.club.name}, "
                f"the registry {row['club']}"
            )

    def pull_transfer(self, row: dict) -> None:
        fields = {
            "season": self.seasons[dt.date.fromisoformat(row["season"])],
            "player": self.players[row["member_number"]],
            "from_club": self.need_club(row["from_club"]),
            "to_club": self.need_club(row["to_club"]),
            "confirmed_on": dt.date.fromisoformat(row["confirmed_on"]),
        }
        if not Transfer.objects.filter(**fields).exists():
            Transfer.objects.create(**fields)
            self.report.created["transfers"] += 1

    def pull_ban(self, row: dict) -> None:
        player = self.players[row["member_number"]]
        starts, ends = dt.date.fromisoformat(row["starts_on"]), dt.date.fromisoformat(row["ends_on"])
        if not Ban.objects.filter(player=player, starts_on=starts, ends_on=ends).exists():
            Ban.objects.create(
                player=player, starts_on=starts, ends_on=ends, decision=row["decision"],
                decided_on=dt.date.fromisoformat(row["decided_on"]), reason="(federation registry)",
            )
            self.report.created["bans"] += 1


@transaction.atomic
def pull(doc: dict) -> Report:
    """Apply the registry document ``doc`` (already checked against its schema); see the module's docstring."""
    try:
        return Pull(doc).run()
    except KeyError as exc:
        raise Refused(f"the registry document names what it does not hold: {exc}") from None
