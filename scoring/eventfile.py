"""``python -m scoring verify FILE``: an event file (``tuppi-event``, version 1; issue #27) checked without
the server, with the rules engine only.

From the file's facts it computes again every match (each scoresheet line's points and rise totals, the
result: winner, tuppi, totals, match points; a paper result by its plausibility check), every group table
(Saturday and Sunday, with the recorded play-offs), the Sunday groups (the seeding chart, or the last
seeding correction), the placement matches' places and the final places, and compares each with what the
file states. It then checks the chain of published records (each record's text gives its digest and
names the one before it) and rebuilds the latest record from the file's facts: its digest must be the
published one. Every difference names the match (stage, group, round, table), the line and the pair.

Exit 0 when everything agrees, 1 with the differences (one a line on standard output), 2 when the file
cannot be read or is not an event file.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoring import knockout, plausibility, sunday
from scoring import match as engine
from scoring import standings as standings_core
from scoring.deal import ByPair, Game, Pair, pair_of_seat
from scoring.errors import ScoringError
from scoring.eventfile_record import check_chain


class FileError(Exception):
    """The document is not an event file this verifier reads (exit 2)."""


@dataclass(frozen=True)
class Result:
    """A match's result computed from its lines or paper result, by pair number."""

    finished: bool = False
    winner: int | None = None
    tuppi: bool = False
    totals: tuple[int, int] = (0, 0)
    match_points: tuple[int, int] | None = None
    error: str | None = None

    def stated(self) -> dict:
        return {
            "finished": self.finished, "winner": self.winner, "tuppi": self.tuppi, "totals": list(self.totals),
            "match_points": None if self.match_points is None else list(self.match_points),
        }


def label(m: dict, within: str = "") -> str:
    """A match by stage, group, round and table with its pairs (``within``: its team match, if any)."""
    group = f" group {m['group']}" if m.get("group") else ""
    return f"match {m['stage']}{group} round {m['round']} table {m['table']} (pairs {m['pairs'][0]}–{m['pairs'][1]}{within})"


def entry(line: dict) -> engine.Entry:
    """A file's scoresheet line as the engine's entry."""
    kind = line["kind"]
    if kind == "deal":
        caller = pair_of_seat(line["caller_seat"]) if line["caller_seat"] else None
        return engine.Deal(Game(line["game"]), ByPair(line["tricks_a"], line["tricks_b"]), caller, line["penalised"])
    if kind == "points":
        return engine.PointsPenalty(Pair(line["pair"]), line["points"] or engine.PENALTY_POINTS)
    if kind == "tuppi":
        return engine.TuppiPenalty(Pair(line["pair"]))
    if kind == "forfeit":
        return engine.Forfeit(Pair(line["pair"]))
    raise FileError(f"a scoresheet line of unknown kind {kind!r}")


