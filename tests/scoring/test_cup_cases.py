"""Hand-worked cup seasons (RULES.md §8, §9 ``cup``): tests/scoring/cases/cup/*.json.

Each file has a ``why`` with the arithmetic, an ``input`` as ``python -m scoring cup`` reads it, and
either the ``expected`` output (compared exactly, key order and int-versus-float included) or the
``error`` code the input must be refused with.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.cup import run_cli
from scoring.errors import ScoringError

CASES = sorted((Path(__file__).parent / "cases" / "cup").glob("*.json"))


def test_there_are_enough_cases():
    worked = [p for p in CASES if "expected" in json.loads(p.read_text(encoding="utf-8"))]
    assert len(worked) >= 12


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path):
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["why"]
    if "error" in case:
        with pytest.raises(ScoringError) as info:
            run_cli(case["input"])
        assert info.value.code == case["error"], info.value.message
        assert info.value.to_json()["deal"] is None
    else:
        result = run_cli(case["input"])
        assert result == case["expected"]
        # Exactly as printed: key order, and 31 as an int but 12.5 as a float (Decision RULES §8).
        assert json.dumps(result) == json.dumps(case["expected"])
