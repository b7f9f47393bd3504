"""``teams.api.event_extra(build.build(event.pk))``: the keys the JSON API adds for a team competition (``teams``,
``bracket`` with the third-place match as round "third", ``final_ranking``), exactly."""

from __future__ import annotations

import json

from teams.api import event_extra
from tests.teams.builders import add_team, drawn_event, pair_matches, play, row, start, team_event
from tournaments.readmodel import build


def test_before_the_draw(make_event):
    event = team_event(make_event)
    team = add_team(event, "Kasat", outside=2)
    data = event_extra(build.build(event.pk))
    assert data == {
        "teams": [
            {
                "id": team.pk,
                "name": "Kasat",
                "club": "Kasat ry",
                "pairs": [tp.pair_id for tp in team.team_pairs.order_by("number")],
                "title_only": True,
            }
        ],
        "bracket": [],
        "final_ranking": [],
    }


def test_bracket_byes_pair_matches_and_third_place(make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 3)  # 4 places: slot 1 a bye; no third place
    data = event_extra(build.build(event.pk))
    json.dumps(data)
    assert [(m["round"], m["slot"]) for m in data["bracket"]] == [(1, 1), (1, 2), (2, 1)]
    bye = data["bracket"][0]
    assert bye["b"] is None and bye["winner"] == bye["a"] and bye["pair_matches"] == []
    final = data["bracket"][2]
    assert final["a"] == bye["a"] and final["b"] is None and final["winner"] is None  # not known yet

    event, teams = drawn_event(make_event, organiser, 4)
    s1, s2 = row(event, 1, 1), row(event, 1, 2)
    start(s1)
    first = event_extra(build.build(event.pk))["bracket"][0]
    matches = pair_matches(s1)
    assert first == {
        "round": 1,
        "slot": 1,
        "a": s1.team_a_id,
        "b": s1.team_b_id,
        "winner": None,
        "pair_matches": [
            {"order": k, "a": m.pair_a_id, "b": m.pair_b_id, "winner": None, "substitutes": []}
            for k, m in enumerate(matches, 1)
        ],
    }
    play(s1, s1.team_a, score=(2, 1))
    play(s2, s2.team_b, score=(2, 1))
    data = event_extra(build.build(event.pk))
    rounds = [(m["round"], m["slot"]) for m in data["bracket"]]
    assert rounds == [(1, 1), (1, 2), (2, 1), ("third", 1)]
    third = data["bracket"][3]
    assert (third["a"], third["b"], third["winner"]) == (s1.team_b_id, s2.team_a_id, None)
    assert data["bracket"][0]["winner"] == s1.team_a_id
    winners = [pm["winner"] for pm in data["bracket"][0]["pair_matches"]]
    assert sorted(w in (m.pair_a_id for m in matches) for w in winners) == [False, True, True]
    play(row(event, 2, 1), s2.team_b)
    play(row(event, 2, 2), s1.team_b)
    data = event_extra(build.build(event.pk))
    assert data["final_ranking"] == [
        {"place": 1, "team": s2.team_b_id},
        {"place": 2, "team": s1.team_a_id},
        {"place": 3, "team": s1.team_b_id},
        {"place": 4, "team": s2.team_a_id},
    ]
    assert {t["id"] for t in data["teams"]} == {t.pk for t in teams}
    assert all(set(t) == {"id", "name", "club", "pairs", "title_only"} for t in data["teams"])


def test_shared_places_by_round_reached(make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 6)
    for _ in range(4):
        from teams import results

        for r in results.load(event).rows:
            if not r.bye and r.winner_id is None:
                play(r, r.team_a)
    places = [r["place"] for r in event_extra(build.build(event.pk))["final_ranking"]]
    assert places == [1, 2, 3, 4, 5, 5]