class Verifier:
    """One file's check; ``problems`` collects what differs."""

    def __init__(self, data: dict):
        self.data = data
        self.problems: list[str] = []
        rules = data["rules"]
        self.overwhelming, self.primary = rules["overwhelming"], rules["standings_first"]
        self.results: dict[int, Result] = {}  # by the match's index in the file
        self.withdrawn = {p["number"] for p in data["pairs"] if p["withdrawn_at"] is not None}
        self.team_of = {  # a team competition's pair match: its order in its team match
            _key(link["match"]): f", pair {link['order']} of {tm['teams'][0]} – {tm['teams'][1]}"
            for tm in data.get("teams", {}).get("matches", []) for link in tm["pair_matches"]
        }

    def label(self, m: dict) -> str:
        return label(m, self.team_of.get(_key(m), ""))

    def run(self) -> list[str]:
        for n, m in enumerate(self.data["matches"]):
            self.results[n] = self.match(m)
        tables = self.tables()
        self.sunday_groups(tables)
        self.places(tables)
        if "teams" in self.data:
            self.team_places()
        self.chain()
        return self.problems

    # --- matches -----------------------------------------------------------------------------------

    def match(self, m: dict) -> Result:
        """The match computed again; each line's stated points and totals and the stated result checked."""
        if m["status"] == "annulled":
            result = Result()
        elif m["paper"] is not None:
            result = self.paper(m)
        elif not m["lines"]:
            result = Result()
        else:
            result = self.lines(m)
        stated = m.get("result")
        if stated is not None and m["status"] != "annulled":
            mine = result.stated()
            parts = [k for k in mine if stated.get(k) != mine[k]]
            if parts:
                said = ", ".join(f"{k} {stated.get(k)}" for k in parts)
                got = ", ".join(f"{k} {mine[k]}" for k in parts)
                self.problems.append(f"{self.label(m)}: the file states {said}; its lines give {got}")
        return result

    def paper(self, m: dict) -> Result:
        p = m["paper"]
        try:
            r = plausibility.paper_result(
                p["total_a"], p["total_b"], m["deals"], p["deals_played"], tuppi=p["tuppi"] or None,
                deciding_winner=p["deciding_winner"] or None, overwhelming=self.overwhelming,
            )
        except ScoringError as exc:
            self.problems.append(f"{self.label(m)}: its paper result is not possible: {exc.message}")
            return Result(error=exc.code)
        return Result(
            finished=True, winner=m["pairs"][0] if r.winner == Pair.A else m["pairs"][1], tuppi=r.tuppi,
            totals=(p["total_a"], p["total_b"]), match_points=(r.match_points.a, r.match_points.b),
        )

    def lines(self, m: dict) -> Result:
        entries = [entry(line) for line in m["lines"]]
        try:
            folded, state = engine.sheet(entries, m["deals"], overwhelming=self.overwhelming)
        except ScoringError as exc:
            where = f" line {exc.deal}" if exc.deal else ""
            if not (exc.deal and self._stated_lines(m, entries[: exc.deal - 1])):
                self.problems.append(f"{self.label(m)}{where}: the rules refuse the scoresheet: {exc.message}")
            return Result(error=exc.code)
        self._stated_lines(m, entries, folded)
        winner = None if state.winner is None else m["pairs"][0 if state.winner == Pair.A else 1]
        return Result(
            finished=state.finished, winner=winner, tuppi=state.tuppi, totals=(state.totals.a, state.totals.b),
            match_points=None if state.match_points is None else (state.match_points.a, state.match_points.b),
        )

    def _stated_lines(self, m: dict, entries: list, folded=None) -> bool:
        """Each line's stated points and totals against the engine's (``entries``: the lines that fold);
        the first difference is reported (the lines after it follow from it). True if one differed."""
        if folded is None:
            try:
                folded, _state = engine.sheet(entries, m["deals"], overwhelming=self.overwhelming)
            except ScoringError:
                return False
        for number, (line, got) in enumerate(zip(m["lines"], folded, strict=False), start=1):
            said = line.get("after")
            mine = {"points": got.points, "totals": [got.totals.a, got.totals.b]}
            if said is not None and said != mine:
                self.problems.append(
                    f"{self.label(m)} line {number}: the file states {said['points']} points and totals "
                    f"{said['totals'][0]}–{said['totals'][1]}; the line gives {mine['points']} points and totals "
                    f"{mine['totals'][0]}–{mine['totals'][1]}"
                )
                return True
        return False

    # --- groups ------------------------------------------------------------------------------------

    def tables(self) -> dict[tuple[str, str], list[standings_core.Standing]]:
        """Every Saturday and Sunday group ranked again, checked against the table the file states."""
        out = {}
        for g in self.data["groups"]:
            if g["stage"] not in ("saturday", "sunday"):
                continue
            ranked = self.table(g)
            out[g["stage"], g["name"]] = ranked
            mine = [{"pair": s.pair, "rank": s.rank, "match_points": s.match_points, "totals": s.totals} for s in ranked]
            if g.get("table") is not None and g["table"] != mine:
                self.problems.append(
                    f"group {g['stage']} {g['name']}: the file states the order {_order(g['table'])}; "
                    f"the results give {_order(mine)}"
                )
        return out

    def table(self, g: dict) -> list[standings_core.Standing]:
        members = g["pairs"]
        matches = [(n, m) for n, m in enumerate(self.data["matches"])
                   if m["stage"] == g["stage"] and m["group"] == g["name"] and m["status"] != "annulled"]
        in_play = {p for _n, m in matches for p in m["pairs"]}
        active = [p for p in members if p not in self.withdrawn or p in in_play]
        results = []
        for n, m in matches:
            r = self.results[n]
            if r.finished and r.match_points is not None:
                a, b = m["pairs"]
                results.append(standings_core.MatchResult(
                    a, b, r.winner, {a: r.match_points[0], b: r.match_points[1]}, {a: r.totals[0], b: r.totals[1]}
                ))
        playoffs = [p["order"] for p in self.data["playoffs"] if (p["stage"], p["group"]) == (g["stage"], g["name"])]
        ranked = _rank(active, results, playoffs, self.primary)
        if not all(self.results[n].finished for n, _m in matches):
            ranked = [_no_playoff(s) for s in ranked]
        return ranked

    def sunday_groups(self, tables: dict) -> None:
        """The Sunday groups as the seeding chart gives them from the Saturday tables, or as the last
        seeding correction left them."""
        found = [g["pairs"] for g in self.data["groups"] if g["stage"] == "sunday"]
        if not found:
            return
        corrections = self.data["seeding_corrections"]
        if corrections:
            expected = [list(g) for g in corrections[-1]["after"]]
        else:
            saturday = {name: [s.pair for s in ranked] for (stage, name), ranked in tables.items() if stage == "saturday"}
            try:
                expected = [list(g) for g in sunday.sunday_groups(saturday, len(saturday))]
            except ScoringError as exc:
                self.problems.append(f"the Sunday groups cannot be formed from the Saturday tables: {exc.message}")
                return
        for number, (mine, theirs) in enumerate(zip(expected, found, strict=False), start=1):
            if sorted(mine) != sorted(theirs):
                self.problems.append(
                    f"Sunday group {number}: the file holds pairs {_pairs(theirs)}; the Saturday tables give {_pairs(mine)}"
                )

    def places(self, tables: dict) -> None:
        """The placement matches' places and the final places, against the places the file states."""
        placements = sorted(
            ((n, m) for n, m in enumerate(self.data["matches"]) if m["stage"] == "placement"),
            key=lambda nm: (nm[1]["placement"]["tier"], sunday.ROUNDS.index(nm[1]["placement"]["round"]),
                            nm[1]["placement"]["slot"]),
        )
        core = [
            sunday.PlacementMatch(
                m["placement"]["tier"], m["placement"]["round"], m["placement"]["slot"], m["pairs"][0], m["pairs"][1],
                self.results[n].winner if self.results[n].finished else None,
            )
            for n, m in placements
        ]
        try:
            top = sunday.placement_places(core)
        except ScoringError:
            top = {}
        saturday = [ranked for (stage, _name), ranked in tables.items() if stage == "saturday"]
        mine = _final_places(self.data["event"]["format"], saturday, top, self._finished("saturday"))
        stated = self.data["places"]
        if stated != mine:
            self.problems.append(f"the final places: the file states {_places(stated)}; the results give {_places(mine)}")
        published = self.data["publications"]
        if published and published[-1]["places"] is not None and self.data["event"]["kind"] != "sm_team":
            if published[-1]["places"] != mine:
                self.problems.append(
                    f"the final places: the last published record holds {_places(published[-1]['places'])}; "
                    f"the results give {_places(mine)}"
                )

    def team_places(self) -> None:
        """A team competition's bracket replayed from its seed (over its teams in the file's order, the
        draw's) with each team match's winner from its pair matches' results, and its places, against the
        places the file states."""
        part = self.data["teams"]
        ids = {t["name"]: f"{n:06d}" for n, t in enumerate(part["teams"])}  # sort as text in the file's order
        names = {v: k for k, v in ids.items()}
        index = {_key(m): n for n, m in enumerate(self.data["matches"])}
        bracket = knockout.draw_bracket(list(ids.values()), self.data["draw"]["seed"])
        rows = {(m["round"], m["slot"]): m for m in part["matches"]}
        for number in range(1, bracket.rounds + 1):
            for bm in bracket.round_matches(number):  # the match for third place with the last round's
                row = rows.get((bm.round, bm.slot))
                if not bm.ready or row is None or row["teams"][1] is None:
                    continue
                if [ids[row["teams"][0]], ids[row["teams"][1]]] != [bm.a, bm.b]:
                    continue
                sides = []
                for link in sorted(row["pair_matches"], key=lambda x: x["order"]):
                    n = index[_key(link["match"])]
                    r, pairs = self.results[n], self.data["matches"][n]["pairs"]
                    sides.append(None if not r.finished or r.winner is None else ("a" if r.winner == pairs[0] else "b"))
                side = knockout.team_match_winner(sides)
                if side is not None:
                    bracket = knockout.advance(bracket, bm.round, bm.slot, bm.a if side == "a" else bm.b)
        mine = None
        if bracket.finished:
            found = knockout.bracket_places(bracket)
            mine = sorted(([place, names[t]] for t, place in found.items()), key=lambda p: (p[0], p[1]))
        if part["places"] != mine:
            said = "no places" if part["places"] is None else ", ".join(f"{p}. {t}" for p, t in part["places"])
            got = "no places" if mine is None else ", ".join(f"{p}. {t}" for p, t in mine)
            self.problems.append(f"the team places: the file states {said}; the team matches give {got}")

    def _finished(self, stage: str) -> bool:
        return all(
            self.results[n].finished for n, m in enumerate(self.data["matches"])
            if m["stage"] == stage and m["status"] != "annulled"
        )

    # --- the chain of published records ------------------------------------------------------------

    def chain(self) -> None:
        self.problems += check_chain(self.data)


