"""The cup's words for a page: counted places, a name as the search folds it, an event's short name (the
templates' filters, ``cup.templatetags.cup_tags``, and the tables, ``cup.tables``)."""

import re

from registry.search import fold


def places(counts: dict[int, int]) -> str:
    """Counted places that break ties (RULES.md §8), e.g. "1.×2 · 3.×1"."""
    return " · ".join(f"{place}.×{n}" for place, n in counts.items())


def folded(text: str) -> str:
    """``text`` as the name search compares it: lower case, diacritics folded as the player search folds
    them ("Kivelä" → "kivela"; ``static/js/filter.js`` folds what is typed alike)."""
    return (fold(str(text)) or "").lower()


def short_event(name: str) -> str:
    """An event's name short enough for a column heading on a phone: its first word that is not a year
    ("Rovaniemen Syystuppi 2026" → "Rovaniemen", "SM-tuppi 2027" → "SM-tuppi"); the heading's title and
    the list under the table give the whole name."""
    words = [w for w in str(name).split() if not re.fullmatch(r"\d{4}", w)]
    return words[0] if words else str(name)
