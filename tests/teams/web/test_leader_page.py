"""The team leader's secret link ``/joukkue/<token>/``: the next match, declaring the order (hidden from
the other team until both have declared, locked from then on and once the match starts, refused for a
match the token's team does not play), naming the substitute; a wrong token is not found."""

from __future__ import annotations

import pytest
from django.urls import reverse

from teams.models import Team, TeamOrder
from tests.support.results_helpers import page_messages
from tests.teams.builders import add_team, drawn_event, play, players, row, start, team_event


def url(team: Team) -> str:
    return reverse("teams:leader", args=[team.token])


def order_post(r, team: Team, numbers=(1, 2, 3), **extra) -> dict:
    by_number = {tp.number: tp.pair_id for tp in team.team_pairs.all()}
    data = {
        "match": r.pk,
        **{f"order{k}": by_number[n] for k, n in enumerate(numbers, 1)},
        "sure": "1",  # the leader ticked that the order is checked
    }
    data.update(extra)
    return data


def pair_names(team: Team) -> list[str]:
    return [tp.pair.full_name for tp in team.team_pairs.all()]


@pytest.fixture
def final(make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 2)
    r = row(event, 1, 1)
    return event, r, r.team_a, r.team_b


def test_wrong_token_is_not_found(client, final):
    assert client.get(reverse("teams:leader", args=["ei-tallainen-linkki"])).status_code == 404


def test_page_before_the_draw(client, make_event):
    event = team_event(make_event)
    team = add_team(event, "Kasat")
    html = client.get(url(team)).content.decode()
    assert "Kaaviota ei ole vielä arvottu" in html
    assert "Kasat" in html


def test_declaring_through_the_link(client, final):
    event, r, a, b = final
    html = client.get(url(a)).content.decode()
    assert b.name in html and "Ilmoita järjestys" in html
    response = client.post(url(a) + "jarjestys/", order_post(r, a, (3, 1, 2)))
    assert response.status_code == 302
    order = TeamOrder.objects.get(team_match=r, team=a)
    assert order.via_link and order.declared_by is None
    numbers = {tp.pair_id: tp.number for tp in a.team_pairs.all()}
    assert [numbers[p] for p in order.pair_ids] == [3, 1, 2]
    html = client.get(url(a)).content.decode()
    assert "Järjestyksesi on ilmoitettu" in html
    assert "Muuta järjestystä" in html  # may still change it


def test_orders_hidden_until_both_have_declared(client, final):
    event, r, a, b = final
    client.post(url(a) + "jarjestys/", order_post(r, a))
    # the other team, the public and the organiser see that a has declared, not its order
    for page in (
        client.get(url(b)).content.decode(),
        client.get(reverse("teams:match", args=[event.slug, r.pk])).content.decode(),
    ):
        assert "ilmoitettu" in page
        assert not any(name in page for name in pair_names(a))
    own = client.get(url(a)).content.decode()
    assert all(name in own for name in pair_names(a))
    assert not any(name in own for name in pair_names(b))
    client.post(url(b) + "jarjestys/", order_post(r, b, (2, 3, 1)))
    for page in (client.get(url(a)).content.decode(), client.get(url(b)).content.decode()):
        assert all(name in page for name in pair_names(a) + pair_names(b))
        assert "Järjestys on lukittu" in page


def test_order_locked_once_both_declared(client, final):
    event, r, a, b = final
    client.post(url(a) + "jarjestys/", order_post(r, a))
    client.post(url(b) + "jarjestys/", order_post(r, b))
    response = client.post(url(a) + "jarjestys/", order_post(r, a, (3, 2, 1)), follow=True)
    assert any("lukittu" in m for m in page_messages(response.content.decode()))
    numbers = {tp.pair_id: tp.number for tp in a.team_pairs.all()}
    assert [numbers[p] for p in TeamOrder.objects.get(team_match=r, team=a).pair_ids] == [1, 2, 3]
    assert "Ilmoita järjestys</button>" not in client.get(url(a)).content.decode()


def test_order_locked_when_the_match_starts(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)
    r = row(event, 1, 1)
    start(r)
    response = client.post(url(r.team_a) + "jarjestys/", order_post(r, r.team_a, (3, 2, 1)), follow=True)
    assert page_messages(response.content.decode())  # refused with a reason
    html = client.get(url(r.team_a)).content.decode()
    assert "Ottelu on alkanut" in html and "Ilmoita järjestys</button>" not in html
    assert reverse("match", args=[event.slug, r.pair_links.first().match_id]) in html


