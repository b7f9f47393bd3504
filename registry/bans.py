"""Bans (*pelikielto*, issue #29): which players the federation's board has banned on an event's dates.

A ban applies to an event when their dates meet: the ban starts on or before the event's last day and
ends on or after its first. Every service that puts a player at an event (a pair, an import row, a team,
a substitute) asks here and refuses with ``refusal`` (``check_not_banned``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from registry.models import Ban, Player


def bans_for(players: Iterable[Player | int], starts_on: dt.date, ends_on: dt.date | None = None) -> dict[int, Ban]:
    """The ban of each of ``players`` that meets the days ``starts_on``–``ends_on`` (one day when no end),
    by player id; of several, the one that ends last. One query."""
    ids = {p if isinstance(p, int) else p.pk for p in players} - {None}
    if not ids:
        return {}
    found: dict[int, Ban] = {}
    rows = Ban.objects.filter(player_id__in=ids, starts_on__lte=ends_on or starts_on, ends_on__gte=starts_on)
    for ban in rows.order_by("ends_on", "pk"):
        found[ban.player_id] = ban  # the latest end wins
    return found


def ban_on(player: Player | int, starts_on: dt.date, ends_on: dt.date | None = None) -> Ban | None:
    """The ban of ``player`` that meets the days ``starts_on``–``ends_on``, or None."""
    key = player if isinstance(player, int) else player.pk
    return bans_for([player], starts_on, ends_on).get(key)


def finnish_date(day: dt.date) -> str:
    return f"{day.day}.{day.month}.{day.year}"


def refusal(ban: Ban, name: str = "") -> str:
    """The refusal naming the ban's end: "Pelaajalla on pelikielto 31.12.2027 asti." (with the name)."""
    if name:
        return _("Pelaajalla %(name)s on pelikielto %(end)s asti.") % {"name": name, "end": finnish_date(ban.ends_on)}
    return _("Pelaajalla on pelikielto %(end)s asti.") % {"end": finnish_date(ban.ends_on)}


def check_not_banned(players: Iterable[Player], starts_on: dt.date, ends_on: dt.date | None = None) -> None:
    """Raise ``ValidationError`` (code ``banned``) naming each of ``players`` banned on those days."""
    players = [p for p in players if p is not None and p.pk is not None]
    found = bans_for(players, starts_on, ends_on)
    messages = [refusal(found[p.pk], p.full_name) for p in players if p.pk in found]
    if messages:
        raise ValidationError(" ".join(messages), code="banned")
