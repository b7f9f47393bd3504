"""Club fines for forfeits in cup events (the general rules: "if a player gives up their game in a cup
event, the player's club is fined 50 €"; the amount is a season setting, ``SeasonCupSettings.forfeit_fine``).

**Decision (where the fine is recorded).** The forfeit is a fact of ``tournaments``: a forfeit line on
the match's scoresheet (RULES.md §3), with its reason in the match's history (``ResultChange.reason``:
"myöhästyminen" for a late pair given a forfeit from the results desk). ``tournaments`` sends
``result_changed`` with the match and the change's reason after every change of a sheet, inside the saving
transaction; this module listens and keeps the match's ``ClubFine`` in step: a forfeit line in a cup event
(``Event.is_cup_event``) has a fine for the forfeiting pair's club (``Pair.club``, the club the pair
entered for), with the match, the date and the reason. So ``tournaments`` never imports ``cup``, and a
forfeit entered any way (the desk's one step, the organiser's sheet, the referee's phone) is fined once.

**Decision (corrections).** One fine per forfeited match. If a correction removes the forfeit line, its
fine goes too, unless the staff have marked it paid (then they settle it by hand); if a correction moves the
forfeit to the other pair, the fine moves to that pair's club. A withdrawal (the pair leaves the event,
its matches annulled, RULES.md §4) is not a forfeit line and records no fine by itself.
"""

from __future__ import annotations

from django.dispatch import receiver
from django.utils import timezone

from cup.models import ClubFine, season_fine
from tournaments.models import Entry, Match
from tournaments.signals import result_changed


@receiver(result_changed)
def _forfeit_fines(sender, match=None, reason: str = "", **kwargs) -> None:
    if match is not None:
        record_fine(match, reason=reason)


def record_fine(match: Match, *, reason: str = "") -> ClubFine | None:
    """Bring the match's club fine in step with its scoresheet (see the module text); returns the fine."""
    event = match.event
    forfeit = Entry.objects.filter(match=match, kind=Entry.Kind.FORFEIT).order_by("-position").first()
    existing = ClubFine.objects.filter(match=match).first()
    if forfeit is None or not event.is_cup_event:
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
