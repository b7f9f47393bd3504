"""``scoring.cup_reach``: best and worst reachable positions, checked against brute force (issue #28.5)."""

from collections import Counter
from decimal import Decimal
from functools import cache
from itertools import combinations_with_replacement, groupby, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import cup_reach, cup_reach_legs, cup_reach_lp, cup_reach_pairs, cup_reach_pool
from scoring.cup import DEFAULT_POINTS, CupEvent, PairPlacing, Placing, rank_pairs, rank_players
from scoring.cup_reach import key, reach

TABLE = (5, 3, 1)
NEWCOMER = "new"


def _season(histories):
    """Past events from ``{player: [place or None per past event]}`` (place 4 = beyond the table)."""
    n_events = max(len(h) for h in histories.values())
    events = []
    for e in range(n_events):
        placings = tuple(
            Placing(p, h[e], 0) for p, h in sorted(histories.items()) if e < len(h) and h[e] is not None
        )
        events.append(CupEvent(f"e{e}", 1, placings))
    return rank_players(events, table=TABLE)


def _leg_choices(players):
    """Every way the enumerated players can place in one leg: at most two players a place."""
    out = []
    for places in product((0, 1, 2, 3), repeat=len(players)):
        if all(places.count(p) <= 2 for p in (1, 2, 3)):
            out.append(places)
    return out


@cache
def _newcomers_ahead(free, kx, w2, best_n):
    """Most newcomers (empty history, any legs) strictly ahead of ``kx`` in the free slots, exhaustively.

    ``free[leg][p - 1]``: slots left at place p; every multiset of newcomer place vectors is tried."""
    legs = len(w2)
    vectors = [v for v in product((0, 1, 2, 3), repeat=legs) if any(v)]
    ahead = [
        v for v in vectors if key([(TABLE[p - 1] * w2[i], p) for i, p in enumerate(v) if p], best_n, 3) > kx
    ]

    @cache
    def most(i, cap):
        if i == len(ahead):
            return 0
        out = most(i + 1, cap)
        v = ahead[i]
        rest = [list(c) for c in cap]
        for leg, p in enumerate(v):
            if p:
                rest[leg][p - 1] -= 1
        if all(n >= 0 for c in rest for n in c):
            out = max(out, 1 + most(i, tuple(tuple(c) for c in rest)))
        return out

    return most(0, tuple(tuple(c) for c in free))


def _brute(standings, weights, best_n):
    """Every outcome of the legs: min and max of 1 + the number strictly ahead, per ranked player.

    The ranked players and one extra newcomer are placed in every possible way (two a place). The
    other slots go to newcomers: for the worst position every multiset of newcomers that fits is tried
    (``_newcomers_ahead``); for the best, only the partners a lone player needs, each playing that one
    leg (more newcomers or more results for one can only add entrants ahead)."""
    width = len(TABLE)
    names = [s.entrant for s in standings] + [NEWCOMER]
    hist = {s.entrant: [(int(r.points * 2), r.place) for r in s.events] for s in standings}
    hist[NEWCOMER] = []
    w2 = [int(Decimal(str(w)) * 2) for w in weights]
    result = {s.entrant: [10**9, 0] for s in standings}
    choices = _leg_choices(names)
    for outcome in product(choices, repeat=len(weights)):
        res = {n: list(hist[n]) for n in names}
        forced = []  # fresh newcomers: partners of a lone player
        free = []
        for leg, places in enumerate(outcome):
            for n, p in zip(names, places, strict=True):
                if p:
                    res[n].append((TABLE[p - 1] * w2[leg], p))
            free.append(tuple(2 - places.count(p) for p in (1, 2, 3)))
            forced.extend([(TABLE[p - 1] * w2[leg], p)] for p in (1, 2, 3) if places.count(p) == 1)
        keys = {n: key(r, best_n, width) for n, r in res.items() if r}
        fresh = [key(r, best_n, width) for r in forced]
        for x in result:
            kx = keys[x]
            ahead = sum(1 for n, k in keys.items() if n != x and k > kx)
            low = ahead + sum(1 for k in fresh if k > kx)
            high = ahead + _newcomers_ahead(tuple(free), kx, tuple(w2), best_n)
            result[x][0] = min(result[x][0], 1 + low)
            result[x][1] = max(result[x][1], 1 + high)
    return result


history_st = st.lists(st.one_of(st.none(), st.integers(1, 4)), min_size=1, max_size=3)


@st.composite
def seasons(draw):
    legs = draw(st.integers(1, 2))
    n_players = draw(st.integers(1, 4 if legs == 1 else 3))
    histories = {f"p{i}": draw(history_st) for i in range(n_players)}
    for h in histories.values():
        if all(p is None for p in h):
            h[0] = draw(st.integers(1, 4))
    weights = draw(st.lists(st.sampled_from([1, Decimal("0.5")]), min_size=legs, max_size=legs))
    best_n = draw(st.sampled_from([None, 1, 2]))
    return histories, weights, best_n


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seasons())
def test_reach_equals_brute_force_over_every_outcome(season):
    histories, weights, best_n = season
    standings = _season(histories)
    expected = _brute(standings, weights, best_n)
    got = reach(standings, weights, best_n, TABLE)
    for r in got:
        assert r.worst_exact
        assert [r.best, r.worst] == expected[r.entrant], r.entrant


def test_no_legs_left_gives_nothing():
    assert reach(_season({"a": [1]}), [], None, TABLE) == []


