"""Issue #16, point 5: a paper result is accepted only if some valid scoresheet gives its figures.

A referee copies from a finished sheet: both rise totals, deals played, the tuppi pair (if it ended in
tuppi, a tuppi penalty or a forfeit) and the winner of a deciding deal (if one was played). Every such set
of figures must be accepted with the fold's winner and match points (property tests on random sheets, and
every sheet of a small match exhaustively), and figures no sheet gives are refused with the bound they
break (the examples of the issue and one per bound). Paper entry takes at most deals played + 1 points
penalties (the Decision in :func:`scoring.plausibility.paper_result`); sheets with more are left out.
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.deal import TRICKS, ByPair, Deal, Game, Pair
from scoring.errors import ScoringError
from scoring.match import (
    Forfeit,
    PointsPenalty,
    TuppiPenalty,
    apply,
    fold,
    start,
)
from scoring.plausibility import paper_result
from scoring.random_match import random_match

A, B = Pair.A, Pair.B
PLANNED = st.sampled_from([1, 2, 3, 4, 8, 12, 13, 16, 20, 24])
RULES = st.sampled_from(["winner_total", "margin"])
DEAL_POINTS = (4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 56)  # RULES.md §1: 4..28 made or nolo, 8..56 robbed
PENALTY_POINTS = tuple(range(4, 57, 4))  # what the scoresheet form takes


def deal_for(winner: Pair, points: int) -> Deal:
    """A full deal that ``winner`` wins for ``points``: a rami made up to 28, a robbery above."""
    if points <= 28:
        t = 6 + points // 4
        return Deal(Game.RAMI, ByPair(0, 0).replace(winner, t).replace(winner.other, TRICKS - t), winner)
    t = 6 + points // 8
    return Deal(Game.RAMI, ByPair(0, 0).replace(winner, t).replace(winner.other, TRICKS - t), winner.other)


def copied(entries, n, rule=None):
    """The finished sheet's state and what a referee copies from it onto the paper form."""
    state = fold(entries, n, overwhelming=rule)
    assert state.finished
    figures = dict(
        total_a=state.totals.a,
        total_b=state.totals.b,
        deals_planned=n,
        deals_played=state.deals_played,
        tuppi=state.winner if state.tuppi else None,
        deciding_winner=state.winner if state.deciding_deal else None,
    )
    return state, figures


def check_accepted(entries, n, rule=None) -> bool:
    """paper_result accepts the sheet's figures with its winner and match points (also with the deciding
    deal left unmarked); False when the sheet has more penalties than paper entry assumes."""
    state, figures = copied(entries, n, rule)
    penalties = sum(isinstance(e, PointsPenalty) for e in entries)
    if penalties > state.deals_played + 1:  # outside the paper Decision: such a sheet is entered deal by deal
        return False
    result = paper_result(**figures, overwhelming=rule)
    assert (result.winner, result.match_points, result.tuppi) == (state.winner, state.match_points, state.tuppi)
    if figures["deciding_winner"] is not None:  # the referee may leave the deciding deal unmarked
        result = paper_result(**{**figures, "deciding_winner": None}, overwhelming=rule)
        assert (result.winner, result.match_points) == (state.winner, state.match_points)
    return True


# --- every sheet's figures are accepted ------------------------------------------------------------------

generated = st.builds(
    lambda rng, n, pen, tp, ff, level: (
        random_match(rng, n, penalties=pen, tuppi_penalty=tp, forfeit=ff, level=level),
        n,
    ),
    st.randoms(use_true_random=False),
    PLANNED,
    st.sampled_from([0.0, 0.05, 0.2, 0.4]),
    st.sampled_from([0.0, 0.1, 0.3]),
    st.sampled_from([0.0, 0.1, 0.3]),
    st.sampled_from([0.0, 0.5, 1.0]),
)


@settings(max_examples=1000, deadline=None)
@given(generated, RULES)
@pytest.mark.slow
def test_every_generated_sheet_is_accepted_with_its_result(match, rule):
    entries, n = match
    check_accepted(entries, n, rule)


