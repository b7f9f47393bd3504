"""The team competition in the read-only JSON API: ``event_extra(event)`` gives the keys that
``GET /api/events/<slug>/`` adds for an event of kind "sm_team" (documented in the README)."""

from __future__ import annotations

from types import SimpleNamespace

from teams import results


def event_extra(snap) -> dict:
    """``teams``, ``bracket`` and ``final_ranking`` of a team competition.

    - ``teams``: ``{"id", "name", "club", "pairs": [pair ids, in registration order], "title_only"}``, by name;
    - ``bracket``: every match of the drawn bracket, by round and slot, the match for third place last:
      ``{"round" (1 = first; "third" for the match for third place), "slot", "a", "b" (team ids; in round 1
      null is a bye, later null is a team not known yet), "winner" (team id or null), "pair_matches":
      [{"order" (1–3), "a", "b" (pair ids), "winner" (pair id or null), "substitutes": [{"player" (the
      substitute's id), "name", "replaces" (the replaced player's name)}]}]}`` (pair matches once started);
    - ``final_ranking``: ``{"place", "team"}`` for the places decided so far (1–4 from the final and the
      match for third place, then by the round reached; shared places repeat), all once finished.
    """
    event = SimpleNamespace(pk=snap.event.pk, created_at=snap.event.created_at, results_version=snap.version, fresh=True)
    comp = results.load(event)
    teams = [
        {
            "id": t.pk,
            "name": t.name,
            "club": t.club.name,
            "pairs": list(t.pair_ids),
            "title_only": t.title_only,
        }
        for t in comp.teams.values()
    ]
    bracket = []
    if comp.bracket is not None:
        rows = {(r.round, r.slot): r for r in comp.rows}
        matches = sorted(comp.bracket.matches, key=lambda m: (m.third_place, m.round, m.slot))
        for m in matches:
            row = rows.get((m.round, m.slot))
            pair_matches = []
            if row is not None and (str(row.team_a_id), str(row.team_b_id) if row.team_b_id else None) == (
                m.a,
                m.b,
            ):
                pair_matches = [
                    {
                        "order": pm.order,
                        "a": pm.pair_a_id,
                        "b": pm.pair_b_id,
                        "winner": pm.outcome.winner if pm.outcome.finished else None,
                        "substitutes": [
                            {"player": p.pk, "name": f"{p.first_name} {p.last_name}", "replaces": p.replaces}
                            for p in (*pm.pair_a.players, *pm.pair_b.players)
                            if p.substitute
                        ],
                    }
                    for pm in row.pair_matches
                ]
            bracket.append(
                {
                    "round": "third" if m.third_place else m.round,
                    "slot": 1 if m.third_place else m.slot,
                    "a": int(m.a) if m.a else None,
                    "b": int(m.b) if m.b else None,
                    "winner": int(m.winner) if m.winner else None,
                    "pair_matches": pair_matches,
                }
            )
    return {
        "teams": teams,
        "bracket": bracket,
        "final_ranking": [{"place": place, "team": t.pk} for place, t in comp.ranking()],
    }
