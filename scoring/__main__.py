"""``python -m scoring COMMAND FILE``: the rules engine on the command line (RULES.md §9).

Each command reads one JSON document from FILE (``-`` for standard input), prints one JSON document on
standard output and exits 0; invalid input prints ``{"error": ..., "deal": ...}`` and exits 2.

``verify FILE`` (issue #27) checks an event file (``scoring.eventfile``) and answers in text, one line
each: ``OK: …`` and exit 0 when it agrees with itself, ``DIFFERS: …`` lines and exit 1, ``UNREADABLE: …``
and exit 2 for what is not an event file.

Whatever the bytes are, the answer is one of those two: input that is not UTF-8, not JSON, nested too
deeply, holding NaN or Infinity, a number too large for a float or an integer of more digits than
Python converts, or a document of the wrong shape, is an error (exit 2), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys

from scoring.errors import ScoringError

# command -> (module, function); each function takes the parsed JSON and returns a JSON-able result,
# raising ScoringError for invalid input. Imported lazily so one command's module never slows another.
COMMANDS = {
    "match": ("scoring.match_cli", "run_cli", "score one match: totals, rises, match points"),
    "standings": ("scoring.standings_cli", "run_cli", "rank one group by the official tie-breaks"),
    "cup": ("scoring.cup", "run_cli", "rank a season's players by cup points"),
}
# ``verify FILE``: an event file checked (``scoring.eventfile``); its own exit codes (0 agrees, 1 differs,
# 2 unreadable) and a text answer, one difference a line.
VERIFY_HELP = "check an event file (tuppi-event): every match, table and place computed again, and its digests"
MAX_INPUT_BYTES = 64 * 1024 * 1024
MAX_INT_DIGITS = 100  # no number in RULES.md §9 comes near; longer ones are refused before int() runs


class InputError(Exception):
    """The input is not a JSON document the engine can take; the message says why."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (_module, _func, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text)
        p.add_argument("file", help="a JSON file, or - for standard input")
    sub.add_parser("verify", help=VERIFY_HELP).add_argument("file", help="an event file, or - for standard input")
    args = parser.parse_args(argv)
    if args.command == "verify":
        return _verify(args.file)

    try:
        raw = _read(args.file)
    except OSError as exc:
        return _fail({"error": f"cannot read {args.file}: {exc.strerror or exc}", "deal": None})
    try:
        data = _parse(raw)
    except InputError as exc:
        return _fail({"error": str(exc), "deal": None})

    module_name, func_name, _help = COMMANDS[args.command]
    func = getattr(importlib.import_module(module_name), func_name)
    try:
        result = func(data)
        text = _dumps(result)
    except ScoringError as exc:
        return _fail(exc.to_json())
    except RecursionError:
        return _fail({"error": "invalid input: nested too deeply", "deal": None})
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, ArithmeticError) as exc:
        # input of a shape the engine's checks did not foresee: still an answer, not a traceback
        return _fail({"error": f"invalid input ({type(exc).__name__}): {exc}"[:500], "deal": None})
    sys.stdout.write(text + "\n")
    return 0


def _verify(file: str) -> int:
    eventfile = importlib.import_module("scoring.eventfile")
    try:
        data = _parse(_read(file))
    except OSError as exc:
        sys.stdout.write(f"UNREADABLE: cannot read {file}: {exc.strerror or exc}\n")
        return 2
    except InputError as exc:
        sys.stdout.write(f"UNREADABLE: {exc}\n")
        return 2
    code, problems = eventfile.run_file(data)
    if code == 2:
        sys.stdout.write(f"UNREADABLE: {problems[0]}\n")
    for problem in problems if code == 1 else []:
        sys.stdout.write(f"DIFFERS: {problem}\n")
    if code == 0:
        matches = len(data["matches"])
        sys.stdout.write(f"OK: {data['event']['slug']}: {matches} matches, every table and place and the digest "
                         f"chain of {len(data['publications'])} published record(s) agree with the file's lines\n")
    return code


def _read(file: str) -> bytes:
    if file == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream put in place of stdin (tests)
            return sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8", "surrogateescape")
        return stream.read(MAX_INPUT_BYTES + 1)
    with open(file, "rb") as fh:
        return fh.read(MAX_INPUT_BYTES + 1)


def _parse(raw: bytes) -> object:
    if len(raw) > MAX_INPUT_BYTES:
        raise InputError(f"invalid input: more than {MAX_INPUT_BYTES // (1024 * 1024)} MB")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"invalid input: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc}") from exc
    except RecursionError as exc:
        raise InputError("invalid JSON: nested too deeply") from exc
    except (ValueError, OverflowError) as exc:
        raise InputError(f"invalid JSON: {exc}") from exc


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise InputError(f"invalid JSON: an integer of more than {MAX_INT_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"invalid JSON: the number {text[:40]} is too large")
    return value


def _constant(name: str) -> float:
    raise InputError(f"invalid JSON: {name} is not a number")


def _dumps(value: object) -> str:
    """JSON text, UTF-8 as it is; escaped to ASCII if it holds a lone surrogate (``"\\ud800"`` in the
    input), which no UTF-8 output could carry."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=True, allow_nan=False)
    return text


def _fail(payload: dict) -> int:
    sys.stdout.write(_dumps(payload) + "\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
