"""The player search behind the add-pair form: players matching ``q`` by name or member number."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.entries_helpers import club, player
from tournaments.actions import entries


def search_url() -> str:
    return reverse("organiser:player_search")


@pytest.fixture
def event(make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    return event


@pytest.fixture
def players(db):
    sotk = club()
    return {
        "maija": player("Maija", "Kivelä", "1005", sotk),
        "kauko": player("Kauko", "Tuomela", "1006", sotk),
        "aino": player("Aino", "Äijälä", "2345", sotk),
        "pekka": player("Pekka", "Kivinen", None, None),
    }


@pytest.fixture
def logged_in(client, organiser, event):
    client.force_login(organiser)
    return client


def names(response) -> str:
    return response.content.decode()


def test_needs_an_organiser_of_some_event(client, organiser, event, django_user_model, players):
    client.force_login(organiser)
    assert client.get(search_url(), {"q": "kivelä"}).status_code == 200
    nobody = django_user_model.objects.create_user("katsoja", password="salasana-4")
    client.force_login(nobody)
    assert client.get(search_url(), {"q": "kivelä"}).status_code == 403
    staff = django_user_model.objects.create_user("liitto", password="salasana-5", is_superuser=True)
    client.force_login(staff)
    assert "Maija Kivelä" in names(client.get(search_url(), {"q": "kivelä"}))
    client.logout()
    response = client.get(search_url(), {"q": "kivelä"})
    assert response.status_code == 302
    assert response.headers["Location"].startswith(reverse("login"))


def test_outsider_organising_another_event_may_search(client, outsider, make_event, players):
    """The search is not about one event: any organiser may look up the register."""
    make_event().organisers.add(outsider)
    client.force_login(outsider)
    assert "Maija Kivelä" in names(client.get(search_url(), {"q": "Maija"}))


def test_matches_last_name_first_name_and_member_number(logged_in, players):
    html = names(logged_in.get(search_url(), {"q": "kiv"}))
    assert "Maija Kivelä" in html and "Pekka Kivinen" in html
    assert "Kauko Tuomela" not in html
    assert "Kauko Tuomela" in names(logged_in.get(search_url(), {"q": "kauko"}))
    html = names(logged_in.get(search_url(), {"q": "1006"}))
    assert "Kauko Tuomela" in html and "Maija Kivelä" not in html


def test_every_word_must_match(logged_in, players):
    html = names(logged_in.get(search_url(), {"q": "pekka kiv"}))
    assert "Pekka Kivinen" in html and "Maija Kivelä" not in html


def test_scandinavian_letters_ignore_case(logged_in, players):
    assert "Aino Äijälä" in names(logged_in.get(search_url(), {"q": "äijä"}))
    assert "Aino Äijälä" in names(logged_in.get(search_url(), {"q": "ÄIJÄLÄ"}))


def test_short_query_gives_nothing(logged_in, players):
    html = names(logged_in.get(search_url(), {"q": "k"}))
    assert "Kivelä" not in html and "Ei pelaajia" not in html


def test_no_match_says_so(logged_in, players):
    assert "Ei pelaajia haulla ”Virtanen”" in names(logged_in.get(search_url(), {"q": "Virtanen"}))


def test_at_most_fifteen(logged_in, db):
    for i in range(20):
        player(f"Etu{i}", "Mäkinen", f"3{i:03d}")
    html = names(logged_in.get(search_url(), {"q": "mäkinen"}))
    assert html.count("Mäkinen</strong>") == 15
    assert "tarkenna hakua" in html


def test_slot_gives_radio_buttons_for_that_player(logged_in, players):
    html = names(logged_in.get(search_url(), {"p2-q": "kivelä", "slot": "2"}))
    assert f'name="p2-player" value="{players["maija"].pk}"' in html
    assert 'name="p1-player"' not in html
    assert "<html" not in html  # a fragment, not a page


def test_players_already_in_the_event_are_marked_and_cannot_be_picked(logged_in, event, players):
    sotk = players["maija"].club
    pair = entries.create_pair(event, players["maija"], players["kauko"], sotk)
    html = names(logged_in.get(search_url(), {"q": "kiv", "slot": "1", "kisa": event.slug}))
    assert f"jo parissa {pair.number}" in html
    assert f'value="{players["maija"].pk}" disabled' in html
    assert f'value="{players["pekka"].pk}" disabled' not in html


def test_queries_are_few(logged_in, event, players, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        logged_in.get(search_url(), {"q": "kiv", "slot": "1", "kisa": event.slug})
