"""The team competition's part of the event file (issue #27, ``tournaments.output.eventfile``), under the
key ``teams``: its teams in the order the bracket's draw takes them (the draw shuffles the teams' ids
sorted as text, ``scoring.knockout.draw_bracket``; the file keeps that order, never the ids) (name, club, leader, pairs by number, substitute
by the player's key in the file), the bracket's rounds and their days, every team match (round, slot,
teams by name, when it started and who started it, both leaders' orders with the substitute who plays
and for whom, its three pair matches by their reference in the file, and its history) and the places
by team name. No database id: teams are named by name (unique in an event), players by key, users by
username.

Read back by ``import_event`` before the published records (``first``): the teams get new ids that sort
as text in the file's order (ids of one length, after every id in use), so that the bracket, replayed
from the seed over the ids sorted as text, comes out the same in any database. The leaders' secret links are new ones (a secret is never written in the file).

Also the places' naming of the published record (``tournaments.actions.publication``, form 3): a team
competition's places by team name and its teams, never their ids.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection
from django.db.models import Max

from teams.actions.places import final_places
from teams.models import PairMatchLink, Team, TeamMatch, TeamMatchChange, TeamOrder, TeamPair, TeamRound
from tournaments.models import Pair


def _stamp(value: dt.datetime | None) -> str | None:
    return None if value is None else value.astimezone(dt.UTC).isoformat()


def _when(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


def _username(user) -> str:
    return "" if user is None else user.username


def _user(name: str):
    return get_user_model().objects.filter(username=name).first() if name else None


def _names(event_id: int) -> dict[int, str]:
    return dict(Team.objects.filter(event_id=event_id).values_list("pk", "name"))


def _renamed(detail: dict, names: dict) -> dict:
    """A history entry's detail with its orders keyed by team name (``by``: the ids' names, or back)."""
    if "orders" not in detail:
        return detail
    return {**detail, "orders": {names[k]: v for k, v in detail["orders"].items()}}


def players(event) -> set[int]:
    ids = set(Team.objects.filter(event=event, substitute__isnull=False).values_list("substitute_id", flat=True))
    for sub, sub_for in TeamOrder.objects.filter(team_match__event=event).values_list("substitute_id", "substitute_for_id"):
        ids |= {sub, sub_for} - {None}
    return ids


def export(event, refs: dict, numbers: dict, keys: dict | None = None) -> dict:
    keys = keys or {}
    teams = sorted(Team.objects.filter(event=event).select_related("club"), key=lambda t: str(t.pk))  # the draw's order
    names = {t.pk: t.name for t in teams}
    pairs: dict[int, list[int]] = {}
    for team_id, pair_id in TeamPair.objects.filter(team__event=event).order_by("team_id", "number").values_list(
        "team_id", "pair_id"
    ):
        pairs.setdefault(team_id, []).append(numbers[pair_id])
    orders: dict[int, list] = {}
    for o in TeamOrder.objects.filter(team_match__event=event).select_related("declared_by"):
        orders.setdefault(o.team_match_id, []).append({
            "team": names[o.team_id], "pairs": [numbers[p] for p in o.pair_ids],
            "substitute": keys.get(o.substitute_id), "substitute_for": keys.get(o.substitute_for_id),
            "declared_at": _stamp(o.declared_at), "declared_by": _username(o.declared_by), "via_link": o.via_link,
        })
    links: dict[int, list] = {}
    for team_match_id, order, match_id in PairMatchLink.objects.filter(team_match__event=event).order_by(
        "team_match_id", "order"
    ).values_list("team_match_id", "order", "match_id"):
        links.setdefault(team_match_id, []).append({"order": order, "match": refs[match_id]})
    history: dict[int, list] = {}
    for c in TeamMatchChange.objects.filter(team_match__event=event).select_related("by").order_by("at", "pk"):
        history.setdefault(c.team_match_id, []).append({
            "action": c.action, "team": names.get(c.team_id), "at": _stamp(c.at), "by": _username(c.by),
            "via_link": c.via_link, "detail": _renamed(c.detail, {str(k): v for k, v in names.items()}),
        })
    matches = []
    for row in TeamMatch.objects.filter(event=event).select_related("started_by").order_by("round", "slot"):
        matches.append({
            "round": row.round, "slot": row.slot, "third_place": row.third_place,
            "teams": [names[row.team_a_id], names.get(row.team_b_id)],
            "started_at": _stamp(row.started_at), "started_by": _username(row.started_by),
            "orders": sorted(orders.get(row.pk, []), key=lambda o: o["team"] != names[row.team_a_id]),
            "pair_matches": links.get(row.pk, []), "history": history.get(row.pk, []),
        })
    places = final_places(event)
    return {
        "teams": [
            {"name": t.name, "club": t.club.name, "leader": t.leader_name, "pairs": pairs.get(t.pk, []),
             "substitute": keys.get(t.substitute_id), "entered_at": _stamp(t.created_at)}
            for t in teams
        ],
        "rounds": [
            {"number": n, "day": day.isoformat()}
            for n, day in TeamRound.objects.filter(event=event).order_by("number").values_list("number", "day")
        ],
        "matches": matches,
        "places": None if places is None else [[place, names[pk]] for place, pk in places],
    }


def read(event, value: dict, match_of, pair_of, club_of, player_of=None) -> None:
    teams: dict[str, Team] = {}
    first = _free_ids(len(value["teams"]))
    for n, row in enumerate(value["teams"]):  # ids sorting as text in the file's order: the draw's order
        team = Team.objects.create(
            pk=first + n, event=event, club=club_of(row["club"]), name=row["name"], leader_name=row["leader"],
            substitute=None if row["substitute"] is None else player_of(row["substitute"]),
        )
        Team.objects.filter(pk=team.pk).update(created_at=_when(row["entered_at"]))
        TeamPair.objects.bulk_create(
            TeamPair(team=team, pair=pair_of(number), number=n) for n, number in enumerate(row["pairs"], start=1)
        )
        teams[team.name] = team
    _sequence_after(Team)
    TeamRound.objects.bulk_create(
        TeamRound(event=event, number=r["number"], day=dt.date.fromisoformat(r["day"])) for r in value["rounds"]
    )
    ids = {name: str(t.pk) for name, t in teams.items()}
    for row in value["matches"]:
        a, b = row["teams"]
        tm = TeamMatch.objects.create(
            event=event, round=row["round"], slot=row["slot"], third_place=row["third_place"], team_a=teams[a],
            team_b=None if b is None else teams[b], started_at=_when(row["started_at"]),
            started_by=_user(row["started_by"]),
        )
        for o in row["orders"]:
            p1, p2, p3 = (pair_of(n) for n in o["pairs"])
            order = TeamOrder.objects.create(
                team_match=tm, team=teams[o["team"]], pair_1=p1, pair_2=p2, pair_3=p3,
                substitute=None if o["substitute"] is None else player_of(o["substitute"]),
                substitute_for=None if o["substitute_for"] is None else player_of(o["substitute_for"]),
                declared_by=_user(o["declared_by"]), via_link=o["via_link"],
            )
            TeamOrder.objects.filter(pk=order.pk).update(declared_at=_when(o["declared_at"]))
        PairMatchLink.objects.bulk_create(
            PairMatchLink(team_match=tm, order=link["order"], match=match_of(link["match"])) for link in row["pair_matches"]
        )
        for h in row["history"]:
            change = TeamMatchChange.objects.create(
                team_match=tm, team=None if h["team"] is None else teams[h["team"]], action=h["action"],
                by=_user(h["by"]), via_link=h["via_link"], detail=_renamed(h["detail"], ids),
            )
            TeamMatchChange.objects.filter(pk=change.pk).update(at=_when(h["at"]))


def _free_ids(count: int) -> int:
    """The first of ``count`` team ids after every one in use, all of one length (so that they sort as text
    as they sort as numbers): 100–109 rather than 95–104."""
    first = (Team.objects.aggregate(top=Max("pk"))["top"] or 0) + 1
    if count and len(str(first)) != len(str(first + count - 1)):
        first = 10 ** len(str(first))
    return first


def _sequence_after(model) -> None:
    """The database's id sequence moved past the ids given explicitly (PostgreSQL; SQLite follows by itself)."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [model]):
            cursor.execute(sql)


