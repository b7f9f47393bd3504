"""Forms of the judges' council (issue #29): a pair's appeal, and the council's ruling."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from lib.formulas import reject_formula
from scoring.deal import TRICKS
from scoring.match import PENALTY_POINTS
from tournaments.actions.council import RulingData
from tournaments.actions.results import EntryData
from tournaments.models import Entry, Ruling
from tournaments.web.forms_results import PAIR_CHOICES


class AppealForm(forms.Form):
    """A pair appeals a referee's decision: which pair, what it is about, optionally the sheet's line."""

    side = forms.ChoiceField(label=_("Valittava pari"), choices=PAIR_CHOICES, widget=forms.RadioSelect)
    subject = forms.CharField(
        label=_("Mistä tuomarin ratkaisusta valitetaan"), max_length=1000, validators=[reject_formula],
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    line = forms.IntegerField(
        label=_("Pöytäkirjan rivi (vapaaehtoinen)"), required=False, min_value=1, max_value=99,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


# A refusal's code → the field it is said next to (else above the form).
APPEAL_FIELDS = {"bad_side": "side", "no_subject": "subject", "no_line": "line", "already_open": "side"}
RULING_FIELDS = {
    "no_council": None, "not_member": "members", "too_few_members": "members", "not_heard": "pairs_heard",
    "bad_decision": "decision", "rejected_effect": "effect", "no_reasons": "reasons", "no_line": "position",
    "no_penalty": "penalty", "not_penalty": "position", "bad_side": "side", "no_late_forfeit": "effect",
    "bad_effect": "effect", "not_in_pair": "player", "withdrawn": "player",
}


class RulingForm(forms.Form):
    """The council's ruling: who decided (at least three of the members named for the event), the
    hearing, the decision and its reasons, and its effect with what the effect needs."""

    members = forms.MultipleChoiceField(
        label=_("Päättäneet jäsenet (vähintään kolme)"), widget=forms.CheckboxSelectMultiple, required=False
    )
    referee_heard = forms.BooleanField(label=_("Ottelun tuomaria kuultiin"), required=False)
    pairs_heard = forms.BooleanField(label=_("Molempia pareja kuultiin"), required=False)
    decision = forms.ChoiceField(label=_("Päätös"), choices=Ruling.Decision.choices, widget=forms.RadioSelect)
    reasons = forms.CharField(
        label=_("Perustelut"), max_length=2000, validators=[reject_formula], widget=forms.Textarea(attrs={"rows": 3})
    )
    effect = forms.ChoiceField(label=_("Vaikutus tulokseen"), choices=Ruling.Effect.choices, initial="none")
    position = forms.IntegerField(label=_("Pöytäkirjan rivi"), required=False, min_value=1, max_value=99,
                                  help_text=_("Korjattava rivi tai poistettava rangaistus."))
    game = forms.ChoiceField(label=_("Korjattu jako: peli"), choices=[("", "–"), ("rami", _("Rami")), ("nolo", _("Nolo"))],
                             required=False)
    caller_seat = forms.TypedChoiceField(label=_("Ramaajan paikka"), choices=[("", "–")] + [(n, str(n)) for n in (1, 2, 3, 4)],
                                         coerce=int, required=False, empty_value=None)
    tricks_a = forms.IntegerField(label=_("Parin A kasat"), min_value=0, max_value=TRICKS, required=False)
    tricks_b = forms.IntegerField(label=_("Parin B kasat"), min_value=0, max_value=TRICKS, required=False,
                                  help_text=_("Tyhjä: 13 miinus parin A kasat."))
    penalty = forms.ChoiceField(
        label=_("Lisättävä rangaistus"), required=False,
        choices=[("", "–"), (Entry.Kind.POINTS, _("28 pistettä")), (Entry.Kind.TUPPI, _("tuppi (merkinanto)"))],
    )
    side = forms.ChoiceField(label=_("Pari"), choices=[("", "–"), *PAIR_CHOICES], required=False,
                             help_text=_("Rangaistuksessa pari, jonka hyväksi se annetaan; luovutuksessa luovuttava pari."))

    def __init__(self, *args, judges=(), appeal: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["members"].choices = [(name, name) for name in judges]
        wanted = ("rejected", "upheld") if appeal else ("decided",)
        self.fields["decision"].choices = [c for c in Ruling.Decision.choices if c[0] in wanted]
        if not appeal:
            self.fields["decision"].initial = "decided"

    def ruling_data(self) -> RulingData:
        d = self.cleaned_data
        line = None
        effect = d["effect"]
        if effect == Ruling.Effect.LINE and d.get("game") and d.get("tricks_a") is not None:
            tricks_b = d["tricks_b"] if d.get("tricks_b") is not None else TRICKS - d["tricks_a"]
            seat = d.get("caller_seat") if d["game"] == "rami" else None
            line = EntryData(kind="deal", game=d["game"], caller_seat=seat, tricks_a=d["tricks_a"], tricks_b=tricks_b)
        elif effect == Ruling.Effect.PENALTY_ADD and d.get("penalty") and d.get("side"):
            points = PENALTY_POINTS if d["penalty"] == Entry.Kind.POINTS else None
            line = EntryData(kind=d["penalty"], pair=d["side"], points=points)
        return RulingData(
            members=tuple(d["members"]), referee_heard=d["referee_heard"], pairs_heard=d["pairs_heard"],
            decision=d["decision"], reasons=d["reasons"], effect=effect, position=d.get("position"), line=line,
            side=d.get("side") or "",
        )


class ExclusionForm(forms.Form):
    """The council excludes a disruptive player: which player (of a pair still in the event), the
    members who decided, the reason."""

    player = forms.ChoiceField(label=_("Suljettava pelaaja"))
    members = forms.MultipleChoiceField(
        label=_("Päättäneet jäsenet (vähintään kolme)"), widget=forms.CheckboxSelectMultiple, required=False
    )
    reason = forms.CharField(
        label=_("Syy"), max_length=2000, validators=[reject_formula], widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, judges=(), pairs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["members"].choices = [(name, name) for name in judges]
        self.fields["player"].choices = [("", "–")] + [
            (f"{pair.pk}:{player.pk}", f"{pair.number}: {player.full_name}") for pair in pairs for player in pair.players
        ]

    def chosen(self) -> tuple[int, int]:
        pair_id, player_id = self.cleaned_data["player"].split(":")
        return int(pair_id), int(player_id)
