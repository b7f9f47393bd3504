"""Federation staff manage the cup in the admin: which events count and with what weight, best N and the
points table of each season. Weights are suggested from the event's kind (RULES.md §8)."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cup import services
from cup.models import (
    DEFAULT_FINE,
    WEIGHT_CHOICES,
    ClubFine,
    CupEvent,
    SeasonCupSettings,
    default_weight,
    validate_points_table,
)
from scoring.cup import DEFAULT_POINTS
from tournaments.models import Event


class EventChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, event: Event) -> str:
        return f"{event.name} ({event.starts_on:%d.%m.%Y}, {event.get_kind_display()}, {event.season})"


class CupEventForm(forms.ModelForm):
    event = EventChoiceField(
        label=_("kisa"),
        queryset=Event.objects.exclude(kind=Event.Kind.SM_TEAM)
        .select_related("season")
        .order_by("-starts_on", "name"),
    )
    weight = forms.TypedChoiceField(
        label=_("paino"),
        choices=[("", _("lajin mukaan (osakilpailu ja SM-parikisa 1, kesäkisa ½)")), *WEIGHT_CHOICES],
        coerce=CupEvent._meta.get_field("weight").to_python,
        empty_value=None,
        required=False,
        help_text=_("Jätä lajin mukaan, niin osakilpailu ja SM-parikisa saavat painon 1 ja kesäkisa ½."),
    )

    class Meta:
        model = CupEvent
        fields = ["event", "weight"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        weight = self.initial.get("weight")
        if weight is not None:  # the database gives 1.0; the choices say 1 and 0.5
            self.initial["weight"] = next(
                (str(value) for value, _label in WEIGHT_CHOICES if value == weight), weight
            )

    def clean(self):
        data = super().clean()
        event = data.get("event")
        if event is not None and data.get("weight") is None:
            weight = default_weight(event.kind)
            if weight is None:
                self.add_error(
                    "weight",
                    ValidationError(
                        _("Valitse paino: lajin ”%(kind)s” kisalle ei ole oletuspainoa."),
                        code="weight_required",
                        params={"kind": event.get_kind_display()},
                    ),
                )
            else:
                data["weight"] = weight
        return data


@admin.register(CupEvent)
class CupEventAdmin(admin.ModelAdmin):
    form = CupEventForm
    list_display = ["event", "season", "starts_on", "kind", "weight_display", "published"]
    list_filter = ["event__season", "event__kind"]
    search_fields = ["event__name", "event__slug"]
    ordering = ["-event__starts_on", "event__name"]
    list_select_related = ["event__season"]

    @admin.display(description=_("kausi"), ordering="event__season__start")
    def season(self, obj: CupEvent):
        return obj.event.season

    @admin.display(description=_("alkaa"), ordering="event__starts_on")
    def starts_on(self, obj: CupEvent):
        return obj.event.starts_on

    @admin.display(description=_("laji"), ordering="event__kind")
    def kind(self, obj: CupEvent):
        return obj.event.get_kind_display()

    @admin.display(description=_("paino"), ordering="weight")
    def weight_display(self, obj: CupEvent):
        return obj.weight_label

    @admin.display(description=_("tulokset julkaistu"), boolean=True)
    def published(self, obj: CupEvent):
        return obj.event.finished_at is not None


class SeasonCupSettingsForm(forms.ModelForm):
    points = forms.CharField(
        label=_("pistetaulukko"),
        help_text=_("Pisteet sijoille 1, 2, 3, … pilkuin eroteltuina; muut sijat saavat 0."),
        widget=forms.TextInput(attrs={"size": 70}),
    )
    best_n = forms.IntegerField(
        label=_("parhaat N kisaa"),
        required=False,
        min_value=1,
        help_text=_("Montako kisaa kultakin pelaajalta lasketaan; tyhjä = kaikki."),
        error_messages={"min_value": _("Laskettavia kisoja on oltava vähintään 1 (tyhjä = kaikki).")},
    )

    forfeit_fine = forms.DecimalField(
        label=_("luovutussakko (€)"),
        required=False,
        min_value=0,
        max_digits=6,
        decimal_places=2,
        help_text=_("Kerholle kirjattava sakko, kun sen pari luovuttaa ottelun cupin kisassa; tyhjä = 50 €."),
    )

    class Meta:
        model = SeasonCupSettings
        fields = ["season", "best_n", "points", "forfeit_fine"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["best_n"].initial = self.instance.season.best_n
        points = self.initial.get("points") or list(DEFAULT_POINTS)
        if isinstance(points, list):
            self.initial["points"] = ", ".join(str(p) for p in points)

    def clean_forfeit_fine(self) -> Decimal:
        value = self.cleaned_data.get("forfeit_fine")
        return DEFAULT_FINE if value is None else value

    def clean_points(self) -> list[int]:
        raw = self.cleaned_data["points"]
        values = []
        for part in raw.replace(";", ",").split(","):
            part = part.strip()
            if not part:
                continue
            try:
                values.append(int(part))
            except ValueError:
                raise ValidationError(
                    _("”%(value)s” ei ole kokonaisluku."), code="points_invalid", params={"value": part}
                ) from None
        validate_points_table(values)
        return values

    def save(self, commit=True):
        settings = super().save(commit=commit)
        season = settings.season
        season.best_n = self.cleaned_data.get("best_n")
        season.save(update_fields=["best_n"])
        return settings


@admin.register(SeasonCupSettings)
class SeasonCupSettingsAdmin(admin.ModelAdmin):
    form = SeasonCupSettingsForm
    list_display = ["season", "best_n", "points_display", "forfeit_fine"]
    readonly_fields = ["season_events", "season_fines"]
    actions = ["count_default_events"]
    list_select_related = ["season"]

    @admin.display(description=_("parhaat N kisaa"))
    def best_n(self, obj: SeasonCupSettings):
        return obj.season.best_n or gettext("kaikki")

    @admin.display(description=_("pistetaulukko"))
    def points_display(self, obj: SeasonCupSettings):
        return ", ".join(str(p) for p in obj.points)

    @admin.display(description=_("kauden kisat"))
    def season_events(self, obj: SeasonCupSettings):
        if obj.pk is None:
            return "–"
        events = Event.objects.filter(season=obj.season).select_related("cup").order_by("starts_on", "name")
        rows = [
            (
                event.name,
                event.get_kind_display(),
                event.cup.weight_label if hasattr(event, "cup") else gettext("ei cupissa"),
            )
            for event in events
        ]
        listing = format_html_join("", "<li>{} ({}): {}</li>", rows) if rows else gettext("Ei kisoja.")
        link = reverse("cup:players", args=[obj.season.pk])
        return format_html('<ul>{}</ul><a href="{}">{}</a>', listing, link, gettext("Kauden Tuppicup"))

    @admin.display(description=_("kauden sakot kerhoittain"))
    def season_fines(self, obj: SeasonCupSettings):
        if obj.pk is None:
            return "–"
        rows = [(row["club"], row["count"], f"{row['total']:.2f}") for row in services.fines_by_club(obj.season)]
        listing = format_html_join("", "<li>{}: {} kpl, {} €</li>", rows) if rows else gettext("Ei sakkoja.")
        link = reverse("admin:cup_clubfine_changelist") + f"?season__id__exact={obj.season.pk}"
        return format_html('<ul>{}</ul><a href="{}">{}</a>', listing, link, gettext("Kauden sakot"))

    @admin.action(
        description=_("Lisää kauden osakilpailut, SM-parikisa ja kesäkisa cupiin lajin mukaisin painoin")
    )
    def count_default_events(self, request, queryset):
        added = sum(len(services.add_season_events(s.season)) for s in queryset.select_related("season"))
        self.message_user(request, gettext("Cupiin lisättiin %(n)s kisaa.") % {"n": added}, messages.SUCCESS)


@admin.register(ClubFine)
class ClubFineAdmin(admin.ModelAdmin):
    """The season's club fines for forfeits in cup events (``cup.fines`` records them); the staff mark
    them paid and keep notes."""

    list_display = ["club", "season", "event", "match_label", "pair", "amount", "reason", "forfeited_on", "paid_on"]
    list_filter = ["season", "club", "paid_on"]
    search_fields = ["club__name", "event__name"]
    list_select_related = ["club", "season", "event", "match", "pair"]
    readonly_fields = ["season", "club", "event", "match", "pair", "amount", "reason", "forfeited_on", "created_at"]
    fields = [*readonly_fields, "paid_on", "note"]
    date_hierarchy = "forfeited_on"

    @admin.display(description=_("ottelu"), ordering="match__round")
    def match_label(self, obj: ClubFine) -> str:
        return f"{obj.match.get_stage_display()} {obj.match.round}/{obj.match.table}"

    def has_add_permission(self, request) -> bool:
        return False  # a fine comes from a forfeit on a scoresheet
