"""The SM team competition's knockout bracket (RULES.md §6)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.knockout import (
    Bracket,
    advance,
    bracket_from_results,
    bracket_places,
    bracket_size,
    bye_slots,
    draw_bracket,
    team_match_winner,
)


def teams(n: int) -> list[str]:
    return [f"team{i:02d}" for i in range(1, n + 1)]


def round1(bracket: Bracket):
    return [m for m in bracket.matches if m.round == 1 and not m.third_place]


def bye_flags(bracket: Bracket) -> list[int]:
    return [1 if m.bye else 0 for m in round1(bracket)]


def balanced(flags: list[int]) -> bool:
    """Every half, quarter, eighth …: the two sub-brackets' bye counts differ by at most one."""
    if len(flags) <= 1:
        return True
    half = len(flags) // 2
    left, right = flags[:half], flags[half:]
    return abs(sum(left) - sum(right)) <= 1 and balanced(left) and balanced(right)


# --- size and byes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n, size", [(2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16), (12, 16), (16, 16), (17, 32), (20, 32)]
)
def test_bracket_size_is_next_power_of_two(n, size):
    assert bracket_size(n) == size


@pytest.mark.parametrize("n", [1, 0, -3])
def test_fewer_than_two_teams_is_refused(n):
    with pytest.raises(ScoringError) as exc:
        bracket_size(n)
    assert exc.value.code == "team_count"


@pytest.mark.parametrize(
    "n, slots",
    [
        # 4 places, standard seeding 1 v 4, 2 v 3; 3 teams -> "seed" 4 is the bye: slot 1.
        (3, (1,)),
        (4, ()),
        # 8 places: slots are 1 v 8, 4 v 5, 2 v 7, 3 v 6. 5 teams -> seeds 6, 7, 8 are byes: slots 4, 3, 1.
        (5, (1, 3, 4)),
        (6, (1, 3)),  # seeds 7, 8: one bye in each half
        (7, (1,)),
        (8, ()),
    ],
)
def test_bye_slots_follow_standard_seeding(n, slots):
    assert bye_slots(n) == slots


