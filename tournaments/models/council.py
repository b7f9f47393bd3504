"""The judges' council at work (issue #29): a pair's appeal against a referee's decision, and the
council's ruling (RULES.md and the federation's general rules, TUOMARITOIMINTA: "Tuomarineuvoston päätös on
lopullinen"). Facts like the event's others: the ruling's effect on the result is a scoresheet change made
through the result services in the ruling's transaction; these rows say who asked, who decided and why."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.event import Event, Match


class Appeal(models.Model):
    """A pair's appeal (*valitus*) against a referee's decision in one match, filed on the match's secret
    link or by the organiser for the pair, while the match is open or within the event's appeal time after
    it ended. While it is open the result cannot be confirmed."""

    class Status(models.TextChoices):
        OPEN = "open", _("käsittelyssä")
        REJECTED = "rejected", _("hylätty")
        UPHELD = "upheld", _("hyväksytty")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="appeals", verbose_name=_("ottelu"))
    side = models.CharField(_("valittava pari"), max_length=1)  # "A" or "B"
    subject = models.TextField(_("mistä valitetaan"))
    line = models.PositiveSmallIntegerField(_("pöytäkirjan rivi"), null=True, blank=True)
    filed_at = models.DateTimeField(_("jätetty"), auto_now_add=True)
    filed_by_organiser = models.BooleanField(_("järjestäjä kirjasi"), default=False)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(_("tila"), max_length=8, choices=Status.choices, default=Status.OPEN)
    ruled_at = models.DateTimeField(_("ratkaistu"), null=True, blank=True)

    class Meta:
        ordering = ["match", "filed_at", "pk"]
        verbose_name = _("valitus")
        verbose_name_plural = _("valitukset")
        constraints = [
            models.CheckConstraint(condition=Q(side__in=["A", "B"]), name="appeal_side_a_or_b"),
            models.CheckConstraint(
                condition=Q(status="open", ruled_at__isnull=True) | (~Q(status="open") & Q(ruled_at__isnull=False)),
                name="appeal_ruled_when_closed",
            ),
            # one open appeal of a pair in a match at a time
            models.UniqueConstraint(fields=["match", "side"], condition=Q(status="open"), name="appeal_one_open_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.side} {self.status}"


class Ruling(models.Model):
    """The council's ruling (*päätös*): on an appeal, or on a match by itself (a late forfeit waived, a
    forfeit ordered). Final: never changed or deleted; undoing one takes a new ruling."""

    class Decision(models.TextChoices):
        REJECTED = "rejected", _("valitus hylätään")
        UPHELD = "upheld", _("valitus hyväksytään")
        DECIDED = "decided", _("tuomarineuvoston päätös")

    class Effect(models.TextChoices):
        NONE = "none", _("ei muutosta tulokseen")
        LINE = "line", _("pöytäkirjan rivi korjataan")
        PENALTY_ADD = "penalty_add", _("rangaistus lisätään")
        PENALTY_REMOVE = "penalty_remove", _("rangaistus poistetaan")
        FORFEIT = "forfeit", _("pari luovuttaa ottelun")
        WAIVE_LATE = "waive_late", _("myöhästymisluovutus perutaan")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rulings")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rulings", verbose_name=_("ottelu"))
    appeal = models.OneToOneField(
        Appeal, null=True, blank=True, on_delete=models.CASCADE, related_name="ruling", verbose_name=_("valitus")
    )
    members = models.JSONField(_("päättäneet jäsenet"))  # names, as recorded in the event's council
    referee_heard = models.BooleanField(_("tuomaria kuultiin"))
    pairs_heard = models.BooleanField(_("molempia pareja kuultiin"))
    decision = models.CharField(_("päätös"), max_length=8, choices=Decision.choices)
    reasons = models.TextField(_("perustelut"))
    effect = models.CharField(_("vaikutus"), max_length=16, choices=Effect.choices, default=Effect.NONE)
    # what the effect changed: the line's position, the pair, the penalty (plain values, for the history)
    detail = models.JSONField(default=dict, blank=True)
    ruled_at = models.DateTimeField(_("päätetty"), auto_now_add=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event", "ruled_at", "pk"]
        verbose_name = _("tuomarineuvoston päätös")
        verbose_name_plural = _("tuomarineuvoston päätökset")
        constraints = [
            models.CheckConstraint(condition=~Q(reasons=""), name="ruling_has_reasons"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.decision} {self.effect}"


class Exclusion(models.Model):
    """The council excludes a disruptive player from the event ("Tuomarineuvosto voi sulkea häiriötä
    aiheuttavan pelaajan kisasta"): the pair's match in progress is forfeited and the pair withdrawn with
    RULES.md §4's annulment (``Withdrawal`` keeps that); this row says why, and who decided."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="exclusions")
    pair = models.ForeignKey("tournaments.Pair", on_delete=models.CASCADE, related_name="exclusions")
    player = models.ForeignKey("registry.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("pelaaja"))
    reason = models.TextField(_("syy"))
    members = models.JSONField(_("päättäneet jäsenet"))
    at = models.DateTimeField(_("päätetty"), auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["event", "at", "pk"]
        verbose_name = _("kisasta sulkeminen")
        verbose_name_plural = _("kisasta sulkemiset")
        constraints = [models.CheckConstraint(condition=~Q(reason=""), name="exclusion_has_reason")]

    def __str__(self) -> str:
        return f"{self.pair_id}: {self.player_id}"
