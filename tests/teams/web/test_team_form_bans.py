"""The team form with a banned player (issue #29): the ban's end is named next to his slot, what was
chosen is kept, and nothing is saved; the substitute page refuses him with the same words."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from registry.models import Ban
from teams.models import Team
from tests.support.results_helpers import page_messages
from tests.teams.builders import club, drawn_event, players, team_event

REFUSAL = "Pelaajalla on pelikielto 31.12.2027 asti."


def ban(who):
    Ban.objects.create(
        player=who, starts_on=dt.date(2026, 12, 1), ends_on=dt.date(2027, 12, 31), reason="Häiriköinti",
        decision="Hallituksen päätös 1.12.2026 §4", decided_on=dt.date(2026, 12, 1),
    )


@pytest.mark.django_db
def test_a_banned_player_is_named_next_to_his_slot(client, make_event, organiser):
    event = team_event(make_event, organiser)
    home = club("Kemin Kasat")
    p = players(6, home)
    ban(p[3])
    client.force_login(organiser)
    data = {"name": "Kasat", "club": home.pk, "leader_name": "Liisa"}
    for i, slot in enumerate(f"pair{k}_player{n}" for k in (1, 2, 3) for n in (1, 2)):
        data[slot], data[f"{slot}_q"] = p[i].pk, p[i].last_name
    response = client.post(reverse("teams_organiser:team_new", args=[event.slug]), data)
    html = response.content.decode()
    assert response.status_code == 200 and not Team.objects.exists()
    slot = html[html.index('id="id_pair2_player2_q"') : html.index('id="pair2_player2-results"')]
    assert REFUSAL in slot and html.count(REFUSAL) == 1
    assert f'value="{p[3].last_name}"' in slot


@pytest.mark.django_db
def test_the_substitute_page_refuses_a_banned_player(client, make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 4)
    (sub,) = players(1)
    ban(sub)
    client.force_login(organiser)
    response = client.post(
        reverse("teams_organiser:substitute", args=[event.slug, teams[0].pk]), {"player": sub.pk}, follow=True
    )
    assert f"Pelaajalla {sub.full_name} on pelikielto 31.12.2027 asti." in page_messages(response.content.decode())
    assert Team.objects.get(pk=teams[0].pk).substitute is None


@pytest.mark.django_db
def test_the_player_search_shows_a_banned_player_who_cannot_be_chosen(client, make_event, organiser):
    event = team_event(make_event, organiser)
    (who,) = players(1, club("Kemin Kasat"))
    client.force_login(organiser)
    search = reverse("teams_organiser:player_search", args=[event.slug])
    html = client.get(search, {"slot": "substitute", "substitute_q": who.last_name}).content.decode()
    assert "pelikielto" not in html and f'value="{who.pk}" disabled' not in html
    ban(who)
    html = client.get(search, {"slot": "substitute", "substitute_q": who.last_name}).content.decode()
    assert "pelikielto 31.12.2027 asti" in html and f'value="{who.pk}" disabled' in html
