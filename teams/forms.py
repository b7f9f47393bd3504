"""Forms of the team competition: a team, new or edited (three pairs, each an entered pair or two players), a
leader's declaration (the pairs' order and the substitute), a round's day, the draw."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from lib.formulas import reject_formula
from registry.bans import bans_for, refusal
from registry.models import Club, Player
from teams.actions.rosters import NewPair
from teams.models import TeamPair
from tournaments.models import Pair, PairMember


def free_pairs(event, team=None):
    """The event's active pairs that are in no team yet (or in ``team``, the one being edited)."""
    others = TeamPair.objects.exclude(team=team) if team is not None else TeamPair.objects.all()
    return (
        Pair.objects.filter(event=event, withdrawn_at__isnull=True)
        .exclude(pk__in=others.values("pair_id"))
        .select_related("club")
        .prefetch_related("members__player")
        .order_by("number")
    )


PLAYER_SLOTS = tuple(f"pair{k}_player{n}" for k in (1, 2, 3) for n in (1, 2)) + ("substitute",)


class TeamForm(forms.Form):
    """A team, new or edited: its name, club and leader, three pairs (each an entered pair, or two players
    found by search as you type) and possibly a substitute. A player slot is a search box (``<slot>_q``)
    and the chosen player's id (``<slot>``); the search's results (``teams.search``) show the club each
    player represents this season, which decides who is a reinforcement (RULES.md §6, §7)."""

    name = forms.CharField(label=_("Joukkueen nimi"), max_length=80, validators=[reject_formula])
    club = forms.ModelChoiceField(label=_("Kerho"), queryset=Club.objects.order_by("name"))
    leader_name = forms.CharField(label=_("Joukkueenjohtaja"), max_length=100, validators=[reject_formula])

    def __init__(self, *args, event, team=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.event, self.team = event, team
        pairs = [("", gettext("— uusi pari: hae pelaajat —"))] + [
            (p.pk, f"{p.number}. {p.full_name} ({p.club.name})") for p in free_pairs(event, team)
        ]
        for slot in PLAYER_SLOTS:
            self.fields[slot] = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
            self.fields[f"{slot}_q"] = forms.CharField(required=False, max_length=100)
        for k in (1, 2, 3):
            self.fields[f"pair{k}"] = forms.TypedChoiceField(
                label=_("Valmis pari"), choices=pairs, coerce=int, required=False, empty_value=None
            )
            self.fields[f"pair{k}_club"] = forms.ModelChoiceField(
                label=_("Kerho, jota pari edustaa"),
                queryset=Club.objects.order_by("name"),
                required=False,
                empty_label=gettext("— joukkueen kerho, tai muun kerhon pelaajien kauden kerho —"),
            )
        if team is not None and not self.is_bound:
            self.initial.update(team_initial(team))

    def clean(self):
        data = super().clean()
        ids = [data.get(slot) for slot in PLAYER_SLOTS if data.get(slot)]
        self.players = Player.objects.in_bulk(ids)
        banned = bans_for(self.players.values(), self.event.starts_on, self.event.ends_on)
        for slot in PLAYER_SLOTS:
            if data.get(slot) and data[slot] not in self.players:
                self.add_error(f"{slot}_q", gettext("Pelaajaa ei löydy: hae ja valitse pelaaja uudelleen."))
            elif data.get(slot) in banned:  # issue #29, refused again by the roster and substitute services
                self.add_error(f"{slot}_q", refusal(banned[data[slot]]))
        specs = []
        for k in (1, 2, 3):
            pair_id = data.get(f"pair{k}")
            chosen = [self.players.get(data.get(f"pair{k}_player{n}")) for n in (1, 2)]
            if pair_id:
                if any(chosen):
                    self.add_error(f"pair{k}", gettext("Valitse joko valmis pari tai kaksi pelaajaa, ei molempia."))
                    continue
                pair = Pair.objects.filter(pk=pair_id, event=self.event).first()
                if pair is None:
                    self.add_error(f"pair{k}", gettext("Paria ei löydy."))
                    continue
                specs.append(pair)
            elif all(chosen):
                if chosen[0].pk == chosen[1].pk:
                    self.add_error(f"pair{k}_player2_q", gettext("Parin pelaajien on oltava kaksi eri henkilöä."))
                    continue
                specs.append(NewPair(chosen[0], chosen[1], data.get(f"pair{k}_club")))
            else:
                self.add_error(f"pair{k}", gettext("Valitse pari %(k)s: valmis pari tai kaksi pelaajaa.") % {"k": k})
        self.pair_specs = specs
        self.substitute_player = self.players.get(data.get("substitute"))
        return data

    def slot_value(self, slot: str) -> tuple[str, int | None]:
        """What a player slot shows: the search typed and the player chosen (as sent, when bound; a search
        submitted without JavaScript comes back as the initial values)."""
        source = self.data if self.is_bound else self.initial
        picked = str(source.get(slot) or "")
        query = str(source.get(f"{slot}_q") or "")[:100]
        return query, int(picked) if picked.isascii() and picked.isdigit() and len(picked) < 19 else None


def team_initial(team) -> dict:
    """An edited team's form as it stands: its pairs as entered pairs, its substitute chosen."""
    initial = {"name": team.name, "club": team.club_id, "leader_name": team.leader_name}
    for tp in team.team_pairs.all():
        initial[f"pair{tp.number}"] = tp.pair_id
    if team.substitute_id:
        initial["substitute"] = team.substitute_id
        initial["substitute_q"] = team.substitute.full_name
    return initial


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
