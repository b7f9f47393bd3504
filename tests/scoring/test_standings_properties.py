"""Hypothesis properties of scoring.standings.rank_group (RULES.md §4 "Group order")."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.standings import MatchResult, Playoff, rank_group

SPLITS = {5: 0, 4: 1, 3: 2}


@st.composite
def groups(draw, max_pairs: int = 7):
    """A group with some matches unplayed; few distinct values, so that ties are frequent."""
    n = draw(st.integers(min_value=1, max_value=max_pairs))
    pairs = [f"p{i}" for i in range(n)]
    results = []
    for i, j in combinations(range(n), 2):
        if draw(st.integers(min_value=0, max_value=4)) == 0:
            continue  # not played yet
        winner, loser = (pairs[i], pairs[j]) if draw(st.booleans()) else (pairs[j], pairs[i])
        points = draw(st.sampled_from([3, 3, 4, 5]))
        totals = {winner: draw(st.sampled_from([20, 40, 60])), loser: draw(st.sampled_from([0, 20, 40]))}
        a, b = (winner, loser) if draw(st.booleans()) else (loser, winner)
        results.append(MatchResult(a, b, winner, {winner: points, loser: SPLITS[points]}, totals))
    primary = draw(st.sampled_from(["match_points", "wins"]))
    return pairs, results, primary


def _first_key(table, primary):
    return [s.match_points if primary == "match_points" else s.wins for s in table]


def _unresolved_sets(table):
    blocks: dict[int, list] = {}
    for s in table:
        if s.playoff_required:
            blocks.setdefault(s.rank, []).append(s.pair)
    return list(blocks.values())


SETTINGS = settings(max_examples=150, deadline=None)


@SETTINGS
@given(groups())
def test_output_is_a_permutation_with_consistent_sums(group):
    pairs, results, primary = group
    table = rank_group(pairs, results, primary=primary)
    assert sorted(s.pair for s in table) == sorted(pairs)
    # Every finished match hands out 5 match points and one win.
    assert sum(s.match_points for s in table) == 5 * len(results)
    assert sum(s.wins for s in table) == len(results)
    assert sum(s.totals for s in table) == sum(sum(r.totals.values()) for r in results)


@SETTINGS
@given(groups())
def test_ranks_are_shared_only_where_a_playoff_is_required(group):
    pairs, results, primary = group
    table = rank_group(pairs, results, primary=primary)
    ranks = [s.rank for s in table]
    assert ranks == sorted(ranks)
    counts = Counter(ranks)
    for position, s in enumerate(table):
        # Competition ranking: a pair's rank is 1 + the number of pairs strictly above it.
        assert s.rank == 1 + sum(1 for other in table if other.rank < s.rank)
        assert s.playoff_required == (counts[s.rank] > 1)
        assert s.playoff_required == (s.decided_by == "unresolved")
        if counts[s.rank] == 1:
            assert s.rank == position + 1
    # Pairs needing a play-off are level on step 1 and on totals (steps 2-4 found no difference).
    for level in _unresolved_sets(table):
        lines = [s for s in table if s.pair in level]
        assert len(set(_first_key(lines, primary))) == 1
        assert len({s.totals for s in lines}) == 1


@SETTINGS
@given(groups())
def test_more_on_step_one_is_always_above(group):
    pairs, results, primary = group
    table = rank_group(pairs, results, primary=primary)
    key = _first_key(table, primary)
    for upper, lower in combinations(range(len(table)), 2):
        assert key[upper] >= key[lower]
        if key[upper] > key[lower]:
            assert table[upper].rank < table[lower].rank
    # A pair level with nobody on step 1 is decided by step 1, named by the setting.
    counts = Counter(key)
    for s, value in zip(table, key, strict=True):
        if counts[value] == 1:
            assert s.decided_by == primary


@SETTINGS
@given(groups())
def test_two_level_pairs_that_met_are_ordered_by_their_match(group):
    pairs, results, primary = group
    table = rank_group(pairs, results, primary=primary)
    key = _first_key(table, primary)
    counts = Counter(key)
    mutual = {frozenset((r.a, r.b)): r for r in results}
    for value, count in counts.items():
        if count != 2:
            continue
        x, y = (s for s, v in zip(table, key, strict=True) if v == value)
        match = mutual.get(frozenset((x.pair, y.pair)))
        if match is not None:
            assert x.pair == match.winner and x.rank < y.rank
            assert x.decided_by == y.decided_by == "head_to_head"


@SETTINGS
@given(groups(), st.randoms(use_true_random=False))
def test_input_order_does_not_matter(group, rnd):
    pairs, results, primary = group
    expected = rank_group(pairs, results, primary=primary)
    shuffled_pairs = list(pairs)
    rnd.shuffle(shuffled_pairs)
    shuffled_results = [
        MatchResult(r.b, r.a, r.winner, dict(r.match_points), dict(r.totals)) if rnd.random() < 0.5 else r
        for r in results
    ]
    rnd.shuffle(shuffled_results)
    assert rank_group(shuffled_pairs, shuffled_results, primary=primary) == expected


@SETTINGS
@given(groups())
def test_names_never_decide_a_rank(group):
    # Renaming the pairs (reversing the id order) changes no pair's rank or decided_by.
    pairs, results, primary = group
    rename = dict(zip(pairs, [f"q{len(pairs) - i}" for i in range(len(pairs))], strict=True))
    renamed = [
        MatchResult(
            rename[r.a],
            rename[r.b],
            rename[r.winner],
            {rename[k]: v for k, v in r.match_points.items()},
            {rename[k]: v for k, v in r.totals.items()},
        )
        for r in results
    ]
    before = {rename[s.pair]: (s.rank, s.decided_by) for s in rank_group(pairs, results, primary=primary)}
    after = {
        s.pair: (s.rank, s.decided_by) for s in rank_group(list(rename.values()), renamed, primary=primary)
    }
    assert after == before


@SETTINGS
@given(groups(), st.randoms(use_true_random=False))
def test_recording_the_requested_playoffs_resolves_every_tie(group, rnd):
    pairs, results, primary = group
    table = rank_group(pairs, results, primary=primary)
    playoffs = []
    for level in _unresolved_sets(table):
        listed, order = list(level), list(level)
        rnd.shuffle(listed)
        rnd.shuffle(order)
        playoffs.append(Playoff(tuple(listed), tuple(order)))
    rnd.shuffle(playoffs)
    after = rank_group(pairs, results, playoffs, primary=primary)
    assert not any(s.playoff_required for s in after)
    assert [s.rank for s in after] == list(range(1, len(pairs) + 1))
    # Each play-off's pairs take the places of their shared rank, in the play-off's order; the other
    # pairs keep their places and their decided_by.
    order_of = {pair: playoff.order for playoff in playoffs for pair in playoff.pairs}
    for position, (old, new) in enumerate(zip(table, after, strict=True)):
        if old.playoff_required:
            assert new.decided_by == "playoff"
            block = order_of[old.pair]
            assert new.pair == block[position - (old.rank - 1)]
        else:
            assert new == old
