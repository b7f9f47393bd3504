"""The facts of an SM team competition (RULES.md §6): teams and their pairs, the bracket's rounds and
team matches, each leader's declared order and the three ordinary pair matches of a team match.

The competition itself is a ``tournaments.Event`` of kind "sm_team"; the bracket's seed and time are the
event's ``draw_seed`` and ``drawn_at``. Nothing computed is stored: a team match's winner comes from its
pair matches' results (``scoring.knockout.team_match_winner``), the bracket and the places from the seed
and those winners (``scoring.knockout``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from registry.models import Club, Player
from tournaments.models import Event, Match, Pair, new_token


class Team(models.Model):
    """A club's team: three pairs (``TeamPair``) and possibly a substitute (*varamies*)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams", verbose_name=_("kisa"))
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="teams", verbose_name=_("kerho"))
    name = models.CharField(_("joukkueen nimi"), max_length=80)
    leader_name = models.CharField(_("joukkueenjohtaja"), max_length=100)
    # The leader's secret link (/joukkue/<token>/): declare the pairs' order and name the substitute.
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    substitute = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("varamies")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "name"]
        verbose_name = _("joukkue")
        verbose_name_plural = _("joukkueet")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="team_name_unique_in_event"),
            models.CheckConstraint(condition=~Q(name="") & ~Q(leader_name=""), name="team_names_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def reinforcements(self) -> int:
        """How many of the team's pairs represent another club (needs ``team_pairs`` with ``pair``)."""
        return sum(1 for tp in self.team_pairs.all() if tp.pair.club_id != self.club_id)

    @property
    def title_only(self) -> bool:
        """RULES.md §6: more than one pair from outside the club: the team plays for the title only and
        its club earns no right to host a cup event next season."""
        return self.reinforcements > 1


class TeamPair(models.Model):
    """One of a team's three pairs, in registration order 1–3; the pair is an ordinary pair of the event.
    A pair whose club is not the team's club is a reinforcement (computed, never stored)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="team_pairs")
    pair = models.OneToOneField(Pair, on_delete=models.CASCADE, related_name="team_pair")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["team", "number"]
        constraints = [
            models.UniqueConstraint(fields=["team", "number"], name="team_pair_number_unique"),
            models.CheckConstraint(condition=Q(number__in=[1, 2, 3]), name="team_pair_number_1_to_3"),
        ]

    def __str__(self) -> str:
        return f"{self.team_id}/{self.number}: {self.pair_id}"

    @property
    def reinforcement(self) -> bool:
        return self.pair.club_id != self.team.club_id


class TeamRound(models.Model):
    """A round of the bracket and the day it is played. **Decision (Saturday and Sunday, RULES.md §6):**
    the day of a team match is its round's day; a "Sunday" substitution is one for a match played on a
    later day than the event's first, and "eliminated on Saturday" means out after a match of an earlier
    day. By default the semifinals, the final and the third-place match are played on the event's last
    day and the earlier rounds on its first; the organiser may move a round until it starts."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_rounds")
    number = models.PositiveSmallIntegerField(_("kierros"))
    day = models.DateField(_("päivä"))

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="team_round_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="team_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} {self.number}: {self.day}"


