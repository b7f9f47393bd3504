"""Template filters of the cup pages."""

from django import template

register = template.Library()


@register.filter
def places(counts: dict[int, int]) -> str:
    """Counted places that break ties (RULES.md §8), e.g. "1.×2 · 3.×1"."""
    return " · ".join(f"{place}.×{n}" for place, n in counts.items())
