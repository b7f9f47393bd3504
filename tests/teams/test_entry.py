"""Entering and editing a team (issue #14): the clubs players represent this season decide who is a
reinforcement (RULES.md §7, not the registry's home club), a team is edited until the draw with the same
rules as a new one, and an edited player keeps the pair (its number) rather than leaving an orphan."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from registry.clubs import represented_clubs
from registry.models import Player, SeasonClub, Transfer
from teams.actions import rosters
from teams.models import Team, TeamPair
from tests.support.results_helpers import page_messages
from tests.teams.builders import add_team, club, drawn_event, players, team_event
from tournaments.actions import entries
from tournaments.models import Pair, PairMember


def pairs_of(team: Team) -> list[Pair]:
    return [tp.pair for tp in TeamPair.objects.filter(team=team).select_related("pair").order_by("number")]


def names(pair: Pair) -> list[str]:
    return [p.full_name for p in pair.players]


def test_the_season_club_not_the_home_club_decides_a_reinforcement(make_event):
    event = team_event(make_event)
    home, other = club("Koti"), club("Muu")
    (a, b) = players(2, other)  # registered at another club, but this season they play for home
    for player in (a, b):
        SeasonClub.objects.create(season=event.season, player=player, club=home)
    assert rosters.default_pair_club(home, a, b, event.season) == home
    (c, d) = players(2, home)  # registered at home, but represent another club this season
    for player in (c, d):
        SeasonClub.objects.create(season=event.season, player=player, club=other)
    assert rosters.default_pair_club(home, c, d, event.season) == other


def test_a_confirmed_transfer_counts_from_its_day(make_event):
    event = team_event(make_event)
    home, other = club("Koti"), club("Muu")
    (a, b) = players(2, other)
    for player in (a, b):
        SeasonClub.objects.create(season=event.season, player=player, club=other)
    Transfer.objects.create(season=event.season, player=a, from_club=other, to_club=home, confirmed_on=event.starts_on)
    assert represented_clubs(event.season, [a, b], event.starts_on) == {a.pk: home, b.pk: other}
    earlier = event.starts_on - dt.timedelta(days=1)
    assert represented_clubs(event.season, [a, b], earlier) == {a.pk: other, b.pk: other}
    assert rosters.default_pair_club(home, a, b, event.season, event.starts_on) == home


def test_editing_a_player_keeps_the_pair(make_event):
    event = team_event(make_event)
    team = add_team(event, "Kasat")
    first, second, third = pairs_of(team)
    (new,) = players(1, team.club)
    keep = first.players[0]
    rosters.update_team(
        team, club=team.club, name="Kemin Kasat", leader_name="Uusi Johtaja",
        pairs=[rosters.NewPair(keep, new), second, third],
    )
    team.refresh_from_db()
    assert (team.name, team.leader_name) == ("Kemin Kasat", "Uusi Johtaja")
    after = pairs_of(team)
    assert after[0].pk == first.pk and after[0].number == first.number  # the same pair, one player changed
    assert names(after[0]) == [keep.full_name, new.full_name]
    assert [p.pk for p in after[1:]] == [second.pk, third.pk]
    assert Pair.objects.filter(event=event).count() == 3


def test_players_swapped_between_two_pairs(make_event):
    event = team_event(make_event)
    team = add_team(event, "Kasat")
    first, second, third = pairs_of(team)
    (a, b), (c, d) = first.players, second.players
    rosters.update_team(
        team, club=team.club, name=team.name, leader_name=team.leader_name,
        pairs=[rosters.NewPair(a, c), rosters.NewPair(b, d), third],
    )
    after = pairs_of(team)
    assert {after[0].pk, after[1].pk} == {first.pk, second.pk}
    assert names(after[0]) == [a.full_name, c.full_name] and names(after[1]) == [b.full_name, d.full_name]
    assert PairMember.objects.filter(event=event).count() == 6


def test_a_given_up_pair_stays_entered_and_free(make_event):
    event = team_event(make_event)
    team = add_team(event, "Kasat")
    first, second, third = pairs_of(team)
    free = entries.create_pair(event, *players(2, team.club), team.club)
    rosters.update_team(team, club=team.club, name=team.name, leader_name=team.leader_name, pairs=[free, second, third])
    assert [p.pk for p in pairs_of(team)] == [free.pk, second.pk, third.pk]
    assert not TeamPair.objects.filter(pair=first).exists() and Pair.objects.filter(pk=first.pk).exists()


def test_editing_refuses_what_a_new_team_refuses_and_saves_nothing(make_event):
    event = team_event(make_event)
    team = add_team(event, "Kasat")
    other = add_team(event, "Nousu")
    first, second, third = pairs_of(team)
    before = [p.pk for p in pairs_of(team)]
    refusals = {
        "name_taken": dict(name="nousu", pairs=[first, second, third]),
        "pair_taken": dict(name=team.name, pairs=[pairs_of(other)[0], second, third]),
        "player_twice": dict(name=team.name, pairs=[rosters.NewPair(second.players[0], players(1)[0]), second, third]),
        "already_entered": dict(
            name=team.name, pairs=[rosters.NewPair(pairs_of(other)[1].players[0], players(1)[0]), second, third]
        ),
    }
    for code, fields in refusals.items():
        with pytest.raises(ValidationError) as refused:
            rosters.update_team(team, club=team.club, leader_name=team.leader_name, **fields)
        assert refused.value.code == code, code
        assert [p.pk for p in pairs_of(team)] == before, code
        assert names(first) == [p.full_name for p in first.players]


def test_a_team_is_fixed_once_drawn(make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 2)
    team = teams[0]
    with pytest.raises(ValidationError) as refused:
        rosters.update_team(team, club=team.club, name="Uusi", leader_name="X", pairs=pairs_of(team))
    assert refused.value.code == "drawn"
    assert Team.objects.get(pk=team.pk).name == team.name


# --- the pages -------------------------------------------------------------------------------------------


def search(client, event, slot, query, **extra):
    url = reverse("teams_organiser:player_search", args=[event.slug])
    return client.get(url, {"slot": slot, f"{slot}_q": query, **extra})


def test_the_search_finds_players_as_typed_with_their_season_club(client, make_event, organiser):
    event = team_event(make_event, organiser)
    home, other = club("Kemin Kasat"), club("Oulun Tuppi")
    kivela = Player.objects.create(first_name="Aino", last_name="Kivelä", member_number="4711", club=other)
    SeasonClub.objects.create(season=event.season, player=kivela, club=home)
    client.force_login(organiser)
    html = search(client, event, "pair1_player1", "kivela").content.decode()
    assert "Aino Kivelä" in html and "kaudella: Kemin Kasat" in html and "Oulun Tuppi" not in html
    assert 'name="pair1_player1"' in html and f'value="{kivela.pk}"' in html
    team = add_team(event, "Nousu")
    taken = pairs_of(team)[0].players[0]
    html = search(client, event, "pair2_player1", taken.last_name).content.decode()
    assert "jo mukana: joukkue Nousu, pari 1" in html
    assert re.search(rf'value="{taken.pk}"[^>]*disabled', html)  # in another team: not choosable
    html = search(client, event, "pair2_player1", taken.last_name, joukkue=team.pk).content.decode()
    assert not re.search(rf'value="{taken.pk}"[^>]*disabled', html)  # editing that team: it is its own
    assert search(client, event, "nonsense", "kivela").status_code == 404


def test_a_team_entered_through_the_searches(client, make_event, organiser):
    event = team_event(make_event, organiser)
    home = club("Kemin Kasat")
    p = players(6, home)
    client.force_login(organiser)
    url = reverse("teams_organiser:team_new", args=[event.slug])
    data = {"name": "Kasat", "club": home.pk, "leader_name": "Liisa Johtaja"}
    for i, slot in enumerate(f"pair{k}_player{n}" for k in (1, 2, 3) for n in (1, 2)):
        data[f"{slot}_q"] = p[i].last_name
    # without JavaScript: "Hae" shows every slot's results, saves nothing and keeps what was typed
    response = client.post(url, {**data, "search": "pair1_player1"})
    html = response.content.decode()
    assert response.status_code == 200 and not Team.objects.exists()
    assert f'value="{p[0].last_name}"' in html and 'value="Kasat"' in html
    assert all(f'name="pair{k}_player{n}" value="{p[i].pk}"' in html for i, (k, n) in enumerate(
        (k, n) for k in (1, 2, 3) for n in (1, 2)))
    for i, slot in enumerate(f"pair{k}_player{n}" for k in (1, 2, 3) for n in (1, 2)):
        data[slot] = p[i].pk
    response = client.post(url, data)
    assert response.status_code == 302
    team = Team.objects.get(event=event, name="Kasat")
    assert [names(pair) for pair in pairs_of(team)] == [
        [p[0].full_name, p[1].full_name], [p[2].full_name, p[3].full_name], [p[4].full_name, p[5].full_name]
    ]


def test_a_wrong_player_is_named_next_to_its_slot_and_the_typing_kept(client, make_event, organiser):
    event = team_event(make_event, organiser)
    home = club("Kemin Kasat")
    p = players(6, home)
    client.force_login(organiser)
    data = {"name": "Kasat", "club": home.pk, "leader_name": "Liisa"}
    for i, slot in enumerate(f"pair{k}_player{n}" for k in (1, 2, 3) for n in (1, 2)):
        data[slot] = p[i].pk
    data["pair3_player2"], data["pair3_player2_q"] = 987654, "Virtane"
    response = client.post(reverse("teams_organiser:team_new", args=[event.slug]), data)
    html = response.content.decode()
    assert response.status_code == 200 and not Team.objects.exists()
    assert "Pelaajaa ei löydy: hae ja valitse pelaaja uudelleen." in html and 'value="Virtane"' in html


def test_editing_a_team_through_its_page(client, make_event, organiser):
    event = team_event(make_event, organiser)
    team = add_team(event, "Kasat")
    first, second, third = pairs_of(team)
    client.force_login(organiser)
    url = reverse("teams_organiser:team_edit", args=[event.slug, team.pk])
    assert f'href="{url}"' in client.get(reverse("teams_organiser:team", args=[event.slug, team.pk])).content.decode()
    html = client.get(url).content.decode()
    assert 'value="Kasat"' in html and f'<option value="{first.pk}" selected>' in html
    (new,) = players(1, team.club)
    data = {
        "name": "Kasat", "club": team.club_id, "leader_name": "Uusi Johtaja",
        "pair1_player1": first.players[0].pk, "pair1_player2": new.pk, "pair2": second.pk, "pair3": third.pk,
    }
    response = client.post(url, data)
    assert response.status_code == 302, page_messages(response.content.decode())
    assert names(pairs_of(team)[0]) == [first.players[0].full_name, new.full_name]
    assert Team.objects.get(pk=team.pk).leader_name == "Uusi Johtaja"


def test_no_editing_after_the_draw(client, make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 2)
    client.force_login(organiser)
    response = client.post(reverse("teams_organiser:team_edit", args=[event.slug, teams[0].pk]), {"name": "X"}, follow=True)
    assert "Kaavio on jo arvottu: joukkuetta ei voi enää muokata (varamiehen voi)." in page_messages(response.content.decode())
    assert Team.objects.get(pk=teams[0].pk).name == teams[0].name
    response = client.get(reverse("teams_organiser:team_new", args=[event.slug]), follow=True)
    assert "Kaavio on jo arvottu: joukkueita ei voi enää lisätä." in page_messages(response.content.decode())


def test_only_the_events_organisers(client, make_event, organiser, outsider):
    event = team_event(make_event, organiser)
    team = add_team(event, "Kasat")
    urls = [
        reverse("teams_organiser:team_new", args=[event.slug]),
        reverse("teams_organiser:team_edit", args=[event.slug, team.pk]),
        reverse("teams_organiser:player_search", args=[event.slug]) + "?slot=substitute&substitute_q=Suku",
    ]
    for url in urls:
        client.logout()
        assert client.get(url).status_code == 302, url  # to the login page
        client.force_login(outsider)
        assert client.get(url).status_code == 403, url
        assert client.post(url, {"name": "Kaapattu"}).status_code == 403, url
        client.force_login(organiser)
        assert client.get(url).status_code == 200, url
    assert Team.objects.get(pk=team.pk).name == "Kasat"
