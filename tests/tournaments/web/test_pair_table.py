"""The organiser's pair list and unpaid fees as tables (issue #28.6): columns declared once with translated
headers, sorted by number, names or club (``?jarjestys=``), each row keeping its own forms; only the event's
organisers see them, sorted or not; a junk sort parameter is no error."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.support.entries_helpers import club, player
from tests.support.results_helpers import table_rows
from tournaments.actions import entries


@pytest.fixture
def event(make_event, organiser):
    event = make_event(name="Sodankylän Joulutuppi", entry_fee=Decimal("10.00"), fee_basis="player")
    event.organisers.add(organiser)
    home, away = club("Sodankylän Tuppikerho", "SoTK"), club("Alavuden Tuppi", "AT")
    names = [("Öhman", "Åke", home), ("Berg", "Bea", away), ("Aalto", "Aino", home)]
    for n, (last, first, where) in enumerate(names):
        entries.create_pair(event, player(first, last, f"M{n}a"), player("Pari", f"Toinen{n}", f"M{n}b"), where)
    return event


def order(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr id="pari-(\d+)"', html)]


def pairs_page(client, event, query: str = "") -> str:
    response = client.get(reverse("organiser:pairs", args=[event.slug]) + query)
    assert response.status_code == 200
    return response.content.decode()


def test_sorted_by_number_names_and_club(logged_in, event):
    assert order(pairs_page(logged_in, event)) == [1, 2, 3]
    assert order(pairs_page(logged_in, event, "?jarjestys=-number")) == [3, 2, 1]
    assert order(pairs_page(logged_in, event, "?jarjestys=names")) == [3, 2, 1]  # Aalto, Berg, Öhman
    by_club = pairs_page(logged_in, event, "?jarjestys=club")
    assert order(by_club)[0] == 2  # Alavuden Tuppi first
    assert '<a href="?jarjestys=-club">Kerho</a>' in by_club


def test_each_row_keeps_its_forms(logged_in, event):
    first = event.pairs.get(number=1)
    logged_in.post(reverse("organiser:pair_withdraw", args=[event.slug, first.pk]))
    html = pairs_page(logged_in, event, "?jarjestys=-number")
    assert '<tr id="pari-1" class="withdrawn">' in html
    assert reverse("organiser:pair_undo_withdraw", args=[event.slug, first.pk]) in html
    for pair in event.pairs.exclude(pk=first.pk):
        assert reverse("organiser:pair_withdraw", args=[event.slug, pair.pk]) in html
        assert f"?vaihda={pair.pk}:1#vaihda" in html
    assert html.count('name="csrfmiddlewaretoken"') >= 3


def test_headers_in_english(logged_in, event):
    logged_in.cookies["django_language"] = "en"
    assert table_rows(pairs_page(logged_in, event), "pair-list")[0] == ["No.", "Pair", "Club", "Actions"]
    html = logged_in.get(reverse("organiser:fees", args=[event.slug])).content.decode()
    assert table_rows(html, "fees-table")[0] == ["No.", "Players", "Club", "Present", "Fee (€)"]


def test_unpaid_fees_sorted(logged_in, event):
    url = reverse("organiser:fees", args=[event.slug])
    rows = table_rows(logged_in.get(url + "?jarjestys=names").content.decode(), "fees-table")
    assert [r[0] for r in rows[1:]] == ["3", "2", "1"]
    assert rows[1][1:] == ["Aino Aalto / Pari Toinen2", "Sodankylän Tuppikerho", "ei", "20"]


@pytest.mark.parametrize("query", ["?jarjestys=junk", "?jarjestys=-", "?jarjestys=actions", "?sivu=x"])
def test_junk_sort_is_no_error(logged_in, event, query):
    assert order(pairs_page(logged_in, event, query)) == [1, 2, 3]
    assert logged_in.get(reverse("organiser:fees", args=[event.slug]) + query).status_code == 200


def test_sorted_lists_for_the_events_organiser_only(client, event, organiser, outsider, make_event):
    make_event().organisers.add(outsider)
    for name in ("organiser:pairs", "organiser:fees"):
        url = reverse(name, args=[event.slug]) + "?jarjestys=names"
        response = client.get(url)
        assert response.status_code == 302 and response.headers["Location"].startswith(reverse("login"))
        client.force_login(outsider)
        assert client.get(url).status_code == 403
        client.force_login(organiser)
        assert client.get(url).status_code == 200
        client.logout()
