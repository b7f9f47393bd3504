"""Changes that alter a season's cup without touching an event's results bump the season's cup version
(``registry.Season.cup_version``), which keys the cached cup (``services.cup_key``) together with the
counted events' results versions (which follow every fact of those events, names included:
``tournaments.actions.dependents``): which events count and their weights, the points table, best N, the club
fines, season clubs and transfers, the names of the clubs and players these show, and the season itself.

A season's years are shown in every season's list of seasons, and so is a season once its first event
counts: those changes bump every season, in one statement. A row moved to another season (in the admin)
bumps both. Which events count, their weights and their club fines are also in each event's file (``cup.eventfile``),
so they bump that event's results version too. Receivers run after the row is written, in its transaction (``QuerySet.update()`` and raw SQL
send no signals: code that changes these facts so bumps the versions itself).
"""

from __future__ import annotations

from django.db.models import F, Q
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from cup.models import ClubFine, CupEvent, SeasonCupSettings
from registry.models import Club, Player, Season, SeasonClub, Transfer
from tournaments.actions import dependents, versions
from tournaments.models import Event


def bump_season(season_id: int | None) -> None:
    if season_id is not None:
        Season.objects.filter(pk=season_id).update(cup_version=F("cup_version") + 1)


def bump_seasons(where: Q) -> None:
    """Bump every season ``where`` names (a Q on Season), in one statement."""
    Season.objects.filter(where).update(cup_version=F("cup_version") + 1)


def bump_every_season() -> None:
    Season.objects.update(cup_version=F("cup_version") + 1)


dependents.track(CupEvent, "event_id")
for model in (SeasonCupSettings, ClubFine, SeasonClub, Transfer):
    dependents.track(model, "season_id")
dependents.track(Season, "start")


@receiver([post_save, post_delete], sender=CupEvent)
def _cup_event_changed(sender, instance, signal, created=False, raw=False, **kwargs) -> None:
    if raw:
        return
    deleted = signal is post_delete
    event_ids = {instance.event_id, dependents.loaded(instance, "event_id")}
    seasons = set(Event.objects.filter(pk__in=event_ids).values_list("season_id", flat=True))
    others = CupEvent.objects.filter(event__season_id__in=seasons).exclude(pk=instance.pk)
    if (created or deleted) and not others.exists():
        bump_every_season()  # the season's first counted event, or its last gone: the list of seasons
    else:
        bump_seasons(Q(pk__in=seasons))
    # the event's file states whether and how it counts (``cup.eventfile``): the event's own facts too
    versions.bump_events([pk for pk in event_ids if pk is not None])


@receiver([post_save, post_delete], sender=ClubFine)
def _fine_changed(sender, instance, raw=False, **kwargs) -> None:
    """A club's fine (or its payment) is in its event's file (``cup.eventfile``): the event's facts."""
    if not raw and instance.event_id is not None:
        versions.bump_events([instance.event_id])


@receiver([post_save, post_delete], sender=SeasonCupSettings)
@receiver([post_save, post_delete], sender=ClubFine)
@receiver([post_save, post_delete], sender=SeasonClub)
@receiver([post_save, post_delete], sender=Transfer)
def _season_fact_changed(sender, instance, raw=False, **kwargs) -> None:
    if raw:
        return
    before = dependents.loaded(instance, "season_id")
    if before != instance.season_id:
        bump_season(before)
    bump_season(instance.season_id)


@receiver(pre_save, sender=Season)
def _season_saving(sender, instance, raw=False, update_fields=None, **kwargs) -> None:
    """A whole season's row written back never writes an older cup version over a newer one: it writes
    the version's increment (as ``Event.save`` does its results version)."""
    if not raw and not instance._state.adding and update_fields is None:
        instance.cup_version = F("cup_version") + 1


@receiver(post_save, sender=Season)
def _season_saved(sender, instance, created, raw=False, **kwargs) -> None:
    if raw or created:
        return
    if hasattr(instance.cup_version, "resolve_expression"):  # bumped by the save itself
        instance.cup_version = Season.objects.filter(pk=instance.pk).values_list("cup_version", flat=True).get()
    else:
        bump_season(instance.pk)
    if dependents.loaded(instance, "start") != instance.start:
        bump_every_season()  # its years, in every season's list of seasons


@receiver(post_save, sender=Club)
def _club_saved(sender, instance, created, raw=False, **kwargs) -> None:
    """The club's name in the seasons whose cup shows it apart from the counted events' pairs (whose
    events' versions are bumped): its players' season clubs, its transfers and its fines."""
    if raw or created:
        return
    pk = instance.pk
    bump_seasons(
        Q(pk__in=SeasonClub.objects.filter(club_id=pk).values("season_id"))
        | Q(pk__in=Transfer.objects.filter(Q(from_club_id=pk) | Q(to_club_id=pk)).values("season_id"))
        | Q(pk__in=ClubFine.objects.filter(club_id=pk).values("season_id"))
    )


@receiver(post_save, sender=Player)
def _player_saved(sender, instance, created, raw=False, **kwargs) -> None:
    """The player's name in the seasons whose cup shows it apart from the counted events' pairs: their
    season clubs, transfers and the fines of their pairs (the season workbook)."""
    if raw or created:
        return
    pk = instance.pk
    bump_seasons(
        Q(pk__in=SeasonClub.objects.filter(player_id=pk).values("season_id"))
        | Q(pk__in=Transfer.objects.filter(player_id=pk).values("season_id"))
        | Q(pk__in=ClubFine.objects.filter(pair__members__player_id=pk).values("season_id"))
    )
