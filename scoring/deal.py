"""One deal (*jako*): its validation and its points (RULES.md §1, and the early-stop rule of §2).

A deal's points depend only on the deal; whether it may have stopped before all 13 tricks (*kasat*)
were played depends on the match state (who is up and how high), so :func:`score_deal` takes the up
pair and its rise and applies the early-stop rule too. Everything here is pure and Django-free.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from scoring.errors import ScoringError, is_whole

TRICKS = 13  # 52 cards, 13 tricks a deal (RULES.md §1)
SEVEN = 7  # the deal's deciding count: the pair with at least seven tricks (RULES.md §1)
TUPPI = 52  # a rise reaching 52 or more is tuppi (RULES.md §2)
NALSYTUPPI_POINTS = 56  # a rami caller's pair with no trick: 8 × (13 − 6) to the robbers (RULES.md §1)


class Pair(StrEnum):
    """A pair: ``A`` sits in seats 1 and 3, ``B`` in seats 2 and 4 (RULES.md §1)."""

    A = "A"
    B = "B"

    @property
    def other(self) -> Pair:
        return Pair.B if self is Pair.A else Pair.A


class Game(StrEnum):
    """The two tournament games (RULES.md §1); *sooli* is never played in tournaments."""

    RAMI = "rami"
    NOLO = "nolo"


def pair_of_seat(seat: int) -> Pair:
    """The pair of a seat: seats 1 and 3 are pair A, seats 2 and 4 pair B (RULES.md §1)."""
    if not is_whole(seat) or seat not in (1, 2, 3, 4):
        raise ScoringError("seat_invalid", f"a seat is 1, 2, 3 or 4, not {seat!r}", seat=seat)
    return Pair.A if seat in (1, 3) else Pair.B


@dataclass(frozen=True, slots=True)
class ByPair:
    """Two integers, one per pair (trick counts, rise totals, match points)."""

    a: int
    b: int

    def __getitem__(self, pair: Pair | str) -> int:
        return self.a if Pair(pair) is Pair.A else self.b

    def replace(self, pair: Pair, value: int) -> ByPair:
        return ByPair(value, self.b) if pair is Pair.A else ByPair(self.a, value)

    def add(self, pair: Pair, value: int) -> ByPair:
        return self.replace(pair, self[pair] + value)

    def to_json(self) -> dict[str, int]:
        return {"A": self.a, "B": self.b}


@dataclass(frozen=True, slots=True)
class Deal:
    """A scoresheet entry for one played deal (RULES.md §1).

    ``caller`` is the *ramaaja*'s pair for rami and ``None`` for nolo. ``penalised`` marks a deal in
    which the referee gave the remaining tricks to the opponents (rules 4.6–4.8, 5.4–5.5, RULES.md §3):
    that penalty only changes the trick counts, which are recorded as awarded, so the flag changes no
    points; it is kept so the scoresheet can show it.
    """

    game: Game
    tricks: ByPair
    caller: Pair | None = None
    penalised: bool = False


@dataclass(frozen=True, slots=True)
class DealResult:
    """A validated deal's outcome: who won it and for how many points (RULES.md §1)."""

    winner: Pair
    points: int
    deciding_tricks: int  # T: the tricks of the pair that took at least seven
    robbed: bool  # a rami won by the defenders (*ryöstö*)
    nalsytuppi: bool  # the caller's pair took no trick of 13: 56 to the robbers
    short: bool  # recorded with fewer than 13 tricks (the early-stop rule of RULES.md §2)


def _check_count(value: object, pair: Pair, entry: int | None) -> int:
    # Trick counts are whole numbers: no floats, strings or booleans (True is an int in Python).
    if not is_whole(value):
        raise ScoringError(
            "tricks_not_integer",
            f"pair {pair}'s trick count must be a whole number, not {value!r}",
            deal=entry,
            pair=str(pair),
            tricks=value,
        )
    if value < 0:
        raise ScoringError(
            "tricks_negative",
            f"pair {pair}'s trick count cannot be negative ({value})",
            deal=entry,
            pair=str(pair),
            tricks=value,
        )
    return value


def deal_points(game: Game, caller: Pair | None, tricks: ByPair) -> tuple[Pair, int, bool, int]:
    """Winner, points, robbery flag and T of a deal where one pair holds at least 7 tricks (RULES.md §1).

    T = the tricks of the pair with at least seven. Rami made: 4 × (T − 6) to the caller's pair; rami
    robbed (*ryöstö*): 8 × (T − 6) to the defenders; nolo: 4 × (T − 6) to the pair with fewer tricks.
    The nolo formula is RULES.md's, stated on the loser's count T; the seeds' "4 per trick under
    seven" on the winner's count is the same number whenever all 13 tricks are played.
    """
    holder = Pair.A if tricks.a >= SEVEN else Pair.B
    t = tricks[holder]
    if game is Game.NOLO:
        return holder.other, 4 * (t - 6), False, t
    if holder is caller:
        return holder, 4 * (t - 6), False, t
    return holder, 8 * (t - 6), True, t


def score_deal(deal: Deal, up: Pair | None = None, rise: int = 0, *, entry: int | None = None) -> DealResult:
    """Validate one deal against the match state before it and score it (RULES.md §1 and §2).

    ``up``/``rise`` are the pair up and its rise before the deal (``None``/0 at the table); they
    matter only for a deal recorded with fewer than 13 tricks. ``entry`` is the 1-based entry number
    put on any :class:`ScoringError`.
    """
    game = _as_game(deal.game, entry)
    up = None if up is None else as_pair(up, "up", entry)
    caller = deal.caller
    if game is Game.RAMI:
        if caller is None:
            raise ScoringError("caller_missing", "a rami needs the caller's pair (A or B)", deal=entry)
        caller = as_pair(caller, "caller", entry)
    elif caller is not None:
        # Decision (ours): a nolo has no caller. RULES.md §1: the ramaaja is the first player who shows
        # red, and a nolo means nobody did, so a caller on a nolo is a recording mistake and refused.
        raise ScoringError(
            "caller_for_nolo", "a nolo has no caller; leave the caller out", deal=entry, caller=str(caller)
        )
    if not isinstance(deal.penalised, bool):
        raise ScoringError(
            "penalised_invalid", f"'penalised' must be true or false, not {deal.penalised!r}", deal=entry
        )
    if not isinstance(deal.tricks, ByPair):
        raise ScoringError("tricks_invalid", "tricks must give a count for pair A and pair B", deal=entry)
    a = _check_count(deal.tricks.a, Pair.A, entry)
    b = _check_count(deal.tricks.b, Pair.B, entry)
    total = a + b
    if total > TRICKS:
        raise ScoringError(
            "tricks_over_13",
            f"trick counts add up to {total}; a deal has only {TRICKS} tricks",
            deal=entry,
            total=total,
            A=a,
            B=b,
        )
    tricks = ByPair(a, b)
    if a < SEVEN and b < SEVEN:
        # Only possible with fewer than 13 tricks. RULES.md §2: an early stop needs one pair at seven.
        raise ScoringError(
            "short_deal_no_seven",
            f"a deal with {total} tricks can stop early only once one pair holds 7 tricks",
            deal=entry,
            total=total,
            A=a,
            B=b,
        )
    winner, points, robbed, t = deal_points(game, caller, tricks)
    short = total < TRICKS
    if short:
        # RULES.md §2, early stop: fewer than 13 tricks only when (a) the deal makes the up pair fall
        # (rule 6.5), or (b) the points so far already bring the winner's rise to 52 (tuppi).
        falls = up is not None and winner is not up
        reaches_tuppi = (rise if winner is up else 0) + points >= TUPPI
        if not (falls or reaches_tuppi):
            raise ScoringError(
                "short_deal_not_allowed",
                f"a deal with {total} tricks is only allowed when it makes the up pair fall or ends in tuppi",
                deal=entry,
                total=total,
                A=a,
                B=b,
                winner=str(winner),
                up=None if up is None else str(up),
                rise=rise,
            )
    # Nälsytuppi (RULES.md §1): the caller's pair took none of the 13 tricks; 8 × (13 − 6) = 56.
    # Decision (ours): a short deal is never a nälsytuppi; its points come from the tricks taken so far.
    nalsytuppi = robbed and not short and tricks[caller] == 0
    return DealResult(winner, points, t, robbed, nalsytuppi, short)


def _as_game(value: object, entry: int | None) -> Game:
    try:
        return Game(value)
    except ValueError:
        raise ScoringError(
            "game_unknown", f"unknown game {value!r}: a deal is 'rami' or 'nolo'", deal=entry, game=value
        ) from None


def as_pair(value: object, field: str, entry: int | None) -> Pair:
    """``value`` as pair A or B, or code ``pair_invalid`` naming the field and the entry."""
    try:
        return Pair(value)
    except ValueError:
        raise ScoringError(
            "pair_invalid",
            f"{field} must be pair 'A' or 'B', not {value!r}",
            deal=entry,
            field=field,
            value=value,
        ) from None
