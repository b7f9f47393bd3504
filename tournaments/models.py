"""The facts of a Tuppi event: clubs, players, seasons, events, pairs, groups and matches.

Models store facts (who entered, who came, what was drawn and scheduled); figures derived from them
(results, standings, places) are computed by the pure rules core in ``scoring``. The database enforces
the invariants it can (unique and check constraints); multi-row operations live in ``services``.
"""

from __future__ import annotations

import datetime as dt
import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.validators import reject_formula, validate_council


class Club(models.Model):
    name = models.CharField(_("nimi"), max_length=100, unique=True)
    short_name = models.CharField(_("lyhenne"), max_length=20, blank=True)
    town = models.CharField(_("paikkakunta"), max_length=60, blank=True)

    class Meta:
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
    first_event = models.ForeignKey("Event", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
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
        verbose_name = _("seurasiirto")
        verbose_name_plural = _("seurasiirrot")
        constraints = [
            models.CheckConstraint(condition=~Q(from_club=F("to_club")), name="transfer_changes_club"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.from_club} → {self.to_club} ({self.confirmed_on})"


class Event(models.Model):
    class Kind(models.TextChoices):
        CUP = "cup", _("cupin osakilpailu")
        SUMMER = "summer", _("kesäkisa")
        SM_PAIRS = "sm_pairs", _("SM-parikisa")
        SM_TEAM = "sm_team", _("SM-joukkuekisa")
        OTHER = "other", _("muu kisa")

    # The kinds that are cup events (RULES.md §8: counted for the Tuppicup, the summer event at half
    # weight): their first one of the season fixes a player's season club (§7) and their matches have at
    # least 12 planned deals (§4). ``cup.models`` gives each of them its default weight.
    CUP_KINDS = frozenset({Kind.CUP, Kind.SM_PAIRS, Kind.SUMMER})

    class Format(models.TextChoices):
        STANDARD = "standard", _("kaksipäiväinen (alkulohkot ja sunnuntai)")
        ONE_STAGE = "one_stage", _("yksivaiheinen (lohkot ratkaisevat sijat)")

    name = models.CharField(_("nimi"), max_length=120)
    slug = models.SlugField(_("osoite"), max_length=80, unique=True)
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="events", verbose_name=_("kausi"))
    starts_on = models.DateField(_("alkaa"))
    ends_on = models.DateField(_("päättyy"))
    venue = models.CharField(_("pelipaikka"), max_length=120, blank=True)
    organising_club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="organised_events",
        verbose_name=_("järjestävä kerho"),
    )
    kind = models.CharField(_("laji"), max_length=10, choices=Kind.choices, default=Kind.CUP)
    format = models.CharField(_("muoto"), max_length=10, choices=Format.choices, default=Format.STANDARD)
    # One-stage events: the organiser picks the group count (RULES.md §4, Decision on small events).
    group_count = models.PositiveSmallIntegerField(_("lohkojen määrä"), null=True, blank=True)
    # Planned deals per stage; an empty Saturday value means "by group size" (RULES.md §4).
    deals_saturday = models.PositiveSmallIntegerField(_("jakoja alkulohkoissa"), null=True, blank=True)
    deals_sunday = models.PositiveSmallIntegerField(_("jakoja sunnuntain lohkoissa"), default=16)
    deals_placement = models.PositiveSmallIntegerField(_("jakoja sijoitusotteluissa"), default=16)
    # Results at the table (issue #16): both pairs accept a sheet finished on its secret link before it
    # goes to the results desk; a whole result typed from paper through the link only if allowed.
    require_acceptance = models.BooleanField(
        _("parit hyväksyvät tuloksen pöydässä"), default=True,
        help_text=_("Kun pöytäkirja on valmis, kumpikin pari hyväksyy tuloksen ottelun linkillä."),
    )
    link_paper_allowed = models.BooleanField(
        _("paperipöytäkirjan tuloksen saa kirjata ottelun linkillä"), default=False,
        help_text=_("Muuten vain järjestäjä kirjaa kokonaisen tuloksen paperipöytäkirjasta."),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_events", verbose_name=_("järjestäjät")
    )
    # The event day's clock (issue #19). The general rules: on Saturday the group draw at 11.00 and play
    # at 11.15, on Sunday play at 9.00; a pair more than 15 minutes late has forfeited. The estimated
    # length of a deal gives each round its estimated start (``scoring.timetable``).
    draw_time = models.TimeField(_("lauantain arvonta klo"), default=dt.time(11, 0))
    play_time = models.TimeField(_("lauantain pelit alkavat klo"), default=dt.time(11, 15))
    sunday_play_time = models.TimeField(_("sunnuntain pelit alkavat klo"), default=dt.time(9, 0))
    minutes_per_deal = models.PositiveSmallIntegerField(
        _("jaon arvioitu kesto (min)"), default=5,
        help_text=_("Kierrosten arvioidut alkamisajat lasketaan tästä ja tulosten tulosta."),
    )
    # Entry fees (issue #19): the federation sets the level; the organiser collects it at check-in.
    class FeeBasis(models.TextChoices):
        PAIR = "pair", _("parilta")
        PLAYER = "player", _("pelaajalta")

    entry_fee = models.DecimalField(
        _("osallistumismaksu (€)"), max_digits=6, decimal_places=2, default=0,
        help_text=_("0: kisassa ei ole osallistumismaksua."),
    )
    fee_basis = models.CharField(_("maksu peritään"), max_length=6, choices=FeeBasis.choices, default=FeeBasis.PAIR)
    # The judges' council (tuomarineuvosto): 3–5 names, or none named yet.
    judges = models.JSONField(_("tuomarineuvosto"), default=list, blank=True, validators=[validate_council])
    # The draw (RULES.md §4, Decision): reproducible from the recorded seed, shown publicly with its time.
    draw_seed = models.BigIntegerField(_("arvonnan siemen"), null=True, blank=True)
    drawn_at = models.DateTimeField(_("arvottu"), null=True, blank=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_at = models.DateTimeField(_("päättynyt"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The results version: bumped (``tournaments.versions.bump``) in the same transaction as every change
    # that can alter anything derived from the event's facts. The read model's snapshot, every cached
    # page fragment and every ETag are keyed on it, so nothing derived is ever served stale.
    results_version = models.PositiveBigIntegerField(default=1, editable=False)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("kisa")
        verbose_name_plural = _("kisat")
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")), name="event_ends_after_start"),
            models.CheckConstraint(
                condition=Q(format="one_stage") | Q(group_count__isnull=True), name="event_group_count_one_stage_only"
            ),
            models.CheckConstraint(
                condition=Q(group_count__isnull=True) | Q(group_count__gte=1), name="event_group_count_positive"
            ),
            models.CheckConstraint(
                condition=Q(deals_saturday__isnull=True) | Q(deals_saturday__gte=1), name="event_deals_saturday_positive"
            ),
            models.CheckConstraint(condition=Q(deals_sunday__gte=1), name="event_deals_sunday_positive"),
            models.CheckConstraint(condition=Q(deals_placement__gte=1), name="event_deals_placement_positive"),
            models.CheckConstraint(
                condition=Q(draw_seed__isnull=True, drawn_at__isnull=True)
                | Q(draw_seed__isnull=False, drawn_at__isnull=False),
                name="event_draw_seed_with_time",
            ),
            models.CheckConstraint(
                condition=Q(minutes_per_deal__gte=1) & Q(minutes_per_deal__lte=60), name="event_minutes_per_deal_range"
            ),
            models.CheckConstraint(condition=Q(entry_fee__gte=0), name="event_entry_fee_not_negative"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        """Saving an existing event (an edit, the draw, publication, the admin) bumps its results version
        in the same statement, so a page cached on the old version is never served again and an instance
        loaded earlier never writes an old version back."""
        if self.pk is not None and not kwargs.get("force_insert") and not self._state.adding:
            self.results_version = F("results_version") + 1
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "results_version"}
            super().save(*args, **kwargs)
            self.results_version = Event.objects.filter(pk=self.pk).values_list("results_version", flat=True).get()
            return
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("event", args=[self.slug])

    @property
    def is_cup_event(self) -> bool:
        return self.kind in self.CUP_KINDS

    @property
    def fee_per_pair(self):
        """What one pair pays: the entry fee, twice when it is charged per player."""
        return self.entry_fee * (2 if self.fee_basis == self.FeeBasis.PLAYER else 1)

    @property
    def status(self) -> str:
        """upcoming, live or finished: derived from the dates and the draw, never stored."""
        return event_status(self.starts_on, self.ends_on, self.drawn_at, self.finished_at)

    def get_status_display(self) -> str:
        return str(STATUS_LABELS[self.status])

    def can_organise(self, user) -> bool:
        """Organiser pages need a login and a permission for this event."""
        if not user.is_authenticated or not user.is_active:
            return False
        if user.is_superuser:
            return True
        return self.organisers.filter(pk=user.pk).exists()


def event_status(starts_on: dt.date, ends_on: dt.date, drawn_at, finished_at) -> str:
    """An event's status on today's date: finished once published or past its last day; live once drawn
    or on its first day; upcoming before."""
    today = timezone.localdate()
    if finished_at or ends_on < today:
        return "finished"
    if drawn_at or starts_on <= today:
        return "live"
    return "upcoming"


def unique_event_slug(text: str, *, exclude_pk: int | None = None, max_length: int = 70) -> str:
    """A free event slug from ``text``: "kisa", then "kisa-2", "kisa-3", … if taken."""
    base = slugify(text)[:max_length] or "kisa"
    slug, n = base, 1
    while Event.objects.filter(slug=slug).exclude(pk=exclude_pk).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


STATUS_LABELS = {
    "upcoming": pgettext_lazy("event status", "tulossa"),
    "live": pgettext_lazy("event status", "käynnissä"),
    "finished": pgettext_lazy("event status", "päättynyt"),
}


class Pair(models.Model):
    """A pair entered in one event, representing one club."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pairs")
    number = models.PositiveSmallIntegerField(_("numero"))
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="pairs", verbose_name=_("kerho"))
    checked_in = models.BooleanField(_("paikalla"), default=False)
    withdrawn_at = models.DateTimeField(_("luopunut"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    # The entry fee as collected at check-in (issue #19): when, how and how much (the pair's fee when it
    # was recorded, so that a later change of the event's fee does not rewrite what was collected).
    class FeeMethod(models.TextChoices):
        CASH = "cash", _("käteinen")
        CARD = "card", _("kortti")
        TRANSFER = "transfer", _("tilisiirto")

    fee_paid_at = models.DateTimeField(_("maksettu"), null=True, blank=True)
    fee_method = models.CharField(_("maksutapa"), max_length=8, choices=FeeMethod.choices, blank=True)
    fee_amount = models.DecimalField(_("maksettu summa (€)"), max_digits=7, decimal_places=2, null=True, blank=True)
    fee_recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("pari")
        verbose_name_plural = _("parit")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="pair_number_unique_in_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="pair_number_positive"),
            models.CheckConstraint(
                condition=Q(fee_paid_at__isnull=True, fee_method="", fee_amount__isnull=True)
                | (Q(fee_paid_at__isnull=False, fee_amount__gte=0) & ~Q(fee_method="")),
                name="pair_fee_paid_with_method_and_amount",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> list[Player]:
        return [m.player for m in sorted(self.members.all(), key=lambda m: m.position)]

    @property
    def name(self) -> str:
        names = [p.last_name for p in self.players]
        return " / ".join(names) if names else f"#{self.number}"

    @property
    def full_name(self) -> str:
        return " / ".join(p.full_name for p in self.players)

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None


class PairMember(models.Model):
    """One of a pair's two players. ``event`` is the pair's event, repeated here so that the database
    itself refuses a player in two pairs of one event."""

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="members")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="pair_memberships")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["pair", "position"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="player_in_one_pair_per_event"),
            models.UniqueConstraint(fields=["pair", "position"], name="pair_two_positions"),
            models.UniqueConstraint(fields=["pair", "player"], name="pair_two_different_players"),
            models.CheckConstraint(condition=Q(position__in=[1, 2]), name="pair_member_position_1_or_2"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.pair_id})"


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Stage(models.TextChoices):
    SATURDAY = "saturday", _("alkulohkot")
    SUNDAY = "sunday", _("sunnuntain lohkot")
    PLACEMENT = "placement", _("sijoitusottelut")
    TEAM = "team", _("joukkueottelut")


class Group(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="groups")
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.SATURDAY)
    name = models.CharField(_("lohko"), max_length=4)
    deals_planned = models.PositiveSmallIntegerField(_("jakoja"))

    class Meta:
        ordering = ["event", "stage", "name"]
        verbose_name = _("lohko")
        verbose_name_plural = _("lohkot")
        constraints = [
            models.UniqueConstraint(fields=["event", "stage", "name"], name="group_name_unique_in_stage"),
            models.CheckConstraint(condition=Q(deals_planned__gte=1), name="group_deals_positive"),
        ]

    def __str__(self) -> str:
        return str(_("Lohko %(name)s") % {"name": self.name})


class GroupEntry(models.Model):
    """A pair's place in a group, in draw order. ``stage`` repeats the group's stage so that the database
    refuses a pair in two groups of one stage."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="entries")
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="group_entries")
    stage = models.CharField(max_length=10, choices=Stage.choices)
    slot = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["group", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["pair", "stage"], name="pair_in_one_group_per_stage"),
            models.UniqueConstraint(fields=["group", "slot"], name="group_slot_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.group_id}/{self.slot}: {self.pair_id}"


class Match(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("tulossa")
        PLAYING = "playing", _("käynnissä")
        FINISHED = "finished", _("pelattu")
        ANNULLED = "annulled", _("mitätöity")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="matches")
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.SATURDAY)
    group = models.ForeignKey(Group, null=True, blank=True, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField(_("kierros"))
    table = models.PositiveSmallIntegerField(_("pöytä"))
    pair_a = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="matches_as_a")
    pair_b = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="matches_as_b")
    deals_planned = models.PositiveSmallIntegerField(_("jakoja"))
    # The workflow state. Scores are never stored here: they are folded from the entries by the engine.
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    # Placement matches only (RULES.md §5): tier 1–4 (places 1–4 … 13–16), round semi/final/third, slot.
    tier = models.PositiveSmallIntegerField(null=True, blank=True)
    placement_round = models.CharField(max_length=5, blank=True)
    slot = models.PositiveSmallIntegerField(null=True, blank=True)
    # The secret link printed as a QR code on the scoresheet: whoever holds it may enter this match's
    # result until an organiser confirms it.
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    # Optimistic locking: every saved change increments it; a form saved on an older version is refused.
    version = models.PositiveIntegerField(default=0)
    confirmed_at = models.DateTimeField(_("vahvistettu"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Acceptance at the table (issue #16): each pair taps "accept" on the secret link once the sheet is
    # finished; an accepted, confirmed or published result is read-only there (``link_closed``). An
    # organiser's later correction keeps the link closed and leaves the result "corrected, awaiting
    # confirmation" (``corrected_at``) until it is confirmed again.
    accepted_a_at = models.DateTimeField(_("pari A hyväksyi"), null=True, blank=True)
    accepted_b_at = models.DateTimeField(_("pari B hyväksyi"), null=True, blank=True)
    link_closed = models.BooleanField(default=False)
    corrected_at = models.DateTimeField(_("korjattu"), null=True, blank=True)
    # Decision (issue #19): when the result came in, set by the result services (``services._commit``)
    # when a change makes the sheet finished, kept while it stays finished, cleared when a change reopens
    # it. The timetable reads it (a round starts when the previous round's last match finishes); the
    # last ResultChange would not do, since an acceptance or a confirmation hours later is one too.
    finished_at = models.DateTimeField(_("tulos valmis"), null=True, blank=True)
    # The match's referee (tuomari), named by the organiser; empty: the player in seat 4 keeps the
    # scoresheet, as the general rules say when no referee is named.
    referee = models.CharField(_("tuomari"), max_length=80, blank=True, validators=[reject_formula])

    class Meta:
        ordering = ["event", "stage", "round", "table"]
        verbose_name = _("ottelu")
        verbose_name_plural = _("ottelut")
        constraints = [
            models.CheckConstraint(condition=~Q(pair_a=F("pair_b")), name="match_two_different_pairs"),
            models.CheckConstraint(condition=Q(round__gte=1) & Q(table__gte=1), name="match_round_table_positive"),
            models.CheckConstraint(condition=Q(deals_planned__gte=1), name="match_deals_positive"),
            # A table never has two matches in one round.
            models.UniqueConstraint(fields=["event", "stage", "round", "table"], name="one_match_per_table_round"),
            models.UniqueConstraint(
                fields=["group", "pair_a", "pair_b"], condition=Q(group__isnull=False), name="group_pairs_meet_once"
            ),
            models.CheckConstraint(
                condition=(
                    Q(stage="placement", tier__in=[1, 2, 3, 4], placement_round__in=["semi", "final", "third"])
                    & Q(slot__in=[1, 2])
                )
                | (~Q(stage="placement") & Q(tier__isnull=True) & Q(placement_round="")),
                name="match_placement_fields",
            ),
            models.UniqueConstraint(
                fields=["event", "tier", "placement_round", "slot"],
                condition=Q(stage="placement"),
                name="one_placement_match_per_slot",
            ),
        ]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"{self.pair_a} – {self.pair_b}"


class DrawSwap(models.Model):
    """Two pairs exchanged after the draw, in order: the seed's draw plus these swaps gives the groups."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="draw_swaps")
    pair_x = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+")
    pair_y = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+")
    swapped_at = models.DateTimeField(auto_now_add=True)
    swapped_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["event", "swapped_at", "pk"]
        constraints = [models.CheckConstraint(condition=~Q(pair_x=F("pair_y")), name="swap_two_different_pairs")]

    def __str__(self) -> str:
        return f"{self.pair_x} ↔ {self.pair_y}"


class MatchSubstitute(models.Model):
    """A substitute (*varamies*) who sat at the table in a player's place for one match (RULES.md §6).

    In the team competition the leader's declared order names the substitute and the player he
    replaces; when the team match starts, its pair matches are created from the orders and this row with
    them, so the match records who played: the scoresheet (on paper and on the phone), the match pages and
    the result lines name the substitute, marked as one (``readmodel``)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="substitutes")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("pelaaja"))
    substitute = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("varamies"))

    class Meta:
        verbose_name = _("ottelun varamies")
        verbose_name_plural = _("ottelujen varamiehet")
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="one_substitute_per_player_and_match"),
            models.UniqueConstraint(fields=["match", "substitute"], name="substitute_once_per_match"),
            models.CheckConstraint(condition=~Q(player=F("substitute")), name="substitute_is_another_player"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.substitute_id} for {self.player_id}"