move = st.one_of(
    *[st.builds(deal_for, st.sampled_from(list(Pair)), st.sampled_from(DEAL_POINTS))] * 6,
    # small deals most often: they make the longest rises, the lowest totals and level totals
    *[st.builds(deal_for, st.sampled_from(list(Pair)), st.just(4))] * 3,
    st.builds(PointsPenalty, st.sampled_from(list(Pair)), st.sampled_from(PENALTY_POINTS)),
    st.builds(TuppiPenalty, st.sampled_from(list(Pair))),
    st.builds(Forfeit, st.sampled_from(list(Pair))),
)


@st.composite
def drawn(draw):
    """Entries drawn directly (any deal score, penalties of 4..56 anywhere), cut where the match ends; a
    match still running at the end of the list is ended by a forfeit."""
    n = draw(PLANNED)
    state, entries = start(n), []
    for entry in draw(st.lists(move, max_size=80)):
        if state.finished:
            break
        state = apply(state, entry)
        entries.append(entry)
    if not state.finished:
        entries.append(Forfeit(draw(st.sampled_from(list(Pair)))))
    return tuple(entries), n


@settings(max_examples=1500, deadline=None)
@given(drawn(), RULES)
@pytest.mark.slow
def test_every_drawn_sheet_is_accepted_with_its_result(match, rule):
    entries, n = match
    assume(check_accepted(entries, n, rule))


@pytest.mark.parametrize("n", [1, 2, 12, 16, 24])
def test_the_longest_played_out_rise_and_deciding_deal_are_accepted(n):
    """Deal N starts A's rise of 4, which wins 4 eleven times more (48) and falls at deal N + 12; B's 48
    in rises that fell before deal N (the last by a penalty when N − 1 is odd) makes the totals level, so
    deal N + 13 decides: the most deals a match can have."""
    m = -(-(n - 1) // 2)  # B's rises before deal N
    values = [4] * m
    for i in range((48 - 4 * m) // 4 if m else 0):
        values[i % m] += 4
    block = []
    for i, v in enumerate(values):
        block += [deal_for(B, v), deal_for(A, 4) if 2 * i + 2 <= n - 1 else PointsPenalty(A, 4)]
    entries = [*block, *[deal_for(A, 4)] * 12, deal_for(B, 4)]
    state = fold(entries, n)
    assert state.deals_played == n + 12
    if state.awaiting_deciding_deal:
        entries.append(deal_for(A, 48))
        assert fold(entries, n).deals_played == n + 13
    assert check_accepted(entries, n)


# --- every sheet of a small match, exhaustively ------------------------------------------------------------
#
# A search over match states, folded here like scoring.match folds them (RULES.md §2-3) but on a small key:
# (deals played, up pair, rise, total A, total B, awaiting the deciding deal). The rises before do not change
# what follows, so one state stands for every sheet that reaches it; the mirror is checked against
# scoring.match.apply below.


def win(n: int, key: tuple, winner: Pair, points: int, is_deal: bool):
    """``winner`` wins a deal (or a points penalty) for ``points`` from state ``key``: the next key, or the
    paper figures (total A, total B, deals, tuppi pair, deciding winner) when this ends the match."""
    d, up, rise, ta, tb, awaiting = key
    d += is_deal
    if up is None:
        up, rise, scored = winner, points, points
    elif up is winner:
        rise, scored = rise + points, points
    else:
        up, rise, scored = None, 0, 0  # a fall
    ta, tb = (ta + scored, tb) if winner is A else (ta, tb + scored)
    if up is not None and rise >= 52:
        return None, (ta, tb, d, up, up if awaiting else None)
    if awaiting:
        return None, (ta, tb, d, None, winner)
    if d >= n and up is None:
        if ta != tb:
            return None, (ta, tb, d, None, None)
        return (d, None, 0, ta, tb, True), None
    return (d, up, rise, ta, tb, False), None


def key_of(state) -> tuple:
    return (state.deals_played, state.up, state.rise, state.totals.a, state.totals.b,
            state.awaiting_deciding_deal)


def figures_of(state) -> tuple:
    return (state.totals.a, state.totals.b, state.deals_played, state.winner if state.tuppi else None,
            state.winner if state.deciding_deal else None)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(Pair)), st.booleans(), st.sampled_from(PENALTY_POINTS)),
                max_size=60), PLANNED)
