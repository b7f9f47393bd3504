"""Builders for tests: an event with N entered pairs, without going through the pages."""

from __future__ import annotations

from registry.models import Club, Player
from tournaments.actions import entries


def clubs(n: int = 4) -> list[Club]:
    return [Club.objects.get_or_create(name=f"Testikerho {i}", defaults={"short_name": f"TK{i}"})[0] for i in range(n)]


def add_pairs(event, n: int, *, club_list: list[Club] | None = None, checked_in: bool = True):
    """Enter ``n`` pairs of fresh players; pair i represents club i mod len(club_list)."""
    club_list = club_list or clubs()
    start = Player.objects.count()
    players = Player.objects.bulk_create(
        Player(first_name=f"Etu{start + i}", last_name=f"Suku{start + i}", member_number=f"T{start + i}")
        for i in range(2 * n)
    )
    pairs = []
    for i in range(n):
        pair = entries.create_pair(event, players[2 * i], players[2 * i + 1], club_list[i % len(club_list)])
        if checked_in:
            entries.set_checked_in(pair, True)
        pairs.append(pair)
    return pairs
