"""Template helpers for the event day (issue #19): the players' breaks after deals 6 and 12."""

from django import template

from scoring.timetable import BREAK_AFTER

register = template.Library()


@register.filter
def break_due(lines, match) -> int | None:
    """The deal (6 or 12) after which the players may now take their 5-minute break: the sheet's last
    line is that deal and the match goes on past it; else None."""
    if not lines:
        return None
    deal = getattr(lines[-1], "deal", None)
    planned = getattr(match, "deals_planned", 0) or 0
    return deal if deal in BREAK_AFTER and planned > deal else None