def test_the_search_folds_like_the_engine(wins, n):
    state, key = start(n), key_of(start(n))
    for winner, is_deal, points in wins:
        if is_deal and points not in DEAL_POINTS:
            continue
        state = apply(state, deal_for(winner, points) if is_deal else PointsPenalty(winner, points))
        key, figures = win(n, key, winner, points, is_deal)
        if figures is not None:
            assert state.finished and figures == figures_of(state)
            return
        assert not state.finished and key == key_of(state)


def reachable(n: int) -> set[tuple]:
    """The paper figures of every finished sheet of ``n`` planned deals with at most deals + 1 points
    penalties (a 0-1 breadth-first search on the number of penalties; a forfeit gives the same figures
    as the other pair's tuppi penalty)."""
    cap = n + 14  # at most N + 13 deals, so at most N + 14 penalties
    first = (0, None, 0, 0, 0, False)
    best, queue, out = {first: 0}, deque([(first, 0)]), {}

    def finish(figures, p):
        if p <= figures[2] + 1 and out.get(figures, cap + 1) > p:
            out[figures] = p

    while queue:
        key, p = queue.popleft()
        if best[key] < p:
            continue
        for pair in Pair:  # a tuppi penalty or forfeit
            finish((key[3], key[4], key[0], pair, None), p)
        for is_deal, scores in ((True, DEAL_POINTS), (False, PENALTY_POINTS)):
            q = p + (not is_deal)
            if q > cap:
                continue
            for winner in Pair:
                for points in scores:
                    after, figures = win(n, key, winner, points, is_deal)
                    if figures is not None:
                        finish(figures, q)
                    elif best.get(after, cap + 1) > q:
                        best[after] = q
                        (queue.appendleft if is_deal else queue.append)((after, q))
                    if key[1] is not None and key[1] is not winner:
                        break  # a fall scores nothing: its points do not matter
    return set(out)


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 3])
def test_small_matches_exhaustively(n):
    """All figures of every sheet of N = 1, 2, 3 planned deals are accepted; over a grid of totals up to 80
    paper_result accepts nothing else, but for a rise of 36 or 44 in one deal (no deal scores that, only
    a penalty could; the paper check does not count it), which only N = 1 shows in this grid."""
    figures = reachable(n)
    paper = figures | {(a, b, d, tp, None) for (a, b, d, tp, dw) in figures if dw is not None}  # unmarked
    for a, b, d, tp, dw in paper:
        paper_result(a, b, n, d, tuppi=tp, deciding_winner=dw)  # raises if refused
    accepted_unreachable = []
    for d in range(n + 16):
        for a in range(0, 81, 4):
            for b in range(0, 81, 4):
                for tp in (None, A, B):
                    for dw in (None, A, B):
                        try:
                            paper_result(a, b, n, d, tuppi=tp, deciding_winner=dw)
                        except ScoringError:
                            continue
                        if (a, b, d, tp, dw) not in paper:
                            accepted_unreachable.append((a, b, d, tp, dw))
    if n > 1:
        assert accepted_unreachable == []
    else:
        assert accepted_unreachable and all(
            d <= 2 and ({a, b} & {36, 44}) for a, b, d, _, _ in accepted_unreachable
        ), accepted_unreachable


# --- refused: the examples of the issue and one per bound --------------------------------------------------


def refused(*args, **kw) -> ScoringError:
    with pytest.raises(ScoringError) as info:
        paper_result(*args, **kw)
    return info.value


def test_the_issues_examples_are_refused():
    e = refused(2000, 0, 12, 12)  # 2000–0 in a 12-deal match
    assert e.code == "paper_total_too_high"
    assert (e.values["rises_needed"], e.values["rises_max"], e.values["points_max"]) == (42, 12, 576)
    e = refused(40, 20, 12, 200)  # 200 deals played in a 12-deal match
    assert (e.code, e.values["limit"]) == ("paper_too_many_deals", 24)
    e = refused(44, 40, 12, 52, deciding_winner="A")  # a deciding deal at deal 52
    assert (e.code, e.values["limit"]) == ("paper_deciding_deal_too_late", 25)


