"""``python -m scoring cup FILE`` (RULES.md §9) run as a real process: file and ``-``, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SEASON = {
    "best_n": None,
    "events": [
        {
            "id": "e1",
            "weight": 1,
            "placings": [
                {"player": "x", "place": 1, "match_wins": 6},
                {"player": "y", "place": 2, "match_wins": 5},
            ],
        },
        {"id": "kesakisa", "weight": 0.5, "placings": [{"player": "y", "place": 1, "match_wins": 6}]},
    ],
}
# y: 22 + 25/2 = 34.5, wins 11; x: 25, wins 6.
EXPECTED = [
    {
        "player": "y",
        "rank": 1,
        "points": 34.5,
        "counted": ["e1", "kesakisa"],
        "places": {"1": 1, "2": 1},
        "match_wins": 11,
    },
    {"player": "x", "rank": 2, "points": 25, "counted": ["e1"], "places": {"1": 1}, "match_wins": 6},
]


def run(args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "scoring", "cup", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_file(tmp_path):
    path = tmp_path / "season.json"
    path.write_text(json.dumps(SEASON), encoding="utf-8")
    proc = run([str(path)])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == EXPECTED
    assert '"points": 25,' in proc.stdout  # whole points print as an int


def test_stdin():
    proc = run(["-"], stdin=json.dumps(SEASON))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == EXPECTED


def test_invalid_season_exits_2(tmp_path):
    bad = {
        "best_n": None,
        "events": [{"id": "e1", "weight": 1, "placings": [{"player": "x", "place": 0, "match_wins": 6}]}],
    }
    proc = run(["-"], stdin=json.dumps(bad))
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert set(out) == {"error", "deal"}
    assert out["deal"] is None
    assert "place" in out["error"]


def test_invalid_best_n_from_file_exits_2(tmp_path):
    path = tmp_path / "season.json"
    path.write_text(json.dumps({**SEASON, "best_n": 0}), encoding="utf-8")
    proc = run([str(path)])
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["deal"] is None


def test_not_an_object_exits_2():
    proc = run(["-"], stdin="[1, 2]")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["deal"] is None
