"""Template filters and tags of the cup pages."""

from django import template

from cup import labels
from cup.tables import rendered

register = template.Library()
register.filter("places", labels.places)
register.filter("folded", labels.folded)
register.filter("short_event", labels.short_event)


@register.simple_tag(takes_context=True)
def cup_ranking(context, cup, kind: str):
    """The ranking ``kind`` ("players", "pairs", "clubs") as a table (``cup.tables``): as the request in
    the context asks, or without one the default view, the one kept in the caches."""
    return rendered(cup, kind, context.get("request"))
