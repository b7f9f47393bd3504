"""The archive's lists as django-tables2 tables (issue #28): translated headers, sorting, pagination,
the search kept while sorting and paging, the first column held in view on a phone."""

from __future__ import annotations

import re

import pytest

from registry.models import Club, Player
from tests.cup.builders import club, player


def text(response) -> str:
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def many(db):
    home = club("Äkäslompolon Kerho", "ÄK")
    club("Sodankylän Tuppi", "STu")
    Player.objects.bulk_create(
        Player(first_name="Pelaaja", last_name=f"Kivelä{i:03d}", member_number=str(9000 + i), club=home)
        for i in range(119)
    )
    player("Ilman", "Kerhoa")  # no home club: an empty cell, no link
    return home


def test_the_player_list_is_paginated_and_sorted(client, many):
    first = text(client.get("/pelaajat/"))
    assert "Ilman Kerhoa" in first and "Pelaaja Kivelä000" in first and "Pelaaja Kivelä050" not in first and "sivu 1/3" in first
    third = text(client.get("/pelaajat/", {"sivu": 3}))
    assert "Pelaaja Kivelä118" in third and "Pelaaja Kivelä000" not in third
    backwards = text(client.get("/pelaajat/", {"jarjestys": "-name"}))
    assert backwards.index("Kivelä118") < backwards.index("Kivelä117")


def test_sorting_and_paging_keep_the_search(client, many):
    page = client.get("/pelaajat/", {"q": "kivela", "sivu": 1}).content.decode()
    assert re.search(r'href="\?[^"]*q=kivela[^"]*jarjestys=', page) or re.search(r'href="\?[^"]*jarjestys=[^"]*q=kivela', page)


def test_the_headers_are_translated(client, many):
    assert "Pelaaja Kotikerho Kisoja" in text(client.get("/pelaajat/"))
    client.cookies["django_language"] = "en"
    english = text(client.get("/pelaajat/"))
    assert "Player Home club Events" in english and "Next" in english
    assert "Club Town Players Events organised" in text(client.get("/kerhot/"))


def test_a_wide_table_scrolls_with_its_first_column_in_view(client, many):
    page = client.get("/kerhot/").content.decode()
    assert 'class="table-wrap archive-wrap scroll-shadow"' in page and 'class="archive-table"' in page
    css = client.get("/static/css/site.css")
    body = b"".join(css.streaming_content) if css.streaming else css.content
    assert re.search(rb"\.archive-table td:first-child \{ position: sticky; left: 0;", body)


def test_the_club_list_sorts_by_players(client, many):
    page = text(client.get("/kerhot/", {"jarjestys": "-members"}))
    assert page.index("Äkäslompolon Kerho") < page.index("Sodankylän Tuppi")
    page = text(client.get("/kerhot/", {"jarjestys": "members"}))
    assert page.index("Sodankylän Tuppi") < page.index("Äkäslompolon Kerho")
    assert Club.objects.count() == 2


@pytest.mark.parametrize("query", ["?jarjestys=nonsense", "?jarjestys=-", "?sivu=0", "?sivu=%C3%A4", "?jarjestys=club__name"])
def test_junk_sorting_and_paging_is_no_server_error(client, many, query):
    for url in ("/pelaajat/", "/kerhot/", "/kaudet/"):
        assert client.get(url + query).status_code in (200, 404)
