"""Issue #25 point 4: the results list and the club fine agree on whether an event is a cup event. An event
is one when its season's cup counts it (RULES.md §8: cup events are approved by the federation each
season; ``cup.fines``), whatever kind its organiser chose: the list says whether it counts and prints cup
points only when it does, and a forfeit fines the club only then."""

from __future__ import annotations

import subprocess
from decimal import Decimal

import pytest
from django.urls import reverse

from cup.models import ClubFine, CupEvent
from tests.support.results_helpers import one_group_event
from tournaments import extensions
from tournaments.actions import results as result_actions
from tournaments.models import Event, Match


def text_of(pdf: bytes) -> str:
    found = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    return " ".join(found.decode().split())


@pytest.fixture
def cup_kind(make_event, organiser):
    """An event of kind "cupin osakilpailu" that the season's cup does not (yet) count."""
    event, _group, _pairs = one_group_event(make_event, organiser, 4, kind=Event.Kind.CUP)
    return event


def forfeit(match: Match, side: str = "A") -> Match:
    return result_actions.add_entry(match, result_actions.EntryData(kind="forfeit", pair=side), version=None,
                              actor=result_actions.Actor())


def test_an_event_not_counted_says_so_once_and_prints_no_cup_column(client, cup_kind):
    text = text_of(client.get(reverse("results_pdf", args=[cup_kind.slug])).content)
    assert "cupin osakilpailu · ei lasketa kauden cupiin" in text
    assert "Kisaa ei lasketa kauden cupiin: cup-pisteitä ei jaeta." in text
    assert "Cup-pisteet" not in text and "lasketaan kauden cupiin" not in text.replace("ei lasketa", "")


def test_a_counted_event_says_so_and_prints_the_cup_column(client, cup_kind):
    CupEvent.objects.create(event=cup_kind, weight=1)
    text = text_of(client.get(reverse("results_pdf", args=[cup_kind.slug])).content)
    assert "cupin osakilpailu · lasketaan kauden cupiin" in text and "Cup-pisteet / pelaaja" in text
    assert "ei lasketa" not in text


def test_a_forfeit_fines_the_club_only_in_an_event_the_cup_counts(cup_kind):
    match = forfeit(Match.objects.filter(event=cup_kind).order_by("round", "table").first())
    assert not ClubFine.objects.exists() and extensions.forfeit_fine(cup_kind) is None
    counted = CupEvent.objects.create(event=cup_kind, weight=1)  # the staff count the event afterwards
    fine = ClubFine.objects.get()
    assert (fine.match, fine.club, fine.amount) == (match, match.pair_a.club, Decimal("50.00"))
    assert extensions.forfeit_fine(cup_kind) == Decimal("50.00")
    counted.delete()  # and stop counting it: the unpaid fine goes
    assert not ClubFine.objects.exists()