def test_refused_for_a_match_the_team_does_not_play(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)
    r1, r2 = row(event, 1, 1), row(event, 1, 2)
    data = order_post(r1, r1.team_a)
    data["match"] = r2.pk  # the token's team (r1.team_a) does not play r2
    response = client.post(url(r1.team_a) + "jarjestys/", data, follow=True)
    assert "ei ole joukkueesi seuraava ottelu" in " ".join(page_messages(response.content.decode()))
    assert not TeamOrder.objects.exists()
    # and another team's pairs are refused as this team's order
    other = order_post(r1, r1.team_b)
    other["match"] = r1.pk
    response = client.post(url(r1.team_a) + "jarjestys/", other)
    assert response.status_code == 200
    assert not TeamOrder.objects.exists()


def test_naming_a_substitute_through_the_link(client, final):
    event, r, a, b = final
    (free,) = players(1)
    html = client.get(url(a), {"haku": free.last_name}).content.decode()
    assert free.full_name in html and "Nimeä" in html
    response = client.post(url(a) + "varamies/", {"player": free.pk}, follow=True)
    assert "Varamies nimetty." in page_messages(response.content.decode())
    assert Team.objects.get(pk=a.pk).substitute == free
    # refused: the other team's player
    taken = b.team_pairs.first().pair.members.first().player
    response = client.post(url(a) + "varamies/", {"player": taken.pk}, follow=True)
    assert any("pelaa jo joukkueessa" in m for m in page_messages(response.content.decode()))
    assert Team.objects.get(pk=a.pk).substitute == free
    # the substitute plays in the declaration
    out = a.team_pairs.first().pair.members.first().player
    client.post(url(a) + "jarjestys/", order_post(r, a, substitute_for=out.pk))
    assert TeamOrder.objects.get(team=a).substitute_for == out
    client.post(url(b) + "jarjestys/", order_post(r, b))
    html = client.get(reverse("teams:match", args=[event.slug, r.pk])).content.decode()
    assert f"varamies {free.full_name} pelaa pelaajan {out.full_name} tilalla" in html
    response = client.post(url(a) + "varamies/poista/", {}, follow=True)
    assert page_messages(response.content.decode())  # refused: he plays in the declared order


def test_title_only_mark_on_the_leader_page(client, make_event):
    event = team_event(make_event)
    team = add_team(event, "Vahvistettu", outside=2)
    html = client.get(url(team)).content.decode()
    assert "vain mestaruus" in html


def test_waiting_and_out(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)
    s1, s2 = row(event, 1, 1), row(event, 1, 2)
    play(s1, s1.team_a)
    # the winner waits for the final's other team, the loser for the match for third place
    assert "Seuraava vastustaja ratkeaa" in client.get(url(s1.team_a)).content.decode()
    assert "Seuraava vastustaja ratkeaa" in client.get(url(s1.team_b)).content.decode()
    assert "Pelatut ottelut" in client.get(url(s1.team_a)).content.decode()
    play(s2, s2.team_a)
    final = row(event, 2, 1)
    assert "Loppuottelu" in client.get(url(final.team_a)).content.decode()
    play(final, final.team_a)
    html = client.get(url(final.team_b)).content.decode()
    assert "Joukkue on pelannut viimeisen ottelunsa. Sija: 2." in html


def test_the_default_order_is_not_declared_by_one_tap(client, final):
    """Issue #25: the form comes filled with the registration order; declaring takes the ticked box."""
    event, r, a, b = final
    html = client.get(url(a)).content.decode()
    assert "Olen tarkistanut järjestyksen" in html and 'name="sure" value="1" required' in html
    data = order_post(r, a, (2, 1, 3))
    del data["sure"]
    response = client.post(url(a) + "jarjestys/", data)
    assert response.status_code == 200 and not TeamOrder.objects.exists()
    html = response.content.decode()
    assert "Vahvista toiminto rastilla: mitään ei muutettu." in page_messages(html)
    second = a.team_pairs.get(number=2).pair_id
    assert f'<option value="{second}" selected>' in html.split('name="order1"')[1].split("</select>")[0]  # kept
