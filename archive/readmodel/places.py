"""Places as the archive shows them: a place shared by several pairs as "5.–8." (RULES.md §5)."""

from __future__ import annotations

from collections import Counter

from tournaments.readmodel.values import EventSnapshot


def place_labels(snap: EventSnapshot) -> dict[int, str]:
    """Pair id → its place in the event as shown ("3.", "17.–20."), for the pairs placed so far."""
    ranking = [(place, pair.pk) for place, pair in snap.ranking()]
    sizes = Counter(place for place, _pair in ranking)
    return {
        pair_id: f"{place}." if sizes[place] == 1 else f"{place}.–{place + sizes[place] - 1}."
        for place, pair_id in ranking
    }


def place_of(snap: EventSnapshot, pair_id: int) -> int | None:
    """The pair's place (its first number when shared), None while not known."""
    return next((place for place, pair in snap.ranking() if pair.pk == pair_id), None)
