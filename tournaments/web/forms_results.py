"""Forms for results: one scoresheet line, a paper scoresheet's totals, a play-off's order."""

from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scoring.deal import TRICKS
from scoring.match import PENALTY_POINTS
from tournaments.actions.results import EntryData, PaperData

PAIR_CHOICES = [("A", _("Pari A (paikat 1 ja 3)")), ("B", _("Pari B (paikat 2 ja 4)"))]


CLIENT_ID = RegexValidator(r"^[A-Za-z0-9_-]{1,40}$", _("Rivin tunniste on virheellinen."))


class VersionForm(forms.Form):
    """What every changing request of a scoresheet carries: the version of the sheet it was made on, and
    after publication the organiser's reason for the change."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=2**31,
                                 error_messages={"required": _("Sivu on vanhentunut: lataa pöytäkirja uudelleen.")})
    reason = forms.CharField(label=_("Muutoksen syy"), required=False, max_length=500,
                             help_text=_("Tulokset on julkaistu: syy näkyy julkisissa lopputuloksissa."))


class EntryForm(VersionForm):
    """A scoresheet line as the referee types it at the table.

    For a deal the referee gives the game, the rami caller's seat and pair A's tricks; pair B's are the
    rest of 13. Only when play stopped early (a fall or a tuppi after seven tricks) are both counts typed.
    """

    KIND_CHOICES = [
        ("deal", _("Jako")),
        ("points", format_lazy(_("Rangaistus: {points} pistettä"), points=PENALTY_POINTS)),
        ("tuppi", _("Rangaistus: tuppi (merkinanto)")),
        ("forfeit", _("Luovutus")),
    ]
    GAME_CHOICES = [("rami", _("Rami")), ("nolo", _("Nolo"))]
    SEAT_CHOICES = [(1, "1"), (2, "2"), (3, "3"), (4, "4")]

    client_id = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput, validators=[CLIENT_ID])
    kind = forms.ChoiceField(label=_("Merkintä"), choices=KIND_CHOICES, initial="deal", widget=forms.RadioSelect)
    game = forms.ChoiceField(label=_("Peli"), choices=GAME_CHOICES, required=False, widget=forms.RadioSelect)
    caller_seat = forms.TypedChoiceField(
        label=_("Ramaajan paikka"), choices=SEAT_CHOICES, coerce=int, required=False, widget=forms.RadioSelect
    )
    tricks_a = forms.IntegerField(
        label=_("Parin A kasat"), min_value=0, max_value=TRICKS, required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": TRICKS}),
    )
    early = forms.BooleanField(label=_("Jako lopetettiin kesken (7 kasaa)"), required=False)
    tricks_b = forms.IntegerField(
        label=_("Parin B kasat"), min_value=0, max_value=TRICKS, required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": TRICKS}),
        help_text=format_lazy(_("Vain kesken lopetetussa jaossa; muuten {tricks} miinus parin A kasat."), tricks=TRICKS),
    )
    penalised = forms.BooleanField(label=_("Loput kasat annettiin vastapuolelle (rangaistus)"), required=False)
    pair = forms.ChoiceField(
        label=_("Pari"), choices=PAIR_CHOICES, required=False, widget=forms.RadioSelect,
        help_text=_("Rangaistuksessa pari, joka saa pisteet tai tupin; luovutuksessa luovuttava pari."),
    )
    points = forms.IntegerField(
        label=_("Rangaistuspisteet"), min_value=4, max_value=2 * PENALTY_POINTS, initial=PENALTY_POINTS, required=False
    )

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind == "deal":
            if not data.get("game"):
                self.add_error("game", _("Valitse rami tai nolo."))
            if data.get("game") == "rami" and not data.get("caller_seat"):
                self.add_error("caller_seat", _("Valitse ramaajan paikka."))
            # one message a field: a number out of range already has its own
            if data.get("tricks_a") is None and "tricks_a" not in self.errors:
                self.add_error("tricks_a", _("Anna parin A kasat."))
            if data.get("early") and data.get("tricks_b") is None and "tricks_b" not in self.errors:
                self.add_error("tricks_b", _("Kesken lopetetussa jaossa anna myös parin B kasat."))
        elif kind in ("points", "tuppi", "forfeit") and not data.get("pair"):
            self.add_error("pair", _("Valitse pari."))
        return data

    def entry_data(self) -> EntryData:
        d = self.cleaned_data
        if d["kind"] != "deal":
            points = (d.get("points") or PENALTY_POINTS) if d["kind"] == "points" else None
            return EntryData(kind=d["kind"], pair=d["pair"], points=points)
        tricks_a = d["tricks_a"]
        tricks_b = d["tricks_b"] if d.get("early") else TRICKS - tricks_a
        return EntryData(
            kind="deal",
            game=d["game"],
            caller_seat=d["caller_seat"] if d["game"] == "rami" else None,
            tricks_a=tricks_a,
            tricks_b=tricks_b,
            penalised=bool(d.get("penalised")),
        )

    @classmethod
    def initial_from(cls, row) -> dict:
        """The form's values for correcting a stored line."""
        early = row.kind == "deal" and (row.tricks_a or 0) + (row.tricks_b or 0) != TRICKS
        return {
            "kind": row.kind, "game": row.game, "caller_seat": row.caller_seat, "tricks_a": row.tricks_a,
            "tricks_b": row.tricks_b if early else None, "early": early, "penalised": row.penalised,
            "pair": row.pair, "points": row.points or PENALTY_POINTS,
        }


