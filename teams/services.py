"""Operations of the SM team competition (RULES.md §6), each in one transaction: teams, the draw of the
bracket, the days of the rounds, the leaders' declarations, substitutes, starting team matches, the
bracket moving on by itself, and publishing the places.

The rules themselves are pure functions in ``scoring.knockout`` (the bracket, byes, places, the team
match's winner); the read side is ``teams.results``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.dispatch import receiver
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from scoring import draw as draw_core
from scoring import knockout
from teams import results
from teams.models import PairMatchLink, Team, TeamMatch, TeamMatchChange, TeamOrder, TeamPair, TeamRound
from tournaments import publication, versions
from tournaments import services as tournament_services
from tournaments.models import (
    Club,
    Event,
    Match,
    MatchSubstitute,
    Pair,
    PairMember,
    Player,
    SeasonClub,
    Stage,
    Transfer,
)
from tournaments.signals import result_changed

TEAM = Stage.TEAM
Actor = tournament_services.Actor  # who acts: an organiser, or a team leader through the team's link


@dataclass(frozen=True)
class NewPair:
    """A pair to enter with a team; ``club`` None means: by ``default_pair_club``."""

    player1: Player
    player2: Player
    club: Club | None = None


def _locked(event: Event) -> Event:
    """The event locked for the transaction, its results version bumped (``tournaments.versions``):
    every change of the team competition can change what its pages show."""
    event = versions.lock(event.pk)
    if event.kind != Event.Kind.SM_TEAM:
        raise ValidationError(_("Kisa ei ole joukkuekisa."), code="not_team_event")
    return event


def _refuse_if_published(event: Event) -> None:
    if event.finished_at is not None:
        raise ValidationError(_("Kisan tulokset on julkaistu: mitään ei voi enää muuttaa."), code="published")


def _day(day) -> str:
    return formats.date_format(day, "SHORT_DATE_FORMAT") if day else ""


# --- teams ----------------------------------------------------------------------------------------------


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
    substitute (a person plays for one team, RULES.md §6)."""
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
    pair outside the team is refused (``tournaments.services.create_pair``)."""
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
                pair = tournament_services.create_pair(event, spec.player1, spec.player2, pair_club)
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
    entered now (``tournaments.services.create_pair`` refuses a player already in a pair). Only before the
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


# --- the draw and the days --------------------------------------------------------------------------------


def default_day(event: Event, number: int, rounds: int):
    """RULES.md §6 as the project plays it (see ``TeamRound``): the semifinals and the last round on the
    event's last day, earlier rounds on its first."""
    return event.ends_on if number >= rounds - 1 else event.starts_on


@transaction.atomic
def draw(event: Event, user, *, seed: int | None = None) -> knockout.Bracket:
    """Draw the bracket once, from a recorded seed (RULES.md §6): the seed, time and who are the event's
    draw fields; the rounds get their default days and round 1's team matches (byes included) are
    created. Refused once drawn."""
    event = _locked(event)
    if event.drawn_at is not None:
        raise ValidationError(_("Kaavio on jo arvottu: arvonta tehdään vain kerran."), code="drawn")
    team_ids = list(Team.objects.filter(event=event).values_list("pk", flat=True))
    if len(team_ids) < 2:
        raise ValidationError(_("Kaavioon tarvitaan vähintään kaksi joukkuetta."), code="too_few")
    short = Team.objects.filter(event=event).exclude(pk__in=_complete_team_ids(event))
    if short.exists():
        names = ", ".join(t.name for t in short)
        raise ValidationError(
            _("Joukkueelta puuttuu pareja: %(names)s.") % {"names": names}, code="incomplete"
        )
    seed = draw_core.new_seed() if seed is None else seed
    bracket = knockout.draw_bracket([str(t) for t in team_ids], seed)
    event.draw_seed, event.drawn_at = seed, timezone.now()
    event.drawn_by = user if user is not None and getattr(user, "is_authenticated", False) else None
    event.save(update_fields=["draw_seed", "drawn_at", "drawn_by"])
    TeamRound.objects.bulk_create(
        TeamRound(event=event, number=n, day=default_day(event, n, bracket.rounds))
        for n in range(1, bracket.rounds + 1)
    )
    return sync_bracket(event)


def _complete_team_ids(event: Event) -> list[int]:
    return list(
        Team.objects.filter(event=event)
        .annotate(n=Count("team_pairs"))
        .filter(n=3)
        .values_list("pk", flat=True)
    )


