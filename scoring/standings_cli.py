"""``python -m scoring standings``: one group ranked by the official tie-breaks (``scoring.standings``),
each line with the best and worst final position the pair can still reach (``scoring.prospects``, which
builds on the standings: so the command that joins them is a module of its own). RULES.md §9."""

from __future__ import annotations

from typing import Any

from scoring.errors import ScoringError
from scoring.prospects import group_prospects, remaining_round_robin
from scoring.standings import MatchResult, Playoff, rank_group

_TOP_KEYS = {"pairs", "matches", "playoffs", "primary"}
_MATCH_KEYS = {"a", "b", "winner", "match_points", "totals"}


def _bad(message: str, **values: object) -> ScoringError:
    return ScoringError("bad_input", message, **values)


def _pair_list(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _bad(f"{what} must be a list of pair ids (strings)")
    return value


def run_cli(data: object) -> list[dict[str, Any]]:
    """``python -m scoring standings FILE``: rank one group given as JSON (RULES §9), each line with the
    ``best`` and ``worst`` final position the pair can still reach (:mod:`scoring.prospects`)."""
    if not isinstance(data, dict):
        raise _bad("the input must be a JSON object with pairs and matches")
    extra = sorted(set(data) - _TOP_KEYS)
    if extra:
        raise _bad(f"unknown key {extra[0]!r}; expected pairs, matches, playoffs, primary", key=extra[0])
    if "pairs" not in data or "matches" not in data:
        raise _bad("the input needs both pairs and matches")
    pairs = _pair_list(data["pairs"], "pairs")
    if not isinstance(data["matches"], list):
        raise _bad("matches must be a list")

    results = []
    for index, raw in enumerate(data["matches"], start=1):
        if not isinstance(raw, dict) or set(raw) != _MATCH_KEYS:
            raise _bad(
                f"match {index} must be an object with exactly a, b, winner, match_points, totals",
                match=index,
            )
        for key in ("a", "b", "winner"):
            if not isinstance(raw[key], str):
                raise _bad(f"match {index}: {key} must be a pair id (a string)", match=index)
        for key in ("match_points", "totals"):
            if not isinstance(raw[key], dict):
                raise _bad(f"match {index}: {key} must be an object keyed by pair id", match=index)
        results.append(MatchResult(raw["a"], raw["b"], raw["winner"], raw["match_points"], raw["totals"]))

    playoffs = []
    raw_playoffs = data.get("playoffs", [])
    if not isinstance(raw_playoffs, list):
        raise _bad("playoffs must be a list")
    for index, raw in enumerate(raw_playoffs, start=1):
        if not isinstance(raw, dict) or set(raw) != {"pairs", "order"}:
            raise _bad(f"play-off {index} must be an object with exactly pairs and order", playoff=index)
        playoffs.append(
            Playoff(
                tuple(_pair_list(raw["pairs"], f"play-off {index} pairs")),
                tuple(_pair_list(raw["order"], f"play-off {index} order")),
            )
        )

    primary = data.get("primary", "match_points")
    if not isinstance(primary, str):
        raise ScoringError("bad_primary", "primary must be 'match_points' or 'wins'", primary=primary)
    table = rank_group(pairs, results, playoffs, primary=primary)  # type: ignore[arg-type]
    # Issue #20: each line also says the best and worst final position the pair can still reach. The
    # input lists finished matches only, so every two pairs without a listed match still have to meet.
    reach = {
        prospect.pair: prospect
        for prospect in group_prospects(
            pairs, results, remaining_round_robin(pairs, results), playoffs, primary=primary  # type: ignore[arg-type]
        )
    }
    return [dict(line.to_json(), best=reach[line.pair].best, worst=reach[line.pair].worst) for line in table]
