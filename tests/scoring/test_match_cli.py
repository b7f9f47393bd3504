"""``python -m scoring match FILE`` / ``-`` as a real subprocess (RULES.md §9)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A rami 9: 12 up; B makes A fall (deal 2, N = 2): A wins 12–0 on points; N = 2 → threshold 8 < 12: 4–1.
VALID = {
    "deals_planned": 2,
    "deals": [
        {"game": "rami", "caller": "A", "tricks": {"A": 9, "B": 4}},
        {"game": "nolo", "tricks": {"A": 9, "B": 4}},
    ],
}
VALID_OUT = {
    "finished": True,
    "winner": "A",
    "tuppi": False,
    "totals": {"A": 12, "B": 0},
    "match_points": {"A": 4, "B": 1},
    "up": None,
    "rise": 0,
    "deals_played": 2,
    "deciding_deal": False,
    "rises": [{"pair": "A", "points": 12, "ended": "fall"}],
}


def run(*args: str, stdin: str | None = None) -> tuple[int, dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", "match", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    return proc.returncode, json.loads(proc.stdout)


def test_valid_match_from_a_file(tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(VALID), encoding="utf-8")
    assert run(str(path)) == (0, VALID_OUT)


def test_valid_match_from_stdin():
    assert run("-", stdin=json.dumps(VALID)) == (0, VALID_OUT)


def test_invalid_entry_exits_2_with_error_and_entry_number():
    data = {"deals_planned": 16, "deals": [VALID["deals"][0], {"game": "nolo", "tricks": {"A": 9, "B": 5}}]}
    code, out = run("-", stdin=json.dumps(data))
    assert code == 2
    assert set(out) == {"error", "deal"}
    assert out["deal"] == 2 and "add up to 14" in out["error"]


def test_entry_after_the_end_exits_2(tmp_path):
    data = {"deals_planned": 2, "deals": [*VALID["deals"], VALID["deals"][0]]}
    path = tmp_path / "late.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = run(str(path))
    assert (code, out["deal"]) == (2, 3)
    assert "the match ended at deal 2" in out["error"]


def test_invalid_header_exits_2_with_null_deal():
    code, out = run("-", stdin=json.dumps({"deals_planned": 0, "deals": []}))
    assert (code, out["deal"]) == (2, None)
    assert "deals_planned" in out["error"]


def test_broken_json_and_missing_file_exit_2(tmp_path):
    code, out = run("-", stdin="{not json")
    assert (code, out["deal"]) == (2, None)
    code, out = run(str(tmp_path / "nope.json"))
    assert (code, out["deal"]) == (2, None)


def test_importing_the_engine_does_not_import_django():
    code = (
        "import sys, scoring.match, scoring.deal, scoring.random_match; "
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