@pytest.mark.parametrize("n", range(2, 21))
def test_bracket_shape_and_bye_spread(n):
    bracket = draw_bracket(teams(n), seed=n * 7919)
    size = bracket_size(n)
    first = round1(bracket)
    byes = size - n
    assert len(first) == size // 2
    assert sum(bye_flags(bracket)) == byes
    # At most one bye per round-1 match, and the bye is team b.
    for match in first:
        assert match.a is not None
        if match.bye:
            assert match.b is None and match.winner == match.a
    assert balanced(bye_flags(bracket))
    # Every team exactly once in round 1.
    drawn = [t for m in first for t in (m.a, m.b) if t is not None]
    assert sorted(drawn) == teams(n)
    # Two bye teams meet in round 2 only when there are more byes than round-2 matches (size / 4).
    flags = bye_flags(bracket)
    bye_meetings = sum(1 for i in range(0, len(flags) - 1, 2) if flags[i] and flags[i + 1])
    assert bye_meetings == max(0, byes - size // 4)
    assert tuple(m.slot for m in first) == tuple(range(1, size // 2 + 1))
    assert tuple(i + 1 for i, f in enumerate(flags) if f) == bye_slots(n)


def test_bye_teams_move_on_at_once():
    # 5 teams: slots 1, 3 and 4 are byes, so round 2 slot 2 already has both teams (bye winners of
    # round-1 slots 3 and 4) and slot 1 waits for round-1 slot 2.
    bracket = draw_bracket(teams(5), seed="sm-2025")
    r1 = {m.slot: m for m in round1(bracket)}
    second = bracket.match(2, 2)
    assert (second.a, second.b) == (r1[3].a, r1[4].a)
    assert second.ready
    first = bracket.match(2, 1)
    assert first.a == r1[1].a and first.b is None and not first.ready


# --- the draw ----------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 20), seed=st.one_of(st.integers(0, 2**64), st.text(max_size=12)))
def test_same_seed_same_bracket_whatever_the_input_order(n, seed):
    ids = teams(n)
    shuffled = list(reversed(ids))
    assert draw_bracket(ids, seed) == draw_bracket(shuffled, seed)


def test_seed_changes_the_draw():
    draws = {tuple((m.a, m.b) for m in round1(draw_bracket(teams(8), seed))) for seed in range(20)}
    assert len(draws) > 1


def test_draw_is_stable_across_runs():
    # random.Random(seed).shuffle of the sorted ids, then filled in slot order (no byes with 4 teams).
    ids = teams(4)
    expected = list(ids)
    random.Random(42).shuffle(expected)
    bracket = draw_bracket(reversed(ids), 42)
    assert [(m.a, m.b) for m in round1(bracket)] == [(expected[0], expected[1]), (expected[2], expected[3])]
    assert bracket.seed == 42 and bracket.teams == tuple(ids)


@pytest.mark.parametrize(
    "ids, seed, code",
    [
        (["a", "a", "b"], 1, "team_duplicate"),
        (["a", ""], 1, "team_id"),
        (["a", 3], 1, "team_id"),
        (["a"], 1, "team_count"),
        (["a", "b"], None, "seed"),
        (["a", "b"], True, "seed"),
        (["a", "b"], 1.5, "seed"),
    ],
)
def test_draw_errors(ids, seed, code):
    with pytest.raises(ScoringError) as exc:
        draw_bracket(ids, seed)
    assert exc.value.code == code


# --- third place and places --------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 21))
def test_third_place_match_exists_from_four_teams(n):
    bracket = draw_bracket(teams(n), seed=1)
    third = bracket.third_place
    if n >= 4:
        assert third is not None
        assert (third.round, third.slot) == (bracket.rounds, 2)
    else:
        assert third is None


def play_out(bracket: Bracket, rng: random.Random) -> Bracket:
    while not bracket.finished:
        ready = [m for m in bracket.matches if m.ready]
        assert ready, "an unfinished bracket must have a playable match"
        match = rng.choice(ready)
        bracket = advance(bracket, match.round, match.slot, rng.choice([match.a, match.b]))
    return bracket


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 20), seed=st.integers(0, 10**6), play=st.integers(0, 10**6))
def test_whole_bracket_with_random_winners(n, seed, play):
    bracket = play_out(draw_bracket(teams(n), seed), random.Random(play))
    places = bracket_places(bracket)
    assert sorted(places) == teams(n)  # every team placed
    top = sorted(p for p in places.values() if p <= 4)
    assert top == list(range(1, min(n, 4) + 1))  # 1..4 each once (1..3 with 3 teams, 1..2 with 2)
    for team, place in places.items():
        # Shared places after 4: a team's place is 1 + the teams placed strictly better.
        assert place == 1 + sum(1 for other in places.values() if other < place), (team, place)
    # Replaying the recorded results from the seed rebuilds the same bracket.
    results = [(m.round, m.slot, m.winner) for m in bracket.matches if m.winner and not m.bye]
    assert bracket_from_results(reversed(teams(n)), seed, results) == bracket


def test_four_teams_semis_final_and_third_place():
    b = draw_bracket(["w", "x", "y", "z"], seed=3)
    s1, s2 = b.match(1, 1), b.match(1, 2)
    b = advance(b, 1, 1, s1.a)
    assert b.final.a == s1.a and b.final.b is None
    assert b.third_place.a == s1.b and b.third_place.b is None
    b = advance(b, 1, 2, s2.b)
    assert (b.final.a, b.final.b) == (s1.a, s2.b)
    assert (b.third_place.a, b.third_place.b) == (s1.b, s2.a)
    b = advance(b, 2, 1, s2.b)
    assert bracket_places(b) == {s2.b: 1, s1.a: 2}  # third place not played yet
    assert not b.finished
    b = advance(b, 2, 2, s2.a)
    assert b.finished
    assert bracket_places(b) == {s2.b: 1, s1.a: 2, s2.a: 3, s1.b: 4}


def test_three_teams_loser_of_the_only_semifinal_is_third():
    b = draw_bracket(["x", "y", "z"], seed=11)
    bye, semi = b.match(1, 1), b.match(1, 2)
    assert bye.bye and not semi.bye
    assert b.third_place is None
    b = advance(b, 1, 2, semi.b)
    b = advance(b, 2, 1, bye.a)
    assert b.finished
    assert bracket_places(b) == {bye.a: 1, semi.b: 2, semi.a: 3}


def test_two_teams_only_a_final():
    b = draw_bracket(["x", "y"], seed=0)
    assert b.rounds == 1 and b.third_place is None
    b = advance(b, 1, 1, "y")
    assert b.finished and bracket_places(b) == {"y": 1, "x": 2}


def test_losers_of_one_round_share_a_place():
    # 12 teams, 16 places: round 1 has 4 real matches (4 byes) -> their losers share 9 (8 teams go on);
    # round 2 (quarterfinals) losers share 5.
    b = draw_bracket(teams(12), seed=5)
    rng = random.Random(0)
    for round_ in (1, 2):
        for m in b.round_matches(round_):
            if not m.bye:
                b = advance(b, round_, m.slot, rng.choice([m.a, m.b]))
    places = bracket_places(b)
    assert sorted(places.values()) == [5, 5, 5, 5, 9, 9, 9, 9]


# --- recording results -------------------------------------------------------------------------------


def test_advance_errors():
    b = draw_bracket(teams(5), seed=2)  # byes in round-1 slots 1, 3, 4; real match in slot 2
    real = b.match(1, 2)
    cases = [
        ((1, 1, b.match(1, 1).a), "bye_match"),
        ((2, 1, b.match(1, 1).a), "match_not_ready"),
        ((1, 2, "nobody"), "winner_not_in_match"),
        ((1, 5, real.a), "match_unknown"),
        ((4, 1, real.a), "match_unknown"),
    ]
    for args, code in cases:
        with pytest.raises(ScoringError) as exc:
            advance(b, *args)
        assert exc.value.code == code, args


def test_result_can_be_corrected_until_the_next_match_is_played():
    b = draw_bracket(teams(4), seed=9)
    s1 = b.match(1, 1)
    b = advance(b, 1, 1, s1.a)
    assert advance(b, 1, 1, s1.a) == b  # same result again: nothing changes
    b = advance(b, 1, 1, s1.b)  # corrected
    assert b.final.a == s1.b and b.third_place.a == s1.a
    s2 = b.match(1, 2)
    b = advance(b, 1, 2, s2.a)
    b = advance(b, 2, 2, s1.a)  # third-place match played: semi 1 is now locked
    with pytest.raises(ScoringError) as exc:
        advance(b, 1, 1, s1.a)
    assert exc.value.code == "result_locked"


def test_advance_does_not_change_the_given_bracket():
    b = draw_bracket(teams(4), seed=9)
    m = b.match(1, 1)
    advance(b, 1, 1, m.a)
    assert b.match(1, 1).winner is None


# --- team match --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pairs, winner",
    [
        ([], None),
        (["a"], None),
        (["a", "b"], None),
        (["a", "a"], "a"),  # decided after two pair matches
        (["b", None, "b"], "b"),  # pair 2 still playing
        (["a", "b", "b"], "b"),
        (["b", "a", "a"], "a"),
        ([None, None, None], None),
    ],
)
def test_team_match_winner(pairs, winner):
    assert team_match_winner(pairs) == winner


@pytest.mark.parametrize(
    "pairs, code", [(["a", "b", "a", "a"], "pair_match_count"), (["a", "c"], "pair_winner")]
)
def test_team_match_errors(pairs, code):
    with pytest.raises(ScoringError) as exc:
        team_match_winner(pairs)
    assert exc.value.code == code
