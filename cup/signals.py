"""Changes that alter a season's cup without touching an event's results bump the season's cup version
(``tournaments.Season.cup_version``), which keys the cached cup (``services.cup_key``): which events
count and their weights, the points table, season clubs and transfers."""

from __future__ import annotations

from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from cup.models import ClubFine, CupEvent, SeasonCupSettings
from tournaments.models import Event, Season, SeasonClub, Transfer


def bump_season(season_id: int | None) -> None:
    if season_id is not None:
        Season.objects.filter(pk=season_id).update(cup_version=F("cup_version") + 1)


@receiver([post_save, post_delete], sender=CupEvent)
def _cup_event_changed(sender, instance, **kwargs) -> None:
    bump_season(Event.objects.filter(pk=instance.event_id).values_list("season_id", flat=True).first())


@receiver([post_save, post_delete], sender=SeasonCupSettings)
@receiver([post_save, post_delete], sender=ClubFine)
@receiver([post_save, post_delete], sender=SeasonClub)
@receiver([post_save, post_delete], sender=Transfer)
def _season_fact_changed(sender, instance, **kwargs) -> None:
    bump_season(instance.season_id)