def test_leader_out_of_reach_has_clinched_the_cup():
    # a: 5+5+5 = 15; b: 3; one leg left is worth 5 at most: nobody can pass a.
    rows = {r.entrant: r for r in reach(_season({"a": [1, 1, 1], "b": [2, None, None]}), [1], None, TABLE)}
    assert rows["a"].best == rows["a"].worst == 1
    assert rows["a"].clinched
    assert not rows["b"].clinched
    assert rows["b"].best == 2


def _pair_brute(standings, weights, best_n):
    """Fixed pairs: every outcome (one pair a place, a player in one pair a leg); free places to new pairs."""
    width = len(TABLE)
    names = [s.entrant for s in standings] + [("new1", "new2")]
    hist = {s.entrant: [(int(r.points * 2), r.place) for r in s.events] for s in standings}
    hist[names[-1]] = []
    w2 = [int(Decimal(str(w)) * 2) for w in weights]
    result = {s.entrant: [10**9, 0] for s in standings}
    choices = []
    for places in product((0, 1, 2, 3), repeat=len(names)):
        playing = [n for n, p in zip(names, places, strict=True) if p]
        members = [m for n in playing for m in n]
        if all(places.count(p) <= 1 for p in (1, 2, 3)) and len(members) == len(set(members)):
            choices.append(places)
    for outcome in product(choices, repeat=len(weights)):
        res = {n: list(hist[n]) for n in names}
        free = []
        for leg, places in enumerate(outcome):
            for n, p in zip(names, places, strict=True):
                if p:
                    res[n].append((TABLE[p - 1] * w2[leg], p))
            free.append(tuple(1 - places.count(p) for p in (1, 2, 3)))
        keys = {n: key(r, best_n, width) for n, r in res.items() if r}
        for x in result:
            kx = keys[x]
            ahead = sum(1 for n, k in keys.items() if n != x and k > kx)
            high = ahead + _newcomers_ahead(tuple(free), kx, tuple(w2), best_n)
            result[x][0] = min(result[x][0], 1 + ahead)
            result[x][1] = max(result[x][1], 1 + high)
    return result


@st.composite
def pair_seasons(draw):
    legs = draw(st.integers(1, 2))
    pool = ["a", "b", "c", "d"]
    all_pairs = [(x, y) for i, x in enumerate(pool) for y in pool[i + 1 :]]
    chosen = draw(
        st.lists(st.sampled_from(all_pairs), min_size=1, max_size=4 if legs == 1 else 3, unique=True)
    )
    histories = {pair: draw(history_st) for pair in chosen}
    for h in histories.values():
        if all(p is None for p in h):
            h[0] = draw(st.integers(1, 4))
    weights = draw(st.lists(st.sampled_from([1, Decimal("0.5")]), min_size=legs, max_size=legs))
    return histories, weights, draw(st.sampled_from([None, 1, 2]))


def _pair_events(histories):
    """The past events of pair ``histories`` (a place or None per event); two pairs sharing a player
    cannot both play one event: the first of them is kept."""
    events = []
    for e in range(max(len(h) for h in histories.values())):
        seen, kept = set(), []
        for pair, h in histories.items():
            if e < len(h) and h[e] and not seen & set(pair):
                seen |= set(pair)
                kept.append(PairPlacing(pair, h[e], 0))
        events.append(CupEvent(f"e{e}", 1, tuple(kept)))
    return events


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair_seasons())
def test_pair_reach_equals_brute_force_over_every_outcome(season):
    histories, weights, best_n = season
    standings = rank_pairs(_pair_events(histories), table=TABLE)
    expected = _pair_brute(standings, weights, best_n)
    for r in reach(standings, weights, best_n, TABLE, pairs=True):
        assert r.worst_exact
        assert [r.best, r.worst] == expected[r.entrant], r.entrant


def test_two_pairs_sharing_a_player_cannot_both_play_a_leg():
    # (a, b) and (a, c) each need 2nd place or better to pass (x, y); a plays in one pair only.
    def worst(second):
        events = [
            CupEvent("e0", 1, (PairPlacing(("a", "b"), 2, 0), PairPlacing(("x", "y"), 1, 0))),
            CupEvent("e1", 1, (PairPlacing(second, 2, 0),)),
        ]
        rows = reach(rank_pairs(events, table=TABLE), [1], None, TABLE, pairs=True)
        return next(r.worst for r in rows if r.entrant == ("x", "y"))

    assert worst(("a", "c")) == 2
    assert worst(("c", "d")) == 3


def test_pairs_dropped_for_a_shared_player_are_replaced_from_further_down():
    # five pairs level after one win each, one leg of three places left: any place passes a level pair,
    # so three pass whoever is X; for (x, y) the easiest three include (a, b) and (a, e), which share a,
    # and the pooled model alone (no place-vector search) must take (f, g) instead of stopping at two
    pairs = [("x", "y"), ("a", "b"), ("a", "e"), ("c", "d"), ("f", "g")]
    events = [CupEvent(f"e{i}", 1, (PairPlacing(pair, 1, 0),)) for i, pair in enumerate(pairs)]
    standings = rank_pairs(events, table=TABLE)
    expected = _pair_brute(standings, [1], None)
    rows = reach(standings, [1], None, TABLE, pairs=True, fallback_budget=0)
    assert all(r.worst_exact for r in rows)
    assert {r.entrant: [r.best, r.worst] for r in rows} == expected
    assert expected[("x", "y")] == [1, 4]


