"""``python -m scoring match``: one match's scoresheet as JSON in, its final state as JSON out (RULES.md §9).

The entries of the JSON document become :mod:`scoring.match` entries and are folded there; the state is
printed as :meth:`scoring.match.MatchState.to_json` gives it. Pure and Django-free.

Public API::

    entry_from_json(obj, number) -> Entry / entry_to_json(entry) -> dict
    match_to_json(entries, deals_planned) -> dict
    parse_match(data) -> MatchInput
    run_cli(data) -> dict                                   # the ``match`` command
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.deal import ByPair, Deal, Game, Pair
from scoring.errors import ScoringError
from scoring.match import (
    PENALTY_POINTS,
    Entry,
    Forfeit,
    Overwhelming,
    PointsPenalty,
    TuppiPenalty,
    after_end_error,
    apply,
    check_deals_planned,
    check_rule,
    start,
)

__all__ = ["MatchInput", "entry_from_json", "entry_to_json", "match_to_json", "parse_match", "run_cli"]


@dataclass(frozen=True, slots=True)
class MatchInput:
    """A parsed ``python -m scoring match`` document (RULES.md §9)."""

    deals_planned: int
    entries: tuple[Entry, ...]
    overwhelming: Overwhelming


_DEAL_KEYS = frozenset({"game", "caller", "tricks", "penalised"})
_POINTS_KEYS = frozenset({"penalty", "to", "points"})
_TUPPI_KEYS = frozenset({"penalty", "to"})
_FORFEIT_KEYS = frozenset({"forfeit"})
_MATCH_KEYS = frozenset({"deals_planned", "deals", "overwhelming"})


def _check_keys(obj: dict, allowed: frozenset[str], what: str, number: int | None) -> None:
    # Decision (ours): unknown keys are refused rather than ignored, so a misspelt key (say "pionts")
    # never silently falls back to a default.
    unknown = sorted(str(k) for k in obj if k not in allowed)
    if unknown:
        raise ScoringError(
            "unknown_key",
            f"unknown key(s) {', '.join(unknown)} in {what}; allowed: {', '.join(sorted(allowed))}",
            deal=number,
            keys=unknown,
        )


def entry_from_json(obj: object, number: int) -> Entry:
    """One scoresheet entry from its RULES.md §9 JSON form (shape only; values are checked by the fold)."""
    if not isinstance(obj, dict):
        raise ScoringError("entry_not_object", f"entry {number} must be a JSON object", deal=number)
    kinds = [k for k in ("game", "penalty", "forfeit") if k in obj]
    if len(kinds) != 1:
        raise ScoringError(
            "entry_kind_unknown",
            f"entry {number} must have exactly one of 'game', 'penalty' or 'forfeit'",
            deal=number,
        )
    if kinds[0] == "game":
        _check_keys(obj, _DEAL_KEYS, "a deal", number)
        game = obj["game"]
        if game not in ("rami", "nolo"):  # Game(...) would also accept the enum's own members
            raise ScoringError(
                "game_unknown", f"unknown game {game!r}: a deal is 'rami' or 'nolo'", deal=number, game=game
            )
        tricks = obj.get("tricks")
        if not isinstance(tricks, dict) or set(tricks) != {"A", "B"}:
            raise ScoringError(
                "tricks_invalid",
                'tricks must be an object with the counts of both pairs, like {"A": 9, "B": 4}',
                deal=number,
            )
        caller = obj.get("caller")
        if caller is not None and caller not in ("A", "B"):
            raise ScoringError(
                "pair_invalid", f"caller must be pair 'A' or 'B', not {caller!r}", deal=number, field="caller"
            )
        return Deal(
            game=Game(game),
            tricks=ByPair(tricks["A"], tricks["B"]),
            caller=None if caller is None else Pair(caller),
            penalised=obj.get("penalised", False),
        )
    if kinds[0] == "penalty":
        kind = obj["penalty"]
        if kind == "points":
            _check_keys(obj, _POINTS_KEYS, "a points penalty", number)
            return PointsPenalty(_json_pair(obj.get("to"), "to", number), obj.get("points", PENALTY_POINTS))
        if kind == "tuppi":
            _check_keys(obj, _TUPPI_KEYS, "a tuppi penalty", number)
            return TuppiPenalty(_json_pair(obj.get("to"), "to", number))
        raise ScoringError(
            "penalty_unknown",
            f"unknown penalty {kind!r}: 'points' or 'tuppi'",
            deal=number,
            penalty=kind,
        )
    _check_keys(obj, _FORFEIT_KEYS, "a forfeit", number)
    return Forfeit(_json_pair(obj["forfeit"], "forfeit", number))


def _json_pair(value: object, field: str, number: int) -> Pair:
    if value not in ("A", "B"):
        raise ScoringError(
            "pair_invalid",
            f"{field} must be pair 'A' or 'B', not {value!r}",
            deal=number,
            field=field,
            value=value,
        )
    return Pair(value)


def entry_to_json(entry: Entry) -> dict:
    """One entry in its RULES.md §9 JSON form (the inverse of :func:`entry_from_json`)."""
    if isinstance(entry, Deal):
        out: dict = {"game": str(entry.game)}
        if entry.caller is not None:
            out["caller"] = str(entry.caller)
        out["tricks"] = entry.tricks.to_json()
        if entry.penalised:
            out["penalised"] = True
        return out
    if isinstance(entry, PointsPenalty):
        return {"penalty": "points", "to": str(entry.to), "points": entry.points}
    if isinstance(entry, TuppiPenalty):
        return {"penalty": "tuppi", "to": str(entry.to)}
    if isinstance(entry, Forfeit):
        return {"forfeit": str(entry.pair)}
    raise TypeError(f"not a scoresheet entry: {entry!r}")


def match_to_json(entries: Iterable[Entry], deals_planned: int) -> dict:
    """A whole scoresheet as the RULES.md §9 input document (the inverse of :func:`parse_match`)."""
    return {"deals_planned": deals_planned, "deals": [entry_to_json(e) for e in entries]}


def _parse_header(data: object) -> tuple[int, list, Overwhelming]:
    if not isinstance(data, dict):
        raise ScoringError("match_not_object", "a match must be a JSON object with deals_planned and deals")
    _check_keys(data, _MATCH_KEYS, "the match", None)
    if "deals_planned" not in data:
        raise ScoringError("deals_planned_invalid", "deals_planned is missing", deals_planned=None)
    n = check_deals_planned(data["deals_planned"])
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise ScoringError("deals_invalid", "deals must be a list of scoresheet entries")
    return n, deals, check_rule(data.get("overwhelming"))


def parse_match(data: object) -> MatchInput:
    """A RULES.md §9 match document as entry values (shape only: values are checked by :func:`fold`)."""
    n, deals, rule = _parse_header(data)
    return MatchInput(n, tuple(entry_from_json(obj, i) for i, obj in enumerate(deals, 1)), rule)


def run_cli(data: object) -> dict:
    """``python -m scoring match``: the final state as RULES.md §9's JSON object.

    Entries are read and folded one by one, so the error reported is the first invalid entry in
    scoresheet order (an entry after the end is reported as such, whatever it holds). The optional
    top-level key ``overwhelming`` ("winner_total" or "margin") overrides :data:`scoring.match.DEFAULT_OVERWHELMING`.
    """
    n, deals, rule = _parse_header(data)
    state = start(n, overwhelming=rule)
    for number, obj in enumerate(deals, 1):
        if state.finished:
            raise after_end_error(state, number)
        state = apply(state, entry_from_json(obj, number))
    return state.to_json()
