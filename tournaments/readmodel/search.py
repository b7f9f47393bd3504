"""Finding a pair of an event by its players' names or club, without regard to case or diacritics (the
public "my pair" picker). The names are folded as the registry's player search folds them
(``registry.search``)."""

from __future__ import annotations

from registry.search import fold


def find_pairs(pairs, text: str) -> list:
    """The pairs (an event's snapshot's ``PairView``s, in their order) whose players' names or club hold
    every word of ``text``, without regard to case or diacritics: the public "my pair" picker."""
    words = fold(text).casefold().split()
    return [p for p in pairs
            if words and all(w in fold(f"{p.full_name} {p.club.name} {p.club.short_name}").casefold() for w in words)]
