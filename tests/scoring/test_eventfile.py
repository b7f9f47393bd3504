"""``python -m scoring verify FILE`` (issue #27): an exported event file checked without the server. The
file of a published event verifies (exit 0); one trick changed in one line makes it exit 1 naming that
match and line; a file that is not an event file exits 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.eventfile import run_file
from tests.support.eventfile_helpers import council_event, one_stage_event, simulated
from tournaments.output import eventfile


def verify(path) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "verify", str(path)], capture_output=True, text=True, check=False, timeout=60
    )
    return done.returncode, done.stdout


def changed_trick(data: dict) -> tuple[dict, int]:
    """The first Saturday deal where pair A took 7 to 12 tricks, given one trick more; its line number."""
    for m in data["matches"]:
        for number, line in enumerate(m["lines"], start=1):
            if m["stage"] == "saturday" and line["kind"] == "deal" and 7 <= line["tricks_a"] < 13 and line["tricks_b"]:
                line["tricks_a"] += 1
                line["tricks_b"] -= 1
                return m, number
    raise AssertionError("no deal to change")


@pytest.mark.slow
def test_a_published_file_verifies_and_one_changed_trick_is_named(db, tmp_path):
    data = json.loads(eventfile.export_text(simulated(16, seed=1)))
    good = tmp_path / "kisa.json"
    good.write_text(eventfile.text(data), encoding="utf-8")
    code, out = verify(good)
    assert code == 0, out
    assert out.startswith("OK: simulaatio-16-paria-1: 48 matches")

    m, number = changed_trick(data)
    bad = tmp_path / "muutettu.json"
    bad.write_text(eventfile.text(data), encoding="utf-8")
    code, out = verify(bad)
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(
        f"DIFFERS: match saturday group {m['group']} round {m['round']} table {m['table']} "
        f"(pairs {m['pairs'][0]}–{m['pairs'][1]}) line {number}: the file states"
    )
    assert "differs from the published record" in out  # the digest chain names it too
    assert "the file's facts give the record digest" in out


def test_a_one_stage_file_verifies(db, tmp_path, make_event, organiser):
    path = tmp_path / "kisa.json"
    path.write_text(eventfile.export_text(one_stage_event(make_event, organiser)), encoding="utf-8")
    code, out = verify(path)
    assert code == 0, out
    assert "chain of 2 published record(s)" in out


@pytest.mark.slow  # three runs of python -m scoring
def test_a_file_with_the_council_s_rulings_verifies_and_a_changed_ruling_is_named(db, tmp_path, make_event, organiser):
    data = json.loads(eventfile.export_text(council_event(make_event, organiser)))
    path = tmp_path / "valituskisa.json"
    path.write_text(eventfile.text(data), encoding="utf-8")
    code, out = verify(path)
    assert code == 0, out

    m = next(m for m in data["matches"] if m.get("appeals") and m["appeals"][0]["status"] == "rejected")
    m["rulings"][0]["reasons"] = "Valitus hyväksytään."
    path.write_text(eventfile.text(data), encoding="utf-8")
    code, out = verify(path)
    assert code == 1
    assert "the file's facts give the record digest" in out
    assert (f"ruling 2 (match saturday round {m['round']} table {m['table']}, pairs {m['pairs'][0]}–{m['pairs'][1]}): "
            "its reasons differ from the published record") in out

    data["exclusions"][0]["reason"] = "Ei syytä"
    path.write_text(eventfile.text(data), encoding="utf-8")
    code, out = verify(path)
    assert code == 1 and f"exclusion 1 (pair {data['exclusions'][0]['pair']}) differs from the published record" in out


def test_a_changed_digest_breaks_the_chain(db, tmp_path, make_event, organiser):
    data = json.loads(eventfile.export_text(one_stage_event(make_event, organiser)))
    data["publications"][0]["digest"] = "0" * 64
    path = tmp_path / "kisa.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = verify(path)
    assert code == 1
    assert "published record 1: its text does not give its digest" in out
    assert "published record 2: it names" in out


@pytest.mark.parametrize("content", [b"", b"{not json", b"\xff\xfe", b"[]", b'{"format": "tuppi-event", "version": 2}',
                                     b'{"format": "tuppi-event", "version": 1}', b'{"format": "other"}'])
def test_what_is_not_an_event_file_exits_2(tmp_path, content):
    path = tmp_path / "roska.json"
    path.write_bytes(content)
    code, out = verify(path)
    assert code == 2 and out.startswith("UNREADABLE: ")
    assert verify(tmp_path / "puuttuu.json")[0] == 2


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
KEYS = ["rules", "event", "pairs", "groups", "matches", "playoffs", "seeding_corrections", "places", "publications",
        "players", "clubs", "draw"]


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), JSON))
def test_any_document_gets_an_answer_never_a_traceback(parts):
    code, problems = run_file({"format": "tuppi-event", "version": 1, **parts})
    assert code in (0, 1, 2) and all(isinstance(p, str) for p in problems)