@pytest.mark.parametrize(
    ("args", "kw", "code"),
    [
        # more deals than N, a played-out rise (at most 12 deals below 52) and a deciding deal can take
        ((40, 20, 12, 26), {}, "paper_too_many_deals"),
        ((60, 20, 12, 26), {"tuppi": "A"}, "paper_too_many_deals"),
        # 12 deals after deal 12: the rise played out reached 48 at least, the higher total is 40
        ((40, 36, 12, 24), {}, "paper_played_out_rise_too_small"),
        # 12 deals give at least 24 rise points (every deal is won; only a rise can fall)
        ((4, 0, 12, 12), {}, "paper_totals_too_low"),
        ((0, 0, 12, 5), {"tuppi": "A"}, "paper_totals_too_low"),
        # seven rises below 52 each: 14 rises, but 12 deals and 13 penalties hold 12 rises won and lost
        ((300, 296, 12, 12), {}, "paper_total_too_high"),
        ((0, 2000, 12, 12), {"tuppi": "B"}, "paper_tuppi_total_too_high"),
        ((0, 104, 12, 0), {"tuppi": "B"}, "paper_tuppi_total_too_high"),  # one penalty can give 56, not 104
        # a deciding deal before the planned deals, and one later than deal N + 13
        ((44, 40, 12, 11), {"deciding_winner": "A"}, "paper_deciding_deal_too_early"),
        ((44, 40, 12, 26), {"deciding_winner": "A"}, "paper_deciding_deal_too_late"),
        # no tie before it: the difference is no deciding deal's score
        ((40, 40, 12, 13), {"deciding_winner": "A"}, "paper_deciding_deal_impossible"),
        ((100, 40, 12, 13), {"deciding_winner": "A"}, "paper_deciding_deal_impossible"),
        ((76, 40, 12, 25), {"deciding_winner": "A"}, "paper_deciding_deal_impossible"),  # 36: no deal scores it
        ((100, 40, 12, 13), {"tuppi": "A", "deciding_winner": "A"}, "paper_deciding_deal_impossible"),
        # deal 25 of 12 can only be a deciding deal, and a tuppi in it only a nälsytuppi: 56 more, not 60
        ((100, 40, 12, 25), {"tuppi": "A"}, "paper_deciding_deal_impossible"),
        # the level totals before the deciding deal cannot come from 12 deals
        ((2000, 1996, 12, 13), {"deciding_winner": "A"}, "paper_deciding_level_impossible"),
        # after deal 24 of 12 no match is still running with unequal totals: A's tuppi was a rise of 52
        ((40, 60, 12, 24), {"tuppi": "A"}, "paper_tuppi_needs_rise"),
        # each bound holds alone: B's 148 needs three falls before deal 4 and A's 52 one more win
        ((52, 148, 4, 4), {"tuppi": "A"}, "paper_result_unreachable"),
    ],
)
def test_each_bound_is_refused_with_its_code(args, kw, code):
    e = refused(*args, **kw)
    assert e.code == code, e.message
    assert e.deal is None


def test_deciding_level_names_its_cause():
    e = refused(2000, 1996, 12, 13, deciding_winner="A")
    assert e.values["cause"].code == "paper_total_too_high" and e.values["level"] == 1996
    assert "1996–1996" in e.message


