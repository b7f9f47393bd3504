"""Matching a player or a club as typed (a row of an imported entry list, a new player in the pair form)
to the registry's rows.

A club is found by its name or short name, a player by member number (the name must then agree) or,
without a number, by first and last name when exactly one registered player has that name. Names are
compared as typed: runs of spaces as one, without regard to case; diacritics count ("Aho" is not
"Ahö"), unlike the search as you type (``registry.search``), which shows candidates rather than decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q

from registry.models import Club, Player


def typed(text: str) -> str:
    """``text`` as compared: runs of spaces as one, case folded."""
    return " ".join(text.split()).casefold()


def name_key(first_name: str, last_name: str) -> tuple[str, str]:
    return typed(first_name), typed(last_name)


def case_variants(values: Iterable[str]) -> set[str]:
    """The spellings people actually type of each value (SQLite compares only ASCII letters without case)."""
    out = set()
    for value in values:
        out |= {value, value.lower(), value.upper(), value.capitalize(), value.title()}
    return out


@dataclass(frozen=True)
class Found:
    """What the registry says of a typed player: at most one of the three is set."""

    player: Player | None = None  # the registered player the typed one is (None: a new player)
    holder: Player | None = None  # the typed member number belongs to this player, of another name
    namesakes: tuple[Player, ...] = ()  # no number typed, and several registered players have the name


class Registered:
    """The registry's clubs and the players a batch of typed rows may name (``numbers``: the member
    numbers typed, ``last_names``: the last names): three queries however many rows."""

    def __init__(self, numbers: Iterable[str], last_names: Iterable[str]):
        self.clubs: dict[str, Club] = {}
        for club in Club.objects.all():
            for key in (club.name, club.short_name):
                if key:
                    self.clubs.setdefault(typed(key), club)
        self.by_number = {p.member_number: p for p in Player.objects.filter(member_number__in=set(numbers))}
        self.by_name: dict[tuple[str, str], list[Player]] = {}
        for player in Player.objects.filter(last_name__in=case_variants(last_names)).order_by("pk"):
            self.by_name.setdefault(name_key(player.first_name, player.last_name), []).append(player)

    def club(self, text: str) -> Club | None:
        """The club named ``text`` (its name or short name), or None."""
        return self.clubs.get(typed(text))

    def player(self, first_name: str, last_name: str, member_number: str = "") -> Found:
        """The registered player typed: by ``member_number`` when one is given (an unknown number is a
        new player's), else by the name when exactly one registered player has it."""
        key = name_key(first_name, last_name)
        if member_number:
            registered = self.by_number.get(member_number)
            if registered is not None and name_key(registered.first_name, registered.last_name) != key:
                return Found(holder=registered)
            return Found(player=registered)
        namesakes = self.by_name.get(key, [])
        if len(namesakes) > 1:
            return Found(namesakes=tuple(namesakes))
        return Found(player=namesakes[0] if namesakes else None)


def number_holder(member_number: str) -> Player | None:
    """The registered player with ``member_number``, if any."""
    return Player.objects.filter(member_number=member_number).first()


def namesakes(first_name: str, last_name: str, limit: int = 5) -> list[Player]:
    """Registered players named ``first_name last_name`` (case ignored as far as the database can, and
    the capitalised spelling besides: SQLite folds the case of ASCII letters only)."""
    return list(
        Player.objects.filter(
            Q(first_name__iexact=first_name) | Q(first_name=first_name.capitalize()),
            Q(last_name__iexact=last_name) | Q(last_name=last_name.capitalize()),
        )[:limit]
    )
