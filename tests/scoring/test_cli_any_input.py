"""``python -m scoring`` answers any bytes with JSON: a result and exit 0, or ``{"error": ...}`` and exit 2,
never a traceback. Hypothesis feeds random bytes, random JSON and random documents of roughly the right
shape to all three subcommands through ``scoring.__main__.main``; a real subprocess gets the worst cases."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["match", "standings", "cup"]

NASTY = [
    b"",
    b"\xff\xfe\x00garbage",
    b"\x80\x81\x82",
    b"[" * 100_000,
    b'{"a":' * 50_000,
    b"9" * 5_000,
    b'{"deals_planned": ' + b"9" * 4_500 + b', "deals": []}',
    b'{"deals_planned": 1e999, "deals": []}',
    b'{"deals_planned": NaN, "deals": []}',
    b"[Infinity, -Infinity]",
    b'{"pairs": ["\\ud800"], "matches": []}',
    b'{"best_n": 2, "events": [{"id": "\\udfff", "weight": 1, "placings": [{"player": "\\ud800", "place": 1, "match_wins": 0}]}]}',
    b'{"deals_planned": 16, "deals": [' + b'{"game": "rami", "caller": "A", "tricks": {"A": 9, "B": 4}},' * 3 + b"1]}",
    b'{"deals_planned": 99999999999999999999, "deals": []}',
    b'{"deals_planned": -1, "deals": null}',
    b'"just a string"',
    b"\xef\xbb\xbf{}",
    b"null",
    "{\"pairs\": [\"Äijä\"], \"matches\": []}".encode(),
]


def run_main(command: str, data: bytes) -> tuple[int, str]:
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out):
            code = main([command, "-"])
    finally:
        sys.stdin = old
    return code, out.getvalue()


def check(code: int, out: str) -> None:
    assert code in (0, 2), (code, out)
    assert out.endswith("\n") and out.count("\n") == 1, out
    value = json.loads(out)
    if code == 2:
        assert isinstance(value, dict) and "error" in value and isinstance(value["error"], str)
    out.encode("utf-8")  # printable as UTF-8


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("data", NASTY, ids=range(len(NASTY)))
def test_nasty_inputs(command, data):
    code, out = run_main(command, data)
    check(code, out)
    if data in (b"", b"\x80\x81\x82", b"[" * 100_000, b"9" * 5_000):
        assert code == 2


def test_errors_say_what_is_wrong():
    assert "UTF-8" in json.loads(run_main("match", b"\x80abc")[1])["error"]
    assert "deeply" in json.loads(run_main("match", b"[" * 100_000)[1])["error"]
    assert "digits" in json.loads(run_main("match", b"9" * 5_000)[1])["error"]
    assert "NaN" in json.loads(run_main("match", b'{"deals_planned": NaN}')[1])["error"]
    assert "too large" in json.loads(run_main("match", b"[1e999]")[1])["error"]


# Random JSON: scalars of every awkward kind, nested lists and objects.
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["A", "B", "rami", "nolo", "points", "tuppi", "p1", "p2", "p3"])
)
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=30,
)

# Documents of roughly the shape each command takes, with random values in the slots.
small = st.integers(min_value=-3, max_value=40) | json_values
deal = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["rami", "nolo", "x"]) | json_values,
        "caller": st.sampled_from(["A", "B"]) | json_values,
        "tricks": st.fixed_dictionaries({}, optional={"A": small, "B": small}) | json_values,
        "penalty": st.sampled_from(["points", "tuppi"]) | json_values,
        "to": st.sampled_from(["A", "B"]),
        "points": small,
        "forfeit": st.sampled_from(["A", "B"]) | json_values,
    },
)
match_docs = st.fixed_dictionaries(
    {"deals_planned": small, "deals": st.lists(deal, max_size=20) | json_values},
    optional={"overwhelming": st.sampled_from(["winner_total", "margin"]) | json_values},
)
pair_ids = st.sampled_from(["p1", "p2", "p3", "p4"])
standings_docs = st.fixed_dictionaries(
    {
        "pairs": st.lists(pair_ids, max_size=5) | json_values,
        "matches": st.lists(
            st.fixed_dictionaries(
                {"a": pair_ids, "b": pair_ids},
                optional={
                    "winner": pair_ids | st.none(),
                    "match_points": st.dictionaries(pair_ids, small, max_size=3) | json_values,
                    "totals": st.dictionaries(pair_ids, small, max_size=3) | json_values,
                },
            ),
            max_size=8,
        )
        | json_values,
    },
    optional={"playoffs": st.lists(st.fixed_dictionaries({"pairs": st.lists(pair_ids), "order": st.lists(pair_ids)}))},
)
cup_docs = st.fixed_dictionaries(
    {
        "best_n": st.none() | small,
        "events": st.lists(
            st.fixed_dictionaries(
                {
                    "id": st.sampled_from(["e1", "e2"]) | json_values,
                    "weight": st.sampled_from([1, 0.5, 0, 2, -1]) | json_values,
                    "placings": st.lists(
                        st.fixed_dictionaries(
                            {"player": st.sampled_from(["x", "y", "z"]) | json_values, "place": small},
                            optional={"match_wins": small},
                        ),
                        max_size=6,
                    )
                    | json_values,
                }
            ),
            max_size=4,
        )
        | json_values,
    }
)
SHAPED = {"match": match_docs, "standings": standings_docs, "cup": cup_docs}
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("command", COMMANDS)
@FAST
@given(data=st.binary(max_size=300))
def test_random_bytes(command, data):
    check(*run_main(command, data))


@pytest.mark.parametrize("command", COMMANDS)
@FAST
@given(value=json_values)
def test_random_json(command, value):
    check(*run_main(command, json.dumps(value).encode()))


@pytest.mark.parametrize("command", COMMANDS)
@FAST
@given(data=st.data())
@pytest.mark.slow
def test_random_documents_of_the_right_shape(command, data):
    value = data.draw(SHAPED[command])
    check(*run_main(command, json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")))


@pytest.mark.parametrize("command", COMMANDS)
def test_a_real_subprocess_never_prints_a_traceback(command, tmp_path):
    for i, data in enumerate([b"\xff\xfe", b"[" * 100_000, b"9" * 5_000, b"[NaN]", b'{"pairs": 5}']):
        path = tmp_path / f"input-{i}.json"
        path.write_bytes(data)
        for args, stdin in (([str(path)], None), (["-"], data)):
            proc = subprocess.run(
                [sys.executable, "-m", "scoring", command, *args],
                input=stdin, capture_output=True, cwd=ROOT, timeout=60,
            )
            assert proc.returncode == 2, proc.stderr
            assert b"Traceback" not in proc.stderr and proc.stderr == b""
            assert "error" in json.loads(proc.stdout)
