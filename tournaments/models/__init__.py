"""The event's facts (``event``: events, pairs, groups and matches; ``records``: what happened at them).
Django finds the models here; every module imports them from ``tournaments.models``."""

from tournaments.models.council import Appeal, Exclusion, Ruling
from tournaments.models.event import (
    STATUS_LABELS,
    Event,
    Group,
    GroupEntry,
    Match,
    Pair,
    PairMember,
    Stage,
    event_status,
    new_token,
    unique_event_slug,
)
from tournaments.models.records import (
    DrawSwap,
    Entry,
    HandledLine,
    MatchSubstitute,
    PaperResult,
    Playoff,
    Publication,
    ResultChange,
    SeedingCorrection,
    Withdrawal,
)

__all__ = [
    "STATUS_LABELS", "Appeal", "DrawSwap", "Entry", "Event", "Exclusion", "Group", "GroupEntry", "HandledLine", "Match", "MatchSubstitute", "PaperResult",
    "Pair", "PairMember", "Playoff", "Publication", "ResultChange", "Ruling", "SeedingCorrection", "Stage", "Withdrawal",
    "event_status", "new_token", "unique_event_slug",
]
