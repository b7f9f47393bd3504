from django import forms
from django.utils.translation import gettext_lazy as _

from lib.formulas import reject_formula


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Tunnuksen nimi"), max_length=60, validators=[reject_formula],
        help_text=_("Esim. Kittilän kisakone: mistä tunnus on käytössä."),
    )


class EventFileForm(forms.Form):
    file = forms.FileField(
        label=_("Kisatiedosto"), help_text=_("Kisakoneelta viety tapahtuma.json (manage.py export_event)."),
    )
