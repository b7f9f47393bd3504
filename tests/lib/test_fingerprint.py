"""The digest that names what a page shows: equal only for equal values, in any process."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from dataclasses import dataclass
from decimal import Decimal

import pytest

from lib.fingerprint import canonical, digest


@dataclass(frozen=True)
class Club:
    pk: int
    name: str


@dataclass(frozen=True)
class Pair:
    number: int
    club: Club
    players: tuple[str, ...]


class Snapshot:
    fingerprint_identity = "snap:7.1700000000.000000:42:winner_total.match_points"


def pair(**changes):
    fields = {"number": 1, "club": Club(3, "Kemin Kasa"), "players": ("Aho", "Kivelä")}
    return Pair(**{**fields, **changes})


@pytest.mark.parametrize(
    "changed",
    [
        pair(number=2),
        pair(club=Club(3, "Kemin Kasa ry")),  # a club renamed: the digest of every page showing it moves
        pair(club=Club(4, "Kemin Kasa")),
        pair(players=("Aho", "Kivela")),
        pair(players=("Kivelä", "Aho")),
    ],
)
def test_any_changed_part_changes_the_digest(changed):
    assert digest(pair()) == digest(pair())
    assert digest(changed) != digest(pair())


def test_kinds_of_values_are_told_apart():
    values = [1, "1", 1.0, True, Decimal("1"), (1,), [1], {1}, {1: 1}, None, "None", dt.date(2026, 1, 1)]
    assert len({digest(v) for v in values}) == len(values)


def test_mappings_and_sets_do_not_depend_on_their_order():
    assert digest({"a": 1, "b": 2}) == digest({"b": 2, "a": 1})
    assert digest({3, 1, 2}) == digest({2, 3, 1})
    assert digest({"a": 1, "b": 2}) != digest({"a": 2, "b": 1})


def test_an_object_seen_twice_is_said_once_and_sharing_is_not_equality():
    shared = pair()
    assert digest([shared, shared]) == digest([shared, shared])
    assert digest([shared, shared]) != digest([shared, pair(number=2)])
    assert "Kivelä" in canonical([shared, shared]) and canonical([shared, shared]).count("Kivelä") == 1


def test_a_source_stands_for_itself_by_its_identity():
    assert canonical({"snap": Snapshot()}) == "{s'snap':ISnapshot:" + Snapshot.fingerprint_identity + ",}"


def test_a_model_row_stands_for_its_columns(db):
    from registry.models import Club as ClubRow

    club = ClubRow.objects.create(name="Kemin Kasa", short_name="KK")
    before = digest(club)
    club.name = "Kemin Kasa ry"
    assert digest(club) != before


def test_other_objects_are_refused():
    with pytest.raises(TypeError, match="not a plain value"):
        digest(object())


@pytest.mark.slow
def test_the_same_in_another_process():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tuppiliitto.settings_test'; django.setup();"
        "from lib.fingerprint import digest; import datetime as dt;"
        "print(digest({'b': [1, 2.5, 'ä'], 'a': dt.date(2026, 12, 12)}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == digest({"a": dt.date(2026, 12, 12), "b": [1, 2.5, "ä"]})
