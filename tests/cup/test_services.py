"""The season cup computed from the database (cup.services) against hand-worked expectations.

The hand-worked season and its arithmetic are in conftest.py. Further: a corrected result changes the
cup with nothing stored; batched snapshots equal single ones (tournaments.readmodel.snapshot); and the
hand-worked seasons of tests/scoring/cases/cup give the same rankings through the services layer.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.models import Q

from cup import services
from cup.models import CupEvent
from tests.cup.builders import beat, club, one_group_event, player
from tournaments.actions import entries, sunday, versions
from tournaments.actions import results as result_actions
from tournaments.actions.simulation import play_matches
from tournaments.models import Event, Match, PaperResult
from tournaments.readmodel import build

CASES = [  # the worked seasons with an expected ranking (the others are inputs the core must refuse)
    p
    for p in sorted((Path(__file__).resolve().parents[1] / "scoring" / "cases" / "cup").glob("*.json"))
    if "expected" in json.loads(p.read_text(encoding="utf-8"))
]


def by_name(rows):
    return {row.player.last_name: row for row in rows}


def test_player_ranking_by_hand(hand_season):
    cup = services.season_cup(hand_season.season)
    rows = by_name(cup.players)
    expected = {  # last name: (label, points, counted places, match wins); see conftest.py
        "Aho": ("1.–2.", Decimal(47), {1: 1, 2: 1}, 5),
        "Blom": ("1.–2.", Decimal(47), {1: 1, 2: 1}, 5),
        "Cajander": ("3.–4.", Decimal(43), {1: 1, 4: 1}, 3),
        "Dahl": ("3.–4.", Decimal(43), {1: 1, 4: 1}, 3),
        "Grön": ("5.–6.", Decimal(40), {2: 1, 4: 1}, 2),
        "Heino": ("5.–6.", Decimal(40), {2: 1, 4: 1}, 2),
        "Eskola": ("7.–8.", Decimal(40), {3: 2}, 2),
        "Forsman": ("7.–8.", Decimal(40), {3: 2}, 2),
        "Ilola": ("9.–10.", Decimal("12.5"), {1: 1}, 3),
        "Jussila": ("9.–10.", Decimal("12.5"), {1: 1}, 3),
    }
    assert {n: (r.rank_label, r.points, r.places, r.match_wins) for n, r in rows.items()} == expected
    assert [r.player.last_name for r in cup.players][4:6] != [
        "Eskola",
        "Forsman",
    ]  # Grön, Heino ahead (2nd place)
    # Each event's points, counted or not, in date order (E1, E2, summer event).
    cells = {n: [(c.points, c.counted) if c else None for c in r.cells] for n, r in rows.items()}
    assert cells["Aho"] == [(25, True), (22, True), (10, False)]  # best 2: the summer 10 is dropped
    assert cells["Cajander"] == [(18, True), (25, True), (11, False)]  # 11 < 18: the summer event is dropped
    assert cells["Heino"] == [(22, True), (18, True), None]
    assert cells["Ilola"] == [None, None, (Decimal("12.5"), True)]  # half of 25, kept exactly
    # The player page's facts: the partner and the club the pair represented that evening.
    heino = rows["Heino"].cells
    assert heino[0].partner == hand_season.players["Grön"] and heino[0].club == hand_season.clubs["O"]
    assert heino[1].club == hand_season.clubs["K"]  # after the transfer the pair played for Kemi
    assert rows["Heino"].club == hand_season.clubs["O"]  # but his season club stays Oulu (RULES.md §7)
    assert [c.number for c in cup.columns] == [1, 2, 3]
    assert [c.weight for c in cup.columns] == [1, 1, Decimal("0.5")]


def test_pair_ranking_by_hand(hand_season):
    cup = services.season_cup(hand_season.season)
    got = [(r.rank_label, {p.last_name for p in r.players}, r.points) for r in cup.pairs]
    assert got == [
        ("1.", {"Aho", "Blom"}, 47),
        ("2.", {"Cajander", "Dahl"}, 43),
        ("3.", {"Grön", "Heino"}, 40),  # level with EF on 40; a second place beats none
        ("4.", {"Eskola", "Forsman"}, 40),
        ("5.", {"Ilola", "Jussila"}, Decimal("12.5")),
    ]
    gh = cup.pairs[2]
    assert [c.name for c in gh.clubs] == ["Oulun Tuppiseura", "Kemin Kasa"]  # the clubs GH played for


def test_club_ranking_by_hand_with_transfer_and_unknown_club(hand_season):
    cup = services.season_cup(hand_season.season)
    got = [(r.rank_label, r.club.name, r.points, {m.player.last_name for m in r.members}) for r in cup.clubs]
    assert got == [
        # Heino's E2 points (18, played for Kemi after his transfer) stay with Oulu: 43 + 43 + 40 + 40.
        ("1.", "Oulun Tuppiseura", 166, {"Cajander", "Dahl", "Grön", "Heino"}),
        ("2.", "Kemin Kasa", 94, {"Aho", "Blom"}),
        ("3.", "Rovaniemen Rami", Decimal("92.5"), {"Eskola", "Forsman", "Ilola"}),
    ]
    assert cup.clubs[0].places == {1: 2, 2: 2, 4: 4} and cup.clubs[0].match_wins == 3 + 3 + 2 + 2
    assert [r.player.last_name for r in cup.unknown_club] == ["Jussila"]  # never silently dropped
    assert [(n.transfer.player.last_name, n.points_club.name) for n in cup.transfers] == [
        ("Heino", "Oulun Tuppiseura")
    ]


def test_a_corrected_result_changes_the_cup(hand_season):
    """E2 corrected: Aho/Blom beat Cajander/Dahl after all. E2 becomes AB 1. (3 wins), CD 2. (2),
    EF 3. (1), GH 4. (0). Then AB 25 + 25 = 50; CD best two of 18, 22, 11 = 40 with places 2.×1 4.×1
    and 0 + 2 wins, exactly level with GH (22 + 18, 2.×1 4.×1, 2 + 0 wins): four players share 3.–6.;
    EF 40 (3.×2) 7.–8. Clubs: O 4 × 40 = 160, K 2 × 50 = 100, R 92,5."""
    before = services.season_cup(hand_season.season)
    assert by_name(before.players)["Aho"].points == 47
    e2 = hand_season.events[1]
    ab, cd = hand_season.pairs["E2"][1], hand_season.pairs["E2"][0]
    beat(ab, cd, reason="Tuomarineuvoston päätös")  # saved again with the other winner, after publication
    after = services.season_cup(hand_season.season)
    rows = by_name(after.players)
    assert (rows["Aho"].rank_label, rows["Aho"].points) == ("1.–2.", 50)
    for name in ("Cajander", "Dahl", "Grön", "Heino"):
        assert (rows[name].rank_label, rows[name].points) == ("3.–6.", 40), name
    assert (rows["Cajander"].places, rows["Cajander"].match_wins) == ({2: 1, 4: 1}, 2)
    assert rows["Eskola"].rank_label == "7.–8."
    assert [(c.club.name, c.points) for c in after.clubs] == [
        ("Oulun Tuppiseura", 160),
        ("Kemin Kasa", 100),
        ("Rovaniemen Rami", Decimal("92.5")),
    ]
    assert Match.objects.filter(event=e2, status="finished").count() == 6


def test_unpublished_and_incomplete_events_give_no_points(hand_season):
    """A counted event without published places is a column without points; a published event whose
    places are no longer complete (a result removed behind the application's back: through it such a
    correction is refused, issue #24) gives no points until the result is complete again."""
    k = hand_season.clubs["K"]
    x, y, z, w = (player("Xa", f"Uusi{i}", k) for i in range(4))
    later, pairs = one_group_event(
        "Lapin osakilpailu",
        hand_season.events[1].starts_on.replace(day=29),
        [(x, y, k), (z, w, k)],
        weight=Decimal(1),
        publish=False,
    )
    cup = services.season_cup(hand_season.season)
    assert [c.placed for c in cup.columns] == [True, True, False, True]
    assert "Uusi0" not in {r.player.last_name for r in cup.players}
    # E1 reopened: its results are cleared from one match (the places are no longer complete)
    e1 = hand_season.events[0]
    match = Match.objects.filter(event=e1).first()
    with pytest.raises(result_actions.ResultRefused):
        result_actions.clear_paper(
            match, version=None, actor=result_actions.Actor(user=None), reason="Väärä ottelu kirjattu"
        )
    PaperResult.objects.filter(match=match).delete()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.SCHEDULED)
    versions.bump(e1.pk)
    cup = services.season_cup(hand_season.season)
    assert [c.placed for c in cup.columns] == [False, True, False, True]
    aho = by_name(cup.players)["Aho"]
    assert aho.points == 32  # E2 22 + the summer event's 10, which now counts among Aho's best 2
    assert [(c.points, c.counted) if c else None for c in aho.cells] == [None, (22, True), None, (10, True)]


