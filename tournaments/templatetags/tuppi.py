"""Template filters for the rules' words, said in one place (``tournaments.readmodel.results``)."""

from django import template
from django.utils.translation import gettext as _

from scoring.match import PENALTY_POINTS
from tournaments import extensions
from tournaments.readmodel.results import MARKS, SHORT_LABELS, decided_by_label
from tournaments.readmodel.weekend import rank_labels

register = template.Library()


@register.filter
def decided_by(standing) -> str:
    """What decided a group place (RULES.md §4), or that a play-off is still needed."""
    return decided_by_label(standing)


@register.simple_tag
def sheet_legend() -> list[tuple[str, str]]:
    """The scoresheet's letters and marks with what they mean (the web sheet and the PDF)."""
    return legend()


def legend() -> list[tuple[str, str]]:
    games = [
        (SHORT_LABELS["rami"], _("rami")),
        (SHORT_LABELS["nolo"], _("nolo")),
        (SHORT_LABELS["points"], _("pisterangaistus (%(points)s pistettä)") % {"points": PENALTY_POINTS}),
        (SHORT_LABELS["tuppi"], _("tuppirangaistus (merkinanto): vastapuoli voittaa tupilla")),
        (SHORT_LABELS["forfeit"], _("luovutus: vastapuoli voittaa tupilla")),
    ]
    return games + [(mark, str(text)) for mark, text in MARKS.values()]


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` in a template (None when missing)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.simple_tag
def organiser_home(event) -> str:
    """Where the organiser of an event of another app's kind works (the team competition's pages)."""
    return extensions.organiser_home(event)


@register.simple_tag
def match_label(match) -> str:
    """A match's own name where it has one (a team match's pair match: "Loppuottelu · pari 1"), else ""."""
    return extensions.match_labels([match]).get(match.pk, "")


@register.filter
def place_ranges(ranking):
    """``[(place, x), …]`` as ``[(label, x), …]``: a place several share is shown as the range they hold,
    "5.–8.", as the pair events show it (``tournaments.readmodel.weekend.rank_labels``), not "5." four times."""
    ranking = list(ranking or ())
    return list(zip(rank_labels([place for place, _x in ranking]), [x for _place, x in ranking], strict=True))
