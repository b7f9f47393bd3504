"""Builders for the team competition tests: an SM team event with N teams of fresh players, entered
through ``teams.actions``, and pair match results entered through ``tournaments.actions``."""

from __future__ import annotations

import datetime as dt

from registry.models import Club, Player
from teams.actions import bracket, common, orders, rosters
from teams.models import Team, TeamMatch
from tournaments.actions import results as result_actions
from tournaments.models import Event


def club(name: str) -> Club:
    return Club.objects.get_or_create(name=name, defaults={"short_name": name[:6]})[0]


def players(n: int, home: Club | None = None) -> list[Player]:
    start = Player.objects.count()
    return list(
        Player.objects.bulk_create(
            Player(
                first_name=f"Etu{start + i}",
                last_name=f"Suku{start + i}",
                member_number=f"J{start + i}",
                club=home,
            )
            for i in range(n)
        )
    )


def team_event(make_event, organiser=None, **fields) -> Event:
    fields.setdefault("starts_on", dt.date(2026, 12, 12))  # a Saturday
    fields.setdefault("ends_on", fields["starts_on"] + dt.timedelta(days=1))
    event = make_event(kind=Event.Kind.SM_TEAM, **fields)
    if organiser is not None:
        event.organisers.add(organiser)
    return event


def add_team(
    event, name: str, *, home: Club | None = None, outside: int = 0, substitute: Player | None = None
) -> Team:
    """A team of ``home`` (default: a club named after the team) with three new pairs, the last
    ``outside`` of them from another club (reinforcements)."""
    home = home or club(f"{name} ry")
    other = club("Vieras kerho")
    pairs = []
    for k in range(3):
        from_outside = k >= 3 - outside
        p1, p2 = players(2, other if from_outside else home)
        pairs.append(rosters.NewPair(p1, p2))
    return rosters.create_team(
        event, club=home, name=name, leader_name=f"Johtaja {name}", pairs=pairs, substitute=substitute
    )


def add_teams(event, n: int) -> list[Team]:
    return [add_team(event, f"Joukkue {i + 1:02d}") for i in range(n)]


def drawn_event(make_event, organiser, n: int, *, seed: int = 7, **fields):
    event = team_event(make_event, organiser, **fields)
    teams = add_teams(event, n)
    bracket.draw(event, organiser, seed=seed)
    event.refresh_from_db()
    return event, teams


def declare(row: TeamMatch, team: Team, order=(1, 2, 3), **kwargs):
    """Declare the team's pairs in the given registration numbers' order."""
    by_number = {tp.number: tp.pair_id for tp in team.team_pairs.all()}
    return orders.declare_order(
        row, team, [by_number[k] for k in order], common.Actor(via_link=True), **kwargs
    )


def fresh(row) -> TeamMatch:
    """The team match as the database has it now: a model row refreshed, or the model of a row of the
    read side (``teams.results.TeamMatchView``, plain values)."""
    if isinstance(row, TeamMatch):
        row.refresh_from_db()
        return row
    return TeamMatch.objects.select_related("event", "team_a", "team_b").get(pk=row.pk)


def start(row: TeamMatch, user=None) -> TeamMatch:
    row = fresh(row)
    for team in (row.team_a, row.team_b):
        if not row.orders.filter(team=team).exists():
            declare(row, team)
    return orders.start_team_match(row, user)


def win(match, side: str):
    """Pair ``side`` ("A" or "B") wins the pair match at once: the other pair calls rami and takes no
    trick, a nälsytuppi (RULES.md §1–2), entered line by line through ``tournaments.actions.results.add_entry``
    (which sends ``result_changed``)."""
    loser_seat = 2 if side == "A" else 1
    tricks_a = 13 if side == "A" else 0
    data = result_actions.EntryData(
        kind="deal", game="rami", caller_seat=loser_seat, tricks_a=tricks_a, tricks_b=13 - tricks_a
    )
    return result_actions.add_entry(
        match, data, version=None, actor=result_actions.Actor(user=None)
    )


def pair_matches(row: TeamMatch):
    return [link.match for link in row.pair_links.order_by("order").select_related("match")]


def play(row: TeamMatch, winner: Team, *, score=(2, 1)):
    """Start the team match if needed and let ``winner`` (a team or its ``TeamView``) win ``score`` pair
    matches to the other's."""
    row = fresh(row)
    if row.started_at is None:
        start(row)
    winner_side = "A" if winner.pk == row.team_a_id else "B"
    loser_side = "B" if winner_side == "A" else "A"
    sides = [winner_side] * score[0] + [loser_side] * score[1]
    # the loser's win first, so the team match is decided by the last line
    for match, side in zip(pair_matches(row), sorted(sides, key=lambda s: s == winner_side), strict=False):
        win(match, side)


def row(event, round_: int, slot: int) -> TeamMatch:
    return TeamMatch.objects.select_related("team_a", "team_b").get(event=event, round=round_, slot=slot)
