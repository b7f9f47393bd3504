"""The club a player represents (RULES.md §7): the season club (the club of their first cup event of the
season), or the club of a transfer the board has confirmed by then; a player with neither, their home
club in the registry."""

from __future__ import annotations

from registry.models import Club, SeasonClub, Transfer


def represented_clubs(season, players, on=None) -> dict[int, Club | None]:
    """The club each player represents in ``season`` on the day ``on`` (RULES.md §7): the season club
    (the club of their first cup event), or the club of a transfer the board confirmed on or before that
    day; a player with neither, their home club in the registry. Two queries for any number of players."""
    players = list(players)
    ids = [p.pk for p in players]
    clubs = {
        sc.player_id: sc.club for sc in SeasonClub.objects.filter(season=season, player__in=ids).select_related("club")
    }
    if on is not None:
        for transfer in (
            Transfer.objects.filter(season=season, player__in=ids, confirmed_on__lte=on)
            .select_related("to_club")
            .order_by("confirmed_on", "pk")
        ):
            clubs[transfer.player_id] = transfer.to_club
    return {p.pk: clubs.get(p.pk, p.club) for p in players}