class Entry(models.Model):
    """One line of a match's scoresheet, in order: a deal, a points penalty, a tuppi penalty or a forfeit.

    Only what was played is stored (game, caller, tricks; the penalty's pair and points). Points, rises,
    totals and the result are folded from the entries by ``scoring.match``.
    """

    class Kind(models.TextChoices):
        DEAL = "deal", _("jako")
        POINTS = "points", _("pisterangaistus")
        TUPPI = "tuppi", _("tuppirangaistus")
        FORFEIT = "forfeit", _("luovutus")

    class Game(models.TextChoices):
        RAMI = "rami", _("rami")
        NOLO = "nolo", _("nolo")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    game = models.CharField(max_length=4, choices=Game.choices, blank=True)
    caller_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    tricks_a = models.PositiveSmallIntegerField(null=True, blank=True)
    tricks_b = models.PositiveSmallIntegerField(null=True, blank=True)
    penalised = models.BooleanField(default=False)
    pair = models.CharField(max_length=1, blank=True)  # "A" or "B": the penalty's beneficiary, the forfeiting pair
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    # The referee's phone names each line it sends (a random id made in the browser): a retry, a double
    # tap or a second tab sending the same line stores it once.
    client_id = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="entry_position_unique"),
            models.UniqueConstraint(
                fields=["match", "client_id"], condition=~Q(client_id=""), name="entry_client_id_unique"
            ),
            models.CheckConstraint(condition=Q(position__gte=1), name="entry_position_positive"),
            models.CheckConstraint(
                condition=~Q(kind="deal")
                | (Q(game__in=["rami", "nolo"]) & Q(tricks_a__isnull=False) & Q(tricks_b__isnull=False)),
                name="entry_deal_has_game_and_tricks",
            ),
            models.CheckConstraint(
                condition=Q(caller_seat__isnull=True) | Q(caller_seat__in=[1, 2, 3, 4]), name="entry_caller_seat"
            ),
            models.CheckConstraint(
                condition=Q(tricks_a__isnull=True) | Q(tricks_a__lte=13), name="entry_tricks_a_at_most_13"
            ),
            models.CheckConstraint(
                condition=Q(tricks_b__isnull=True) | Q(tricks_b__lte=13), name="entry_tricks_b_at_most_13"
            ),
            models.CheckConstraint(
                condition=Q(kind="deal") | Q(pair__in=["A", "B"]), name="entry_penalty_names_pair"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.position} {self.kind}"


