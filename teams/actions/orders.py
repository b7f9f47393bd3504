"""The leaders' declarations of their pairs' order, and starting team matches (their pair matches created)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from registry.models import Player
from teams import results
from teams.actions.common import TEAM, Actor, _locked, _refuse_if_published
from teams.actions.substitutes import check_substitute
from teams.models import PairMatchLink, Team, TeamMatch, TeamMatchChange, TeamOrder, TeamPair
from tournaments.models import Event, Match, MatchSubstitute, Pair, PairMember


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
