"""``python -m scoring COMMAND FILE``: the rules engine on the command line (RULES.md §9).

Each command reads one JSON document from FILE (``-`` for standard input), prints one JSON document on
standard output and exits 0; invalid input prints ``{"error": ..., "deal": ...}`` and exits 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

from scoring.errors import ScoringError

# command -> (module, function); each function takes the parsed JSON and returns a JSON-able result,
# raising ScoringError for invalid input. Imported lazily so one command's module never slows another.
COMMANDS = {
    "match": ("scoring.match", "run_cli", "score one match: totals, rises, match points"),
    "standings": ("scoring.standings", "run_cli", "rank one group by the official tie-breaks"),
    "cup": ("scoring.cup", "run_cli", "rank a season's players by cup points"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (_module, _func, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text)
        p.add_argument("file", help="a JSON file, or - for standard input")
    args = parser.parse_args(argv)

    try:
        if args.file == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as fh:
                data = json.load(fh)
    except OSError as exc:
        return _fail({"error": f"cannot read {args.file}: {exc.strerror}", "deal": None})
    except json.JSONDecodeError as exc:
        return _fail({"error": f"invalid JSON: {exc}", "deal": None})

    module_name, func_name, _help = COMMANDS[args.command]
    func = getattr(importlib.import_module(module_name), func_name)
    try:
        result = func(data)
    except ScoringError as exc:
        return _fail(exc.to_json())
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _fail(payload: dict) -> int:
    json.dump(payload, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