def test_pairs_sharing_a_player_both_pass_in_different_legs():
    # (x, y) has two wins; (a, b), (a, c), (d, e), (f, g) a win and a second each: any of them passes
    # (x, y) with a first or second place, and two legs have four such places, so all four pass though a
    # plays in both (a, b) and (a, c): one leg each. A newcomer cannot pass. Only the construction leg by
    # leg finds it (the pooled model alone, no place-vector search).
    x, ab, ac, de, fg = ("x", "y"), ("a", "b"), ("a", "c"), ("d", "e"), ("f", "g")
    results = [
        ((x, 1), (ab, 2)),
        ((x, 1), (de, 2)),
        ((ab, 1), (fg, 2)),
        ((de, 1), (ac, 2)),
        ((fg, 1),),
        ((ac, 1),),
    ]
    events = [
        CupEvent(f"e{i}", 1, tuple(PairPlacing(pair, place, 0) for pair, place in ev))
        for i, ev in enumerate(results)
    ]
    standings = rank_pairs(events, table=TABLE)
    expected = _pair_brute(standings, [1, 1], None)
    rows = reach(standings, [1, 1], None, TABLE, pairs=True, fallback_budget=0)
    assert all(r.worst_exact for r in rows)
    assert {r.entrant: [r.best, r.worst] for r in rows} == expected
    assert expected[x] == [1, 5]


@st.composite
def shared_pair_seasons(draw):
    """Pairs of five players, many sharing one, and legs of one weight: the pooled model applies."""
    legs = draw(st.integers(1, 2))
    pool = ["a", "b", "c", "d", "e"]
    all_pairs = [(x, y) for i, x in enumerate(pool) for y in pool[i + 1 :]]
    chosen = draw(st.lists(st.sampled_from(all_pairs), min_size=2, max_size=5 - legs, unique=True))
    histories = {pair: draw(history_st) for pair in chosen}
    for h in histories.values():
        if all(p is None for p in h):
            h[0] = draw(st.integers(1, 3))
    return histories, [1] * legs


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shared_pair_seasons())
def test_pooled_pair_rows_never_claim_an_outcome_that_cannot_happen(season):
    # without the place-vector search every pair row comes from the pooled model and its constructions:
    # an exact worst is brute force's, a bound is never better than it
    histories, weights = season
    standings = rank_pairs(_pair_events(histories), table=TABLE)
    expected = _pair_brute(standings, weights, None)
    for r in reach(standings, weights, None, TABLE, pairs=True, fallback_budget=0):
        if r.worst_exact:
            assert r.worst == expected[r.entrant][1], r.entrant
        else:
            assert r.worst >= expected[r.entrant][1], r.entrant


@st.composite
def additive_seasons(draw):
    """Seasons where the pooled model applies: every event counts (best N none) and the legs left
    share one weight."""
    legs = draw(st.integers(1, 2))
    n_players = draw(st.integers(1, 4 if legs == 1 else 2))
    histories = {f"p{i}": draw(history_st) for i in range(n_players)}
    for h in histories.values():
        if all(p is None for p in h):
            h[0] = draw(st.integers(1, 4))
    return histories, [draw(st.sampled_from([1, Decimal("0.5")]))] * legs


def _pooled_only(monkeypatch):
    """The search over place vectors must not answer: every worst position comes from the pooled model."""

    def refuse(*args, **kwargs):
        raise AssertionError("the place-vector search was asked")

    monkeypatch.setattr(cup_reach._Worst, "max_ahead", refuse)


@pytest.mark.slow
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(additive_seasons())
def test_pooled_worst_equals_brute_force_over_every_outcome(monkeypatch, season):
    histories, weights = season
    standings = _season(histories)
    expected = _brute(standings, weights, None)
    _pooled_only(monkeypatch)
    for r in reach(standings, weights, None, TABLE):
        assert r.worst_exact
        assert [r.best, r.worst] == expected[r.entrant], r.entrant


@st.composite
def pooled_problems(draw):
    """Entrants' needs (points, place counts) against the places of 1–3 legs of one weight."""
    table = draw(st.sampled_from([(5, 3, 1), (4, 4, 1), (3, 2)]))
    legs = draw(st.integers(1, 3))
    cap = draw(st.integers(1, 2))
    n = draw(st.integers(1, 5 - legs))
    width = len(table)
    needs = [
        (draw(st.integers(-1, 2 * legs * table[0])), tuple(draw(st.integers(-1, 1)) for _ in range(width)))
        for _ in range(n)
    ]
    # a need is T - K for an entrant not ahead of X (K <= T): never below zero
    return table, legs, cap, [max(d, (0, (0,) * width)) for d in needs]


def _served_brute(table, legs, cap, needs):
    """Most entrants whose gain beats their need, over every assignment of every leg's places."""
    width = len(table)
    per_leg = [
        c
        for c in product(range(width + 1), repeat=len(needs))
        if all(c.count(p) <= cap for p in range(1, width + 1))
    ]
    best = 0
    for outcome in product(per_leg, repeat=legs):
        served = 0
        for i, need in enumerate(needs):
            places = [leg[i] for leg in outcome if leg[i]]
            counts = tuple(sum(1 for p in places if p == q) for q in range(1, width + 1))
            served += (sum(2 * table[p - 1] for p in places), counts) > need
        best = max(best, served)
    return best


def _pooled_problem(problem, brute=True):
    """The solver of a generated problem, its needs encoded ascending (those that winning every leg
    beats), their points, and the brute-force answer (None without ``brute``)."""
    table, legs, cap, needs = problem
    width = len(table)
    encode = cup_reach_pool._encoder(6 * (2 * legs * table[0] + legs + 2) + 3)
    values = [encode((2 * t, tuple(1 if q == p else 0 for q in range(width)))) for p, t in enumerate(table)]
    pooled = cup_reach_pool._Pooled(values, [2 * t for t in table], legs, cap, node_budget=10**6)
    pooled.season_left = 10**6
    ordered = [d for d in sorted(needs, key=encode) if encode(d) < pooled.top]
    return (
        pooled,
        [encode(d) for d in ordered],
        [d[0] for d in ordered],
        _served_brute(table, legs, cap, needs) if brute else None,
    )


