"""A team match's history for the organiser: what was declared, reopened, started and corrected, when and
by whom (a user or a leader's link), with the declared orders shown only once both may be seen."""

from __future__ import annotations

from dataclasses import dataclass

from teams.models import Team, TeamMatch, TeamMatchChange, TeamOrder
from teams.results import TeamMatchView


@dataclass(frozen=True)
class HistoryLine:
    """One line of a team match's history for the organiser: when, what, by whom (a user or a leader's
    link), the team, and what was declared or reopened when it may be shown (``orders``: (team name,
    detail) pairs; empty while it is hidden)."""

    at: object
    action: str
    label: str
    by: str
    via_link: bool
    team: str
    orders: tuple = ()


def history(row: TeamMatch | TeamMatchView) -> list[HistoryLine]:
    """A team match's history, oldest first (three queries). Hidden orders stay hidden here too: what a team
    declared shows once both orders were visible, at a reopening of both or now that both are in."""
    changes = list(TeamMatchChange.objects.filter(team_match_id=row.pk).select_related("by", "team"))
    names = dict(Team.objects.filter(pk__in=[row.team_a_id, row.team_b_id]).values_list("pk", "name"))
    locked = row.started_at is not None or TeamOrder.objects.filter(team_match_id=row.pk).count() == 2
    visible: set[int] = set()
    pending: list[int] = []
    for change in changes:
        if change.action == TeamMatchChange.Action.DECLARED:
            pending.append(change.pk)
        elif change.action == TeamMatchChange.Action.REOPENED:
            if change.detail.get("both"):
                visible.update(pending)
                visible.add(change.pk)
            pending = []
    if locked:
        visible.update(pending)
    lines = []
    for change in changes:
        orders = ()
        if change.pk in visible:
            orders = tuple(
                (names.get(int(team_id), "?"), detail) for team_id, detail in change.detail.get("orders", {}).items()
            )
        lines.append(
            HistoryLine(
                at=change.at,
                action=change.action,
                label=change.get_action_display(),
                by=change.by.get_username() if change.by else "",
                via_link=change.via_link,
                team=change.team.name if change.team else "",
                orders=orders,
            )
        )
    return lines