def _key(ref: dict) -> tuple:
    return (ref["stage"], ref["group"], ref["round"], ref["table"])


def _no_playoff(s: standings_core.Standing) -> standings_core.Standing:
    return replace(s, playoff_required=False) if s.playoff_required else s


def _rank(pairs, results, playoffs, primary) -> list[standings_core.Standing]:
    """A group's order with the recorded play-offs, as the server ranks it (``standings.rank_with_recorded``)."""
    return list(standings_core.rank_with_recorded(pairs, results, playoffs, primary=primary))


def _final_places(fmt: str, saturday: list, top: dict, finished: bool) -> list[list[int]] | None:
    """(place, pair) for every pair, or None until every place is known (as the server's read model)."""
    if not saturday or not finished:
        return None
    rows = [[(s.pair, s.rank, s.match_points, s.totals) for s in ranked] for ranked in saturday]
    try:
        if fmt == "one_stage":
            return [list(p) for p in sunday.one_stage_places(rows)]
        if len(top) < sunday.TOP_PLACES:
            return None
        return [list(p) for p in sunday.final_places(top, [row for group in rows for row in group])]
    except ScoringError:
        return None


def _order(rows: list[dict]) -> str:
    return ", ".join(f"{r['rank']}. pair {r['pair']} ({r['match_points']} mp, {r['totals']})" for r in rows)


def _pairs(numbers) -> str:
    return ", ".join(map(str, sorted(numbers)))


def _places(places) -> str:
    if places is None:
        return "no final places"
    return ", ".join(f"{place}. pair {pair}" for place, pair in places)


def verify(data: object) -> list[str]:
    """What differs in an event file (empty: it agrees with itself); :class:`FileError` when ``data`` is
    not an event file."""
    if not isinstance(data, dict) or data.get("format") != "tuppi-event":
        raise FileError('not an event file: "format" is not "tuppi-event"')
    if data.get("version") != 1:
        raise FileError(f"an event file of version {data.get('version')!r}; this verifier reads version 1")
    try:
        return Verifier(data).run()
    except (KeyError, TypeError, IndexError, AttributeError, ValueError, ArithmeticError, RecursionError) as exc:
        raise FileError(f"the event file is not whole ({type(exc).__name__}: {exc})"[:500]) from exc


def run_file(raw_json: object) -> tuple[int, list[str]]:
    try:
        problems = verify(raw_json)
    except FileError as exc:
        return 2, [str(exc)]
    return (1 if problems else 0), problems
