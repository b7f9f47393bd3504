"""The check-in search: find a pair by name or number on the morning check-in page (the script filters as
one types; without it the form asks the server, which hides the others the same way)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.entries_helpers import add_pairs, club, player
from tournaments.actions import entries


@pytest.fixture
def event(make_event, organiser):
    event = make_event(name="Kemin Kevättuppi")
    event.organisers.add(organiser)
    home = club()
    add_pairs(event, 11, home=home)
    entries.create_pair(event, player("Maija", "Kivelä", "1005", home), player("Aino", "Äijälä", None, home), home)
    return event


def visible_numbers(html: str) -> list[int]:
    rows = re.findall(r'<li id="pari-(\d+)"( hidden)?>', html)
    return [int(number) for number, hidden in rows if not hidden]


def page(client, event, query=None):
    url = reverse("organiser:checkin", args=[event.slug])
    return client.get(url, {"haku": query} if query is not None else {}).content.decode()


def test_every_pair_shown_with_the_search_box(client, event, organiser):
    client.force_login(organiser)
    html = page(client, event)
    assert 'id="checkin-search"' in html and 'data-filter-list="checkin-list"' in html
    assert "js/filter.js" in html
    assert visible_numbers(html) == list(range(1, 13))


@pytest.mark.parametrize(
    "query, numbers",
    [("12", [12]), ("7", [7]), ("kivela", [12]), ("AIJALA maija", [12]), ("sodankylän", list(range(1, 13))),
     ("ei ketään", [])],
)
def test_search_without_the_script(client, event, organiser, query, numbers):
    client.force_login(organiser)
    html = page(client, event, query)
    assert visible_numbers(html) == numbers
    assert 'id="checkin-none" class="empty" hidden' in html if numbers else "Haulla ei löytynyt paria." in html


def test_rows_carry_what_the_script_searches(client, event, organiser):
    client.force_login(organiser)
    html = page(client, event)
    assert '<form data-number="12" data-search="12 maija kivela aino aijala sodankylan tuppikerho"' in html


def test_count_says_how_many_were_found(client, event, organiser):
    client.force_login(organiser)
    assert "1 pari löytyi" in page(client, event, "kivelä")