@settings(max_examples=50, deadline=None)
@given(pooled_problems(), st.integers(0, 5))
def test_greedy_count_is_one_its_construction_serves(problem, above):
    # whatever upper bound it is given, the greedy's count is one its construction serves, and so never
    # more than an outcome serves
    pooled, able, _, expected = _pooled_problem(problem)
    high = min(len(able), expected + above)
    got = pooled.greedy(able, high)
    assert 0 <= got <= min(high, expected)
    assert got == 0 or pooled._greedy_serves(able[:got])


@settings(max_examples=50, deadline=None)
@given(pooled_problems())
def test_pooled_solver_equals_every_assignment_of_the_legs(problem):
    pooled, able, able_pts, expected = _pooled_problem(problem)
    served, high, exact = pooled.max_served(able, able_pts)
    assert exact
    assert served == high == expected


@settings(max_examples=50, deadline=None)
@given(pooled_problems())
def test_prices_bound_is_never_below_what_an_outcome_serves(problem):
    pooled, able, _, expected = _pooled_problem(problem)
    assert pooled.upper_by_prices(able) >= expected


def _prices_bound_by_definition(pooled, needs):
    """Step 6's prices bound read off its definition: for every family's item prices and every cap M
    from 1 to the dearest pattern's price and one more, the longest prefix of the needs whose cheapest
    serving patterns, capped at M, cost at most every item capped at M; the least over all of them."""
    worth = [0, *pooled.values]
    patterns = [
        t
        for size in range(1, pooled.legs + 1)
        for t in combinations_with_replacement(range(1, pooled.width + 1), size)
    ]
    gains = [sum(worth[p] for p in t) for t in patterns]
    best = len(needs)
    for k, a in cup_reach_pool.PRICE_FAMILIES:
        cost = [0, *(-(-(v + a) // k) for v in pooled.pts)]
        dearest = pooled.legs * max(cost) + 1
        prices = [sum(cost[p] for p in t) for t in patterns]
        of = {
            d: min((c for c, g in zip(prices, gains, strict=True) if g > d), default=dearest)
            for d in set(needs)
        }
        cheapest = [of[d] for d in needs]
        for cap in range(1, dearest + 1):
            budget = pooled.per_place * sum(min(cap, c) for c in cost[1:])
            spent = served = 0
            for price in cheapest:
                spent += min(cap, price)
                if spent > budget:
                    break
                served += 1
            best = min(best, served)
    return best


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(5, 3, 1), (4, 4, 1), (3, 2), (25, 22, 20, 18, 16, 14, 12, 10)]),
    st.integers(1, 3),
    st.integers(1, 2),
    st.data(),
)
def test_prices_bound_is_its_definition_over_every_cap(table, legs, cap, data):
    # the bound tries only the caps where a stretch of caps ends and takes the needs in runs of one
    # cheapest price: it must be the least over every cap of every family all the same, for many needs
    width = len(table)
    pooled = _pooled_problem((table, legs, cap, []), brute=False)[0]
    encode = cup_reach_pool._encoder(6 * (2 * legs * table[0] + legs + 2) + 3)
    # a few distinct needs, each many times over: seasons have runs of level needs
    distinct = data.draw(
        st.lists(
            st.tuples(st.integers(0, 2 * legs * table[0]), st.tuples(*[st.integers(-1, 1)] * width)),
            min_size=1,
            max_size=8,
        )
    )
    drawn = data.draw(st.lists(st.sampled_from(distinct), min_size=1, max_size=40))
    needs = sorted(d for d in map(encode, drawn) if 0 <= d < pooled.top)
    expected = _prices_bound_by_definition(pooled, needs)
    assert pooled.upper_by_prices(needs) == expected
    low = data.draw(st.integers(0, len(needs)))
    got = pooled.upper_by_prices(needs, low)  # stops once it reaches a count already reached
    assert got == expected or expected <= got <= low


def test_prices_bound_is_its_definition_on_a_season_of_the_benchmark_s_size():
    # the benchmark's season (bench/cup_reach_speed.py: 300 players after six events of 48 pairs, three
    # legs left), every key: 96 needs against 96 items, where the bound is at times least at a cap
    # between two items' prices (a need's cheapest price)
    import random

    rnd = random.Random(1)
    ids = [f"p{i}" for i in range(300)]
    events = []
    for e in range(6):
        field = rnd.sample(ids, 96)
        placings = tuple(
            PairPlacing((field[2 * i], field[2 * i + 1]), i + 1, rnd.randrange(8)) for i in range(48)
        )
        events.append(CupEvent(f"e{e}", 1, placings))
    rows = rank_players(events)
    width = len(cup_reach.DEFAULT_POINTS)
    hist = [cup_reach.history(r, width) for r in rows]
    keys = [key(h, None, width) for h in hist]
    season = cup_reach_pool.pooled_for(hist, keys, (2, 2, 2), None, cup_reach.DEFAULT_POINTS, 2, 200)
    one_a_key = {k: i for i, k in enumerate(keys)}
    for k in sorted(one_a_key):
        i = one_a_key[k]
        t, tp = season.enc[i], k[0]
        needs = season.needs(t, tp, season._candidates(i))[0]
        assert season.pooled.upper_by_prices(needs) == _prices_bound_by_definition(season.pooled, needs)


@settings(max_examples=50, deadline=None)
@given(pooled_problems())
def test_fewest_items_construction_serves_only_what_an_outcome_serves(problem):
    pooled, able, _, expected = _pooled_problem(problem)
    for m in range(len(able) + 1):
        if pooled.fewest_items_serves(able[:m]):
            assert m <= expected
    # the easiest need that winning every leg beats is served alone
    assert not able or pooled.fewest_items_serves(able[:1])


