"""The published records of an event file checked (issue #27, ``python -m scoring verify``): the chain of
records (each record's kept text gives its digest and names the digest of the one before it) and the
latest record rebuilt from the file's facts, whose digest must be the published one.

The record is the server's canonical result record (``tournaments.actions.publication``, form 2): the
event's kind, format, season and deal counts, the draw, every pair with its club and players, the groups,
every match with its lines, paper result and substitutes, the play-offs, the seeding corrections, the
final places and the digest before it (and, for an event that has any, the judges' council's rulings and
exclusions, issue #29), written as JSON with sorted keys and no spaces, hashed with
SHA-256. Rebuilding it here from the file lets anyone check, without the server, that the file's facts
are the ones published.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json

from scoring.draw import group_name_key

LINE_FIELDS = ("kind", "game", "caller_seat", "tricks_a", "tricks_b", "penalised", "pair", "points")
PAPER_FIELDS = ("total_a", "total_b", "deals_played", "tuppi", "deciding_winner")
STAGE_ORDER = {s: i for i, s in enumerate(("saturday", "sunday", "placement", "team"))}
FORM = 2
NAMED_FORM = 3  # a team competition's record since its file (issue #27): its teams and places by name


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def record_text(record: dict) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def record(data: dict, places, previous: str, form: int = FORM) -> dict:
    """The canonical record of the file's facts with ``places`` and the digest ``previous`` before it, in
    ``form`` (3: a team competition's, with its teams; 2: every other, and a team competition's kept
    before its teams were named)."""
    ev = data["event"]
    clubs = {c["name"]: c for c in data["clubs"]}
    players = {p["key"]: p for p in data["players"]}

    def person(key: str) -> list:
        p = players[key]
        return [p["member_number"], p["first_name"], p["last_name"]]

    return {
        "form": FORM,
        **(teams(data, person) if form == NAMED_FORM else {}),
        "previous": previous,
        "event": {
            "slug": ev["slug"], "kind": ev["kind"], "format": ev["format"], "group_count": ev["group_count"],
            "season": ev["season"], "deals": [ev["deals"]["saturday"], ev["deals"]["sunday"], ev["deals"]["placement"]],
        },
        "draw": {"seed": data["draw"]["seed"], "swaps": [s["pairs"] for s in data["draw"]["swaps"]]},
        "pairs": [
            {"number": p["number"], "club": [p["club"], clubs[p["club"]]["short_name"]],
             "withdrawn": p["withdrawn_at"] is not None, "players": [person(k) for k in p["players"]]}
            for p in sorted(data["pairs"], key=lambda p: p["number"])
        ],
        "groups": [
            [g["stage"], g["name"], g["deals"], g["pairs"]]
            for g in sorted(data["groups"], key=lambda g: (STAGE_ORDER.get(g["stage"], 9), group_name_key(g["name"])))
        ],
        "matches": [
            {
                "stage": m["stage"], "group": m["group"], "round": m["round"], "table": m["table"],
                "placement": [m["placement"]["tier"], m["placement"]["round"], m["placement"]["slot"]]
                if m["placement"] else [None, "", None],
                "pairs": m["pairs"], "deals": m["deals"], "status": m["status"],
                "lines": [[line[f] for f in LINE_FIELDS] for line in m["lines"]],
                "paper": None if m["paper"] is None else [m["paper"][f] for f in PAPER_FIELDS],
                "substitutes": sorted(
                    ([person(s["player"]), person(s["substitute"])] for s in m["substitutes"]), key=json.dumps
                ),
            }
            for m in sorted(data["matches"], key=lambda m: (STAGE_ORDER.get(m["stage"], 9), m["round"], m["table"]))
        ],
        "playoffs": [[p["stage"], p["group"], p["order"]] for p in data["playoffs"]],
        "seeding_corrections": [[c["before"], c["after"]] for c in data["seeding_corrections"]],
        **council(data, person),
        "places": places,
    }


def teams(data: dict, person) -> dict:
    """A team competition's teams as its record (form 3) holds them: by name, each with its club (name,
    short name), its pairs by number and its substitute; and the bracket's team matches [round, slot, team
    A, team B]."""
    part = data["teams"]
    clubs = {c["name"]: c for c in data["clubs"]}
    return {
        "form": NAMED_FORM,
        "teams": sorted((
            {"name": t["name"], "club": [t["club"], clubs[t["club"]]["short_name"]], "pairs": t["pairs"],
             "substitute": None if t["substitute"] is None else person(t["substitute"])}
            for t in part["teams"]
        ), key=lambda t: t["name"]),
        "team_matches": sorted([m["round"], m["slot"], *m["teams"]] for m in part["matches"]),
    }


def council(data: dict, person) -> dict:
    """The judges' council's rulings and exclusions as the published record holds them (only when the
    event has any): each ruling as [stage, round, table, pairs, the appealing pair's side or None, members,
    referee heard, pairs heard, decision, effect, reasons, detail], in the order given (by its moment, then
    the file's order); each exclusion as [pair, player, members, reason], in the order decided."""
    rulings = []
    for m in data["matches"]:
        for r in m.get("rulings", []):
            if r["appeal"] is not None and not 1 <= r["appeal"] <= len(m["appeals"]):
                raise ValueError(f"a ruling names appeal {r['appeal']}, which its match does not have")
            side = None if r["appeal"] is None else m["appeals"][r["appeal"] - 1]["side"]
            rulings.append((dt.datetime.fromisoformat(r["at"]), [
                m["stage"], m["round"], m["table"], m["pairs"], side, r["members"], r["referee_heard"],
                r["pairs_heard"], r["decision"], r["effect"], r["reasons"], r["detail"],
            ]))
    found = [ruling for _at, ruling in sorted(rulings, key=lambda x: x[0])]
    excluded = [[x["pair"], person(x["player"]), x["members"], x["reason"]] for x in data.get("exclusions", [])]
    return {**({"rulings": found} if found else {}), **({"exclusions": excluded} if excluded else {})}


def check_chain(data: dict) -> list[str]:
    """Where the file's chain of published records breaks, and whether its facts give the latest one."""
    links = data["publications"]
    problems = []
    for n, link in enumerate(links, start=1):
        expected = links[n - 2]["digest"] if n > 1 else ""
        if link["previous_digest"] != expected:
            problems.append(f"published record {n}: it names {link['previous_digest'] or 'no record'} before it, "
                            f"not {expected or 'no record (it is the first)'}")
        if not link["record"]:
            continue
        if sha256(link["record"]) != link["digest"]:
            problems.append(f"published record {n}: its text does not give its digest {link['digest']}")
        elif json.loads(link["record"]).get("previous") != link["previous_digest"]:
            problems.append(f"published record {n}: its text names another record before it")
    if not links or not links[-1]["record"]:
        return problems
    last = links[-1]
    published = json.loads(last["record"])
    mine = record(data, published.get("places"), last["previous_digest"], published.get("form", FORM))
    if sha256(record_text(mine)) != last["digest"]:
        problems.append(f"the file's facts give the record digest {sha256(record_text(mine))}, "
                        f"the last published one is {last['digest']}")
        problems += differences(published, mine)
    return problems


def differences(published: dict, mine: dict) -> list[str]:
    """What in the file's facts differs from the last published record: pairs, matches, other parts."""
    out = []
    before = {p["number"]: p for p in published.get("pairs", [])}
    for p in mine["pairs"]:
        if before.get(p["number"]) != p:
            out.append(f"pair {p['number']}: its club, players or withdrawal differ from the published record")
    old = {(m["stage"], m["round"], m["table"]): m for m in published.get("matches", [])}
    for m in mine["matches"]:
        was = old.get((m["stage"], m["round"], m["table"]))
        group = f" group {m['group']}" if m["group"] else ""
        where = f"match {m['stage']}{group} round {m['round']} table {m['table']} (pairs {m['pairs'][0]}–{m['pairs'][1]})"
        if was is None:
            out.append(f"{where} is not in the published record")
            continue
        if was["lines"] != m["lines"]:
            changed = [n for n, (x, y) in enumerate(zip(was["lines"], m["lines"], strict=False), start=1) if x != y]
            first = changed[0] if changed else min(len(was["lines"]), len(m["lines"])) + 1
            out.append(f"{where} line {first}: differs from the published record")
        parts = [k for k in ("pairs", "status", "paper", "substitutes", "deals") if was[k] != m[k]]
        if parts:
            out.append(f"{where}: its {', '.join(parts)} differ from the published record")
    for part in ("event", "draw", "groups", "playoffs", "seeding_corrections"):
        if published.get(part) != mine[part]:
            out.append(f"the {part.replace('_', ' ')} differ from the published record")
    return out + council_differences(published, mine)


def council_differences(published: dict, mine: dict) -> list[str]:
    """Each ruling and exclusion of the file that differs from the published record's, named."""
    out = []
    was, now = published.get("rulings", []), mine.get("rulings", [])
    for n in range(max(len(was), len(now))):
        r = now[n] if n < len(now) else was[n]
        where = f"ruling {n + 1} (match {r[0]} round {r[1]} table {r[2]}, pairs {r[3][0]}–{r[3][1]})"
        if n >= len(was) or n >= len(now):
            out.append(f"{where} is {'not in the published record' if n >= len(was) else 'missing from the file'}")
        elif was[n] != now[n]:
            parts = ("members", "referee heard", "pairs heard", "decision", "effect", "reasons", "detail")
            changed = [name for name, x, y in zip(parts, was[n][5:], now[n][5:], strict=False) if x != y]
            out.append(f"{where}: its {', '.join(changed) or 'match'} differ from the published record")
    was, now = published.get("exclusions", []), mine.get("exclusions", [])
    for n in range(max(len(was), len(now))):
        if (was[n] if n < len(was) else None) != (now[n] if n < len(now) else None):
            pair = (now[n] if n < len(now) else was[n])[0]
            out.append(f"exclusion {n + 1} (pair {pair}) differs from the published record")
    return out
