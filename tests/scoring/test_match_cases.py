"""The hand-made verification set: tests/scoring/cases/match/*.json (RULES.md §1–3, §9).

Each file holds ``why`` (the arithmetic, worked out by hand from RULES.md), ``input`` (a RULES.md §9
match document) and either ``output`` (what ``python -m scoring match`` must print) or ``error``
(``deal``: the 1-based entry it must name, ``code``: the ScoringError code). The cases go through the
command's own entry point, ``scoring.__main__.main``, reading the input from a file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.__main__ import main
from scoring.errors import ScoringError
from scoring.match_cli import run_cli

CASES = sorted((Path(__file__).parent / "cases" / "match").glob("*.json"))


def test_the_verification_set_is_large_enough():
    loaded = [json.loads(p.read_text(encoding="utf-8")) for p in CASES]
    assert len(loaded) >= 25
    assert sum("error" in c for c in loaded) >= 10
    assert all(c["why"].strip() for c in loaded)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path, tmp_path, capsys):
    case = json.loads(path.read_text(encoding="utf-8"))
    infile = tmp_path / "match.json"
    infile.write_text(json.dumps(case["input"]), encoding="utf-8")
    code = main(["match", str(infile)])
    printed = json.loads(capsys.readouterr().out)
    if "error" in case:
        assert code == 2, case["why"]
        assert set(printed) == {"error", "deal"}
        assert printed["deal"] == case["error"]["deal"], case["why"]
        with pytest.raises(ScoringError) as info:
            run_cli(case["input"])
        assert info.value.code == case["error"]["code"], case["why"]
    else:
        assert code == 0, printed
        assert printed == case["output"], case["why"]