def test_fewest_items_construction_needs_a_gain_strictly_above_the_need():
    # one leg, one pair a place: a need equal to the winner's gain is not beaten, one below it is
    for need, served in (((10, (1, 0, 0)), False), ((10, (0, 1, 0)), True)):
        pooled, _, _, expected = _pooled_problem(((5, 3, 1), 1, 1, [need]))
        encode = cup_reach_pool._encoder(6 * (2 * 5 + 1 + 2) + 3)
        assert expected == served
        assert pooled.fewest_items_serves([encode(need)]) == served


@settings(max_examples=50, deadline=None)
@given(pooled_problems())
def test_least_points_construction_serves_only_what_an_outcome_serves(problem):
    pooled, able, _, expected = _pooled_problem(problem)
    for m in range(len(able) + 1):
        if pooled.least_points_serves(able[:m]):
            assert m <= expected
    # the easiest need that winning every leg beats is served (a first place alone, or better)
    assert not able or pooled.least_points_serves(able[:1])
    assert not able or pooled.constructs(able[:1])


def test_least_points_construction_needs_a_gain_strictly_above_the_need():
    encode = cup_reach_pool._encoder(6 * (2 * 5 + 1 + 2) + 3)
    for need, served in (((10, (1, 0, 0)), False), ((10, (0, 1, 0)), True)):
        pooled, _, _, expected = _pooled_problem(((5, 3, 1), 1, 1, [need]))
        assert expected == served
        assert pooled.least_points_serves([encode(need)]) == served


def test_least_points_construction_serves_a_field_the_fewest_items_construction_cannot():
    # two legs, one pair a place, table (5, 3, 1): two items each of gains 10, 6 and 2 (points times 2).
    # Needs 5, 6, 8 and 12 (level place counts) are all served: 6 | 6 + 2 | 10 | 10 + 2 (12 points
    # and a first place beat a need of 12 points). Hardest first with the fewest items, 12 takes
    # 10 + 6 and 6 is left with 6 + 2, so 5 has nothing; the easiest first with the least points serves all.
    needs = [(5, (0, 0, 0)), (6, (0, 0, 0)), (8, (0, 0, 0)), (12, (0, 0, 0))]
    pooled, able, _, expected = _pooled_problem(((5, 3, 1), 2, 1, needs))
    assert expected == len(able) == 4
    assert not pooled.fewest_items_serves(able)
    assert pooled.least_points_serves(able)
    assert pooled.constructs(able)
    pooled.tries_left = 0  # no least-points tries left this season: the fewest items alone fall short
    assert not pooled.constructs(able)


@settings(max_examples=50, deadline=None)
@given(pooled_problems())
def test_tables_kept_once_a_process_list_the_patterns_in_the_order_of_a_season_s_gains(problem):
    # the patterns' order is kept by points table and legs, the gains are a season's encoding: they
    # must ascend, or the bisections over them answer for other patterns
    pooled = _pooled_problem(problem, brute=False)[0]
    gains, tables = pooled._price_tables()
    assert all(a < b for a, b in zip(gains, gains[1:], strict=False))
    assert len(gains) == len(tables[0][1]) - 1  # a cheapest price for each pattern, and the end
    for size, (pattern_gains, rows, _) in enumerate(pooled._pattern_table(), start=1):
        assert all(a < b for a, b in zip(pattern_gains, pattern_gains[1:], strict=False))
        assert all(sum(c for _, c in uses) == size for _, uses, _ in rows)


def test_a_season_computed_from_tables_kept_by_another_equals_it_computed_afresh():
    # two seasons of one points table and legs, the second with its leader's points grown (a result
    # saved): the encoding's base is a power of two, so both have the same values and the second starts
    # from the tables the first filled; its answer is the one it gets with every kept table cleared. A
    # season whose keys outgrew the base has other values and tables of its own
    first, grown, outgrown = (rank_players(_field(24, events, seed=2)) for events in (3, 4, 5))
    pools = [cup_reach_pool.pooled_for(*_pooled_args(rows)).pooled for rows in (first, grown, outgrown)]
    assert pools[0].values == pools[1].values and pools[0].kept is pools[1].kept
    assert pools[2].values != pools[1].values and pools[2].kept is not pools[1].kept
    reach(first, [1, 1, 1])
    kept = [reach(rows, [1, 1, 1]) for rows in (grown, outgrown)]
    cup_reach_pool._kept.cache_clear()
    assert [reach(rows, [1, 1, 1]) for rows in (grown, outgrown)] == kept
    assert cup_reach_pool.pooled_for(*_pooled_args(grown)).pooled.kept is not pools[1].kept


def _pooled_args(rows):
    """``pooled_for``'s arguments for the player rows ``rows`` with three legs of weight 1 left."""
    width = len(DEFAULT_POINTS)
    hist = [cup_reach.history(s, width) for s in rows]
    keys = [key(h, None, width) for h in hist]
    return hist, keys, (2, 2, 2), None, DEFAULT_POINTS, 2, 200


def _minimal_by_definition(pooled, d):
    """Every multiset of at most ``legs`` places whose gain beats ``d`` and none of whose items can be
    worsened by a place (a last place's dropped) with the gain still beating it."""
    val, width = pooled.values, pooled.width
    worth = [0, *val, 0]  # by place, 1-based; one place after the last is worth nothing
    out = set()
    for size in range(1, pooled.legs + 1):
        for t in combinations_with_replacement(range(1, width + 1), size):
            gain = sum(worth[p] for p in t)
            if gain > d and all(gain - worth[p] + worth[p + 1] <= d for p in t):
                out.add(t)
    return out


