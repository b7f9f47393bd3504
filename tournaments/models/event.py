"""The facts of a Tuppi event: events, pairs, groups and matches (the clubs, players and seasons they
refer to are the registry's: ``registry.models``; what happened to them is in ``records``).

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

from lib.formulas import reject_formula
from registry.models import Club, Player, Season
from tournaments.validators import validate_council


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
    # A pair may appeal a referee's decision while its match is open and this long after it ended (issue #29).
    appeal_minutes = models.PositiveSmallIntegerField(
        _("valitusaika (min)"), default=30,
        help_text=_("Kuinka kauan ottelun päättymisen jälkeen pari voi valittaa tuomarineuvostolle."),
    )
    # The draw (RULES.md §4, Decision): reproducible from the recorded seed, shown publicly with its time.
    draw_seed = models.BigIntegerField(_("arvonnan siemen"), null=True, blank=True)
    drawn_at = models.DateTimeField(_("arvottu"), null=True, blank=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_at = models.DateTimeField(_("päättynyt"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The results version: bumped (``tournaments.actions.versions.bump``) in the same transaction as every change
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