@transaction.atomic
def set_round_day(event: Event, number: int, day) -> None:
    """Move a round to another day of the event, until one of its team matches has started."""
    event = _locked(event)
    found = TeamRound.objects.filter(event=event, number=number).first()
    if found is None:
        raise ValidationError(_("Kierrosta ei ole."), code="no_round")
    if not event.starts_on <= day <= event.ends_on:
        raise ValidationError(_("Päivän on oltava kisan päivä."), code="day_out_of_event")
    if TeamMatch.objects.filter(event=event, round=number, started_at__isnull=False).exists():
        raise ValidationError(_("Kierros on jo alkanut: päivää ei voi enää muuttaa."), code="started")
    found.day = day
    found.save(update_fields=["day"])


# --- the bracket moves on by itself -----------------------------------------------------------------------


def sync_bracket(event: Event) -> knockout.Bracket:
    """Make the stored team matches what the bracket says: create every team match whose teams are now
    known (the next round's as soon as both winners are, the match for third place from the semifinal
    losers), and mend or remove one left behind by a corrected result while it has not started. A
    correction that would change a started team match is refused (the caller's transaction is undone)."""
    event = versions.lock(event.pk)
    rows = results.load_rows(event)
    by_key = {(r.round, r.slot): r for r in rows}
    team_ids = sorted(Team.objects.filter(event=event).values_list("pk", flat=True))
    bracket, known = results.replay(team_ids, event.draw_seed, by_key, lambda r: r.winner_id)
    wanted = set()
    for m in known:
        key = (m.round, m.slot)
        wanted.add(key)
        a, b = int(m.a), (int(m.b) if m.b is not None else None)
        row = by_key.get(key)
        if row is None:
            TeamMatch.objects.create(
                event=event, round=m.round, slot=m.slot, third_place=m.third_place, team_a_id=a, team_b_id=b
            )
        elif (row.team_a_id, row.team_b_id) != (a, b):
            _refuse_if_started(row)
            TeamOrder.objects.filter(team_match=row).delete()
            TeamMatch.objects.filter(pk=row.pk).update(team_a_id=a, team_b_id=b)
    for key, row in by_key.items():
        if key not in wanted:
            _refuse_if_started(row)
            row.delete()
    return bracket


def _refuse_if_started(row: TeamMatch) -> None:
    if row.started_at is not None:
        raise tournament_services.ResultRefused(
            _(
                "Muutos vaihtaisi joukkueottelun voittajan, mutta seuraava joukkueottelu (kierros %(round)s) on jo "
                "alkanut. Peru ensin sen aloitus (järjestäjän sivulla), tai korjaa tulos niin, että voittaja pysyy."
            )
            % {"round": row.round},
            code="team_match_started",
        )


@receiver(result_changed)
def _bracket_moves_on(sender, match=None, group=None, **kwargs) -> None:
    """After every change to a pair match's result, the bracket catches up (RULES.md §6)."""
    if match is not None and match.stage == TEAM:
        sync_bracket(match.event)


# --- substitutes ----------------------------------------------------------------------------------------


def check_substitute(team: Team, player: Player, day, comp: results.Competition | None = None) -> None:
    """Refuse a substitute (*varamies*) the rules forbid (RULES.md §6), for a match on ``day``:

    - a person plays for one team: not a player of any pair of the event, nor the substitute of another
      team still in the competition;
    - a player who has already played for another team (a substitute who played in one of its started
      matches) cannot become this team's substitute;
    - **Decision (Saturday and Sunday):** for a match on a later day than the event's first, not someone
      knocked out on an earlier day: the substitute of a team whose last match was on an earlier day.
    """
    event = team.event
    comp = comp or results.load(event)
    member = PairMember.objects.filter(event=event, player=player).select_related("pair").first()
    if member is not None:
        other = Team.objects.filter(team_pairs__pair=member.pair).first()
        if other is None or other.pk == team.pk:
            raise ValidationError(
                _("%(name)s pelaa jo parissa tässä kisassa: varamies ei voi olla joukkueen pelaaja.")
                % {"name": player.full_name},
                code="in_pair",
            )
        raise ValidationError(
            _("%(name)s pelaa jo joukkueessa %(team)s: pelaaja pelaa vain yhdessä joukkueessa.")
            % {"name": player.full_name, "team": other.name},
            code="other_team",
        )
    played = (
        TeamOrder.objects.filter(
            team_match__event=event,
            substitute=player,
            substitute_for__isnull=False,
            team_match__started_at__isnull=False,
        )
        .exclude(team=team)
        .select_related("team")
        .first()
    )
    if played is not None:
        raise ValidationError(
            _("%(name)s on jo pelannut joukkueessa %(team)s: hän ei voi olla toisen joukkueen varamies.")
            % {"name": player.full_name, "team": played.team.name},
            code="played",
        )
    others = set(
        Team.objects.filter(event=event, substitute=player).exclude(pk=team.pk).values_list("pk", flat=True)
    ) | set(
        TeamOrder.objects.filter(
            team_match__event=event, substitute=player, team_match__started_at__isnull=False
        )
        .exclude(team=team)
        .values_list("team_id", flat=True)
    )
    for other_id in sorted(others):
        other = comp.teams[other_id]
        out_on = comp.eliminated_on(other)
        if day is not None and out_on is not None and day > event.starts_on and out_on < day:
            raise ValidationError(
                _(
                    "%(name)s putosi jo joukkueen %(team)s mukana %(day)s: hän ei voi olla varamies "
                    "myöhempänä päivänä."
                )
                % {"name": player.full_name, "team": other.name, "day": _day(out_on)},
                code="eliminated_earlier",
            )
        if other.substitute_id == player.pk and not comp.out(other):
            raise ValidationError(
                _("%(name)s on jo joukkueen %(team)s varamies: pelaaja pelaa vain yhdessä joukkueessa.")
                % {"name": player.full_name, "team": other.name},
                code="other_substitute",
            )