# --- the batched final places are tournaments' own -----------------------------------------------------


def simulate(pairs: int, seed: int, until: str = "all") -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", str(pairs), "--seed", str(seed), "--until", until, stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


@pytest.mark.slow
def test_batched_snapshots_equal_single_ones(db):
    """The cup loads its events' snapshots in one batch (build.build_many): each must give exactly
    the places of that event's own snapshot (two-day events, unfinished ones, one-stage ones with a
    withdrawn pair), and match wins counted from every finished match."""
    full = [simulate(40, 11), simulate(24, 12)]
    unfinished = simulate(20, 13, until="sunday")
    k = club("Kemin Kasa")
    people = [player("P", f"Pelaaja{i}", k) for i in range(10)]
    small, pairs = one_group_event(
        "Pieni kisa",
        full[0].starts_on,
        [(people[2 * i], people[2 * i + 1], k) for i in range(5)],
        publish=False,
    )
    # Pair 5 withdraws before finishing its group (its first result is cleared again): all its matches
    # are annulled, it gets no place, and the four others keep their places.
    last = Match.objects.filter(event=small).filter(Q(pair_a=pairs[4]) | Q(pair_b=pairs[4])).first()
    result_actions.clear_paper(last, version=None, actor=result_actions.Actor(user=None))
    assert entries.withdraw_pair(pairs[4]) == 4
    # In another, pair 3 withdraws after finishing its group: it keeps its results and its place.
    late, late_pairs = one_group_event(
        "Toinen pieni kisa",
        full[0].starts_on,
        [(people[2 * i], people[2 * i + 1], k) for i in range(4)],
        publish=False,
    )
    assert entries.withdraw_pair(late_pairs[2]) == 0
    events = [*full, unfinished, small, late]
    batched = build.build_many([e.pk for e in events])
    assert batched[late.pk].final_places == (
        (1, late_pairs[0].pk),
        (2, late_pairs[1].pk),
        (3, late_pairs[2].pk),
        (4, late_pairs[3].pk),
    )
    for event in events:
        assert batched[event.pk].final_places == build.build(event.pk).final_places
        assert batched[event.pk].final_places is not None or event in (unfinished,)
    assert batched[unfinished.pk].final_places is None
    assert len(batched[small.pk].final_places) == 4 and pairs[4].pk not in dict(
        (p, q) for q, p in batched[small.pk].final_places
    )
    # Match wins: in the small event, pair k (1-based) beat the pairs below it: 3, 2, 1, 0.
    assert [batched[small.pk].match_wins.get(p.pk, 0) for p in pairs[:4]] == [3, 2, 1, 0]
    # In a played weekend every finished match has one winner.
    played = Match.objects.filter(event=full[0], status="finished").count()
    assert sum(batched[full[0].pk].match_wins.values()) == played


