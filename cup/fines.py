"""Club fines for forfeits in cup events (the general rules: "if a player gives up their game in a cup
event, the player's club is fined 50 €"; the amount is a season setting, ``SeasonCupSettings.forfeit_fine``).

**Decision (where the fine is recorded).** The forfeit is a fact of ``tournaments``: a forfeit line on
the match's scoresheet (RULES.md §3), with its reason in the match's history (``ResultChange.reason``:
"myöhästyminen" for a late pair given a forfeit from the results desk). ``tournaments`` sends
``result_changed`` with the match and the change's reason after every change of a sheet, inside the saving
transaction; this module listens and keeps the match's ``ClubFine`` in step: a forfeit line in a cup event
(:func:`counts_for_cup`) has a fine for the forfeiting pair's club (``Pair.club``, the club the pair
entered for), with the match, the date and the reason. So ``tournaments`` never imports ``cup``, and a
forfeit entered any way (the desk's one step, the organiser's sheet, the referee's phone) is fined once.

**Decision (what a cup event is, issue #25).** RULES.md §8: "cup events (*osakilpailut*) are approved by
the federation each season"; the general rules fine a forfeit "in the cup's events" (*Cupin kisoissa*). So
an event is a cup event when the federation counts it in its season's cup (a ``CupEvent`` row, which also
gives its cup points on the results list), not by the kind its organiser chose: an event of kind "cupin
osakilpailu" not (yet) counted fines nobody, and its results list says it is not counted. When the staff
count an event later (or stop counting it), its forfeits' fines follow at once (``_cup_event_changed``).

**Decision (corrections).** One fine per forfeited match. If a correction removes the forfeit line, its
fine goes too, unless the staff have marked it paid (then they settle it by hand); if a correction moves the
forfeit to the other pair, the fine moves to that pair's club. A withdrawal (the pair leaves the event,
its matches annulled, RULES.md §4) is not a forfeit line and records no fine by itself.
"""

from __future__ import annotations

from decimal import Decimal

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from cup.models import ClubFine, CupEvent, season_fine
from tournaments.models import Entry, Event, Match, ResultChange
from tournaments.signals import result_changed


def counts_for_cup(event: Event) -> bool:
    """Is ``event`` a cup event, whose forfeits fine the club? Counted in its season's cup (module text)."""
    return CupEvent.objects.filter(event_id=event.pk).exists()


def forfeit_fine(event: Event) -> Decimal | None:
    """The fine a forfeit in ``event`` costs the forfeiting pair's club, or None outside the cup's events
    (what the late forfeit's confirmation names: ``tournaments.extensions.forfeit_fine``)."""
    return season_fine(event.season) if counts_for_cup(event) else None


@receiver(result_changed)
def _forfeit_fines(sender, match=None, reason: str = "", **kwargs) -> None:
    if match is not None:
        record_fine(match, reason=reason)


@receiver([post_save, post_delete], sender=CupEvent)
def _cup_event_changed(sender, instance, **kwargs) -> None:
    """An event counted in the cup, or no longer: its forfeits' fines follow (the reason from the history)."""
    forfeited = Match.objects.filter(event_id=instance.event_id, entries__kind=Entry.Kind.FORFEIT).distinct()
    for match in forfeited.select_related("event", "pair_a", "pair_b"):
        reasons = ResultChange.objects.filter(match=match).exclude(reason="").values_list("reason", flat=True)
        record_fine(match, reason=reasons.first() or "")


def record_fine(match: Match, *, reason: str = "") -> ClubFine | None:
    """Bring the match's club fine in step with its scoresheet (see the module text); returns the fine."""
    event = match.event
    forfeit = Entry.objects.filter(match=match, kind=Entry.Kind.FORFEIT).order_by("-position").first()
    existing = ClubFine.objects.filter(match=match).first()
    if forfeit is None or not counts_for_cup(event):
        if existing is not None and existing.paid_on is None:
            existing.delete()
            return None
        return existing
    pair = match.pair_a if forfeit.pair == "A" else match.pair_b
    if existing is None:
        return ClubFine.objects.create(
            season=event.season, club_id=pair.club_id, event=event, match=match, pair=pair,
            amount=season_fine(event.season), reason=reason, forfeited_on=timezone.localdate(),
        )
    if existing.pair_id != pair.pk:
        existing.pair, existing.club_id = pair, pair.club_id
        existing.save(update_fields=["pair", "club"])
    return existing
