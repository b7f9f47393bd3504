"""Template filters for the rules' words, said in one place (``tournaments.results``)."""

from django import template

from tournaments.results import decided_by_label

register = template.Library()


@register.filter
def decided_by(standing) -> str:
    """What decided a group place (RULES.md §4), or that a play-off is still needed."""
    return decided_by_label(standing)
