"""Seeded random sequences of every kind of change a referee, an organiser or federation staff make.

:data:`KINDS` names each operation kind with its weight; :func:`sequence` draws ``n`` operations with
one seed (the same seed, the same sequence), each applied through the real code paths (the test client
on the views and the admin's change forms; ``ops_results``, ``ops_event``). The phase-moving operations
(a group played to the end, Sunday formed, publication) weigh more as the sequence goes on, so that a
few hundred operations go through an event's whole weekend and its corrections after publication."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tests.coherence import ops_council as council
from tests.coherence import ops_event as ev
from tests.coherence import ops_results as res

# kind: (operation, weight at the start, weight at the end). An operation that applies only for a moment
# (a swap or a redraw before the first result, a seeding correction before Sunday's) weighs much.
KINDS: dict[str, tuple[Callable, float, float]] = {
    "line": (res.line, 6, 3),
    "correction": (res.correction, 2, 1),
    "delete_last": (res.delete_last, 1, 0.3),
    "paper": (res.paper_result, 3, 2),
    "clear_paper": (res.clear_paper, 1, 0.3),
    "accept": (res.accept, 2, 1),
    "confirm": (res.confirm, 2, 1),
    "unconfirm": (res.unconfirm, 0.5, 0.5),
    "late_forfeit": (res.late_forfeit, 1, 0.5),
    "referee": (res.referee, 1, 0.5),
    "appeal": (council.appeal, 1, 0.5),
    "ruling": (council.ruling, 2, 1),
    "exclusion": (council.exclusion, 0.2, 0.2),
    "playoff": (res.playoff, 2, 3),
    "finish_group": (res.finish_group, 1, 10),
    "confirm_all": (res.confirm_all, 0.2, 2),
    "advance": (res.advance, 2, 8),
    "seeding": (res.seeding, 12, 12),
    "publish": (res.publish, 2, 10),
    "correct_published": (res.correct_published, 2, 2),
    "draw": (ev.draw, 4, 8),
    "redraw": (ev.redraw, 5, 5),
    "swap": (ev.swap, 10, 10),
    "withdraw": (ev.withdraw, 0.5, 0.3),
    "undo_withdrawal": (ev.undo_withdrawal, 1, 1),
    "replace_player": (ev.replace_player, 1, 0.5),
    "edit_event": (ev.edit_event, 1, 1),
    "admin_club": (ev.admin_club, 0.5, 0.5),
    "admin_player": (ev.admin_player, 0.5, 0.5),
    "admin_pair": (ev.admin_pair, 0.5, 0.5),
    "admin_team": (ev.admin_team, 0.3, 0.3),
    "admin_cup_event": (ev.admin_cup_event, 0.3, 0.5),
    "admin_cup_count": (ev.admin_cup_count, 0.3, 0.5),
    "admin_season": (ev.admin_season, 0.3, 0.5),
    "admin_season_years": (ev.admin_season_years, 0.2, 0.3),
    "team_step": (ev.team_step, 2, 3),
    "team_finish": (res.finish_team_match, 1, 3),
    "team_publish": (ev.team_publish, 1, 4),
}


def sequence(world, n: int, kinds: dict = KINDS) -> Iterator[tuple[str, str]]:
    """Apply ``n`` operations drawn with ``world.rng``; yields (kind, what it did) after each. A kind that
    does not apply now is drawn again (another kind), as a user would do something else."""
    rng = world.rng
    names = sorted(kinds)
    for step in range(n):
        progress = step / max(n - 1, 1)
        weights = [kinds[k][1] + (kinds[k][2] - kinds[k][1]) * progress for k in names]
        for _attempt in range(50):
            kind = rng.choices(names, weights)[0]
            done = kinds[kind][0](world, rng)
            if done is not None:
                break
        else:
            kind, done = "nothing", "no operation applied"
        world.done.append(f"{step + 1}. {kind}: {done}")
        yield kind, done
