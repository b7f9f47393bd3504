"""Hand-worked groups (tests/scoring/cases/standings/*.json) ranked through ``run_cli`` (RULES.md §4, §9).

Each file holds a ``why`` note with the arithmetic done on paper, the ``input`` exactly as
``python -m scoring standings`` reads it, and either the ``expected`` output list or the ``error`` code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.errors import ScoringError
from scoring.standings_cli import run_cli

CASES_DIR = Path(__file__).parent / "cases" / "standings"
CASES = sorted(CASES_DIR.glob("*.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_verification_set_is_complete():
    valid = [path for path in CASES if "expected" in _load(path)]
    assert len(valid) >= 15
    # Every case explains itself and says what it expects.
    for path in CASES:
        case = _load(path)
        assert case["why"], path.name
        assert ("expected" in case) != ("error" in case), path.name


@pytest.mark.parametrize("path", CASES, ids=[path.stem for path in CASES])
def test_case(path: Path):
    case = _load(path)
    if "error" in case:
        with pytest.raises(ScoringError) as info:
            run_cli(case["input"])
        assert info.value.code == case["error"]
        assert info.value.to_json()["deal"] is None
    else:
        assert run_cli(case["input"]) == case["expected"]