def test_playing_on_after_sunday_keeps_places_equal(db):
    event = simulate(20, 14, until="sunday")
    rng = random.Random(5)
    for _ in range(3):
        sunday.create_placements(event)
        play_matches(event.matches.filter(stage="placement"), rng)
        assert build.build_many([event.pk])[event.pk].final_places == build.build(event.pk).final_places
    assert build.build(event.pk).final_places is not None


# --- the separate hand-worked seasons of the rules engine, through the services layer ----------------


def test_there_are_worked_cases():
    assert len(CASES) >= 12


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rules_cases_through_services(path: Path):
    """Each worked season of tests/scoring/cases/cup (arithmetic in its "why") is fed to
    cup.services.rank as the services feed the database's facts (every player alone in a "pair" of
    one); the rows must agree with the case's expected output: order, rank, points, counted, places,
    match wins."""
    case = json.loads(path.read_text(encoding="utf-8"))
    data = case["input"]
    ids = {}
    for ev in data["events"]:
        for p in ev["placings"]:
            ids.setdefault(p["player"], len(ids) + 1)
    names = {v: k for k, v in ids.items()}
    events = {n: Event(pk=n, name=ev["id"]) for n, ev in enumerate(data["events"], start=1)}
    facts = [
        services.EventFacts(
            event=events[n],
            weight=Decimal(str(ev["weight"])),
            results=tuple(
                services.PairResult(
                    pair_id=i,
                    players=(ids[p["player"]],),
                    club_id=None,
                    place=p["place"],
                    match_wins=p["match_wins"],
                )
                for i, p in enumerate(ev["placings"])
            ),
        )
        for n, ev in enumerate(data["events"], start=1)
    ]
    players, pairs = services.rank(facts, data.get("best_n"))
    assert pairs == ()
    got = [
        {
            "player": names[int(s.entrant)],
            "rank": s.rank,
            "points": float(s.points),
            "counted": [events[int(e)].name for e in s.counted],
            "places": {str(k): v for k, v in s.places.items()},
            "match_wins": s.match_wins,
        }
        for s in players
    ]
    expected = [{**row, "points": float(row["points"])} for row in case["expected"]]
    # Within a shared rank the order is by id only (scoring.cup), so compare shared ranks as sets.
    assert sorted(got, key=lambda r: (r["rank"], r["player"])) == sorted(
        expected, key=lambda r: (r["rank"], r["player"])
    )
    assert [r["rank"] for r in got] == [r["rank"] for r in case["expected"]]


def test_rank_labels():
    assert services.rank_labels([1, 2, 2, 4, 5, 5, 5, 8]) == [
        "1.",
        "2.–3.",
        "2.–3.",
        "4.",
        "5.–7.",
        "5.–7.",
        "5.–7.",
        "8.",
    ]


def test_add_season_events_uses_the_kind(make_event):
    cup_event = make_event(kind=Event.Kind.CUP)
    summer = make_event(kind=Event.Kind.SUMMER)
    sm = make_event(kind=Event.Kind.SM_PAIRS)
    other = make_event(kind=Event.Kind.OTHER)
    team = make_event(kind=Event.Kind.SM_TEAM)
    added = services.add_season_events(cup_event.season)
    assert {c.event_id: c.weight for c in added} == {cup_event.pk: 1, summer.pk: Decimal("0.5"), sm.pk: 1}
    assert not CupEvent.objects.filter(event__in=[other, team]).exists()
    assert services.add_season_events(cup_event.season) == []  # nothing is counted twice
