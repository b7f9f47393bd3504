from django import forms
from django.utils.translation import gettext_lazy as _

from lib.formulas import reject_formula
from scoring import schedule as schedule_core
from tournaments.models import Event, Pair, Stage, unique_event_slug
from tournaments.validators import council_names, validate_council

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


# The event day (issue #19): left empty, each takes the rules' default (the model's).
DAY_FIELDS = (
    "draw_time", "play_time", "sunday_play_time", "minutes_per_deal", "entry_fee", "fee_basis", "appeal_minutes",
)

# What a kind of event does not use (issue #14.1): the SM team competition has no Saturday groups, no
# Sunday and no group draw (its pair matches play ``deals_placement`` deals, its rounds start at the
# play start). The form hides these for that kind and saves the model's defaults in their place.
UNUSED_BY_KIND = {
    Event.Kind.SM_TEAM: ("format", "group_count", "deals_saturday", "deals_sunday", "draw_time", "sunday_play_time"),
}


def unused_fields(kind: str | None) -> tuple[str, ...]:
    return UNUSED_BY_KIND.get(kind, ())


class EventForm(forms.ModelForm):
    # The judges' council: one name a line (3–5, or none yet); stored as the list of names.
    judges_text = forms.CharField(
        label=_("Tuomarineuvosto"), required=False, widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("3–5 jäsentä, yksi nimi riville. Näkyy tulosluettelossa ja lopputuloksissa."),
    )

    class Meta:
        model = Event
        fields = [
            "name", "slug", "starts_on", "ends_on", "venue", "organising_club", "kind", "format", "group_count",
            "deals_saturday", "deals_sunday", "deals_placement", *DAY_FIELDS,
        ]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "draw_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "play_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "sunday_play_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
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
        for name in DAY_FIELDS:
            self.fields[name].required = False
        self.fields["play_time"].help_text = _(
            "Säännöt: lauantaina arvonta klo 11.00 ja pelit klo 11.15, sunnuntaina pelit klo 9.00; yli 15 "
            "minuuttia myöhästynyt pari on luovuttanut."
        )
        self.fields["entry_fee"].widget.attrs.update(step="0.01", min="0")
        self.fields["judges_text"].initial = "\n".join(self.instance.judges or [])
        self.fields["deals_placement"].help_text = _("Joukkuekilpailussa: jakoja kussakin parien ottelussa.")
        drawn = self.instance.pk and self.instance.drawn_at is not None
        if drawn:
            for name in FORMAT_FIELDS:  # fixed by the draw: shown, not changed (a redraw may change them)
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Lohkot on arvottu: muuta tätä arvonnan sivulla arvottaessa uudelleen.")
            for name in unused_fields(self.instance.kind):  # the kind is fixed too: its unused fields go
                del self.fields[name]
        # The fields each kind leaves out, for the page (static/js/site.js hides them as the kind changes).
        self.hide_for = {
            name: " ".join(sorted(kind for kind, names in UNUSED_BY_KIND.items() if name in names))
            for name in self.fields
        }

    def _set_aside_unused(self, data: dict) -> None:
        """The fields the chosen kind does not use take the model's defaults, whatever was in them (a
        hidden field's leftovers, or an error there, must not stop the save)."""
        for name in unused_fields(data.get("kind")):
            if name in self.fields and not self.fields[name].disabled:
                data[name] = Event._meta.get_field(name).get_default()
                self.errors.pop(name, None)

    def clean(self):
        data = super().clean()
        self._set_aside_unused(data)
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("Kisa ei voi päättyä ennen kuin se alkaa."))
        clean_format(self, data)
        for name in DAY_FIELDS:
            if name in self.fields and data.get(name) in (None, ""):
                data[name] = Event._meta.get_field(name).get_default()
        if data.get("entry_fee") is not None and data["entry_fee"] < 0:
            self.add_error("entry_fee", _("Maksu ei voi olla negatiivinen."))
        minutes = data.get("minutes_per_deal")
        if minutes is not None and not 1 <= minutes <= 60:
            self.add_error("minutes_per_deal", _("Anna jaon kesto minuutteina, 1–60."))
        names = council_names(data.get("judges_text", ""))
        try:
            validate_council(names)
        except forms.ValidationError as exc:
            self.add_error("judges_text", exc)
        else:
            self.instance.judges = names
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


class CopyEventForm(forms.Form):
    """The next leg: its name and first day; everything else comes from the event copied."""

    name = forms.CharField(label=_("Nimi"), max_length=120, validators=[reject_formula])
    starts_on = forms.DateField(
        label=_("Alkaa"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_("Kisa kestää yhtä monta päivää kuin kopioitava kisa; kellonajat pysyvät samoina."),
    )