@settings(max_examples=50, deadline=None)
@given(pooled_problems(), st.data())
def test_minimal_patterns_are_the_definition_s_in_the_documented_order(problem, data):
    pooled = _pooled_problem(problem, brute=False)[0]
    gains, spans = pooled._minimal_table()[:2]
    # the needs at, just below and just above every pattern's gain and span, and a drawn one
    needs = {g + e for g in [*gains, *spans] for e in (-1, 0, 1) if g + e >= 0}
    needs.add(data.draw(st.integers(0, pooled.top)))
    by_class = {}
    for d in sorted(needs):
        got = pooled.minimal(d)
        assert set(got) == _minimal_by_definition(pooled, d), d
        assert got == sorted(got, key=lambda t: (len(t), -sum(t), t))  # fewest items, worst places first
        by_class.setdefault(pooled.minimal_class(d), set()).add(tuple(got))
    # needs of one class have the same minimal patterns, needs of two classes different ones
    assert all(len(patterns) == 1 for patterns in by_class.values())
    assert len({patterns.pop() for patterns in by_class.values()}) == len(by_class)


def _prices_bound(pooled, needs, prices) -> int:
    """The prices bound (``cup_reach_lp._bound``) under ``prices`` (per place, non-increasing), each
    need's cheapest pattern priced from its minimal patterns by definition: the needs ascend, so do their
    classes (one cheapest price a class) and their cheapest prices, taken a run of one class at a time."""
    price = [0, *prices].__getitem__  # by place, 1-based
    counts, cheapest = [], []
    for _, run in groupby(needs, pooled.minimal_class):
        run = list(run)
        counts.append(len(run))
        cheapest.append(min(sum(map(price, t)) for t in pooled.minimal(run[0])))
    return cup_reach_lp._bound(pooled.per_place * sum(prices), counts, cheapest)


