"""A differential coherence test (issue #23): seeded random sequences of every kind of change, and after
each one every public answer of the event, the team competition and the season's cup fetched as a phone
does (with its previous ETag) and afresh with every cache emptied: never a 304 for a page that changed,
never a 200 that differs from the fresh answer (``observe.compare``). The short run; the long ones are in
``test_coherence_slow.py``. A failure names the seed, the operations so far, the address and a diff."""

from __future__ import annotations

import pytest

from registry.models import Club
from tests.coherence import operations
from tests.coherence.runner import run
from tournaments.actions import dependents


@pytest.mark.parametrize("seed", [1])
@pytest.mark.slow
def test_a_short_sequence_never_serves_a_stale_answer(transactional_db, frozen, seed):
    figures = run(seed, 24, frozen, per_pattern=1)
    print(f"seed {seed}: {figures}")
    assert sum(figures["applied"].values()) == 24
    assert figures["applied"].get("draw") == 1  # the sequence got past the draw: results were checked


@pytest.mark.slow
def test_it_fails_with_the_seed_the_operations_and_a_diff_when_a_page_is_stale(
    transactional_db, frozen, monkeypatch
):
    """The test can fail: with a club's rename no longer bumping the events that show the club
    (``tournaments.dependents``), the first rename leaves a page stale, and the failure says where."""
    monkeypatch.setitem(dependents._shown, Club, [])
    kinds = {"admin_club": operations.KINDS["admin_club"]}
    with pytest.raises(AssertionError) as failed:
        run(5, 3, frozen, per_pattern=1, kinds=kinds)
    report = str(failed.value)
    assert report.startswith("seed 5: a stale answer after step 1 (admin_club)"), report
    assert "304 Not Modified, but a fresh answer is 200 and differs" in report
    assert "operations so far:\n1. admin_club: admin: club #" in report and "\n+" in report  # the diff
