"""The Saturday group draw (RULES.md §4): group count, group names, the seeded random draw, swaps.

Pair ids are ints (database keys) or strings. The draw is a pure function of the *set* of pair ids, the
recorded seed and the group count, so anyone can reproduce a published draw (**Decision (the draw)**:
reproducible from a recorded random seed; the organiser may redraw or swap until the first result).

Reproducibility across processes and Python versions: a seed (int or str) is first turned into bytes
with a type tag and hashed with SHA-256 (never the built-in ``hash()``, which is salted per process for
strings); the digest seeds ``random.Random`` through its integer seeder, and the shuffle is our own
Fisher-Yates on ``Random.random()``, the one generator method whose sequence Python promises to keep.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterable, Sequence

from scoring.errors import ScoringError, is_whole

PairId = int | str
Seed = int | str

# RULES.md §4: 8 groups when fewer than 64 pairs, 16 when 64 or more.
LARGE_EVENT_PAIRS = 64
GROUPS_SMALL_EVENT = 8
GROUPS_LARGE_EVENT = 16
# Decision (small events): the official two-day format needs at least 16 pairs (8 groups of 2).
MIN_PAIRS_TWO_DAY = 16
# A group needs at least two pairs to play a match.
MIN_GROUP_SIZE = 2
# The seed is stored in a database BigIntegerField (signed 64-bit): 63 random bits always fit.
SEED_BITS = 63


def group_count(n_pairs: int, *, one_stage_groups: int | None = None) -> int:
    """The number of Saturday groups (RULES.md §4).

    Standard two-day format (``one_stage_groups`` is None): 8 groups under 64 pairs, 16 from 64 on; fewer
    than 16 pairs is refused with code ``too_few_pairs`` (**Decision (small events)**: run a one-stage
    event instead). One-stage format: the organiser's own group count, 1 to ``n_pairs // 2`` so that
    every group has at least two pairs (code ``group_count_out_of_range``).
    """
    check_int(n_pairs, "n_pairs")
    if n_pairs < 0:
        raise ScoringError(
            "negative_pairs", f"the number of pairs cannot be negative ({n_pairs})", n_pairs=n_pairs
        )
    if one_stage_groups is None:
        if n_pairs < MIN_PAIRS_TWO_DAY:
            raise ScoringError(
                "too_few_pairs",
                f"the two-day format needs at least {MIN_PAIRS_TWO_DAY} pairs, there are {n_pairs}; "
                "run a one-stage event (one or more round-robin groups, final places from the group tables)",
                n_pairs=n_pairs,
                minimum=MIN_PAIRS_TWO_DAY,
            )
        return GROUPS_LARGE_EVENT if n_pairs >= LARGE_EVENT_PAIRS else GROUPS_SMALL_EVENT
    check_int(one_stage_groups, "one_stage_groups")
    maximum = n_pairs // MIN_GROUP_SIZE
    if not 1 <= one_stage_groups <= maximum:
        raise ScoringError(
            "group_count_out_of_range",
            f"with {n_pairs} pairs a one-stage event can have 1 to {maximum} groups "
            f"(at least {MIN_GROUP_SIZE} pairs each), not {one_stage_groups}",
            n_pairs=n_pairs,
            groups=one_stage_groups,
            minimum=1,
            maximum=maximum,
        )
    return one_stage_groups


def group_names(k: int) -> tuple[str, ...]:
    """Names of ``k`` groups: "A", "B", … (RULES.md §4); after "Z" come "AA", "AB", … like spreadsheet columns."""
    check_int(k, "k")
    if k < 0:
        raise ScoringError("negative_groups", f"the number of groups cannot be negative ({k})", groups=k)
    return tuple(_group_name(i) for i in range(k))


def group_name_key(name: str) -> tuple[int, str]:
    """Sort key that puts group names in draw order: A … Z, AA, AB, … (not plain string order)."""
    return (len(name), name)


def group_sizes(n_pairs: int, k: int) -> tuple[int, ...]:
    """Sizes of ``k`` groups holding ``n_pairs`` pairs: differ by at most one, larger groups first (RULES.md §4)."""
    check_int(n_pairs, "n_pairs")
    check_int(k, "k")
    if n_pairs < 0 or k < 1:
        raise ScoringError(
            "group_count_out_of_range",
            f"cannot split {n_pairs} pairs into {k} groups",
            n_pairs=n_pairs,
            groups=k,
        )
    base, extra = divmod(n_pairs, k)
    return tuple(base + 1 if i < extra else base for i in range(k))


def draw_groups(pair_ids: Iterable[PairId], seed: Seed, group_count: int) -> tuple[tuple[PairId, ...], ...]:
    """Draw the pairs into ``group_count`` groups at random, reproducibly from ``seed`` (RULES.md §4).

    The ids are sorted first (ints numerically before strings), so the same set of pairs with the same
    seed gives the same draw whatever order the caller lists them in. The sorted ids are shuffled and
    dealt in slices: group A gets the first ``size(A)`` shuffled pairs, and so on, so sizes differ by at
    most one and the first groups (A, B, …) hold the extra pairs. Within a group the pairs are in drawn
    order. Same-club pairs may land in one group (RULES.md §4: no club constraint).
    """
    ids = sorted_unique_ids(pair_ids)
    check_int(group_count, "group_count")
    maximum = len(ids) // MIN_GROUP_SIZE
    if not 1 <= group_count <= maximum:
        raise ScoringError(
            "group_count_out_of_range",
            f"{len(ids)} pairs cannot be drawn into {group_count} groups of at least {MIN_GROUP_SIZE} pairs "
            f"(1 to {maximum} groups possible)",
            n_pairs=len(ids),
            groups=group_count,
            minimum=1,
            maximum=maximum,
        )
    rng = random.Random(_seed_int(seed))
    # Fisher-Yates on Random.random() only (see the module docstring): int(random() * (i + 1)) is a
    # uniform index 0..i up to a bias below 2**-45 for any realistic number of pairs.
    shuffled = list(ids)
    for i in range(len(shuffled) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
    groups = []
    start = 0
    for size in group_sizes(len(shuffled), group_count):
        groups.append(tuple(shuffled[start : start + size]))
        start += size
    return tuple(groups)


def new_seed() -> int:
    """A fresh random seed for a draw: 0 ≤ seed < 2**63, so it fits a signed 64-bit BigIntegerField."""
    return secrets.randbits(SEED_BITS)


def swap(
    groups: Sequence[Sequence[PairId]], pair_x: PairId, pair_y: PairId
) -> tuple[tuple[PairId, ...], ...]:
    """The groups with ``pair_x`` and ``pair_y`` exchanged, each taking the other's place (RULES.md §4).

    **Decision (the draw)**: the organiser may swap pairs until the first result is entered (the lock is
    the web layer's job). Refused: the same pair twice (``same_pair``), a pair in no group
    (``unknown_pair``), two pairs of one group (``same_group``: the swap would change nothing).
    """
    if pair_x == pair_y:
        raise ScoringError("same_pair", f"cannot swap pair {pair_x} with itself", pair=pair_x)
    where: dict[PairId, tuple[int, int]] = {}
    for g, members in enumerate(groups):
        for i, pair in enumerate(members):
            if pair in where:
                raise ScoringError("duplicate_pair", f"pair {pair} is in the groups twice", pair=pair)
            where[pair] = (g, i)
    for pair in (pair_x, pair_y):
        if pair not in where:
            raise ScoringError("unknown_pair", f"pair {pair} is in no group", pair=pair)
    (gx, ix), (gy, iy) = where[pair_x], where[pair_y]
    if gx == gy:
        raise ScoringError(
            "same_group",
            f"pairs {pair_x} and {pair_y} are already in the same group",
            pair_x=pair_x,
            pair_y=pair_y,
            group=gx,
        )
    result = [list(members) for members in groups]
    result[gx][ix], result[gy][iy] = pair_y, pair_x
    return tuple(tuple(members) for members in result)


# --- helpers -----------------------------------------------------------------------------------------


def pair_id_key(pair: PairId) -> tuple[int, int | str]:
    """Total order on pair ids: ints numerically, then strings; anything else is refused (``pair_id_type``)."""
    if is_whole(pair):
        return (0, pair)
    if isinstance(pair, str):
        return (1, pair)
    raise ScoringError("pair_id_type", f"a pair id must be an int or a string, not {pair!r}", pair=repr(pair))


def sorted_unique_ids(pair_ids: Iterable[PairId]) -> list[PairId]:
    """The pair ids in draw order (``pair_id_key``), refusing a pair listed twice (code ``duplicate_pair``)."""
    ids = list(pair_ids)
    seen: set[tuple[int, int | str]] = set()
    for pair in ids:
        key = pair_id_key(pair)
        if key in seen:
            raise ScoringError("duplicate_pair", f"pair {pair} is listed twice", pair=pair)
        seen.add(key)
    return sorted(ids, key=pair_id_key)


def _seed_int(seed: Seed) -> int:
    """A stable non-negative integer from an int or str seed (SHA-256 of a type-tagged encoding)."""
    if is_whole(seed):
        data = b"int:" + str(seed).encode("ascii")
    elif isinstance(seed, str):
        data = b"str:" + seed.encode("utf-8")
    else:
        raise ScoringError(
            "seed_type", f"a draw seed must be an int or a string, not {seed!r}", seed=repr(seed)
        )
    return int.from_bytes(hashlib.sha256(data).digest(), "big")


def _group_name(i: int) -> str:
    # Bijective base 26: 0 -> A, 25 -> Z, 26 -> AA.
    name = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        name = chr(ord("A") + rem) + name
    return name


def check_int(value: object, name: str) -> None:
    """Refuse anything but a whole number (booleans included) with code ``not_an_integer``."""
    if not is_whole(value):
        raise ScoringError(
            "not_an_integer", f"{name} must be an integer, not {value!r}", **{name: repr(value)}
        )