@transaction.atomic
def name_substitute(team: Team, player: Player | None, actor: Actor) -> Team:
    """Name (or clear, with None) the team's substitute, before its next match starts (RULES.md §6)."""
    event = _locked(team.event)
    _refuse_if_published(event)
    team = Team.objects.select_related("event").get(pk=team.pk)
    comp = results.load(event)
    current = comp.current_row(comp.teams[team.pk])
    if comp.drawn and comp.out(comp.teams[team.pk]):
        raise ValidationError(_("Joukkue on jo pelannut viimeisen ottelunsa."), code="out")
    if current is not None and current.started_at is not None:
        raise ValidationError(
            _("Ottelu on jo alkanut: varamiehen voi nimetä vasta ennen joukkueen seuraavaa ottelua."),
            code="started",
        )
    if current is not None:
        order = current.declared.get(team.pk)
        if order is not None and order.substitute_for_id is not None:
            raise ValidationError(
                _(
                    "Ilmoitetussa järjestyksessä varamies pelaa: varamiestä ei voi enää vaihtaa tähän otteluun."
                ),
                code="declared",
            )
    if player is not None:
        number = comp.next_round(comp.teams[team.pk]) if comp.drawn else None
        day = comp.day(number) if number else event.starts_on
        check_substitute(team, player, day, comp)
    team.substitute = player
    team.save(update_fields=["substitute"])
    if current is not None and current.started_at is None:
        TeamOrder.objects.filter(team_match=current, team=team).update(substitute=player)
    return team


# --- declarations and starting a team match -------------------------------------------------------------


