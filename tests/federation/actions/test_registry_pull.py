"""Bringing the federation's registry to a venue laptop (issue #27.4): what is missing is created, what
differs is reported and left as it is, nothing twice."""

from __future__ import annotations

import copy
import datetime as dt

import pytest

from federation.actions.registry_pull import Refused, pull
from federation.readmodel.registry import document
from registry.models import Ban, Club, Player, SeasonClub
from tests.support.registry_builders import empty_registry, small_registry

TODAY = dt.date(2026, 12, 3)


@pytest.fixture
def site_document(db):
    small_registry()
    return document(TODAY)


def test_an_empty_laptop_gets_the_whole_registry(site_document):
    empty_registry()
    report = pull(site_document)
    assert document(TODAY) == site_document  # the laptop's registry is now the site's
    assert report.created == {"clubs": 3, "players": 4, "seasons": 1, "season clubs": 1, "transfers": 1, "bans": 1}
    assert report.conflicts == [] and report.linked == []
    assert Ban.objects.get().reason  # the reason is the federation's: the laptop notes where the ban came from


def test_the_same_registry_twice_changes_nothing(site_document):
    empty_registry()
    pull(site_document)
    rows = (Club.objects.count(), Player.objects.count(), SeasonClub.objects.count(), Ban.objects.count())
    again = pull(site_document)
    assert not again.created and not again.conflicts
    assert rows == (Club.objects.count(), Player.objects.count(), SeasonClub.objects.count(), Ban.objects.count())


def test_what_differs_is_reported_and_kept(site_document):
    Player.objects.filter(member_number="1002").update(first_name="Eemeli")
    Club.objects.filter(name="Levin Tuppiseura").update(town="Levi")
    report = pull(site_document)
    assert Player.objects.get(member_number="1002").first_name == "Eemeli"
    assert Club.objects.get(name="Levin Tuppiseura").town == "Levi"
    assert any("1002" in c and "Eemeli" in c and "Eero" in c for c in report.conflicts)
    assert any("Levin Tuppiseura" in c and "Kittilä" in c for c in report.conflicts)
    assert not report.created


def test_a_player_entered_here_without_a_number_gets_the_registrys(site_document):
    empty_registry()
    levi = Club.objects.create(name="Levin Tuppiseura", short_name="LTS", town="Kittilä")
    here = Player.objects.create(first_name="Aino", last_name="Ärväs", club=levi)
    report = pull(site_document)
    here.refresh_from_db()
    assert here.member_number == "1001"
    assert report.linked == ["Aino Ärväs (1001)"]
    assert Player.objects.filter(first_name="Aino", last_name="Ärväs").count() == 1


def test_a_document_naming_what_it_does_not_hold_changes_nothing(site_document):
    empty_registry()
    broken = copy.deepcopy(site_document)
    broken["season_clubs"][0]["club"] = "Olematon Kerho"
    with pytest.raises(Refused, match="Olematon Kerho"):
        pull(broken)
    assert not Club.objects.exists() and not Player.objects.exists()
