from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _


class LoginForm(AuthenticationForm):
    """The stock login form with a Finnish message that says what went wrong, and nothing more."""

    error_messages = {
        "invalid_login": _("Väärä käyttäjätunnus tai salasana. Huomaa isot ja pienet kirjaimet."),
        "inactive": _("Tämä tunnus ei ole käytössä."),
    }

    username = forms.CharField(
        label=_("Käyttäjätunnus"), widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"})
    )
    password = forms.CharField(
        label=_("Salasana"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )
