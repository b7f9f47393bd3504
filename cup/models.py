"""The cup's own settings: which events count and with what weight, and each season's points table.

Nothing computed is stored here: the rankings are computed from the tournaments' facts every time they
are read (``cup.services``), so a corrected result changes the cup at once. How many events count per
player (best N) is ``registry.Season.best_n``, which has its own check constraint.
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from registry.models import Club, Season
from scoring.cup import DEFAULT_POINTS, FULL_WEIGHT, SUMMER_WEIGHT
from tournaments.models import Event, Match, Pair

# RULES.md §8: cup events and the SM pair tournament count in full, the summer event (kesäkisa) half.
WEIGHT_CHOICES = [(FULL_WEIGHT, _("1 (täysi)")), (SUMMER_WEIGHT, _("½ (kesäkisa)"))]
DEFAULT_WEIGHTS = {kind: SUMMER_WEIGHT if kind == Event.Kind.SUMMER else FULL_WEIGHT for kind in Event.CUP_KINDS}
# Decision: the SM team competition is not a pair event; its places are teams' and earn no cup points.
NOT_CUP_KINDS = (Event.Kind.SM_TEAM,)
MAX_TABLE_LENGTH = 64
# The general rules: "Jos pelaaja luovuttaa … Cupin kisoissa pelinsä, rangaistaan pelaajan kerhoa 50 €."
DEFAULT_FINE = Decimal("50.00")


def default_weight(kind: str) -> Decimal | None:
    """The weight RULES.md §8 gives an event of this kind, or None when the staff must choose."""
    return DEFAULT_WEIGHTS.get(kind)


def default_points() -> list[int]:
    return list(DEFAULT_POINTS)


def validate_points_table(value) -> None:
    """A points table lists whole, non-negative points for places 1, 2, … (RULES.md §8).

    Decision: a worse place never earns more than a better one, and the table has 1–64 places.
    """
    if not isinstance(value, list) or not value:
        raise ValidationError(_("Pistetaulukossa on oltava pisteet ainakin 1. sijalle."), code="points_empty")
    if len(value) > MAX_TABLE_LENGTH:
        raise ValidationError(
            _("Pistetaulukossa voi olla enintään %(n)s sijaa.") % {"n": MAX_TABLE_LENGTH}, code="points_long"
        )
    for place, points in enumerate(value, start=1):
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise ValidationError(
                _("Sijan %(place)s pisteiden on oltava kokonaisluku, vähintään 0.") % {"place": place},
                code="points_invalid",
            )
    for place in range(1, len(value)):
        if value[place] > value[place - 1]:
            raise ValidationError(
                _("Sija %(worse)s ei voi saada enemmän pisteitä kuin sija %(better)s.")
                % {"worse": place + 1, "better": place},
                code="points_increasing",
            )


class CupEvent(models.Model):
    """An event that counts for its season's cup, with its weight (RULES.md §8).

    The season is the event's own (``Event.season``): an event belongs to one season, so the cup row
    needs no season of its own, and "an event counted twice" or "counted in another season" cannot be
    stored (the event is unique here).
    """

    event = models.OneToOneField(
        Event,
        on_delete=models.CASCADE,
        related_name="cup",
        verbose_name=_("kisa"),
        error_messages={"unique": _("Tämä kisa on jo cupissa: sama kisa ei voi laskea kahdesti.")},
    )
    weight = models.DecimalField(
        _("paino"),
        max_digits=2,
        decimal_places=1,
        choices=WEIGHT_CHOICES,
        help_text=_("Osakilpailut ja SM-parikisa 1, kesäkisa ½."),
        error_messages={"invalid_choice": _("Painon on oltava 1 tai ½ (kesäkisa); %(value)s ei käy.")},
    )

    class Meta:
        ordering = ["event__starts_on", "event__name", "event_id"]
        verbose_name = _("cupin kisa")
        verbose_name_plural = _("cupin kisat")
        constraints = [
            models.CheckConstraint(
                condition=Q(weight__in=[FULL_WEIGHT, SUMMER_WEIGHT]), name="cup_event_weight_full_or_half"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} ({self.weight_label})"

    @property
    def weight_label(self) -> str:
        return "½" if self.weight == SUMMER_WEIGHT else "1"

    @property
    def season(self) -> Season:
        return self.event.season

    def clean(self) -> None:
        super().clean()
        if self.event_id is not None and self.event.kind in NOT_CUP_KINDS:
            raise ValidationError(
                {"event": _("SM-joukkuekisa ei ole parikisa: sen sijoista ei jaeta cup-pisteitä.")},
                code="not_pairs",
            )


class SeasonCupSettings(models.Model):
    """A season's cup settings beyond best N: the points for places 1, 2, … (default RULES.md §8)."""

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, related_name="cup_settings", verbose_name=_("kausi")
    )
    points = models.JSONField(
        _("pistetaulukko"),
        default=default_points,
        validators=[validate_points_table],
        help_text=_("Pisteet sijoille 1, 2, 3, … pilkuin eroteltuina; muut sijat saavat 0."),
    )
    # The general rules: a player who gives up a game in a cup event gets their club fined 50 €.
    forfeit_fine = models.DecimalField(
        _("luovutussakko (€)"), max_digits=6, decimal_places=2, default=DEFAULT_FINE,
        help_text=_("Kerholle kirjattava sakko, kun sen pari luovuttaa ottelun cupin kisassa."),
    )

    class Meta:
        ordering = ["-season__start"]
        verbose_name = _("kauden cup-asetukset")
        verbose_name_plural = _("kausien cup-asetukset")

    def __str__(self) -> str:
        return str(self.season)


def season_fine(season: Season) -> Decimal:
    """The fine for a forfeit in a cup event of ``season``: its cup settings' or the rules' 50 €."""
    row = SeasonCupSettings.objects.filter(season=season).values_list("forfeit_fine", flat=True).first()
    return DEFAULT_FINE if row is None else row


class ClubFine(models.Model):
    """A club's fine for a forfeit in a cup event (the general rules: 50 €, a season setting).

    Recorded by ``cup.fines`` when a cup event's scoresheet gets a forfeit line (RULES.md §3: late,
    removed, gave up), whichever way it was entered; one fine per forfeited match. The amount is the
    season's when the fine was recorded. Removing the forfeit from the sheet removes its fine unless the
    staff have marked it paid.
    """

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="club_fines", verbose_name=_("kausi"))
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="fines", verbose_name=_("kerho"))
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="club_fines", verbose_name=_("kisa"))
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="club_fine", verbose_name=_("ottelu"))
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+", verbose_name=_("luovuttanut pari"))
    amount = models.DecimalField(_("summa (€)"), max_digits=6, decimal_places=2)
    reason = models.CharField(_("syy"), max_length=200, blank=True)
    forfeited_on = models.DateField(_("päivä"))
    created_at = models.DateTimeField(auto_now_add=True)
    paid_on = models.DateField(_("maksettu"), null=True, blank=True)
    note = models.TextField(_("huomautus"), blank=True)

    class Meta:
        ordering = ["season", "club__name", "forfeited_on", "pk"]
        verbose_name = _("kerhon sakko")
        verbose_name_plural = _("kerhojen sakot")
        constraints = [models.CheckConstraint(condition=Q(amount__gte=0), name="club_fine_not_negative")]

    def __str__(self) -> str:
        return f"{self.club}: {self.amount} € ({self.forfeited_on:%d.%m.%Y})"
