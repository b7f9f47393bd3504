"""The player search of the team form (issue #14): each slot's results as the organiser chooses from
them, every player with the club they represent this season (RULES.md §7: it decides who is a
reinforcement) and where they already play in the event (a pair, a team, another team's substitute)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from registry.bans import bans_for
from registry.clubs import represented_clubs
from registry.models import Player
from registry.search import SEARCH_MIN_LENGTH, search_players
from teams.forms import PLAYER_SLOTS, TeamForm
from teams.models import Team, TeamPair
from tournaments.models import PairMember


def annotate(event, players: list[Player], team: Team | None = None) -> list[Player]:
    """Mark each player with ``represents`` (a club or None), ``plays_in`` (where they already play,
    or ""), ``ban`` (a ban on the event's dates, or None), ``taken`` when banned or playing outside
    ``team`` (the team being edited): a few queries for all."""
    clubs = represented_clubs(event.season, players, event.starts_on)
    ids = [p.pk for p in players]
    pairs = dict(PairMember.objects.filter(event=event, player__in=ids).values_list("player_id", "pair_id"))
    in_team = {
        tp.pair_id: tp.team for tp in TeamPair.objects.filter(pair__in=pairs.values()).select_related("team", "pair")
    }
    numbers = dict(PairMember.objects.filter(pair__in=pairs.values()).values_list("pair_id", "pair__number"))
    substitutes = {t.substitute_id: t for t in Team.objects.filter(event=event, substitute__in=ids)}
    banned = bans_for(ids, event.starts_on, event.ends_on)  # issue #29: shown, and not to be chosen
    for player in players:
        player.represents = clubs[player.pk]
        pair_id = pairs.get(player.pk)
        owner = in_team.get(pair_id) if pair_id else substitutes.get(player.pk)
        if pair_id and owner is not None:
            player.plays_in = _("joukkue %(team)s, pari %(n)s") % {"team": owner.name, "n": numbers[pair_id]}
        elif pair_id:
            player.plays_in = _("pari %(n)s (ei joukkueessa)") % {"n": numbers[pair_id]}
        elif owner is not None:
            player.plays_in = _("joukkueen %(team)s varamies") % {"team": owner.name}
        else:
            player.plays_in = ""
        player.ban = banned.get(player.pk)
        player.taken = bool(player.plays_in) and (team is None or owner is None or owner.pk != team.pk)
        player.taken = player.taken or player.ban is not None
    return players


def search(event, query: str, team: Team | None = None) -> list[Player]:
    """The registry players matching ``query`` (as the pair form's search), annotated."""
    return annotate(event, search_players(query), team) if query else []


def slot_label(slot: str) -> str:
    if slot == "substitute":
        return _("Varamies (jos on)")
    return _("Pari %(k)s, pelaaja %(n)s") % {"k": slot[4], "n": slot[-1]}


def slot_choices(form: TeamForm) -> dict[str, dict]:
    """For each player slot of ``form``: its label, the search typed, the players found (the chosen one
    first), the chosen player's id and the slot's errors."""
    out, everyone = {}, []
    picked_ids = {slot: form.slot_value(slot)[1] for slot in PLAYER_SLOTS}
    picked = Player.objects.select_related("club").in_bulk([pk for pk in picked_ids.values() if pk])
    for slot in PLAYER_SLOTS:
        query, picked_id = form.slot_value(slot)
        found = search_players(query) if query else []
        chosen = picked.get(picked_id)
        if chosen is not None and all(p.pk != chosen.pk for p in found):
            found = [chosen, *found]
        out[slot] = {
            "slot": slot, "label": slot_label(slot), "query": query, "players": found, "picked_id": picked_id,
            "errors": form.errors.get(f"{slot}_q", []) if form.is_bound else [],
        }
        everyone += found
    annotate(form.event, list({p.pk: p for p in everyone}.values()), form.team)
    by_pk = {p.pk: p for p in everyone}
    for choice in out.values():  # a player found in two slots: the one annotated instance
        choice["players"] = [by_pk[p.pk] for p in choice["players"]]
    return out


MIN_LENGTH = SEARCH_MIN_LENGTH
