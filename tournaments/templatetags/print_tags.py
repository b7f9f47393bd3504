"""Template filters for the printouts."""

from django import template

register = template.Library()


@register.filter
def css_string(value) -> str:
    """``value`` as the inside of a CSS string literal (for ``content: "…"`` in a stylesheet)."""
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return text.replace("<", "\\3C ").replace(">", "\\3E ")
