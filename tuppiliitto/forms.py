"""The project's own form: the login page's."""

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _


class LoginForm(AuthenticationForm):
    """The stock login form with a Finnish message that says what went wrong, and nothing more."""

    error_messages = {
        "invalid_login": _("Väärä käyttäjätunnus tai salasana. Huomaa isot ja pienet kirjaimet."),
        "inactive": _("Tämä tunnus ei ole käytössä."),
    }

    # max_length: a longer name cannot be a user's, and never reaches authenticate() (or django-axes'
    # record of failed attempts, a 255-character column)
    username = forms.CharField(
        label=_("Käyttäjätunnus"),
        max_length=150,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}),
    )
    password = forms.CharField(
        label=_("Salasana"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )
