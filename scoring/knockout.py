"""The SM team competition's knockout bracket (RULES.md §6), as pure functions on team ids (strings).

A ``Bracket`` is immutable: ``draw_bracket`` makes it once from a recorded seed, ``advance`` returns a new
one with a winner recorded. Rounds are numbered 1 (first) to ``bracket.rounds`` (the final); round r has
``size / 2**r`` matches in slots 1, 2, …; the winner of (r, s) plays in (r + 1, (s + 1) // 2), as its
team ``a`` when s is odd and ``b`` when s is even. The third-place match is slot 2 of the last round.
In round 1, ``None`` for a team means a bye; in later rounds it means "not known yet".
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from scoring.errors import ScoringError, is_whole

THIRD_PLACE_SLOT = 2


def bracket_size(n_teams: int) -> int:
    """The bracket's number of places: the smallest power of two ≥ ``n_teams`` (RULES.md §6)."""
    if not is_whole(n_teams) or n_teams < 2:
        raise ScoringError("team_count", f"a knockout needs at least 2 teams, not {n_teams}", n_teams=n_teams)
    size = 1
    while size < n_teams:
        size *= 2
    return size


def _seed_order(size: int) -> list[int]:
    """Standard seeding positions: seeds 1..size in bracket order, seed s meeting seed size + 1 − s in
    round 1, seeds 1 and 2 in different halves, 1–4 in different quarters, and so on."""
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, mirror - seed)]
    return order


def bye_slots(n_teams: int) -> tuple[int, ...]:
    """The round-1 slots that are byes (RULES.md §6).

    **Decision (RULES.md §6, byes):** the bracket has ``bracket_size(n)`` places and the missing
    ``size − n`` places are byes in round 1. They take the places of the lowest seeds of a standard
    seeded draw (the byes are "seeds" n + 1 … size), i.e. they face seeds 1 … size − n. Standard seeding
    spreads them evenly: in every half, quarter, eighth … the two sub-brackets' bye counts differ by at
    most one, so a round-1 match has at most one bye (there are fewer than size / 2 byes) and two teams
    that had a bye meet in round 2 only when there are more byes than round-2 matches (size / 4). Teams
    themselves are placed at random (``draw_bracket``): there are no seeded teams.
    """
    size = bracket_size(n_teams)
    order = _seed_order(size)
    return tuple(
        slot for slot in range(1, size // 2 + 1) if max(order[2 * slot - 2], order[2 * slot - 1]) > n_teams
    )


@dataclass(frozen=True)
class Match:
    """One knockout match (RULES.md §6). A round-1 bye has one team (``a``) and that team as winner."""

    round: int
    slot: int
    a: str | None
    b: str | None
    winner: str | None = None
    third_place: bool = False

    @property
    def bye(self) -> bool:
        return self.round == 1 and (self.a is None) != (self.b is None)

    @property
    def ready(self) -> bool:
        """Both teams known and no winner yet: the match can be played."""
        return self.a is not None and self.b is not None and self.winner is None

    @property
    def loser(self) -> str | None:
        if self.winner is None or self.bye:
            return None
        return self.b if self.winner == self.a else self.a


@dataclass(frozen=True)
class Bracket:
    """A drawn bracket: the seed it was drawn from, the team ids (sorted), its size and every match
    ordered by round and slot (later-round teams ``None`` until known)."""

    seed: int | str
    teams: tuple[str, ...]
    size: int
    matches: tuple[Match, ...]

    @property
    def rounds(self) -> int:
        return self.size.bit_length() - 1

    def match(self, round: int, slot: int) -> Match:
        for match in self.matches:
            if match.round == round and match.slot == slot:
                return match
        raise ScoringError(
            "match_unknown", f"the bracket has no match in round {round}, slot {slot}", round=round, slot=slot
        )

    def round_matches(self, round: int) -> tuple[Match, ...]:
        """The matches of one round, the third-place match included in the last round."""
        return tuple(m for m in self.matches if m.round == round)

    @property
    def final(self) -> Match:
        return self.match(self.rounds, 1)

    @property
    def third_place(self) -> Match | None:
        """The match for third place between the semifinal losers, or None when there is none (fewer
        than 4 teams)."""
        return next((m for m in self.matches if m.third_place), None)

    @property
    def finished(self) -> bool:
        third = self.third_place
        return self.final.winner is not None and (third is None or third.winner is not None)


def _team_ids(team_ids: Iterable[str]) -> tuple[str, ...]:
    teams = tuple(team_ids)
    for team in teams:
        if not isinstance(team, str) or not team:
            raise ScoringError("team_id", f"a team id must be a non-empty string, not {team!r}", team=team)
    if len(set(teams)) != len(teams):
        twice = sorted({t for t in teams if teams.count(t) > 1})
        raise ScoringError("team_duplicate", f"team {twice[0]} is listed twice", team=twice[0])
    bracket_size(len(teams))
    return tuple(sorted(teams))


def _build(
    seed: int | str,
    teams: tuple[str, ...],
    size: int,
    first_round: Sequence[Match],
    results: dict[tuple[int, int], str],
) -> Bracket:
    """Every match from the drawn round 1 and the recorded winners: each winner moves on as soon as it
    is known, and the semifinal losers meet for third place (RULES.md §6)."""
    rounds = size.bit_length() - 1

    def decided(match: Match) -> Match:
        if match.bye or match.a is None or match.b is None:
            return match
        winner = results.get((match.round, match.slot))
        return replace(match, winner=winner if winner in (match.a, match.b) else None)

    matches = [decided(m) for m in first_round]
    previous = matches
    for round_ in range(2, rounds + 1):
        current = [
            decided(Match(round_, slot, previous[2 * slot - 2].winner, previous[2 * slot - 1].winner))
            for slot in range(1, len(previous) // 2 + 1)
        ]
        matches.extend(current)
        previous = current
    if rounds >= 2:
        semis = [m for m in matches if m.round == rounds - 1]
        # With 3 teams one semifinal is a bye: it has no loser, so there is no third-place match.
        if not any(m.bye for m in semis):
            third = Match(rounds, THIRD_PLACE_SLOT, semis[0].loser, semis[1].loser, third_place=True)
            matches.append(decided(third))
    return Bracket(seed=seed, teams=teams, size=size, matches=tuple(matches))


def draw_bracket(team_ids: Iterable[str], seed: int | str) -> Bracket:
    """Draw the knockout bracket once, reproducibly (RULES.md §6): the ids are sorted, shuffled with
    ``random.Random(seed)`` and placed in round-1 order into the places left by ``bye_slots``
    (a bye's team is ``a``, and wins it at once)."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ScoringError("seed", f"the draw seed must be a whole number or a text, not {seed!r}", seed=seed)
    teams = _team_ids(team_ids)
    size = bracket_size(len(teams))
    byes = set(bye_slots(len(teams)))
    shuffled = list(teams)
    random.Random(seed).shuffle(shuffled)
    queue = iter(shuffled)
    first_round: list[Match] = []
    for slot in range(1, size // 2 + 1):
        a = next(queue)
        if slot in byes:
            first_round.append(Match(1, slot, a, None, winner=a))
        else:
            first_round.append(Match(1, slot, a, next(queue)))
    return _build(seed, teams, size, first_round, {})


def _results(bracket: Bracket) -> dict[tuple[int, int], str]:
    return {(m.round, m.slot): m.winner for m in bracket.matches if m.winner is not None and not m.bye}


def _dependents(bracket: Bracket, match: Match) -> list[Match]:
    """The matches a result feeds: the next round's match, and the third-place match for a semifinal."""
    if match.third_place or match.round == bracket.rounds:
        return []
    found = [bracket.match(match.round + 1, (match.slot + 1) // 2)]
    third = bracket.third_place
    if match.round == bracket.rounds - 1 and third is not None:
        found.append(third)
    return found


def advance(bracket: Bracket, round: int, slot: int, winner: str) -> Bracket:
    """Record the winner of one match and return the new bracket, in which the winner (and, for a
    semifinal, the loser in the third-place match) is placed as soon as it is known (RULES.md §6).

    Recording the same winner again changes nothing; a different winner corrects the result, allowed
    only while the matches it feeds have no result.
    """
    match = bracket.match(round, slot)
    if match.bye:
        raise ScoringError(
            "bye_match",
            f"round {round}, slot {slot} is a bye: {match.a} goes on without a match",
            round=round,
            slot=slot,
        )
    if match.a is None or match.b is None:
        raise ScoringError(
            "match_not_ready",
            f"the teams of round {round}, slot {slot} are not known yet",
            round=round,
            slot=slot,
        )
    if winner not in (match.a, match.b):
        raise ScoringError(
            "winner_not_in_match",
            f"{winner} does not play round {round}, slot {slot} ({match.a} v {match.b})",
            round=round,
            slot=slot,
            winner=winner,
            a=match.a,
            b=match.b,
        )
    if match.winner == winner:
        return bracket
    if match.winner is not None:
        locked = [m for m in _dependents(bracket, match) if m.winner is not None]
        if locked:
            raise ScoringError(
                "result_locked",
                f"round {round}, slot {slot} cannot be changed: round {locked[0].round}, "
                f"slot {locked[0].slot} already has a result",
                round=round,
                slot=slot,
            )
    results = _results(bracket)
    results[(round, slot)] = winner
    first_round = [m for m in bracket.matches if m.round == 1 and not m.third_place]
    first_round = [m if m.bye else replace(m, winner=None) for m in first_round]
    return _build(bracket.seed, bracket.teams, bracket.size, first_round, results)


def bracket_from_results(
    team_ids: Iterable[str], seed: int | str, results: Iterable[tuple[int, int, str]]
) -> Bracket:
    """Redraw the bracket from its recorded seed and replay the recorded (round, slot, winner) results,
    in round order: what the web layer stores is enough to rebuild the bracket."""
    bracket = draw_bracket(team_ids, seed)
    for round_, slot, winner in sorted(results, key=lambda r: (r[0], r[1])):
        bracket = advance(bracket, round_, slot, winner)
    return bracket


def bracket_places(bracket: Bracket) -> dict[str, int]:
    """Final places as far as they are decided (RULES.md §6): 1 and 2 from the final, 3 and 4 from the
    third-place match; a team out before the semifinals shares the place of everyone out in that round,
    1 + the number of teams that reached the next round (e.g. the losers of the quarterfinals are all 5th).
    **Decision (3 teams):** one semifinal is a bye, so there is no third-place match: the loser of the
    only real semifinal is 3rd."""
    places: dict[str, int] = {}
    rounds = bracket.rounds
    third = bracket.third_place
    for match in bracket.matches:
        if match.winner is None or match.bye:
            continue
        if match.third_place:
            places[match.winner], places[match.loser] = 3, 4  # type: ignore[index]
        elif match.round == rounds:
            places[match.winner], places[match.loser] = 1, 2  # type: ignore[index]
        elif match.round == rounds - 1:
            if third is None:
                places[match.loser] = 3  # type: ignore[index]
        else:
            places[match.loser] = bracket.size // 2**match.round + 1  # type: ignore[index]
    return places


def team_match_winner(pair_winners: Sequence[str | None]) -> str | None:
    """The winner of a team match (RULES.md §6, Decision a team match): "a" or "b", whichever team has
    won two of the three pair matches, or None while neither has. ``pair_winners`` lists the pair
    matches' winners so far ("a", "b", or None for one not finished), at most three."""
    if len(pair_winners) > 3:
        raise ScoringError(
            "pair_match_count",
            f"a team match has 3 pair matches, not {len(pair_winners)}",
            got=len(pair_winners),
        )
    for value in pair_winners:
        if value not in ("a", "b", None):
            raise ScoringError(
                "pair_winner", f"a pair match's winner is 'a' or 'b', not {value!r}", value=value
            )
    for team in ("a", "b"):
        if sum(1 for value in pair_winners if value == team) >= 2:
            return team
    return None
