"""What the team match pages share: a team match's line-up as a given viewer may see it, and the player
search for naming a substitute."""

from __future__ import annotations

from registry.search import search_players
from teams import results
from tournaments.models import PairMember


def pairs_by_id(team: results.TeamView) -> dict:
    return {pair.pk: pair for pair in team.pairs}


def match_context(
    comp: results.Competition, row: results.TeamMatchView, *, viewer: results.TeamView | None, organiser: bool = False
) -> dict:
    """A team match for a page. Each team's order is shown to everyone once both have declared (or the
    match has started); before that only to the team itself (``viewer``): the other team, the public and
    the organiser see only that it has been declared (RULES.md §6, Decision hidden orders)."""
    team_a, team_b = row.team_a, row.team_b
    order_a, order_b = row.declared.get(team_a.pk), row.declared.get(team_b.pk)
    locked = row.started_at is not None or (order_a is not None and order_b is not None)
    show_a = order_a is not None and (locked or (viewer is not None and viewer.pk == team_a.pk))
    show_b = order_b is not None and (locked or (viewer is not None and viewer.pk == team_b.pk))
    pairs_a, pairs_b = pairs_by_id(team_a), pairs_by_id(team_b)
    matches = {m.order: m for m in row.pair_matches}
    # once played, the pairs as they sit at the table: a substitute in the place he plays
    lines = [
        {
            "order": k,
            "pair_a": matches[k].pair_a if k in matches else pairs_a.get(order_a.pair_ids[k - 1]) if show_a else None,
            "pair_b": matches[k].pair_b if k in matches else pairs_b.get(order_b.pair_ids[k - 1]) if show_b else None,
            "match": matches.get(k),
        }
        for k in (1, 2, 3)
    ]
    return {
        "event": comp.event, "comp": comp, "row": row, "label": comp.label(row), "day": comp.day(row.round),
        "team_a": team_a, "team_b": team_b, "order_a": order_a, "order_b": order_b,
        "show_a": show_a, "show_b": show_b, "locked": locked, "lines": lines, "organiser": organiser,
        "winner": comp.teams.get(row.winner_id) if row.winner_id else None,
        # decided 2–0: the third pair match no longer counts (it may be finished or left)
        "no_longer_counts": [
            line for line in lines if row.winner_id and line["match"] and not line["match"].outcome.finished
        ],
        "score": (max(row.wins), min(row.wins)),  # the winner's pair wins first
    }


def search_candidates(event, query: str) -> list:
    """Players matching ``query`` (name or member number), each marked with the pair number they play in
    at this event, if any (such a player cannot be a substitute)."""
    if not query:
        return []
    found = search_players(query)
    entered = dict(
        PairMember.objects.filter(event=event, player__in=found).values_list("player_id", "pair__number")
    )
    for player in found:
        player.entered_pair = entered.get(player.pk)
    return found