@pytest.mark.parametrize(
    ("args", "kw"),
    [
        ((44, 40, 12, 13), {"deciding_winner": "A"}),  # 40–40 after deal 12, A wins deal 13 for 4
        ((36, 32, 16, 16), {"deciding_winner": "A"}),  # a 4-point penalty decides after deal 16
        # the longest match: B 48 in six 8s before deal 12 (one fall a penalty), A's rise of 4 × 12 over
        # deals 12–23 falls at deal 24, 48–48, and A wins deal 25 for 48; also with it left unmarked
        ((96, 48, 12, 25), {"deciding_winner": "A"}),
        ((96, 48, 12, 25), {}),
        ((48, 24, 12, 24), {}),  # B 24 in six 4s before deal 12, A's 48 over deals 12–23
        ((0, 0, 12, 0), {"tuppi": "A"}),  # forfeit before play
        ((48, 0, 12, 0), {"tuppi": "B"}),  # a 48-point penalty, then A forfeits
        ((12, 56, 16, 7), {"tuppi": "B"}),
        ((56, 0, 16, 1), {"tuppi": "A"}),  # nälsytuppi in the first deal
        ((104, 48, 12, 25), {"tuppi": "A"}),  # 48–48 after deal 24, a nälsytuppi decides (left unmarked)
        ((104, 48, 12, 25), {"tuppi": "A", "deciding_winner": "A"}),
        ((48, 48, 12, 24), {"tuppi": "A"}),  # a tuppi penalty while the deciding deal is awaited
        ((576, 0, 12, 12), {}),  # twelve 48s, each lost again: 12 deals and 12 penalties (at most 13)
    ],
)
def test_possible_results_at_the_bounds_are_accepted(args, kw):
    paper_result(*args, **kw)


def test_the_bounds_are_exact_at_the_limits():
    # one over each limit is refused
    assert refused(580, 0, 12, 12).code == "paper_total_too_high"
    assert refused(44, 36, 12, 24).code == "paper_played_out_rise_too_small"
    assert refused(20, 0, 12, 12).code == "paper_totals_too_low"
    paper_result(24, 0, 12, 12)  # A 4 and fallen, six times
    paper_result(48, 36, 12, 24)


# --- the Finnish messages ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kw", "words"),
    [
        ((2000, 0, 12, 12), {}, ["12 jaossa nousupisteitä voi kertyä enintään 576", "vähintään 42 nousua"]),
        ((40, 20, 12, 200), {}, ["jakoja voi olla enintään 24, nyt 200"]),
        ((44, 40, 12, 52), {"deciding_winner": "A"}, ["viimeistään jako 25, nyt 52"]),
        ((40, 36, 12, 24), {}, ["vielä 12 jakoa", "vähintään 48 pistettä", "ovat 40"]),
        ((4, 0, 12, 12), {}, ["Pisteet 4–0", "vähintään 24"]),
        ((0, 2000, 12, 12), {"tuppi": "B"}, ["Pisteisiin 0–2000"]),
        ((44, 40, 12, 11), {"deciding_winner": "A"}, ["suunniteltujen 12 jaon jälkeen, nyt pelattu 11"]),
        ((100, 40, 12, 13), {"deciding_winner": "A"}, ["Voitosta pelattu jako ei täsmää", "ero 60"]),
        ((2000, 1996, 12, 13), {"deciding_winner": "A"}, ["tasan 1996–1996 12 jaon jälkeen", "vähintään 84 nousua"]),
        ((40, 60, 12, 24), {"tuppi": "A"}, ["vähintään 52", "parin A pisteet ovat 40"]),
        ((52, 148, 4, 4), {"tuppi": "A"}, ["Tulosta 52–148 4 jaon jälkeen"]),
    ],
)
def test_each_new_refusal_has_a_finnish_message(args, kw, words):
    from django.utils import translation

    from tournaments.actions.engine_messages import MESSAGES, message

    e = refused(*args, **kw)
    assert e.code in MESSAGES
    with translation.override("fi"):
        text = message(e)
    assert text != e.message
    for word in words:
        assert word in text, text


def test_random_sheets_of_every_planned_count_pass_quickly():
    """The read model checks every paper result on each build: a check stays well under a millisecond."""
    import time

    rng = random.Random(16)
    sheets = [(n, random_match(rng, n, penalties=0.05, tuppi_penalty=0.05, forfeit=0.05, level=0.3))
              for n in (12, 16, 20, 24) for _ in range(50)]
    figures = [copied(entries, n)[1] for n, entries in sheets]
    began = time.perf_counter()
    for f in figures:
        paper_result(**f)
    assert (time.perf_counter() - began) / len(figures) < 0.002
