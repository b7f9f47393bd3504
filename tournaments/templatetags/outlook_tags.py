"""Template tags of the public pages' outlook (``tournaments.readmodel.outlook``)."""

from django import template

from tournaments.readmodel import outlook

register = template.Library()


@register.simple_tag
def bracket_waiting(tier) -> dict:
    """A tier's slots still waiting for their pairs: the public Sunday page hands them in filled from the
    Sunday groups (``outlook.public_bracket``); any other page gets them from the tier alone."""
    return tier.get("waiting") or outlook.bracket_slots(tier)