class PaperForm(VersionForm):
    total_a = forms.IntegerField(label=_("Parin A nousupisteet yhteensä"), min_value=0, max_value=2000)
    total_b = forms.IntegerField(label=_("Parin B nousupisteet yhteensä"), min_value=0, max_value=2000)
    deals_played = forms.IntegerField(label=_("Pelattuja jakoja"), min_value=1, max_value=200)
    tuppi = forms.ChoiceField(
        label=_("Tuppi"), required=False, widget=forms.RadioSelect,
        choices=[("", _("Ei tuppia")), ("A", _("Pari A voitti tupilla")), ("B", _("Pari B voitti tupilla"))],
    )
    deciding_winner = forms.ChoiceField(
        label=_("Voitosta pelattu jako"), required=False, widget=forms.RadioSelect,
        choices=[("", _("Ei pelattu")), ("A", _("Pari A voitti")), ("B", _("Pari B voitti"))],
    )

    field_order = ["total_a", "total_b", "deals_played", "tuppi", "deciding_winner", "reason"]

    @staticmethod
    def initial_from(paper) -> dict:
        if paper is None:
            return {}
        return {
            "total_a": paper.total_a, "total_b": paper.total_b, "deals_played": paper.deals_played,
            "tuppi": paper.tuppi, "deciding_winner": paper.deciding_winner,
        }

    def paper_data(self) -> PaperData:
        d = self.cleaned_data
        return PaperData(d["total_a"], d["total_b"], d["deals_played"], d.get("tuppi") or "", d.get("deciding_winner") or "")


# The form field an engine refusal is about (its code, tournaments/actions/engine_messages.py): the message is
# shown next to that field; a refusal about the whole line or sheet is shown above the form.
FIELD_OF_CODE = {
    "tricks_over_13": "tricks_a", "tricks_negative": "tricks_a", "tricks_not_integer": "tricks_a",
    "short_deal_no_seven": "tricks_b", "short_deal_not_allowed": "early", "caller_missing": "caller_seat",
    "caller_for_nolo": "caller_seat", "seat_invalid": "caller_seat", "penalty_points_invalid": "points",
    "paper_total_invalid": "total_a", "paper_too_few_deals": "deals_played",
    "paper_tie_needs_deciding_deal": "deciding_winner", "paper_deciding_deal_impossible": "deciding_winner",
    "paper_conflict": "deciding_winner", "reason_required": "reason",
}


def field_of(code: str, form) -> str | None:
    field = FIELD_OF_CODE.get(code)
    return field if field in form.fields else None


def confirmations(data, field: str = "confirm") -> dict[int, int]:
    """The results ticked for confirmation (the publishing step, the results desk): ``confirm`` (or
    ``field``) values "match id:version" (anything else is ignored: the publication then refuses the
    results left unconfirmed)."""
    out = {}
    for value in data.getlist(field):
        match_id, _sep, version = str(value).partition(":")
        if match_id.isascii() and match_id.isdigit() and version.isascii() and version.isdigit():
            out[int(match_id)] = int(version)
    return out
