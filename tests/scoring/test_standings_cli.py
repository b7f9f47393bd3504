"""``python -m scoring standings FILE`` end to end (RULES.md §9), run as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = Path(__file__).parent / "cases" / "standings"

# A beat B 3-2 (A 40, B 38), C beat B 4-1 (C 70, B 10); A-C not played.
# A 3, C 4, B 2 + 1 = 3: A and B level on 3, and A beat B: A 2nd, B 3rd by head to head.
# best/worst (issue #20): A-C is still to play (no listed match). A winning it gets 6 to 8 against C's
# 4 to 6, and a tie on 6 (A 3-2) goes to A by head to head: A 1st, C 2nd. C winning it gets 7 to 9 and
# A 3 to 5, at worst level with B on 3, whom A beat: C 1st, A 2nd. B stays on 3 below both: 3rd.
GROUP = {
    "pairs": ["A", "B", "C"],
    "matches": [
        {"a": "A", "b": "B", "winner": "A", "match_points": {"A": 3, "B": 2}, "totals": {"A": 40, "B": 38}},
        {"a": "B", "b": "C", "winner": "C", "match_points": {"B": 1, "C": 4}, "totals": {"B": 10, "C": 70}},
    ],
}
EXPECTED = [
    {"pair": "C", "rank": 1, "match_points": 4, "wins": 1, "totals": 70, "decided_by": "match_points",
     "playoff_required": False, "best": 1, "worst": 2},
    {"pair": "A", "rank": 2, "match_points": 3, "wins": 1, "totals": 40, "decided_by": "head_to_head",
     "playoff_required": False, "best": 1, "worst": 2},
    {"pair": "B", "rank": 3, "match_points": 3, "wins": 0, "totals": 48, "decided_by": "head_to_head",
     "playoff_required": False, "best": 3, "worst": 3},
]  # fmt: skip


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "standings", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_file_argument(tmp_path):
    path = tmp_path / "group.json"
    path.write_text(json.dumps(GROUP), encoding="utf-8")
    done = run(str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == EXPECTED


def test_standard_input():
    done = run("-", stdin=json.dumps(GROUP))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == EXPECTED


def test_a_case_file_with_a_playoff():
    case = json.loads((CASES_DIR / "09_three_way_playoff_recorded.json").read_text(encoding="utf-8"))
    done = run("-", stdin=json.dumps(case["input"]))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == case["expected"]


def test_invalid_group_exits_2_with_error_and_null_deal():
    bad = dict(GROUP, matches=GROUP["matches"] + [GROUP["matches"][0]])  # A-B entered twice
    done = run("-", stdin=json.dumps(bad))
    assert done.returncode == 2
    payload = json.loads(done.stdout)
    assert set(payload) == {"error", "deal"}
    assert payload["deal"] is None
    assert "already met" in payload["error"]


def test_malformed_input_exits_2():
    done = run("-", stdin=json.dumps(["not", "a", "group"]))
    assert done.returncode == 2
    assert json.loads(done.stdout)["deal"] is None


def test_unsettled_playoff_is_reported_not_broken():
    # A and B never met and have equal everything: both rank 1, play-off required.
    group = {"pairs": ["B", "A"], "matches": []}
    done = run("-", stdin=json.dumps(group))
    assert done.returncode == 0, done.stderr
    assert [(line["pair"], line["rank"], line["playoff_required"]) for line in json.loads(done.stdout)] == [
        ("A", 1, True),
        ("B", 1, True),
    ]


def test_best_and_worst_of_a_finished_group_equal_the_table():
    # Every two pairs have met (case 08: A, B, C need a play-off for rank 1; D 4th): nothing is left to
    # play, so best is the rank and worst the rank + size of the tie - 1.
    case = json.loads((CASES_DIR / "08_three_way_playoff_required.json").read_text(encoding="utf-8"))
    done = run("-", stdin=json.dumps(case["input"]))
    assert done.returncode == 0, done.stderr
    assert [(line["pair"], line["rank"], line["best"], line["worst"]) for line in json.loads(done.stdout)] == [
        ("A", 1, 1, 3),
        ("B", 1, 1, 3),
        ("C", 1, 1, 3),
        ("D", 4, 4, 4),
    ]


def test_best_and_worst_count_every_unlisted_match_as_still_to_play():
    # Three pairs, nothing played yet: each can still win both its matches (1st) or lose both (3rd).
    done = run("-", stdin=json.dumps({"pairs": ["A", "B", "C"], "matches": []}))
    assert done.returncode == 0, done.stderr
    assert [(line["best"], line["worst"]) for line in json.loads(done.stdout)] == [(1, 3)] * 3
