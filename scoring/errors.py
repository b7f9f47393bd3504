"""The one exception type the rules engine raises for invalid input."""

from __future__ import annotations


class ScoringError(ValueError):
    """Invalid input to a rules function.

    ``code`` is a stable machine-readable identifier (``"tricks_sum"``, ``"after_end"``…) that the web
    layer maps to a translated message; ``deal`` is the 1-based number of the offending entry, or
    ``None`` when the error is not about one entry; ``values`` holds the numbers involved, so the message
    can say exactly what is wrong. ``str(error)`` is an English message for the command line.
    """

    def __init__(self, code: str, message: str, *, deal: int | None = None, **values: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.deal = deal
        self.values = values

    def to_json(self) -> dict:
        """The error as ``python -m scoring`` prints it (RULES.md §9)."""
        return {"error": self.message, "deal": self.deal}


def is_whole(value: object) -> bool:
    """A whole number: an ``int`` that is not a ``bool`` (``True`` is an int in Python). The one integer
    check of the rules core: every input that must be whole is checked with it."""
    return isinstance(value, int) and not isinstance(value, bool)
