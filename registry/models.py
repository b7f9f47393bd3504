"""The federation's registry: clubs, players, seasons, a player's club for a season and the transfers.

Every event, the cup and the team competition read these rows; the registry knows none of them (it
imports no other app of the project). One reference goes the other way, by name only:
``SeasonClub.first_event`` names the event that fixed the season's club (RULES.md §7).

The models came from ``tournaments`` and keep its tables (``db_table``): the move changed no row
(``registry/migrations/0001_initial.py``).
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("nimi"), max_length=100, unique=True)
    short_name = models.CharField(_("lyhenne"), max_length=20, blank=True)
    town = models.CharField(_("paikkakunta"), max_length=60, blank=True)

    class Meta:
        db_table = "tournaments_club"  # the table it had in ``tournaments`` (rows kept)
        ordering = ["name"]
        verbose_name = _("kerho")
        verbose_name_plural = _("kerhot")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    first_name = models.CharField(_("etunimi"), max_length=60)
    last_name = models.CharField(_("sukunimi"), max_length=60)
    # The federation's member number. Newcomers may play before they have one, so it may be empty, but
    # two players never share a number (NULLs are distinct in both SQLite and PostgreSQL).
    member_number = models.CharField(_("jäsennumero"), max_length=20, unique=True, null=True, blank=True)
    club = models.ForeignKey(
        Club, verbose_name=_("kotikerho"), null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )

    class Meta:
        db_table = "tournaments_player"  # the table it had in ``tournaments`` (rows kept)
        ordering = ["last_name", "first_name"]
        verbose_name = _("pelaaja")
        verbose_name_plural = _("pelaajat")
        constraints = [
            models.CheckConstraint(
                condition=~Q(first_name="") & ~Q(last_name=""), name="player_name_not_empty"
            ),
            models.CheckConstraint(condition=~Q(member_number=""), name="player_member_number_null_not_empty"),
        ]
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Season(models.Model):
    """A season runs 1 August to 31 July (RULES.md §7)."""

    start = models.DateField(_("alkaa"), unique=True)
    # Cup settings (RULES.md §8): how many events count for each player; null = all (Decision).
    best_n = models.PositiveSmallIntegerField(_("parhaat N kisaa"), null=True, blank=True)
    # Bumped with every change of the season's cup settings or counted events (``cup`` signals): with the
    # counted events' results versions it keys the season's cached cup.
    cup_version = models.PositiveBigIntegerField(default=1, editable=False)

    class Meta:
        db_table = "tournaments_season"  # the table it had in ``tournaments`` (rows kept)
        ordering = ["-start"]
        verbose_name = _("kausi")
        verbose_name_plural = _("kaudet")
        constraints = [
            models.CheckConstraint(
                condition=Q(start__month=8) & Q(start__day=1), name="season_starts_first_of_august"
            ),
            models.CheckConstraint(condition=Q(best_n__isnull=True) | Q(best_n__gte=1), name="season_best_n_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.start.year}–{self.start.year + 1}"

    @property
    def end(self) -> dt.date:
        return dt.date(self.start.year + 1, 7, 31)

    @staticmethod
    def start_for(day: dt.date) -> dt.date:
        year = day.year if day.month >= 8 else day.year - 1
        return dt.date(year, 8, 1)

    @classmethod
    def for_date(cls, day: dt.date) -> Season:
        season, _created = cls.objects.get_or_create(start=cls.start_for(day))
        return season


class SeasonClub(models.Model):
    """The club a player represents for a whole season: the club of their first cup event (RULES.md §7)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="player_clubs")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_clubs")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="season_players")
    first_event = models.ForeignKey("tournaments.Event", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        db_table = "tournaments_seasonclub"  # the table it had in ``tournaments`` (rows kept)
        verbose_name = _("kauden kerho")
        verbose_name_plural = _("kauden kerhot")
        constraints = [models.UniqueConstraint(fields=["season", "player"], name="one_club_per_player_season")]

    def __str__(self) -> str:
        return f"{self.player} {self.season}: {self.club}"


class Transfer(models.Model):
    """A club change during a season, confirmed by the federation board (RULES.md §7).

    The player plays for the new club from ``confirmed_on``; the season's cup points still go to the
    first club (``SeasonClub``).
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="transfers")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="transfers")
    from_club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+", verbose_name=_("kerhosta"))
    to_club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+", verbose_name=_("kerhoon"))
    confirmed_on = models.DateField(_("hallituksen vahvistus"))

    class Meta:
        db_table = "tournaments_transfer"  # the table it had in ``tournaments`` (rows kept)
        verbose_name = _("seurasiirto")
        verbose_name_plural = _("seurasiirrot")
        constraints = [
            models.CheckConstraint(condition=~Q(from_club=F("to_club")), name="transfer_changes_club"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.from_club} → {self.to_club} ({self.confirmed_on})"


class Ban(models.Model):
    """A ban (*pelikielto*) the federation's board gave a player (issue #29): from ``starts_on`` to
    ``ends_on``, both included. The board gives a ban of a known length ("pidempi pelikielto"), so the end
    is required. A banned player cannot be entered in a pair, a team or as a substitute at an event whose
    dates meet the ban (``registry.bans``)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="bans", verbose_name=_("pelaaja"))
    starts_on = models.DateField(_("alkaa"))
    ends_on = models.DateField(_("päättyy"))
    reason = models.TextField(_("syy"))
    decision = models.CharField(
        _("päätös"), max_length=200, help_text=_("Esim. Hallituksen päätös 12.3.2027 §4")
    )
    decided_on = models.DateField(_("päätöspäivä"))
    created_at = models.DateTimeField(_("kirjattu"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("kirjaaja"),
        null=True,
        blank=True,
        editable=False,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-starts_on", "player"]
        verbose_name = _("pelikielto")
        verbose_name_plural = _("pelikiellot")
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")), name="ban_ends_after_start"),
        ]
        indexes = [models.Index(fields=["player", "ends_on"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.starts_on}–{self.ends_on}"
