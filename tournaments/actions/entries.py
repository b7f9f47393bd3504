"""Entries: a pair entered, checked in, a player replaced, a pair withdrawn and back. Each change runs in
one transaction, so nothing is ever half-saved."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from registry.bans import check_not_banned
from registry.models import Club, Player, SeasonClub
from tournaments.actions import versions
from tournaments.actions.draw import STARTED
from tournaments.models import (
    Event,
    Match,
    Pair,
    PairMember,
    Stage,
    Withdrawal,
)


@transaction.atomic
def create_pair(event: Event, player1: Player, player2: Player, club: Club) -> Pair:
    """Enter two players as a pair representing ``club``.

    Refuses the same player twice, and a player already in a pair of this event (the database refuses
    it too), and a player banned on the event's dates (``registry.bans``). In a cup event a player's first cup event of the season fixes their season club
    (RULES.md §7).
    """
    if player1.pk == player2.pk:
        raise ValidationError(_("Parin pelaajien on oltava kaksi eri henkilöä."), code="same_player")
    taken = PairMember.objects.filter(event=event, player__in=[player1, player2]).select_related("player")
    if taken:
        names = ", ".join(sorted(m.player.full_name for m in taken))
        raise ValidationError(
            _("Pelaaja on jo toisessa parissa tässä kisassa: %(names)s") % {"names": names}, code="already_entered"
        )
    if event.drawn_at is not None:
        raise ValidationError(_("Lohkot on jo arvottu: uusia pareja ei voi enää lisätä."), code="drawn")
    check_not_banned([player1, player2], event.starts_on, event.ends_on)
    versions.lock(event.pk)  # serialises pair numbers per event
    number = (Pair.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0) + 1
    try:
        with transaction.atomic():
            pair = Pair.objects.create(event=event, number=number, club=club)
            PairMember.objects.create(pair=pair, event=event, player=player1, position=1)
            PairMember.objects.create(pair=pair, event=event, player=player2, position=2)
    except IntegrityError as exc:  # a concurrent entry of the same player
        raise ValidationError(_("Pelaaja on jo toisessa parissa tässä kisassa."), code="already_entered") from exc
    if event.is_cup_event:
        for player in (player1, player2):
            SeasonClub.objects.get_or_create(
                season=event.season, player=player, defaults={"club": club, "first_event": event}
            )
    return pair


def set_checked_in(pair: Pair, present: bool) -> None:
    Pair.objects.filter(pk=pair.pk).update(checked_in=present)
    pair.checked_in = present


@transaction.atomic
def replace_player(pair: Pair, position: int, new_player: Player, user=None) -> Player:
    """Put ``new_player`` in ``pair`` in place of its player at ``position`` (1 or 2), before the draw.

    Refuses after the draw (the groups were drawn with these names), and a player already in a pair of
    this event (this pair included) or banned on the event's dates. In a cup event the season clubs follow (RULES.md §7): the new
    player's first cup event of the season may be this one, and the replaced player's season club is
    fixed again by their next entry, if any. Returns the replaced player."""
    event = versions.lock(pair.event_id)
    if event.drawn_at is not None:
        raise ValidationError(_("Lohkot on jo arvottu: parin pelaajaa ei voi enää vaihtaa."), code="drawn")
    if position not in (1, 2):
        raise ValidationError(_("Valitse vaihdettava pelaaja."), code="position")
    member = PairMember.objects.select_for_update().select_related("player").get(pair=pair, position=position)
    taken = PairMember.objects.filter(event=event, player=new_player).select_related("pair").first()
    if taken is not None:
        raise ValidationError(
            _("%(name)s on jo parissa %(number)d tässä kisassa.")
            % {"name": new_player.full_name, "number": taken.pair.number},
            code="already_entered",
        )
    check_not_banned([new_player], event.starts_on, event.ends_on)
    old = member.player
    member.player = new_player
    try:
        with transaction.atomic():
            member.save(update_fields=["player"])
    except IntegrityError as exc:  # a concurrent entry of the same player
        raise ValidationError(_("Pelaaja on jo toisessa parissa tässä kisassa."), code="already_entered") from exc
    if event.is_cup_event:
        SeasonClub.objects.get_or_create(
            season=event.season, player=new_player, defaults={"club": pair.club, "first_event": event}
        )
        if SeasonClub.objects.filter(season=event.season, player=old, first_event=event).delete()[0]:
            later = (
                PairMember.objects.filter(
                    player=old, event__season=event.season, event__kind__in=Event.CUP_KINDS
                )
                .select_related("pair__club", "event")
                .order_by("event__starts_on", "event_id")
                .first()
            )
            if later is not None:
                SeasonClub.objects.create(
                    season=event.season, player=old, club=later.pair.club, first_event=later.event
                )
    return old


@transaction.atomic
def withdraw_pair(pair: Pair, user=None) -> int:
    """Withdraw a pair. Before it has finished its group, all its group matches are annulled: kept, shown
    struck through, counted nowhere (RULES.md §4). The withdrawal is kept (who, when, which matches it
    annulled and how they stood) so that it can be undone until Sunday starts. Returns how many matches
    were annulled."""
    event = versions.lock(pair.event_id)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.withdrawn_at is not None:
        return 0
    if event.finished_at is not None:
        raise ValidationError(
            _("Kisan lopputulokset on jo julkaistu: pari ei voi enää luopua."), code="published"
        )
    pair.withdrawn_at = timezone.now()
    pair.save(update_fields=["withdrawn_at"])
    group_matches = Match.objects.filter(stage=Stage.SATURDAY).filter(Q(pair_a=pair) | Q(pair_b=pair))
    annulled: dict[str, str] = {}
    if group_matches.exclude(status__in=[Match.Status.FINISHED, Match.Status.ANNULLED]).exists():
        counted = group_matches.exclude(status=Match.Status.ANNULLED)
        annulled = {str(pk): status for pk, status in counted.values_list("pk", "status")}
        counted.update(status=Match.Status.ANNULLED)
    Withdrawal.objects.create(pair=pair, user=_real(user), annulled=annulled)
    return len(annulled)


@transaction.atomic
def undo_withdrawal(pair: Pair, user=None) -> int:
    """Take a withdrawal back until Sunday starts: the pair is in again and the matches its withdrawal
    annulled get the status they had back (their results were never removed). Returns how many."""
    event = versions.lock(pair.event_id)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.withdrawn_at is None:
        raise ValidationError(_("Pari ei ole luopunut."), code="not_withdrawn")
    if event.finished_at is not None:
        raise ValidationError(
            _("Kisan lopputulokset on jo julkaistu: luopumista ei voi enää perua."), code="published"
        )
    if Match.objects.filter(event=event, stage__in=[Stage.SUNDAY, Stage.PLACEMENT], status__in=STARTED).exists():
        raise ValidationError(
            _("Sunnuntai on jo alkanut: luopumista ei voi enää perua."), code="sunday_started"
        )
    withdrawal = pair.withdrawals.filter(undone_at__isnull=True).order_by("-at", "-pk").first()
    restored = 0
    if withdrawal is not None:
        for match_id, status in withdrawal.annulled.items():
            restored += Match.objects.filter(pk=int(match_id), status=Match.Status.ANNULLED).update(status=status)
        withdrawal.undone_at, withdrawal.undone_by = timezone.now(), _real(user)
        withdrawal.save(update_fields=["undone_at", "undone_by"])
    pair.withdrawn_at = None
    pair.save(update_fields=["withdrawn_at"])
    return restored


def _real(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


@transaction.atomic
def withdraw_absent(event: Event, user=None) -> int:
    """The morning check-in: every pair not marked present is withdrawn (each kept in the history).
    Only before the draw, and not in a team competition (its teams are its entries)."""
    if event.kind == Event.Kind.SM_TEAM:
        raise ValidationError(_("Joukkuekisassa ei ole aamun ilmoittautumista."), code="team_event")
    if event.drawn_at is not None:
        raise ValidationError(_("Lohkot on jo arvottu."), code="drawn")
    versions.lock(event.pk)
    absent = list(Pair.objects.filter(event=event, checked_in=False, withdrawn_at__isnull=True))
    now = timezone.now()
    Pair.objects.filter(pk__in=[p.pk for p in absent]).update(withdrawn_at=now)
    Withdrawal.objects.bulk_create(Withdrawal(pair=p, user=_real(user)) for p in absent)
    return len(absent)