class TeamMatch(models.Model):
    """A match of the bracket: round r (1 = first), slot s as in ``scoring.knockout``; the match for third
    place is slot 2 of the last round. A round-1 bye has ``team_b`` empty. Rows exist as soon as both
    teams are known (round 1 at the draw); ``started_at`` locks the orders and creates the pair matches."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_matches")
    round = models.PositiveSmallIntegerField(_("kierros"))
    slot = models.PositiveSmallIntegerField()
    third_place = models.BooleanField(default=False)
    team_a = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    team_b = models.ForeignKey(Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(_("alkanut"), null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event", "round", "slot"]
        verbose_name = _("joukkueottelu")
        verbose_name_plural = _("joukkueottelut")
        constraints = [
            models.UniqueConstraint(fields=["event", "round", "slot"], name="team_match_slot_unique"),
            models.CheckConstraint(
                condition=Q(round__gte=1) & Q(slot__gte=1), name="team_match_round_slot_positive"
            ),
            models.CheckConstraint(condition=~Q(team_a=F("team_b")), name="team_match_two_teams"),
            models.CheckConstraint(
                condition=Q(third_place=False) | Q(slot=2), name="team_match_third_place_slot"
            ),
            models.CheckConstraint(
                condition=Q(team_b__isnull=False) | (Q(round=1) & Q(started_at__isnull=True)),
                name="team_match_bye_round_one",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team_a_id} – {self.team_b_id} ({self.round}/{self.slot})"

    @property
    def bye(self) -> bool:
        return self.team_b_id is None


class TeamOrder(models.Model):
    """A leader's declaration for one team match: which pair plays as 1, 2 and 3, and whether the
    substitute plays (in place of which player). Locked once both teams have declared."""

    team_match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="orders")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="orders")
    pair_1 = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+")
    pair_2 = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+")
    pair_3 = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+")
    substitute = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    substitute_for = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    declared_at = models.DateTimeField(auto_now=True)
    declared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via_link = models.BooleanField(default=False)

    class Meta:
        ordering = ["team_match", "team"]
        constraints = [
            models.UniqueConstraint(fields=["team_match", "team"], name="one_order_per_team_match"),
            models.CheckConstraint(
                condition=~Q(pair_1=F("pair_2")) & ~Q(pair_1=F("pair_3")) & ~Q(pair_2=F("pair_3")),
                name="team_order_three_pairs",
            ),
            models.CheckConstraint(
                condition=Q(substitute_for__isnull=True) | Q(substitute__isnull=False),
                name="team_order_substitute_named",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team_match_id} {self.team_id}: {self.pair_1_id}, {self.pair_2_id}, {self.pair_3_id}"

    @property
    def pair_ids(self) -> tuple[int, int, int]:
        return (self.pair_1_id, self.pair_2_id, self.pair_3_id)


class PairMatchLink(models.Model):
    """Pair k of a team match: an ordinary match (stage "team") between the teams' pairs declared k."""

    team_match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="pair_links")
    order = models.PositiveSmallIntegerField()
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="team_link")

    class Meta:
        ordering = ["team_match", "order"]
        constraints = [
            models.UniqueConstraint(fields=["team_match", "order"], name="pair_match_order_unique"),
            models.CheckConstraint(condition=Q(order__in=[1, 2, 3]), name="pair_match_order_1_to_3"),
        ]

    def __str__(self) -> str:
        return f"{self.team_match_id}/{self.order}: {self.match_id}"


class TeamMatchChange(models.Model):
    """The history of a team match before its pairs sit down: each declaration (by the leader's link or
    the organiser), the organiser reopening the orders, the start and an undone start. ``detail`` keeps
    what was declared or reopened as it was then: ``{"orders": {team id: {"pairs": [3 names],
    "substitute": name, "substitute_for": name}}}``; names, so that the history reads the same after a
    team changes. A declaration's detail is shown only once both orders are visible (hidden orders)."""

    class Action(models.TextChoices):
        DECLARED = "declared", _("järjestys ilmoitettu")
        REOPENED = "reopened", _("järjestykset avattu uudelleen")
        STARTED = "started", _("ottelu aloitettu")
        START_CANCELLED = "start_cancelled", _("aloitus peruttu")

    team_match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="changes")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    action = models.CharField(max_length=16, choices=Action.choices)
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    via_link = models.BooleanField(default=False)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["team_match", "at", "pk"]
        verbose_name = _("joukkueottelun muutos")
        verbose_name_plural = _("joukkueottelun muutokset")

    def __str__(self) -> str:
        return f"{self.team_match_id} {self.action} {self.at:%Y-%m-%d %H:%M}"
