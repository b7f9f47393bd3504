"""Property-based tests of the match engine (RULES.md §2–3) on random matches.

Two independent sources of matches: :func:`scoring.random_match.random_match` (realistic, every kind of
ending) and entries drawn directly by hypothesis (uniform trick counts, penalties anywhere), folded until
the match ends.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.deal import TUPPI, ByPair, Deal, Game, Pair
from scoring.errors import ScoringError
from scoring.match import (
    EndedBy,
    Forfeit,
    MatchState,
    PointsPenalty,
    RiseEnd,
    TuppiPenalty,
    apply,
    fold,
    lines,
    start,
)
from scoring.match_cli import match_to_json, run_cli
from scoring.random_match import random_match

PLANNED = st.sampled_from([1, 2, 4, 8, 12, 13, 16, 20, 24])

generated = st.builds(
    lambda rng, n, pen, tp, ff, level: (
        random_match(rng, n, penalties=pen, tuppi_penalty=tp, forfeit=ff, level=level),
        n,
    ),
    st.randoms(use_true_random=False),
    PLANNED,
    st.sampled_from([0.0, 0.05, 0.2]),
    st.sampled_from([0.0, 0.1]),
    st.sampled_from([0.0, 0.1]),
    st.sampled_from([0.0, 0.5, 1.0]),
)

full_deal = st.one_of(
    st.builds(
        lambda caller, made: Deal(
            Game.RAMI, ByPair(0, 0).replace(caller, made).replace(caller.other, 13 - made), caller
        ),
        st.sampled_from(list(Pair)),
        st.integers(0, 13),
    ),
    st.builds(lambda a: Deal(Game.NOLO, ByPair(a, 13 - a)), st.integers(0, 13)),
)
any_entry = st.one_of(
    *[full_deal] * 8,
    st.builds(PointsPenalty, st.sampled_from(list(Pair))),
    st.builds(TuppiPenalty, st.sampled_from(list(Pair))),
    st.builds(Forfeit, st.sampled_from(list(Pair))),
)


@st.composite
def drawn(draw):
    """Entries drawn by hypothesis, cut where the match ends (so every prefix is a valid match)."""
    n = draw(PLANNED)
    state, entries = start(n), []
    for entry in draw(st.lists(any_entry, max_size=60)):
        if state.finished:
            break
        state = apply(state, entry)
        entries.append(entry)
    return tuple(entries), n


def states(entries, n) -> list[MatchState]:
    out, state = [start(n)], start(n)
    for entry in entries:
        state = apply(state, entry)
        out.append(state)
    return out


def check_state(s: MatchState) -> None:
    # never more than one pair up: at most one open rise, the last one, and it is the up pair's
    open_rises = [r for r in s.rises if r.ended is RiseEnd.OPEN]
    assert len(open_rises) <= 1
    if s.finished:
        assert not open_rises
    elif s.up is None:
        assert s.rise == 0 and not open_rises
    else:
        assert s.rise > 0 and open_rises == [s.rises[-1]]
        assert (s.rises[-1].pair, s.rises[-1].points) == (s.up, s.rise)
    # rise totals are the sums of the rises (RULES.md §3, the open one included)
    for pair in Pair:
        assert s.totals[pair] == sum(r.points for r in s.rises if r.pair is pair)
    # tuppi exactly when a rise reaches 52, or by a tuppi penalty or forfeit (RULES.md §2–3)
    for r in s.rises:
        assert (r.points >= TUPPI) == (r.ended is RiseEnd.TUPPI)
    reached = any(r.ended is RiseEnd.TUPPI for r in s.rises)
    assert s.tuppi == (reached or s.ended_by in (EndedBy.TUPPI_PENALTY, EndedBy.FORFEIT))
    if s.finished:
        # one winner; 5–0, 4–1 or 3–2; 5–0 exactly for tuppi
        assert s.winner in (Pair.A, Pair.B)
        won, lost = s.match_points[s.winner], s.match_points[s.winner.other]
        assert (won, lost) in ((5, 0), (4, 1), (3, 2))
        assert ((won, lost) == (5, 0)) == s.tuppi
        if not s.tuppi:
            # a points win: all planned deals played, the higher total wins
            assert s.deals_played >= s.deals_planned
            assert s.totals[s.winner] > s.totals[s.winner.other]
    else:
        assert s.winner is None and s.match_points is None and not s.tuppi


def check_match(entries, n) -> None:
    ss = states(entries, n)
    for s in ss:
        check_state(s)
    for before, after in zip(ss, ss[1:], strict=False):
        # totals never decrease
        assert after.totals.a >= before.totals.a and after.totals.b >= before.totals.b
        assert not before.finished  # the cut above, and the generator, stop at the end
    final = ss[-1]
    assert final.deals_played == sum(isinstance(e, Deal) for e in entries)
    assert final == fold(entries, n)
    ls = lines(entries, n)
    assert [(ln.up, ln.rise, ln.totals) for ln in ls] == [(s.up, s.rise, s.totals) for s in ss[1:]]
    # the JSON interface gives the same answer as the fold
    assert run_cli(match_to_json(entries, n)) == final.to_json()


@settings(max_examples=200, deadline=None)
@given(generated)
def test_generated_matches_keep_the_invariants(match):
    entries, n = match
    check_match(entries, n)
    assert fold(entries, n).finished  # the generator always plays a match to its end


@settings(max_examples=200, deadline=None)
@given(drawn())
def test_drawn_matches_keep_the_invariants(match):
    entries, n = match
    check_match(entries, n)


@settings(max_examples=150, deadline=None)
@given(generated, any_entry)
def test_nothing_is_accepted_after_the_end(match, extra):
    entries, n = match
    final = fold(entries, n)
    try:
        apply(final, extra)
    except ScoringError as e:
        assert (e.code, e.deal) == ("after_end", len(entries) + 1)
    else:
        raise AssertionError("an entry was accepted after the end")


@settings(max_examples=200, deadline=None)
@given(drawn(), st.sampled_from(list(Pair)), st.integers(7, 12), st.integers(0, 5), st.booleans())
def test_a_short_deal_is_accepted_exactly_when_it_makes_the_up_pair_fall_or_reaches_52(
    match, holder, held, other, is_rami
):
    entries, n = match
    state = fold(entries, n)
    if state.finished or held + other >= 13:
        return
    tricks = ByPair(0, 0).replace(holder, held).replace(holder.other, other)
    deal = Deal(Game.RAMI, tricks, holder) if is_rami else Deal(Game.NOLO, tricks)
    # rami made by the holder: the holder wins 4 × (T − 6); nolo: the other pair wins 4 × (T − 6)
    winner = holder if is_rami else holder.other
    points = 4 * (held - 6)
    falls = state.up is not None and state.up is not winner
    tuppi = (state.rise if state.up is winner else 0) + points >= TUPPI
    try:
        after = apply(state, deal)
    except ScoringError as e:
        assert not (falls or tuppi) and e.code == "short_deal_not_allowed"
    else:
        assert falls or tuppi
        assert after.tuppi == (not falls)


def test_the_generator_ends_matches_in_every_way():
    rng = random.Random(20240601)
    seen, short, nalsytuppi, played_on = set(), 0, 0, 0
    for _ in range(400):
        n = rng.choice([12, 16, 20, 24])
        entries = random_match(rng, n, penalties=0.03, tuppi_penalty=0.05, forfeit=0.05, level=0.3)
        final = fold(entries, n)
        seen.add(final.ended_by)
        played_on += final.deals_played > n and final.ended_by is EndedBy.POINTS
        for ln in lines(entries, n):
            short += ln.result is not None and ln.result.short
            nalsytuppi += ln.result is not None and ln.result.nalsytuppi
    assert seen == set(EndedBy)
    assert short and nalsytuppi and played_on


def test_the_generator_is_reproducible_and_honours_no_penalty_knobs():
    a = random_match(random.Random(7), 16)
    assert a == random_match(random.Random(7), 16)
    for seed in range(100):
        entries = random_match(random.Random(seed), 12)
        assert all(isinstance(e, Deal) for e in entries)