def clubs(value: dict) -> set[str]:
    return {row["club"] for row in value["teams"]}


# --- the published record's naming (form 3) ---------------------------------------------------------


def named_places(event_id: int, places: list) -> list:
    names = _names(event_id)
    return [[place, names.get(who, who)] for place, who in places]


def stored_places(event_id: int, places: list) -> list:
    ids = {name: pk for pk, name in _names(event_id).items()}
    return [[place, ids.get(who, who)] for place, who in places]


def record(event_id: int) -> dict:
    """The teams as the published record holds them: by name, each with its club (name, short name), its
    pairs by number in their registration order and its substitute (member number, first and last name);
    and the bracket's team matches as [round, slot, team A, team B]."""
    numbers = dict(Pair.objects.filter(event_id=event_id).values_list("pk", "number"))
    pairs: dict[int, list[int]] = {}
    for team_id, pair_id in TeamPair.objects.filter(team__event_id=event_id).order_by("team_id", "number").values_list(
        "team_id", "pair_id"
    ):
        pairs.setdefault(team_id, []).append(numbers[pair_id])
    names = _names(event_id)
    teams = sorted((
        {"name": name, "club": [club, short], "pairs": pairs.get(pk, []),
         "substitute": None if first is None else [member, first, last]}
        for pk, name, club, short, member, first, last in Team.objects.filter(event_id=event_id).values_list(
            "pk", "name", "club__name", "club__short_name", "substitute__member_number", "substitute__first_name",
            "substitute__last_name",
        )
    ), key=lambda t: t["name"])  # in Python: databases collate names apart
    matches = [
        [rnd, slot, names[a], names.get(b)]
        for rnd, slot, a, b in TeamMatch.objects.filter(event_id=event_id).order_by("round", "slot").values_list(
            "round", "slot", "team_a_id", "team_b_id"
        )
    ]
    return {"teams": teams, "team_matches": matches}
