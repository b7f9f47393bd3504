"""The registry as one document (issue #27.4): what a venue laptop brings before the day."""

from __future__ import annotations

import datetime as dt

import pytest

from federation.readmodel.registry import document
from federation.schemas import check_registry
from tests.support.registry_builders import small_registry

TODAY = dt.date(2026, 12, 3)


@pytest.mark.django_db
def test_it_holds_the_registry_and_follows_its_schema():
    small_registry()
    doc = document(TODAY)
    check_registry(doc)
    assert [c["name"] for c in doc["clubs"]] == ["Ivalon Tuppi", "Levin Tuppiseura", "Sodankylän Tuppikerho"]
    assert [p["member_number"] for p in doc["players"]] == ["1001", "1002", "1003", "1004"]
    assert doc["players"][0] == {"member_number": "1001", "first_name": "Aino", "last_name": "Ärväs",
                                 "club": "Levin Tuppiseura"}
    assert doc["players"][3]["club"] is None
    assert doc["seasons"] == [{"start": "2026-08-01", "best_n": 6}]
    assert doc["season_clubs"] == [{"season": "2026-08-01", "member_number": "1001", "club": "Levin Tuppiseura"}]
    assert doc["transfers"] == [{"season": "2026-08-01", "member_number": "1002", "from_club": "Sodankylän Tuppikerho",
                                 "to_club": "Ivalon Tuppi", "confirmed_on": "2026-10-03"}]


@pytest.mark.django_db
def test_public_data_only():
    """A player without a number is nobody's to match; a ban's reason stays with the federation; a ban
    that has ended is not brought."""
    small_registry()
    doc = document(TODAY)
    assert "Pelaaja" not in str(doc)
    assert doc["bans"] == [{"member_number": "1003", "starts_on": "2026-11-01", "ends_on": "2027-04-30",
                            "decision": "Hallituksen päätös 20.10.2026 §3", "decided_on": "2026-10-20"}]
    assert "Häirintä" not in str(doc)
    assert len(document(dt.date(2024, 12, 31))["bans"]) == 2