@settings(max_examples=50, deadline=None)
@given(pooled_problems(), st.lists(st.integers(0, 30), min_size=3, max_size=3))
def test_prices_bound_holds_under_any_prices(problem, drawn):
    # any prices that never rise from a worse place to a better one give a true bound, the linear
    # relaxation's rounded ones included: never below what an outcome serves
    pooled, able, _, expected = _pooled_problem(problem)
    prices = sorted(drawn[: pooled.width], reverse=True)
    assert _prices_bound(pooled, able, [p * cup_reach_lp.SCALE // 30 for p in prices]) >= expected


@settings(max_examples=50, deadline=None)
@given(pooled_problems())
def test_linear_relaxation_brackets_what_an_outcome_serves(problem):
    pooled, able, _, expected = _pooled_problem(problem)
    if not able:
        return
    low, high = cup_reach_lp.lp_serves(pooled, able, 2000)
    assert low <= expected <= high
    # its rounded solution and its dive are real outcomes: never more than an outcome serves
    classes = Counter(able)
    columns, amounts = cup_reach_lp._relaxation(pooled, classes)[:2]
    served, asked, rest = cup_reach_lp._rounded_down(pooled, classes, columns, amounts)
    assert served + len(rest) == len(able)
    assert served <= expected and cup_reach_lp._meets(asked, pooled.per_place)
    assert cup_reach_lp._dive(pooled, classes, len(able)) <= expected
    # the classes (needs with the same minimal patterns, one row): the same programme, the same optimum,
    # and what it rounds to is a real outcome too
    merged = cup_reach_lp._classes(pooled, able)
    assert sum(merged.values()) == len(able)
    assert {tuple(pooled.minimal(d)) for d in able} == {tuple(pooled.minimal(d)) for d in merged}
    assert len(merged) == len({tuple(pooled.minimal(d)) for d in able})
    merged_columns, merged_amounts, prices, cheapest = cup_reach_lp._relaxation(pooled, merged)
    # its bound from its own columns priced at once is the prices bound of the definition
    budget = pooled.per_place * sum(prices)
    counts = [merged[d] for d in merged_columns.needs]
    bound = cup_reach_lp._bound(budget, counts, cheapest)
    assert bound == _prices_bound(pooled, able, prices) >= expected
    assert abs(sum(merged_amounts) - sum(amounts)) < 1e-6
    served, asked, rest = cup_reach_lp._rounded_down(pooled, merged, merged_columns, merged_amounts)
    assert served <= expected and cup_reach_lp._meets(asked, pooled.per_place)
    assert cup_reach_lp._dive(pooled, merged, len(able)) <= expected
    # rounded up where it fits: a real outcome too, and the rounded-down asks are left as they were
    kept = list(asked)
    for more in range(1, len(rest) + 1):
        if cup_reach_lp._rounded_up(pooled, merged_columns, merged_amounts, asked, more, rest):
            assert served + more <= expected
    assert asked == kept


def test_rounding_up_takes_the_largest_fractions_that_fit():
    # two legs, one pair a place, table (6, 4, 1): two items each of 12, 8 and 2 points (times 2); needs
    # of 0, 3, 7, 17, 18 and 23 points (level place counts). A fractional solution: 0 takes a 2, 7 an 8,
    # 18 two 12s three quarters, 3 an 8 or two 2s and 17 a 12 and an 8 half each. Rounded down it serves
    # 0 and 7; rounded up, 18's two 12s and then 3's 8 fit, 3's two 2s are not asked (3 is served) and
    # 17's 12 does not fit (both are asked): four served, as many as an outcome can.
    needs = [(points, (0, 0, 0)) for points in (0, 3, 7, 17, 18, 23)]
    pooled, able, _, expected = _pooled_problem(((6, 4, 1), 2, 1, needs))
    d0, d3, d7, d17, d18, _ = able
    columns = [(d0, (3,)), (d3, (2,)), (d3, (3, 3)), (d7, (2,)), (d17, (1, 2)), (d18, (1, 1))]
    amounts = [1.0, 0.5, 0.5, 1.0, 0.5, 0.75]
    classes = Counter(able)
    served, asked, rest = cup_reach_lp._rounded_down(pooled, classes, columns, amounts)
    assert (served, asked, rest) == (2, [0, 0, 1, 1], [d3, d17, d18, able[-1]])
    assert cup_reach_lp._rounded_up(pooled, columns, amounts, asked, 2, rest)
    assert not cup_reach_lp._rounded_up(pooled, columns, amounts, asked, 3, rest)
    assert asked == [0, 0, 1, 1]
    assert expected == 4


def _field_no_construction_serves():
    """The solver, needs and needs' points of the field below (four of six needs served, by no
    construction)."""
    needs = [(points, (0, 0, 0)) for points in (10, 11, 15, 27, 33, 36)]
    return _pooled_problem(((6, 4, 1), 3, 1, needs), brute=False)[:3]


def test_linear_relaxation_decides_a_field_no_construction_serves():
    # three legs, one pair a place, table (6, 4, 1): three items each of 12, 8 and 2 points (times 2).
    # Of needs of 10, 11, 15, 27, 33 and 36 points (level place counts: a gain of as many points beats
    # them) at most four are served, and four are: 27 takes 12 + 8 + 8, 15 takes 12 + 2 + 2, 11 a 12
    # and 10 the last 8 + 2. Easiest first the least points give 10 the 8 + 2, 11 a 12 and 15 the other
    # two 8s, so 27 has 12 + 12 + 2; the fewest items give 27 the 12 + 8 + 8, 15 a 12 + 8 and 11 the last
    # 12, so 10 has only 2s. The relaxation's prices bound says 4, its solution serves 4.
    pooled, able, able_pts = _field_no_construction_serves()
    assert not pooled.constructs(able, 4)
    assert cup_reach_lp.lp_serves(pooled, able, 2000) == (4, 4)
    assert pooled.max_served(able, able_pts)[:3] == (4, 4, True)


def test_a_solve_that_reaches_its_iteration_limit_is_no_answer(monkeypatch):
    # a simplex that would go on (cycling) stops at the limit without an optimum: no bound is taken from
    # it, and the search still decides the field of the test above
    pooled, able, able_pts = _field_no_construction_serves()
    classes = cup_reach_lp._classes(pooled, able)
    assert cup_reach_lp._relaxation(pooled, classes) is not None
    limited = [(o, 1 if o == "simplex_iteration_limit" else v) for o, v in cup_reach_lp.OPTIONS]
    monkeypatch.setattr(cup_reach_lp, "OPTIONS", limited)
    assert cup_reach_lp._relaxation(pooled, classes) is None
    assert cup_reach_lp.lp_serves(pooled, able, 2000) is None
    assert pooled.max_served(able, able_pts)[:3] == (4, 4, True)


@settings(max_examples=30, deadline=None)
@given(pooled_problems())
def test_without_the_solver_the_search_still_decides(problem):
    # HiGHS finding no optimum (or none asked for) leaves the bounds as they were: the search decides
    pooled, able, able_pts, expected = _pooled_problem(problem)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cup_reach_lp, "_relaxation", lambda *args: None)
        assert cup_reach_lp.lp_serves(pooled, able, 2000) is None
        served, high, exact = pooled.max_served(able, able_pts)
    assert exact and served == high == expected


@st.composite
def pair_fields(draw):
    """1–3 past events of 2–4 pairs drawn from up to 10 players, and 1–2 legs of weight 1 left."""
    n_players = draw(st.integers(4, 10))
    players = [f"p{i}" for i in range(n_players)]
    events = []
    for e in range(draw(st.integers(1, 3))):
        field = draw(st.permutations(players))
        n_pairs = draw(st.integers(2, min(4, n_players // 2)))
        placings = tuple(PairPlacing((field[2 * i], field[2 * i + 1]), i + 1, 0) for i in range(n_pairs))
        events.append(CupEvent(f"e{e}", 1, placings))
    return events, [1] * draw(st.integers(1, 2))


def _assert_consistent(one, other):
    """Two computations of one season's reach (other budgets or methods): the same best; where both are
    exact the same worst; a bound (``worst_exact`` False) never better than an exact worst."""
    for a, b in zip(one, other, strict=True):
        assert a.best == b.best, a.entrant
        if a.worst_exact and b.worst_exact:
            assert a.worst == b.worst, a.entrant
        elif a.worst_exact:
            assert b.worst >= a.worst, a.entrant
        elif b.worst_exact:
            assert a.worst >= b.worst, a.entrant


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair_fields(), st.booleans())
def test_pooled_model_and_place_vector_search_agree(field, pairs):
    events, weights = field
    table = (5, 3, 2, 1)
    rows = (rank_pairs if pairs else rank_players)(events, table=table)
    pooled = reach(rows, weights, None, table, pairs=pairs)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cup_reach, "pooled_for", lambda *args: None)
        searched = reach(rows, weights, None, table, pairs=pairs)
    _assert_consistent(pooled, searched)  # the search's safe bound is never below the exact worst


def _field(players, events, seed, pairs=None):
    """``events`` past events of ``pairs`` pairs (``players // 2`` by default) drawn from ``players``
    players, places drawn."""
    import random

    rnd = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    pairs = players // 2 if pairs is None else pairs
    out = []
    for e in range(events):
        field = rnd.sample(ids, 2 * pairs)
        placings = tuple(PairPlacing((field[2 * i], field[2 * i + 1]), i + 1, 0) for i in range(pairs))
        out.append(CupEvent(f"e{e}", 1, placings))
    return out


def test_budgets_change_only_how_many_rows_are_exact_never_a_position():
    # a field where the budgets matter: with none, fewer rows are exact; an exact row's worst is the same
    # whatever the budgets, and a bound is never better than the exact worst
    rows = rank_players(_field(24, 3, seed=2))
    full = reach(rows, [1, 1, 1])
    none = reach(
        rows, [1, 1, 1], construction_budget=0, lp_budget=0, fallback_budget=0, pooled_season_budget=0
    )
    assert sum(r.worst_exact for r in none) < sum(r.worst_exact for r in full)
    _assert_consistent(full, none)


def test_linear_relaxation_decides_the_rows_the_constructions_leave_open():
    # 16 players after two events, three legs left: the bounds and the constructions leave most rows a
    # place or more apart, the relaxation decides every one; where both are exact they agree
    rows = rank_players(_field(16, 2, seed=1))
    with_lp = reach(rows, [1, 1, 1])
    without = reach(rows, [1, 1, 1], lp_budget=0)
    assert all(r.worst_exact for r in with_lp)
    assert sum(r.worst_exact for r in without) < len(rows) // 2
    _assert_consistent(with_lp, without)  # every row of with_lp exact: without's never better


def test_fixed_pair_rows_the_pooled_constructions_leave_open_are_decided_leg_by_leg():
    # 64 players, two events of 16 pairs, three legs left: pairs share players, and the pooled model's
    # constructions leave more than half the pair rows open; the bound, the relaxation and the search leg
    # by leg decide every one. Where both are exact they agree, and a bound is never better than it
    rows = rank_pairs(_field(64, 2, seed=3, pairs=16))
    full = reach(rows, [1, 1, 1], pairs=True)
    pooled_only = reach(rows, [1, 1, 1], pairs=True, pair_search_budget=0)
    assert all(r.worst_exact for r in full)
    assert sum(not r.worst_exact for r in pooled_only) > len(rows) // 2
    _assert_consistent(full, pooled_only)


def test_a_player_s_pairs_are_taken_together_only_while_the_legs_hold_them():
    # three legs: a's pairs need one leg, one leg and two legs each (their fewest items); the third
    # would make four, so it is left out and the next pair without a taken
    def minimal(need):
        return [(1,)] if need < 5 else [(1, 1)]

    entrants = [(0, frozenset("ab")), (1, frozenset("ac")), (6, frozenset("ad")), (7, frozenset("ae"))]
    entrants.append((8, frozenset("fg")))
    kept = cup_reach_legs.playable(entrants, 3, minimal)
    assert kept == [entrants[0], entrants[1], entrants[4]]  # 1 + 1 + 2 would be four legs for a


def test_an_outcome_is_reused_for_a_row_of_the_same_key_with_the_two_pairs_swapped():
    # rows x and y are level: y passing x takes the options x passing y took, everyone else the same
    x, y, z = (0, frozenset("xw")), (0, frozenset("yv")), (3, frozenset("zu"))
    outcome = [(y, ((0, 1),)), (z, ((1, 2),))]
    assert cup_reach_legs.reused(outcome, [x, z]) == {0: ((0, 1),), 1: ((1, 2),)}
    assert cup_reach_legs.reused(None, [x, z]) == {}


def test_denser_club_rows_are_decided_by_the_relaxation_over_every_pair(monkeypatch):
    # 24 players, six events of 12 pairs, three legs left: a player has had many partners, and of the
    # pairs that can play together (the easiest of each player's) no outcome reaches the bound on many
    # rows; the relaxation over every pair that can pass makes more of them exact. Where both are exact
    # they agree, and a bound is never better than the exact worst
    rows = rank_pairs(_field(24, 6, seed=1, pairs=12))
    full = reach(rows, [1, 1, 1], pairs=True)
    monkeypatch.setattr(cup_reach_pairs.FixedPairs, "_widened", lambda *args: False)
    narrow = reach(rows, [1, 1, 1], pairs=True)
    assert sum(r.worst_exact for r in full) > sum(r.worst_exact for r in narrow)
    _assert_consistent(full, narrow)


def test_the_integer_programme_decides_the_pair_rows_the_budget_leaves_open():
    # the background refinement (exact_nodes): with no budget for the search leg by leg half the pair rows
    # keep a bound; the integer programme decides every one, and its worst is the full search's
    rows = rank_pairs(_field(16, 2, seed=1, pairs=8))
    full = reach(rows, [1, 1, 1], pairs=True)
    open_rows = reach(rows, [1, 1, 1], pairs=True, pair_search_budget=0)
    refined = reach(rows, [1, 1, 1], pairs=True, pair_search_budget=0, exact_nodes=500)
    assert all(r.worst_exact for r in full) and all(r.worst_exact for r in refined)
    assert sum(not r.worst_exact for r in open_rows) >= len(rows) // 3
    assert [(r.entrant, r.best, r.worst) for r in refined] == [(r.entrant, r.best, r.worst) for r in full]
    _assert_consistent(refined, open_rows)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair_seasons())
def test_pair_reach_refined_by_the_integer_programme_equals_brute_force(season):
    histories, weights, best_n = season
    standings = rank_pairs(_pair_events(histories), table=TABLE)
    expected = _pair_brute(standings, weights, best_n)
    for r in reach(standings, weights, best_n, TABLE, pairs=True, pair_search_budget=0, exact_nodes=200):
        assert r.worst_exact
        assert [r.best, r.worst] == expected[r.entrant], r.entrant