def _real_user(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def order_detail(order: TeamOrder) -> dict:
    """An order as the history keeps it: the pairs' names in order, and the substitute if he plays."""
    pairs = Pair.objects.in_bulk(order.pair_ids)
    detail = {"pairs": [pairs[pk].full_name for pk in order.pair_ids]}
    if order.substitute_for_id is not None:
        detail["substitute"] = order.substitute.full_name
        detail["substitute_for"] = order.substitute_for.full_name
    return detail


def _record(row: TeamMatch, action: str, user=None, *, team=None, via_link=False, detail=None) -> None:
    TeamMatchChange.objects.create(
        team_match=row, team=team, action=action, by=_real_user(user), via_link=via_link, detail=detail or {}
    )


def orders_locked(row: TeamMatch) -> bool:
    """Both teams have declared (or the match has started): neither order can change any more, and each
    team may now see the other's."""
    return row.started_at is not None or row.orders.count() == 2


@transaction.atomic
def declare_order(
    row: TeamMatch, team: Team, pair_ids: list[int], actor: Actor, *, substitute_for: Player | None = None
) -> TeamOrder:
    """The leader's order of the team's three pairs for one team match (RULES.md §6, Decision a team
    match), with the player the substitute replaces, if he plays.

    **Decision (hidden orders):** a team may change its declaration until the other team has declared;
    from then on (and once the match starts) both are locked, and each team sees the other's.
    """
    event = _locked(row.event)
    _refuse_if_published(event)
    row = TeamMatch.objects.select_for_update().get(pk=row.pk)
    if team.pk not in (row.team_a_id, row.team_b_id) or row.team_b_id is None:
        raise ValidationError(_("Joukkue ei pelaa tätä ottelua."), code="wrong_team")
    if row.started_at is not None:
        raise ValidationError(_("Ottelu on jo alkanut: järjestystä ei voi enää muuttaa."), code="started")
    orders = {o.team_id: o for o in TeamOrder.objects.filter(team_match=row)}
    other = row.team_b_id if team.pk == row.team_a_id else row.team_a_id
    if other in orders and team.pk in orders:
        raise ValidationError(
            _("Molemmat joukkueet ovat jo ilmoittaneet järjestyksensä: se on lukittu."), code="locked"
        )
    own = list(TeamPair.objects.filter(team=team).values_list("pair_id", flat=True))
    if len(pair_ids) != 3 or sorted(pair_ids) != sorted(own):
        raise ValidationError(_("Valitse jokainen joukkueen kolmesta parista kerran."), code="bad_order")
    team = results.teams_queryset(event).get(pk=team.pk)
    substitute = team.substitute
    if substitute_for is not None:
        comp = results.load(event)
        players = {m.player_id for tp in team.team_pairs.all() for m in tp.pair.members.all()}
        if substitute is None:
            raise ValidationError(_("Joukkueella ei ole varamiestä."), code="no_substitute")
        if substitute_for.pk not in players:
            raise ValidationError(
                _("Varamies voi pelata vain joukkueen pelaajan tilalla."), code="not_in_team"
            )
        check_substitute(team, substitute, comp.day(row.round), comp)
    order, _created = TeamOrder.objects.update_or_create(
        team_match=row,
        team=team,
        defaults={
            "pair_1_id": pair_ids[0],
            "pair_2_id": pair_ids[1],
            "pair_3_id": pair_ids[2],
            "substitute": substitute,
            "substitute_for": substitute_for,
            "declared_by": _real_user(actor.user),
            "via_link": actor.via_link,
        },
    )
    _record(
        row, TeamMatchChange.Action.DECLARED, actor.user, team=team, via_link=actor.via_link,
        detail={"orders": {str(team.pk): order_detail(order)}},
    )
    return order


@transaction.atomic
def reopen_orders(row: TeamMatch, user) -> int:
    """The organiser reopens a team match's declarations before it starts (a leader declared the wrong
    order, or an undone start must be declared again): both orders are removed, kept in the history as
    they were, and each leader declares again. Returns how many orders were reopened."""
    event = _locked(row.event)
    _refuse_if_published(event)
    row = TeamMatch.objects.select_for_update().get(pk=row.pk)
    if row.started_at is not None:
        raise ValidationError(
            _("Ottelu on jo alkanut: peru ensin aloitus, jos järjestykset on avattava."), code="started"
        )
    orders = list(TeamOrder.objects.filter(team_match=row).select_related("substitute", "substitute_for"))
    if not orders:
        raise ValidationError(_("Kumpikaan joukkue ei ole vielä ilmoittanut järjestystään."), code="none")
    detail = {"orders": {str(o.team_id): order_detail(o) for o in orders}, "both": len(orders) == 2}
    TeamOrder.objects.filter(team_match=row).delete()
    _record(row, TeamMatchChange.Action.REOPENED, user, detail=detail)
    return len(orders)


def pair_table(row: TeamMatch, order: int) -> int:
    """Tables 3(s − 1) + 1 … 3s for slot s of a round: the final's pairs at 1–3, third place's at 4–6."""
    return 3 * (row.slot - 1) + order


def _start(row: TeamMatch, event: Event, user) -> None:
    orders = {o.team_id: o for o in TeamOrder.objects.filter(team_match=row)}
    order_a, order_b = orders[row.team_a_id], orders[row.team_b_id]
    for k in (1, 2, 3):
        match = Match.objects.create(
            event=event,
            stage=TEAM,
            round=row.round,
            table=pair_table(row, k),
            pair_a_id=order_a.pair_ids[k - 1],
            pair_b_id=order_b.pair_ids[k - 1],
            deals_planned=event.deals_placement,
        )
        PairMatchLink.objects.create(team_match=row, order=k, match=match)
        for order in (order_a, order_b):  # the substitute sits at the table of the pair he plays in
            if order.substitute_for_id is not None and PairMember.objects.filter(
                pair_id=order.pair_ids[k - 1], player_id=order.substitute_for_id
            ).exists():
                MatchSubstitute.objects.create(
                    match=match, player_id=order.substitute_for_id, substitute_id=order.substitute_id
                )
    row.started_at = timezone.now()
    row.started_by = _real_user(user)
    row.save(update_fields=["started_at", "started_by"])
    _record(row, TeamMatchChange.Action.STARTED, user)


def _startable(row: TeamMatch) -> bool:
    return (
        row.team_b_id is not None
        and row.started_at is None
        and TeamOrder.objects.filter(team_match=row).count() == 2
    )


@transaction.atomic
def start_team_match(row: TeamMatch, user) -> TeamMatch:
    """Start one team match: the orders are locked and its three pair matches are created (pair k against
    pair k, 16 deals by default: the event's placement deal count). Needs both declarations."""
    event = _locked(row.event)
    row = TeamMatch.objects.select_for_update().get(pk=row.pk)
    if row.started_at is not None:
        raise ValidationError(_("Ottelu on jo alkanut."), code="started")
    if row.team_b_id is None:
        raise ValidationError(_("Ohitusvuorossa ei pelata."), code="bye")
    if not _startable(row):
        raise ValidationError(
            _("Molempien joukkueiden on ilmoitettava järjestyksensä ennen ottelun alkua."), code="undeclared"
        )
    _start(row, event, user)
    return row


@transaction.atomic
def start_round(event: Event, number: int, user) -> tuple[list[TeamMatch], list[TeamMatch]]:
    """The organiser starts round ``number``: every team match of it whose teams have both declared starts
    (orders locked, pair matches created); returns (started, still waiting for a declaration). Pressing
    again later starts the ones that were waiting."""
    event = _locked(event)
    rows = list(
        TeamMatch.objects.select_for_update()
        .filter(event=event, round=number, team_b__isnull=False, started_at__isnull=True)
        .select_related("team_a", "team_b")
    )
    if not rows:
        raise ValidationError(_("Kierroksella ei ole aloitettavia otteluita."), code="nothing")
    started, waiting = [], []
    for row in rows:
        if _startable(row):
            _start(row, event, user)
            started.append(row)
        else:
            waiting.append(row)
    return started, waiting


@transaction.atomic
def cancel_start(row: TeamMatch, user=None) -> None:
    """Undo a start while none of its pair matches has a result line: the pair matches are removed; the
    declarations stay (locked: ``reopen_orders`` opens them)."""
    event = _locked(row.event)
    _refuse_if_published(event)
    row = TeamMatch.objects.select_for_update().get(pk=row.pk)
    if row.started_at is None:
        raise ValidationError(_("Ottelu ei ole alkanut."), code="not_started")
    matches = Match.objects.filter(team_link__team_match=row)
    if matches.exclude(status=Match.Status.SCHEDULED).exists():
        raise ValidationError(
            _("Ottelussa on jo kirjattu tuloksia: aloitusta ei voi perua."), code="has_results"
        )
    matches.delete()
    row.started_at, row.started_by = None, None
    row.save(update_fields=["started_at", "started_by"])
    _record(row, TeamMatchChange.Action.START_CANCELLED, user)


# --- places and next season -------------------------------------------------------------------------------


@transaction.atomic
def publish(event: Event, user, *, confirm: dict[int, int] | None = None) -> None:
    """Mark the competition finished once the final and the match for third place are decided and every
    pair match's result is confirmed (``confirm``: those confirmed in this step, match id → version seen);
    the leaders' and the matches' secret links then only show, and the published record is kept."""
    event = _locked(event)
    if event.finished_at is not None:
        raise ValidationError(_("Lopputulokset on jo julkaistu."), code="published")
    if not results.load(event).finished:
        raise ValidationError(_("Loppuottelu tai pronssiottelu on vielä pelaamatta."), code="incomplete")
    tournament_services.confirm_for_publication(event, confirm or {}, user)
    event.finished_at = timezone.now()
    event.save(update_fields=["finished_at"])
    publication.record_publication(event, user if getattr(user, "is_authenticated", False) else None)


def final_places(event) -> list[tuple[int, int]] | None:
    """The team places for the published record, once the competition is decided (None before)."""
    comp = results.load(event)
    if not comp.finished:
        return None
    return [(place, team.pk) for place, team in comp.ranking()]


def season_marks(season) -> dict:
    """Next season's marks from a season's team competitions (RULES.md §6): ``host`` (the club of the
    winning team, or None) and ``cup_eligible`` (ids of clubs that took part with a team not marked
    "title only": taking part is required to host a cup event)."""
    host, eligible = None, set()
    for event in Event.objects.filter(season=season, kind=Event.Kind.SM_TEAM, drawn_at__isnull=False):
        comp = results.load(event)
        eligible |= {c.pk for c in comp.eligible_clubs}
        if comp.host is not None:
            host = comp.host.club
    return {"host": host, "cup_eligible": eligible}
