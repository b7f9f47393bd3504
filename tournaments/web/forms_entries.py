"""Forms for the organiser's entry pages: adding a pair (two players and a club) and uploading a file."""

from __future__ import annotations

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from lib.formulas import reject_formula
from registry.bans import ban_on, refusal
from registry.matching import namesakes as registered_namesakes
from registry.matching import number_holder
from registry.models import Club, Player


class PlayerPickForm(forms.Form):
    """One of a pair's two players: picked from the register (search as you type) or new.

    Used twice with the prefixes ``p1`` and ``p2``. ``player`` is the picked player's id (the search
    results are radio buttons of that name); the other fields describe a new player.
    """

    q = forms.CharField(label=_("Hae nimellä tai jäsennumerolla"), required=False, max_length=100)
    player = forms.ModelChoiceField(queryset=Player.objects.select_related("club"), required=False)
    first_name = forms.CharField(
        label=_("Etunimi"), required=False, max_length=60, validators=[reject_formula]
    )
    last_name = forms.CharField(
        label=_("Sukunimi"), required=False, max_length=60, validators=[reject_formula]
    )
    member_number = forms.CharField(label=_("Jäsennumero (jos on)"), required=False, max_length=20)
    namesake_ok = forms.BooleanField(
        label=_("Eri henkilö kuin rekisterin samanniminen pelaaja"), required=False
    )

    def __init__(self, *args, position: int, event=None, **kwargs):
        super().__init__(*args, prefix=f"p{position}", **kwargs)
        self.position, self.event = position, event

    def new_fields(self):
        return [self[name] for name in ("first_name", "last_name", "member_number")]

    @property
    def show_namesake_ok(self) -> bool:
        """The "a different person" box appears once a namesake has been found (or it was ticked)."""
        if self.is_bound:
            return bool(self.data.get(self.add_prefix("namesake_ok"))) or self.has_error(
                NON_FIELD_ERRORS, "namesake"
            )
        return bool(self.initial.get("namesake_ok"))

    @property
    def is_new(self) -> bool:
        return self.cleaned_data.get("player") is None

    def clean_member_number(self):
        number = self.cleaned_data["member_number"].strip()
        if number:
            holder = number_holder(number)
            if holder is not None:
                raise forms.ValidationError(
                    gettext("Jäsennumero %(number)s on jo pelaajalla %(name)s: valitse hänet haulla.")
                    % {"number": number, "name": holder.full_name},
                    code="member_number_taken",
                )
        return number

    def clean(self):
        data = super().clean()
        player = data.get("player")
        new_fields = [data.get(name) for name in ("first_name", "last_name", "member_number")]
        if self.errors:
            return data
        if player is not None:
            ban = ban_on(player, self.event.starts_on, self.event.ends_on) if self.event is not None else None
            if ban is not None:  # issue #29, refused again by ``entries.create_pair``
                self.add_error("player", refusal(ban))
                data["player"] = player  # still picked when the form shows again
                return data
            if any(new_fields):
                raise forms.ValidationError(
                    gettext(
                        "Valitse joko rekisterissä oleva pelaaja tai anna uuden pelaajan tiedot, ei molempia."
                    ),
                    code="both",
                )
            return data
        first, last = data.get("first_name", "").strip(), data.get("last_name", "").strip()
        if not first and not last and not data.get("member_number"):
            raise forms.ValidationError(
                gettext("Valitse pelaaja haun tuloksista tai anna uuden pelaajan nimi."), code="missing"
            )
        if not first or not last:
            raise forms.ValidationError(
                gettext("Anna uuden pelaajan sekä etunimi että sukunimi."), code="name"
            )
        data["first_name"], data["last_name"] = first, last
        namesakes = registered_namesakes(first, last)
        if namesakes and not data.get("namesake_ok"):
            no_number = gettext("ei numeroa")
            names = ", ".join(f"{p.full_name} ({p.member_number or no_number})" for p in namesakes)
            raise forms.ValidationError(
                gettext(
                    "Rekisterissä on jo %(names)s. Valitse hänet haulla, tai rastita, että uusi pelaaja on eri henkilö."
                )
                % {"names": names},
                code="namesake",
            )
        return data

    def new_player(self, club: Club | None) -> Player:
        """An unsaved Player from the new-player fields."""
        data = self.cleaned_data
        return Player(
            first_name=data["first_name"],
            last_name=data["last_name"],
            member_number=data["member_number"] or None,
            club=club,
        )


class PairForm(forms.Form):
    club = forms.ModelChoiceField(
        label=_("Kerho, jota pari edustaa"),
        queryset=Club.objects.all(),
        required=False,
        empty_label=_("Ensimmäisen pelaajan kotikerho"),
    )


class ImportForm(forms.Form):
    # An empty file gets the importer's own message.
    file = forms.FileField(
        label=_("Tiedosto (.xlsx tai .csv)"),
        allow_empty_file=True,
        widget=forms.ClearableFileInput(
            attrs={
                "accept": ".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            }
        ),
    )
