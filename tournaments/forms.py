from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from scoring import schedule as schedule_core
from tournaments.models import Event, Pair, Stage, unique_event_slug
from tournaments.validators import reject_formula


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


# The fields that decide the draw and the schedule: fixed once the groups are drawn (issue #16); a redraw,
# while one is still allowed, may change them (``RedrawForm``).
FORMAT_FIELDS = ("kind", "format", "group_count", "deals_saturday", "deals_sunday", "deals_placement")


def clean_format(form, data: dict) -> None:
    """The format's rules, shared by the event form and the redraw form: a one-stage event names its group
    count; a cup event's matches have at least the minimum of deals (RULES.md §4)."""
    if data.get("format") == Event.Format.ONE_STAGE:
        if not data.get("group_count"):
            form.add_error("group_count", _("Yksivaiheisessa kisassa valitse lohkojen määrä."))
    else:
        data["group_count"] = None
    minimum = schedule_core.minimum_deals(cup_event=data.get("kind") in Event.CUP_KINDS)
    for field in ("deals_saturday", "deals_sunday", "deals_placement"):
        value = data.get(field)
        if value is not None and value < minimum:
            form.add_error(field, _("Cupin kisoissa pelataan vähintään %(minimum)s jakoa.") % {"minimum": minimum})


class EventForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = [
            "name", "slug", "starts_on", "ends_on", "venue", "organising_club", "kind", "format", "group_count",
            "deals_saturday", "deals_sunday", "deals_placement",
        ]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }
        help_texts = {
            "slug": _("Julkisen sivun osoite, esim. sodankylan-joulutuppi-2026: pienet kirjaimet, numerot ja viivat."),
            "group_count": _("Vain yksivaiheisessa kisassa: montako lohkoa arvotaan."),
            "deals_saturday": _("Tyhjä: lohkon koon mukaan (2–4 paria 16 jakoa, yli 4 paria 12 jakoa)."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["name"].validators.append(reject_formula)
        if self.instance.pk and self.instance.drawn_at is not None:
            for name in FORMAT_FIELDS:  # fixed by the draw: shown, not changed (a redraw may change them)
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Lohkot on arvottu: muuta tätä arvonnan sivulla arvottaessa uudelleen.")

    def clean(self):
        data = super().clean()
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("Kisa ei voi päättyä ennen kuin se alkaa."))
        clean_format(self, data)
        if not data.get("slug") and data.get("name"):
            data["slug"] = unique_event_slug(data["name"], exclude_pk=self.instance.pk)
        elif not data.get("slug") and self.instance.pk:
            data["slug"] = self.instance.slug  # no name to make one from: an edit keeps its address
        return data


class RedrawForm(forms.ModelForm):
    """A redraw, while one is allowed: the event's format and deal counts may change with it; the
    organiser confirms that the current groups and schedule are replaced."""

    sure = forms.BooleanField(label=_("Arvon uudelleen: nykyiset lohkot ja otteluohjelma korvataan."), required=True)

    class Meta:
        model = Event
        fields = FORMAT_FIELDS

    def clean(self):
        data = super().clean()
        clean_format(self, data)
        return data


class SwapForm(forms.Form):
    pair_x = forms.ModelChoiceField(queryset=None, label=_("Pari"))
    pair_y = forms.ModelChoiceField(queryset=None, label=_("vaihdetaan parin kanssa"))

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        pairs = Pair.objects.filter(event=event, group_entries__stage=Stage.SATURDAY).prefetch_related("members__player")
        self.fields["pair_x"].queryset = pairs
        self.fields["pair_y"].queryset = pairs
