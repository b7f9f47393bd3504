"""The records of what happened at an event: draw swaps, substitutes, scoresheet lines and the client ids
handled, paper results, the history of changes, play-offs, seeding corrections, withdrawals and
publications. Like the event's other facts, records are facts: what is derived from them is computed by
``scoring`` (through the read side)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from registry.models import Player
from tournaments.models.event import Event, Group, Match, Pair


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


class HandledLine(models.Model):
    """A scoresheet line's client id (``Entry.client_id``, made by the referee's phone) that the match has
    handled: stored once, it stays here when the line is later deleted or corrected away, so that the
    phone's offline queue sending it again (a retry whose answer was lost, after a reload) is answered
    "already handled" and stores nothing (issue #24). Part of the match's history: never deleted."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="handled_lines")
    client_id = models.CharField(max_length=40)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "client_id"], name="handled_line_once_per_match"),
            models.CheckConstraint(condition=~Q(client_id=""), name="handled_line_has_client_id"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.client_id}"


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
    (``tournaments.actions.publication``): one row when the results are published, one after every correction
    made after that, so that ``manage.py verify_event`` can tell whether the stored facts still give them.

    The rows form a chain (issue #24): each holds the digest of the record before it (``previous_digest``,
    empty for the first), and its own record, which names that digest, so its digest covers the whole
    history; ``record`` keeps the exact text hashed. Rows kept before issue #24 have no ``record``: their
    digest is of the older record, which did not name the players (``publication.legacy_record``)."""

    class Kind(models.TextChoices):
        PUBLISH = "publish", _("julkaisu")
        CORRECTION = "correction", _("korjaus julkaisun jälkeen")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="publications")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(_("syy"), blank=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # [[place, pair id], …] (a team competition's: team ids). Always complete since issue #24: a correction
    # that would leave places undecided is refused (``services``); rows kept before may hold None.
    places = models.JSONField(null=True)
    digest = models.CharField(max_length=64)
    previous_digest = models.CharField(max_length=64, blank=True, default="")
    record = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["event", "at", "pk"]
        verbose_name = _("julkaisu")
        verbose_name_plural = _("julkaisut")
        constraints = [
            models.CheckConstraint(condition=Q(kind="publish") | ~Q(reason=""), name="publication_correction_has_reason"),
            # The chain never forks: no two records of an event follow the same one.
            models.UniqueConstraint(
                fields=["event", "previous_digest"], condition=~Q(record=""), name="publication_chain_no_fork"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} {self.kind} {self.at}"