class PaperResult(models.Model):
    """A result typed in from a paper scoresheet: both rise totals, tuppi or not, deals played."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="paper")
    total_a = models.PositiveSmallIntegerField()
    total_b = models.PositiveSmallIntegerField()
    deals_played = models.PositiveSmallIntegerField()
    tuppi = models.CharField(max_length=1, blank=True)  # "A" or "B": who won by tuppi
    deciding_winner = models.CharField(max_length=1, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(tuppi__in=["", "A", "B"]), name="paper_tuppi_pair"),
            models.CheckConstraint(condition=Q(deciding_winner__in=["", "A", "B"]), name="paper_deciding_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.total_a}–{self.total_b}"


class ResultChange(models.Model):
    """Every change to a result: who (an organiser, or the match's secret link), when, before and after."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    via_link = models.BooleanField(default=False)
    action = models.CharField(max_length=40)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    # Required for a change after the event's final places were published (shown on the final results).
    reason = models.TextField(_("syy"), blank=True)

    class Meta:
        ordering = ["match", "-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.match_id} {self.action} {self.at}"


class Playoff(models.Model):
    """The result of a play-off between pairs level after every tie-break (RULES.md §4 step 5): their order."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="playoffs")
    order = models.JSONField()  # pair ids, best first
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["group", "recorded_at"]

    def __str__(self) -> str:
        return f"{self.group_id}: {self.order}"


class SeedingCorrection(models.Model):
    """The organiser's correction of the Sunday seeding (RULES.md §5), kept with the groups before and after."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="seeding_corrections")
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    before = models.JSONField()
    after = models.JSONField()

    class Meta:
        ordering = ["event", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.event_id} {self.at}"


class Withdrawal(models.Model):
    """A pair's withdrawal as it happened (RULES.md §4): who, when, and the matches it annulled with the
    status each had, so that it can be undone until Sunday starts. ``Pair.withdrawn_at`` is the pair's
    current state; this is its history."""

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="withdrawals")
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    annulled = models.JSONField(default=dict)  # match id (as text) -> its status before the withdrawal
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["pair", "at", "pk"]
        verbose_name = _("luopuminen")
        verbose_name_plural = _("luopumiset")

    def __str__(self) -> str:
        return f"{self.pair_id} {self.at}"


class Publication(models.Model):
    """The published final places of an event and a SHA-256 digest of its canonical result record
    (``tournaments.record``): one row when the results are published, one after every correction made
    after that, so that ``manage.py verify_event`` can tell whether the stored facts still give them."""

    class Kind(models.TextChoices):
        PUBLISH = "publish", _("julkaisu")
        CORRECTION = "correction", _("korjaus julkaisun jälkeen")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="publications")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(_("syy"), blank=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    places = models.JSONField(null=True)  # [[place, pair id], …], None when a correction left them incomplete
    digest = models.CharField(max_length=64)

    class Meta:
        ordering = ["event", "at", "pk"]
        verbose_name = _("julkaisu")
        verbose_name_plural = _("julkaisut")
        constraints = [
            models.CheckConstraint(condition=Q(kind="publish") | ~Q(reason=""), name="publication_correction_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} {self.kind} {self.at}"
