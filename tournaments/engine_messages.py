"""The rules engine's refusals in the user's language: one message per error code, with its values."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import ScoringError

MESSAGES = {
    "tricks_over_13": gettext_lazy("Rivin %(deal)s kasat ovat yhteensä %(total)s: jaossa on vain 13 kasaa."),
    "tricks_negative": gettext_lazy("Rivi %(deal)s: kasojen määrä ei voi olla negatiivinen."),
    "tricks_not_integer": gettext_lazy("Rivi %(deal)s: kasojen määrän on oltava kokonaisluku."),
    "tricks_invalid": gettext_lazy("Rivi %(deal)s: anna molempien parien kasat."),
    "short_deal_no_seven": gettext_lazy(
        "Rivillä %(deal)s on vain %(total)s kasaa: jaon voi lopettaa kesken vasta, kun toisella parilla on 7 kasaa."
    ),
    "short_deal_not_allowed": gettext_lazy(
        "Rivi %(deal)s: jako, jossa on %(total)s kasaa, hyväksytään vain, jos se pudottaa nousussa olevan "
        "parin tai päättyy tuppiin. Muuten jako pelataan loppuun (13 kasaa)."
    ),
    "caller_missing": gettext_lazy("Rivi %(deal)s: ramissa on merkittävä ramaaja."),
    "caller_for_nolo": gettext_lazy("Rivi %(deal)s: nolossa ei ole ramaajaa."),
    "penalty_points_invalid": gettext_lazy(
        "Rivi %(deal)s: rangaistuspisteiden on oltava positiivinen neljällä jaollinen luku (yleensä 28)."
    ),
    "pair_invalid": gettext_lazy("Rivi %(deal)s: valitse pari."),
    "seat_invalid": gettext_lazy("Ramaajan paikan on oltava 1–4."),
    "paper_total_invalid": gettext_lazy(
        "Nousupisteet %(total)s eivät ole mahdolliset: pisteet kertyvät neljän pisteen välein."
    ),
    "paper_deals_played_invalid": gettext_lazy("Pelattujen jakojen määrä %(deals_played)s ei ole mahdollinen."),
    "paper_too_few_deals": gettext_lazy(
        "Ottelu ilman tuppia pelataan vähintään %(deals_planned)s jakoa, nyt pelattu %(deals_played)s."
    ),
    "paper_tie_needs_deciding_deal": gettext_lazy(
        "Pisteet ovat tasan (%(total)s): merkitse voitosta pelatun jaon voittaja."
    ),
    "paper_deciding_deal_impossible": gettext_lazy(
        "Voitosta pelattu jako ei täsmää: sen voittajan pisteiden on oltava suuremmat, ja se pelataan vasta "
        "suunniteltujen jakojen jälkeen."
    ),
    "paper_conflict": gettext_lazy("Tuppi ja voitosta pelatun jaon voittaja ovat eri pareja."),
}


def message(exc: ScoringError) -> str:
    """The Finnish (or English) sentence for an engine error; the engine's English text as a fallback."""
    if exc.code == "after_end":
        if exc.values.get("ended_at_deal"):
            return _("Ottelu päättyi jo jakoon %(n)s: sen jälkeen ei voi kirjata mitään.") % {
                "n": exc.values["ended_at_deal"]
            }
        return _("Ottelu päättyi jo riviin %(n)s: sen jälkeen ei voi kirjata mitään.") % {
            "n": exc.values.get("ended_at_entry")
        }
    template = MESSAGES.get(exc.code)
    if template is None:
        return exc.message
    values = {"deal": exc.deal, **exc.values}
    try:
        return str(template) % values
    except (KeyError, TypeError, ValueError):
        return exc.message
