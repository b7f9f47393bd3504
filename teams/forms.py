"""Forms of the team competition: a new team (three pairs, each an entered pair or two players), a
leader's declaration (the pairs' order and the substitute), a round's day, the draw."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from teams.models import TeamPair
from teams.services import NewPair
from tournaments.models import Club, Pair, PairMember, Player
from tournaments.validators import reject_formula


def player_choices() -> list:
    """Every registry player for a select, grouped by home club (one query)."""
    groups: dict[str, list] = {}
    for p in Player.objects.select_related("club").order_by("last_name", "first_name"):
        label = f"{p.last_name} {p.first_name}" + (f" ({p.member_number})" if p.member_number else "")
        groups.setdefault(p.club.name if p.club else gettext("ei kerhoa"), []).append((p.pk, label))
    return [("", "—")] + [(club, groups[club]) for club in sorted(groups)]


def free_pairs(event):
    """The event's active pairs that are in no team yet."""
    return (
        Pair.objects.filter(event=event, withdrawn_at__isnull=True)
        .exclude(pk__in=TeamPair.objects.values("pair_id"))
        .select_related("club")
        .prefetch_related("members__player")
        .order_by("number")
    )


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Joukkueen nimi"), max_length=80, validators=[reject_formula])
    club = forms.ModelChoiceField(label=_("Kerho"), queryset=Club.objects.all())
    leader_name = forms.CharField(label=_("Joukkueenjohtaja"), max_length=100, validators=[reject_formula])
    substitute = forms.TypedChoiceField(
        label=_("Varamies (jos on)"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        players = player_choices()
        pairs = [("", gettext("— uusi pari: valitse pelaajat —"))] + [
            (p.pk, f"{p.number}. {p.full_name} ({p.club.name})") for p in free_pairs(event)
        ]
        self.fields["substitute"].choices = players
        self.pair_slots = []
        for k in (1, 2, 3):
            self.fields[f"pair{k}"] = forms.TypedChoiceField(
                label=_("Valmis pari"), choices=pairs, coerce=int, required=False, empty_value=None
            )
            for n in (1, 2):
                self.fields[f"pair{k}_player{n}"] = forms.TypedChoiceField(
                    label=_("Pelaaja %(n)s") % {"n": n},
                    choices=players,
                    coerce=int,
                    required=False,
                    empty_value=None,
                )
            self.fields[f"pair{k}_club"] = forms.ModelChoiceField(
                label=_("Kerho, jota pari edustaa"),
                queryset=Club.objects.all(),
                required=False,
                empty_label=gettext("— joukkueen kerho, tai muun kerhon pelaajien kerho —"),
            )
            self.pair_slots.append(
                {
                    "number": k,
                    "pair": self[f"pair{k}"],
                    "players": [self[f"pair{k}_player1"], self[f"pair{k}_player2"]],
                    "club": self[f"pair{k}_club"],
                }
            )

    def clean(self):
        data = super().clean()
        specs = []
        players = {p.pk: p for p in Player.objects.filter(pk__in=self._player_ids(data))}
        for k in (1, 2, 3):
            pair_id = data.get(f"pair{k}")
            ids = [data.get(f"pair{k}_player1"), data.get(f"pair{k}_player2")]
            if pair_id:
                if any(ids):
                    self.add_error(
                        f"pair{k}", gettext("Valitse joko valmis pari tai kaksi pelaajaa, ei molempia.")
                    )
                    continue
                pair = Pair.objects.filter(pk=pair_id, event=self.event).first()
                if pair is None:
                    self.add_error(f"pair{k}", gettext("Paria ei löydy."))
                    continue
                specs.append(pair)
            elif all(ids):
                if ids[0] == ids[1]:
                    self.add_error(
                        f"pair{k}_player2", gettext("Parin pelaajien on oltava kaksi eri henkilöä.")
                    )
                    continue
                specs.append(NewPair(players[ids[0]], players[ids[1]], data.get(f"pair{k}_club")))
            else:
                self.add_error(
                    f"pair{k}", gettext("Valitse pari %(k)s: valmis pari tai kaksi pelaajaa.") % {"k": k}
                )
        self.pair_specs = specs
        sub = data.get("substitute")
        self.substitute_player = Player.objects.filter(pk=sub).first() if sub else None
        return data

    @staticmethod
    def _player_ids(data) -> list[int]:
        return [
            data.get(f"pair{k}_player{n}")
            for k in (1, 2, 3)
            for n in (1, 2)
            if data.get(f"pair{k}_player{n}")
        ]


def pair_label(pair: Pair, team) -> str:
    if pair.club_id == team.club_id:
        return pair.full_name
    return f"{pair.full_name} ({pair.club.name})"


class OrderForm(forms.Form):
    """The leader's declaration: which of the team's pairs plays as 1, 2 and 3; and, if the team has a
    substitute, whom he replaces in this match."""

    def __init__(self, *args, team, **kwargs):
        super().__init__(*args, **kwargs)
        self.team = team
        pairs = [(tp.pair_id, pair_label(tp.pair, team)) for tp in team.team_pairs.all()]
        for k in (1, 2, 3):
            self.fields[f"order{k}"] = forms.TypedChoiceField(
                label=_("Pari %(k)s") % {"k": k}, choices=pairs, coerce=int
            )
        if team.substitute_id:
            players = [
                (m.player_id, m.player.full_name)
                for tp in team.team_pairs.all()
                for m in tp.pair.members.all()
            ]
            self.fields["substitute_for"] = forms.TypedChoiceField(
                label=_("Varamies %(name)s pelaa") % {"name": team.substitute.full_name},
                choices=[("", gettext("ei pelaa tässä ottelussa"))]
                + [(pk, gettext("pelaajan %(name)s tilalla") % {"name": name}) for pk, name in players],
                coerce=int,
                required=False,
                empty_value=None,
            )

    def clean(self):
        data = super().clean()
        chosen = [data.get(f"order{k}") for k in (1, 2, 3)]
        if None not in chosen and len(set(chosen)) != 3:
            raise forms.ValidationError(
                gettext("Valitse jokainen joukkueen kolmesta parista kerran."), code="twice"
            )
        return data

    @property
    def pair_ids(self) -> list[int]:
        return [self.cleaned_data[f"order{k}"] for k in (1, 2, 3)]

    @property
    def substitute_for(self) -> Player | None:
        pk = self.cleaned_data.get("substitute_for")
        return (
            PairMember.objects.select_related("player").get(event=self.team.event, player_id=pk).player
            if pk
            else None
        )


class SubstituteForm(forms.Form):
    """Naming a team's substitute: ``player`` is the id of a player found by the search. Anything else
    (not a number, no such player) is a form error, never a server error."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.all(),
        error_messages={
            "required": _("Valitse varamies hakutuloksista."),
            "invalid_choice": _("Pelaajaa ei löydy: hae ja valitse varamies uudelleen."),
        },
    )

    def error_text(self) -> str:
        return " ".join(str(message) for errors in self.errors.values() for message in errors)


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Siemen (tyhjä: arvotaan)"),
        required=False,
        min_value=0,
        max_value=2**63 - 1,
        help_text=_("Sama siemen antaa saman kaavion: arvonta on toistettavissa."),
    )


class DayForm(forms.Form):
    day = forms.DateField(label=_("Päivä"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
