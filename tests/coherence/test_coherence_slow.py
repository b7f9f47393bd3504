"""The long coherence runs (``test_coherence.py``): a few hundred operations over several seeds, through
the draw, Saturday, Sunday and, for most seeds, publication and corrections after it; a phone in
English, a phone back on the network after a while, and the PDFs too."""

from __future__ import annotations

import pytest

from tests.coherence.runner import run

pytestmark = pytest.mark.slow

# seed, how long a process remembers an event's head, and how the phone watches:
# - 60 s: every change forgets the heads it changes in the saving process at once, so even a process
#   that remembers heads for a minute answers its own next poll with the change;
# - in English, also polling with the ETags it had three checks before (a phone off the network a while);
# - with the PDFs (WeasyPrint takes a second each: a shorter sequence, through the draw into Saturday).
RUNS = [(2, 110, 60, {}), (3, 110, 0, {"language": "en", "lag": 3}), (4, 40, 0, {"pdfs": True, "per_pattern": 1})]


@pytest.mark.parametrize(("seed", "operations", "head_seconds", "watching"), RUNS)
def test_long_sequences_never_serve_a_stale_answer(
    transactional_db, frozen, settings, seed, operations, head_seconds, watching
):
    settings.TUPPI_HEAD_SECONDS = head_seconds
    figures = run(seed, operations, frozen, **watching)
    print(f"seed {seed}: {figures}")
    assert sum(figures["applied"].values()) == operations
    # the long sequences go through Saturday into Sunday; the short one at least through the draw
    assert ({"draw", "advance"} if operations >= 100 else {"draw"}) <= set(figures["applied"])
