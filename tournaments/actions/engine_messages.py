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
    # Issue #14: the two messages about a deciding deal tell the same thing (its points are in the totals).
    "paper_tie_needs_deciding_deal": gettext_lazy(
        "Pisteet ovat tasan (%(total)s–%(total)s), joten ottelu ratkesi voitosta pelatulla jaolla: merkitse "
        "sen voittaja ja kirjaa pisteet jaon jälkeen, jaon pisteet voittajan pisteisiin lisättyinä "
        "(esimerkiksi tasan 40–40 ja jaosta 8 pistettä: 48–40)."
    ),
    "paper_deciding_deal_impossible": gettext_lazy(
        "Voitosta pelattu jako ei täsmää: pisteet olivat tasan ennen sitä ja sen pisteet lisätään "
        "voittajalle, mutta ero %(margin)s ei ole mahdollinen voitosta pelatun jaon pistemäärä."
    ),
    "paper_conflict": gettext_lazy("Tuppi ja voitosta pelatun jaon voittaja ovat eri pareja."),
    # Issue #16: the bounds a paper result must fit (scoring.plausibility.paper_result).
    "paper_too_many_deals": gettext_lazy(
        "Kun suunniteltuja jakoja on %(deals_planned)s, jakoja voi olla enintään %(limit)s, nyt "
        "%(deals_played)s: kesken oleva nousu pelataan loppuun, mutta alle 52 pisteen nousu kestää enintään "
        "12 jakoa, koska jokainen jako nostaa sitä vähintään 4 pistettä."
    ),
    "paper_played_out_rise_too_small": gettext_lazy(
        "Suunniteltujen %(deals_planned)s jaon jälkeen pelattiin vielä %(extra)s jakoa, joten loppuun "
        "pelattu nousu oli vähintään %(minimum)s pistettä (jokainen jako nostaa sitä vähintään 4), mutta "
        "suuremmat pisteet ovat %(higher)s."
    ),
    "paper_totals_too_low": gettext_lazy(
        "Pisteet %(total_a)s–%(total_b)s ovat liian pienet %(deals_played)s jakoon: jokainen jako nostaa "
        "nousua vähintään 4 pistettä tai pudottaa sen, joten pisteitä kertyy yhteensä vähintään %(minimum)s."
    ),
    "paper_total_too_high": gettext_lazy(
        "%(deals_played)s jaossa nousupisteitä voi kertyä enintään %(points_max)s: alle 52 pisteen nousu on "
        "enintään 48 pistettä ja päättyy putoamiseen, ja nousuja mahtuu enintään %(rises_max)s. Pisteet "
        "%(total_a)s–%(total_b)s vaativat vähintään %(rises_needed)s nousua."
    ),
    "paper_tuppi_total_too_high": gettext_lazy(
        "Pisteisiin %(total_a)s–%(total_b)s tarvitaan vähintään %(wins_needed)s voitettua jakoa tai "
        "rangaistusta, niistä vähintään %(penalties_needed)s rangaistusta, mutta %(deals_played)s jakoon "
        "mahtuu enintään %(penalties_max)s rangaistusta."
    ),
    "paper_deciding_deal_too_early": gettext_lazy(
        "Voitosta pelattava jako pelataan vasta suunniteltujen %(deals_planned)s jaon jälkeen, nyt pelattu "
        "%(deals_played)s."
    ),
    "paper_deciding_deal_too_late": gettext_lazy(
        "Voitosta pelattu jako on viimeistään jako %(limit)s, nyt %(deals_played)s: kesken oleva nousu "
        "kestää alle 52 pisteessä enintään 12 jakoa."
    ),
    "paper_deciding_level_impossible": gettext_lazy(
        "Voitosta pelattu jako ei täsmää: ennen sitä pisteiden piti olla tasan %(level)s–%(level)s "
        "%(deals_before)s jaon jälkeen."
    ),
    "paper_tuppi_needs_rise": gettext_lazy(
        "Tuppirangaistus tai luovutus päättää vain kesken olevan ottelun, eikä ottelu voi olla kesken "
        "%(deals_played)s jaon jälkeen pisteillä %(total_a)s–%(total_b)s. Tuppi on silloin vähintään 52 "
        "pisteen nousu, mutta parin %(pair)s pisteet ovat %(total)s."
    ),
    "paper_result_unreachable": gettext_lazy(
        "Tulosta %(total_a)s–%(total_b)s %(deals_played)s jaon jälkeen ei synny millään pöytäkirjalla, kun "
        "suunniteltuja jakoja on %(deals_planned)s: pisteitä ei voi jakaa nousuiksi, jotka mahtuvat "
        "pelattuihin jakoihin."
    ),
}


def message(exc: ScoringError) -> str:
    """The Finnish (or English) sentence for an engine error; the engine's English text as a fallback."""
    if exc.code == "paper_deciding_deal_impossible" and exc.values.get("margin") == 0:
        return _(
            "Voitosta pelatun jaon pisteet lisätään sen voittajalle, joten pisteet eivät ole sen jälkeen tasan: "
            "kirjaa voittajan pisteisiin myös jaon pisteet (esimerkiksi tasan 40–40 ja jaosta 8 pistettä: 48–40)."
        )
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
        text = str(template) % values
    except (KeyError, TypeError, ValueError):
        return exc.message
    cause = exc.values.get("cause")
    if isinstance(cause, ScoringError):  # a bound that the level totals before a deciding deal break
        text = f"{text} {message(cause)}"
    return text
