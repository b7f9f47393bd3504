"""Teams (RULES.md §6): a team entered, changed or deleted with its three pairs and substitute, each pair's club."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from registry.bans import check_not_banned
from registry.clubs import represented_clubs
from registry.models import Club, Player
from teams.actions.common import _locked
from teams.actions.substitutes import check_substitute
from teams.models import Team, TeamPair
from tournaments.actions import entries
from tournaments.models import Event, Pair, PairMember


@dataclass(frozen=True)
class NewPair:
    """A pair to enter with a team; ``club`` None means: by ``default_pair_club``."""

    player1: Player
    player2: Player
    club: Club | None = None


def player_club(player: Player, season, on=None) -> Club | None:
    """The club one player represents (``represented_clubs``)."""
    return represented_clubs(season, [player], on)[player.pk]


def default_pair_club(team_club: Club, player1: Player, player2: Player, season, on=None) -> Club:
    """**Decision (a pair's club in a team):** the team's club when either player represents it (or
    neither has a club), otherwise the first player's club: such a pair is a reinforcement (RULES.md §6).
    The clubs are the ones the players represent this season (RULES.md §7), not the registry's home
    clubs. The organiser may choose another club for the pair."""
    found = represented_clubs(season, [player1, player2], on)
    clubs = [found[player1.pk], found[player2.pk]]
    if any(c is not None and c.pk == team_club.pk for c in clubs) or all(c is None for c in clubs):
        return team_club
    return next(c for c in clubs if c is not None)


def _check_team(event: Event, name: str, leader_name: str, pairs: list, team: Team | None) -> None:
    """What a team (new, or ``team`` edited) must be: named, three different pairs of the event in no
    other team, six different players of whom none plays in a pair outside the team or is another team's
    substitute (a person plays for one team, RULES.md §6), and none joining the team banned on the event's
    dates (issue #29)."""
    if event.drawn_at is not None:
        raise ValidationError(_("Kaavio on jo arvottu: joukkueita ei voi enää lisätä eikä muokata."), code="drawn")
    if not name or not leader_name:
        raise ValidationError(_("Anna joukkueen nimi ja joukkueenjohtaja."), code="names")
    if len(pairs) != 3:
        raise ValidationError(_("Joukkueessa on kolme paria."), code="three_pairs")
    same_name = Team.objects.filter(event=event, name__iexact=name)
    if team is not None:
        same_name = same_name.exclude(pk=team.pk)
    if same_name.exists():
        raise ValidationError(_("Kisassa on jo joukkue nimeltä %(name)s.") % {"name": name}, code="name_taken")
    existing = [p for p in pairs if isinstance(p, Pair)]
    if len({p.pk for p in existing}) != len(existing):
        raise ValidationError(_("Sama pari on valittu kahdesti."), code="pair_twice")
    for pair in existing:
        if pair.event_id != event.pk or pair.withdrawn_at is not None:
            raise ValidationError(_("Pari ei ole mukana tässä kisassa."), code="pair_event")
        other = TeamPair.objects.filter(pair=pair).exclude(team=team).select_related("team").first()
        if other is not None:
            raise ValidationError(
                _("Pari %(pair)s on jo joukkueessa %(team)s.") % {"pair": pair.full_name, "team": other.team.name},
                code="pair_taken",
            )
    new_players = [p for spec in pairs if isinstance(spec, NewPair) for p in (spec.player1, spec.player2)]
    members = PairMember.objects.filter(pair__in=existing)
    everyone = [p.pk for p in new_players] + list(members.values_list("player_id", flat=True))
    if len(set(everyone)) != len(everyone):
        raise ValidationError(_("Sama pelaaja on valittu kahteen pariin."), code="player_twice")
    joining = members.exclude(pair__team_pair__team=team) if team is not None else members
    check_not_banned(
        [*new_players, *(m.player for m in joining.select_related("player"))], event.starts_on, event.ends_on
    )
    substitute_of = Team.objects.filter(event=event, substitute__in=everyone).select_related("substitute")
    if team is not None:
        substitute_of = substitute_of.exclude(pk=team.pk)
    found = substitute_of.first()
    if found is not None:
        raise ValidationError(
            _("%(name)s on jo joukkueen %(team)s varamies: pelaaja pelaa vain yhdessä joukkueessa.")
            % {"name": found.substitute.full_name, "team": found.name},
            code="other_substitute",
        )


def _place_pairs(event: Event, team: Team, pairs: list) -> None:
    """Make ``pairs`` the team's pairs 1–3. A pair entered now (``NewPair``) takes over one of the pairs
    the team gives up, when it can (the one sharing a player, else the one in its place), so that editing a
    player keeps the pair; the other given-up pairs stay entered, free for another team. A player in a
    pair outside the team is refused (``tournaments.actions.entries.create_pair``)."""
    old = {tp.number: tp.pair for tp in TeamPair.objects.filter(team=team).select_related("pair")}
    kept = {p.pk for p in pairs if isinstance(p, Pair)}
    released = {pair.pk: pair for pair in old.values() if pair.pk not in kept}
    members = defaultdict(set)
    for pair_id, player_id in PairMember.objects.filter(pair__in=list(released)).values_list("pair_id", "player_id"):
        members[pair_id].add(player_id)
    reuse: dict[int, Pair] = {}
    for number, spec in enumerate(pairs, start=1):
        if not isinstance(spec, NewPair):
            continue
        wanted = {spec.player1.pk, spec.player2.pk}
        choices = [pk for pk in released if pk not in {p.pk for p in reuse.values()}]
        pick = next((pk for pk in choices if members[pk] & wanted), None)
        if pick is None and number in old and old[number].pk in choices:
            pick = old[number].pk
        if pick is not None:
            reuse[number] = released[pick]
    TeamPair.objects.filter(team=team).delete()
    PairMember.objects.filter(pair__in=[p.pk for p in reuse.values()]).delete()
    for number, spec in enumerate(pairs, start=1):
        if isinstance(spec, NewPair):
            pair_club = spec.club or default_pair_club(
                team.club, spec.player1, spec.player2, event.season, event.starts_on
            )
            pair = reuse.get(number)
            if pair is None:
                pair = entries.create_pair(event, spec.player1, spec.player2, pair_club)
            else:
                _refill(event, pair, spec, pair_club)
        else:
            pair = spec
        TeamPair.objects.create(team=team, pair=pair, number=number)


def _refill(event: Event, pair: Pair, spec: NewPair, club: Club) -> None:
    taken = PairMember.objects.filter(event=event, player__in=[spec.player1, spec.player2]).select_related("player")
    if taken.exists():
        names = ", ".join(m.player.full_name for m in taken)
        raise ValidationError(
            _("Pelaaja on jo toisessa parissa tässä kisassa: %(names)s") % {"names": names}, code="already_entered"
        )
    pair.club = club
    pair.save(update_fields=["club"])
    for position, player in ((1, spec.player1), (2, spec.player2)):
        PairMember.objects.create(pair=pair, event=event, player=player, position=position)


@transaction.atomic
def create_team(
    event: Event, *, club: Club, name: str, leader_name: str, pairs: list, substitute: Player | None = None
) -> Team:
    """A team with three pairs: each an existing pair of the event that is in no team, or a ``NewPair``
    entered now (``tournaments.actions.entries.create_pair`` refuses a player already in a pair). Only before the
    bracket is drawn."""
    event = _locked(event)
    name, leader_name = name.strip(), leader_name.strip()
    _check_team(event, name, leader_name, pairs, None)
    return _store_team(event, Team(event=event, club=club, name=name, leader_name=leader_name), pairs, substitute)


@transaction.atomic
def update_team(
    team: Team, *, club: Club, name: str, leader_name: str, pairs: list, substitute: Player | None = None
) -> Team:
    """Edit a team until the bracket is drawn (RULES.md §6): its name, club, leader, pairs and substitute,
    with the same rules as a new team; a pair it gives up stays entered, free for another team."""
    event = _locked(team.event)
    team = Team.objects.select_for_update().get(pk=team.pk, event=event)
    name, leader_name = name.strip(), leader_name.strip()
    _check_team(event, name, leader_name, pairs, team)
    team.club, team.name, team.leader_name, team.substitute = club, name, leader_name, None
    return _store_team(event, team, pairs, substitute)


def _store_team(event: Event, team: Team, pairs: list, substitute: Player | None) -> Team:
    """A new or edited team saved (a name another team took a moment ago is refused), its pairs placed and
    its substitute checked against them."""
    try:
        with transaction.atomic():
            team.save()
    except IntegrityError as exc:  # the same name a moment ago
        raise ValidationError(
            _("Kisassa on jo joukkue nimeltä %(name)s.") % {"name": team.name}, code="name_taken"
        ) from exc
    _place_pairs(event, team, pairs)
    if substitute is not None:
        check_substitute(team, substitute, event.starts_on)
        team.substitute = substitute
        team.save(update_fields=["substitute"])
    return team


@transaction.atomic
def delete_team(team: Team) -> None:
    """Remove a team before the draw; its pairs stay entered and may be chosen for another team."""
    event = _locked(team.event)
    if event.drawn_at is not None:
        raise ValidationError(_("Kaavio on jo arvottu: joukkuetta ei voi enää poistaa."), code="drawn")
    team.delete()
