"""The Saturday group draw (RULES.md §4): group count, names, the seeded draw, swaps."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draw import (
    draw_groups,
    group_count,
    group_name_key,
    group_names,
    group_sizes,
    new_seed,
    swap,
)
from scoring.errors import ScoringError

REPO = Path(__file__).resolve().parents[2]


# --- group count -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n_pairs", "expected"),
    [(16, 8), (17, 8), (63, 8), (64, 16), (65, 16), (128, 16), (200, 16)],
)
def test_group_count_standard_format(n_pairs, expected):
    # RULES §4: 8 groups when fewer than 64 pairs, 16 when 64 or more.
    assert group_count(n_pairs) == expected


@pytest.mark.parametrize("n_pairs", [0, 1, 8, 15])
def test_too_few_pairs_for_the_two_day_format_offers_one_stage(n_pairs):
    with pytest.raises(ScoringError) as info:
        group_count(n_pairs)
    assert info.value.code == "too_few_pairs"
    assert info.value.values == {"n_pairs": n_pairs, "minimum": 16}
    assert "one-stage" in info.value.message


@pytest.mark.parametrize(("n_pairs", "groups"), [(2, 1), (9, 1), (9, 2), (9, 4), (15, 7), (40, 3)])
def test_one_stage_group_count_is_the_organisers(n_pairs, groups):
    assert group_count(n_pairs, one_stage_groups=groups) == groups


@pytest.mark.parametrize(("n_pairs", "groups"), [(9, 0), (9, 5), (3, 2), (1, 1), (0, 1), (10, -1)])
def test_one_stage_group_count_out_of_range(n_pairs, groups):
    # Every group needs at least 2 pairs: at most n_pairs // 2 groups (9 // 2 = 4, 3 // 2 = 1, 1 // 2 = 0).
    with pytest.raises(ScoringError) as info:
        group_count(n_pairs, one_stage_groups=groups)
    assert info.value.code == "group_count_out_of_range"
    assert info.value.values["maximum"] == n_pairs // 2


@pytest.mark.parametrize("bad", [True, 16.0, "16", None])
def test_group_count_needs_an_integer(bad):
    with pytest.raises(ScoringError) as info:
        group_count(bad)
    assert info.value.code == "not_an_integer"


def test_negative_pair_count_is_refused():
    with pytest.raises(ScoringError) as info:
        group_count(-1, one_stage_groups=1)
    assert info.value.code == "negative_pairs"


# --- names and sizes ---------------------------------------------------------------------------------


def test_group_names():
    assert group_names(8) == tuple("ABCDEFGH")
    assert "".join(group_names(16)) == "ABCDEFGHIJKLMNOP"
    assert group_names(0) == ()
    # After Z (the 26th) come AA, AB like spreadsheet columns.
    assert group_names(28)[25:] == ("Z", "AA", "AB")


def test_group_name_key_orders_names_as_drawn():
    names = list(group_names(30))
    assert sorted(reversed(names), key=group_name_key) == names


@pytest.mark.parametrize(
    ("n_pairs", "k", "expected"),
    [
        (16, 8, (2,) * 8),
        # 30 = 8 * 3 + 6: six groups of 4, two of 3, the larger first.
        (30, 8, (4, 4, 4, 4, 4, 4, 3, 3)),
        # 100 = 16 * 6 + 4: four groups of 7, twelve of 6.
        (100, 16, (7, 7, 7, 7) + (6,) * 12),
    ],
)
def test_group_sizes(n_pairs, k, expected):
    assert group_sizes(n_pairs, k) == expected


# --- the draw ----------------------------------------------------------------------------------------

pair_id_sets = st.one_of(
    st.sets(st.integers(min_value=1, max_value=10**6), min_size=16, max_size=200),
    st.sets(
        st.text(alphabet="abcdefghijklmnopqrstuvwxyzåäö0123456789", min_size=1, max_size=8),
        min_size=16,
        max_size=200,
    ),
)
seeds = st.one_of(st.integers(min_value=0, max_value=2**63 - 1), st.text(max_size=20))


@settings(max_examples=60, deadline=None)
@given(ids=pair_id_sets, seed=seeds, data=st.data())
@pytest.mark.slow
def test_draw_invariants(ids, seed, data):
    ids = sorted(ids)
    n = len(ids)
    k = group_count(n)
    assert k == (8 if n < 64 else 16)
    groups = draw_groups(ids, seed, k)

    assert len(groups) == k
    sizes = [len(g) for g in groups]
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)  # A, B, … get the extra pairs
    drawn = [p for g in groups for p in g]
    assert len(drawn) == n and set(drawn) == set(ids)  # each pair exactly once

    # Reproducible: same seed, same draw; the caller's order of the ids does not matter.
    assert draw_groups(ids, seed, k) == groups
    shuffled = data.draw(st.permutations(ids))
    assert draw_groups(shuffled, seed, k) == groups
    assert draw_groups(iter(shuffled), seed, k) == groups


def test_different_seeds_give_different_draws():
    ids = list(range(1, 41))
    draws = {draw_groups(ids, seed, 8) for seed in range(50)}
    # 40! orders: fifty seeds colliding would mean the seed is ignored.
    assert len(draws) == 50
    assert draw_groups(ids, "kevät", 8) != draw_groups(ids, "syksy", 8)


def test_draw_follows_the_documented_procedure():
    # The module docstring promises: SHA-256 of b"int:<seed>" (or b"str:<seed>") seeds random.Random,
    # then Fisher-Yates over the sorted ids using random() only, then slices A, B, … in size order.
    ids = [f"p{i:02d}" for i in range(1, 19)]  # 18 pairs into 8 groups: 3, 3, 2, 2, 2, 2, 2, 2
    for seed, tag in ((987654321, b"int:987654321"), ("Sodankylä 2025", "str:Sodankylä 2025".encode())):
        rng = random.Random(int.from_bytes(hashlib.sha256(tag).digest(), "big"))
        order = sorted(ids)
        for i in range(len(order) - 1, 0, -1):
            j = int(rng.random() * (i + 1))
            order[i], order[j] = order[j], order[i]
        sizes = [3, 3, 2, 2, 2, 2, 2, 2]
        expected, start = [], 0
        for size in sizes:
            expected.append(tuple(order[start : start + size]))
            start += size
        assert draw_groups(reversed(ids), seed, 8) == tuple(expected)


def test_a_string_seed_gives_the_same_draw_in_every_process():
    # Python salts hash() of strings per process; the draw must not depend on it.
    ids = [f"pari-{i}" for i in range(30)]
    here = draw_groups(ids, "arvonta-1", 8)
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); from scoring.draw import draw_groups; "
        "print(json.dumps(draw_groups([f'pari-{i}' for i in range(30)], 'arvonta-1', 8)))"
    )
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        out = subprocess.run(
            [sys.executable, "-c", script, str(REPO)], env=env, capture_output=True, text=True, check=True
        )
        assert tuple(tuple(g) for g in json.loads(out.stdout)) == here


def test_the_draw_is_roughly_uniform():
    # 16 pairs into 8 groups of 2 over 800 seeds: each pair lands in group A 800 * 2/16 = 100 times on
    # average; a fair shuffle keeps every count well inside 50..150 (the standard deviation is ~9.4).
    ids = list(range(16))
    in_a = Counter(p for seed in range(800) for p in draw_groups(ids, seed, 8)[0])
    assert set(in_a) == set(ids)
    assert all(50 <= count <= 150 for count in in_a.values())


def test_draw_with_one_stage_group_count():
    groups = draw_groups(range(1, 12), 7, group_count(11, one_stage_groups=3))
    assert [len(g) for g in groups] == [4, 4, 3]  # 11 = 3 * 3 + 2


@pytest.mark.parametrize(
    ("ids", "seed", "k", "code"),
    [
        ([1, 2, 3, 2], 1, 1, "duplicate_pair"),
        ([1, 2, 3], 1, 2, "group_count_out_of_range"),  # 3 pairs: at most one group of 2+
        ([1, 2, 3, 4], 1, 0, "group_count_out_of_range"),
        ([1, 2, 3, 4], 1, 1.0, "not_an_integer"),
        ([1, 2.5, 3, 4], 1, 1, "pair_id_type"),
        ([1, 2, 3, 4], 1.5, 1, "seed_type"),
        ([1, 2, 3, 4], True, 1, "seed_type"),
        ([1, 2, 3, 4], None, 1, "seed_type"),
    ],
)
def test_draw_refuses_bad_input(ids, seed, k, code):
    with pytest.raises(ScoringError) as info:
        draw_groups(ids, seed, k)
    assert info.value.code == code


def test_int_and_str_ids_together_are_ordered_ints_first():
    # Mixed ids are allowed (ints numerically, then strings): the order of the input does not matter.
    assert draw_groups([10, "b", 9, "a"], 3, 2) == draw_groups(["a", 9, "b", 10], 3, 2)


# --- seeds and swaps ---------------------------------------------------------------------------------


def test_new_seed_fits_a_bigintegerfield():
    seeds_ = [new_seed() for _ in range(200)]
    assert all(isinstance(s, int) and 0 <= s < 2**63 for s in seeds_)
    assert len(set(seeds_)) == 200
    # 63 random bits: some of 200 seeds use the top half of the range (probability of none: 2**-200).
    assert any(s >= 2**62 for s in seeds_)
    draw_groups(range(16), seeds_[0], 8)  # usable as a draw seed


def test_swap_exchanges_two_pairs_in_place():
    groups = ((1, 2, 3), (4, 5), (6, 7))
    assert swap(groups, 2, 7) == ((1, 7, 3), (4, 5), (6, 2))
    assert swap(groups, 6, 1) == ((6, 2, 3), (4, 5), (1, 7))
    assert groups == ((1, 2, 3), (4, 5), (6, 7))  # the input is untouched


@pytest.mark.parametrize(
    ("x", "y", "code"),
    [(2, 2, "same_pair"), (2, 99, "unknown_pair"), (99, 2, "unknown_pair"), (1, 3, "same_group")],
)
def test_swap_refusals(x, y, code):
    with pytest.raises(ScoringError) as info:
        swap(((1, 2, 3), (4, 5)), x, y)
    assert info.value.code == code
