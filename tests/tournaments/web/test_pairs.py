"""The organiser's pair list: adding a pair (registered or new players), and withdrawing a pair."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from registry.models import Player
from tests.support.entries_helpers import add_pairs, club, mark_drawn, player
from tournaments.models import Match, Pair, PairMember


@pytest.fixture
def event(make_event, organiser):
    event = make_event(name="Sodankylän Joulutuppi")
    event.organisers.add(organiser)
    return event


@pytest.fixture
def registry():
    sotk, ots = club(), club("Oulun Tuppiseura", "OTS")
    return {
        "sotk": sotk,
        "ots": ots,
        "maija": player("Maija", "Kivelä", "1005", sotk),
        "kauko": player("Kauko", "Tuomela", "1006", sotk),
        "sakari": player("Sakari", "Mustonen", "1001", ots),
        "homeless": player("Veli", "Vailla", "1099", None),
    }


def url(event):
    return reverse("organiser:pairs", args=[event.slug])


def add(client, event, p1=None, p2=None, **extra):
    data = {"p1-player": p1.pk if p1 else "", "p2-player": p2.pk if p2 else "", **extra}
    return client.post(url(event), data)


# Permissions -----------------------------------------------------------------------------------------


def test_page_for_the_events_organiser_only(client, event, organiser, outsider, make_event):
    make_event().organisers.add(outsider)
    client.force_login(organiser)
    response = client.get(url(event))
    assert response.status_code == 200
    assert "Lisää pari" in response.content.decode()
    client.force_login(outsider)
    assert client.get(url(event)).status_code == 403
    client.logout()
    response = client.get(url(event))
    assert response.status_code == 302
    assert response.headers["Location"].startswith(reverse("login"))


def test_outsider_cannot_add_a_pair(client, event, outsider, make_event, registry):
    make_event().organisers.add(outsider)
    client.force_login(outsider)
    assert add(client, event, registry["maija"], registry["kauko"]).status_code == 403
    client.logout()
    assert add(client, event, registry["maija"], registry["kauko"]).status_code == 302
    assert not Pair.objects.exists()


# Adding a pair ---------------------------------------------------------------------------------------


def test_add_two_registered_players_club_defaults_to_first_players_home_club(logged_in, event, registry):
    response = add(logged_in, event, registry["sakari"], registry["maija"])
    assert response.status_code == 302
    pair = Pair.objects.get(event=event)
    assert pair.number == 1
    assert pair.players == [registry["sakari"], registry["maija"]]
    assert pair.club == registry["ots"]  # Sakari's home club, not Maija's
    html = logged_in.get(url(event)).content.decode()
    assert "Pari 1 lisätty" in html
    assert "Sakari Mustonen" in html and "Maija Kivelä" in html


def test_chosen_club_wins_over_the_home_club(logged_in, event, registry):
    add(logged_in, event, registry["sakari"], registry["maija"], club=registry["sotk"].pk)
    assert Pair.objects.get(event=event).club == registry["sotk"]


def test_add_with_a_new_player(logged_in, event, registry):
    response = add(
        logged_in,
        event,
        registry["maija"],
        None,
        **{"p2-first_name": "Uuno", "p2-last_name": "Uusikylä", "p2-member_number": "2001"},
    )
    assert response.status_code == 302
    uuno = Player.objects.get(member_number="2001")
    assert (uuno.first_name, uuno.last_name, uuno.club) == ("Uuno", "Uusikylä", registry["sotk"])
    assert Pair.objects.get(event=event).players == [registry["maija"], uuno]


def test_new_player_with_a_taken_member_number_is_refused_and_typed_values_kept(logged_in, event, registry):
    response = add(
        logged_in,
        event,
        registry["maija"],
        None,
        **{"p2-first_name": "Uuno", "p2-last_name": "Uusikylä", "p2-member_number": "1001"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Jäsennumero 1001 on jo pelaajalla Sakari Mustonen" in html
    assert 'value="Uusikylä"' in html
    assert not Pair.objects.exists()
    assert not Player.objects.filter(last_name="Uusikylä").exists()


def test_new_player_needs_both_names(logged_in, event, registry):
    response = add(logged_in, event, registry["maija"], None, **{"p2-first_name": "Uuno"})
    assert "Anna uuden pelaajan sekä etunimi että sukunimi." in response.content.decode()
    assert not Pair.objects.exists()


def test_a_player_must_be_picked_or_typed(logged_in, event, registry):
    response = add(logged_in, event, registry["maija"], None)
    assert "Valitse pelaaja haun tuloksista tai anna uuden pelaajan nimi." in response.content.decode()
    assert not Pair.objects.exists()


def test_new_player_with_a_registered_name_needs_confirmation(logged_in, event, registry):
    typed = {"p2-first_name": "Sakari", "p2-last_name": "Mustonen"}
    response = add(logged_in, event, registry["maija"], None, **typed)
    html = response.content.decode()
    assert "Rekisterissä on jo Sakari Mustonen (1001)" in html
    assert 'name="p2-namesake_ok"' in html
    assert Player.objects.filter(last_name="Mustonen").count() == 1
    response = add(logged_in, event, registry["maija"], None, **typed, **{"p2-namesake_ok": "on"})
    assert response.status_code == 302
    assert Player.objects.filter(last_name="Mustonen").count() == 2


def test_same_player_twice_is_refused(logged_in, event, registry):
    response = add(logged_in, event, registry["maija"], registry["maija"])
    assert "Parin pelaajien on oltava kaksi eri henkilöä." in response.content.decode()
    assert not Pair.objects.exists()


def test_already_entered_player_is_refused_and_the_new_partner_is_not_created(logged_in, event, registry):
    add(logged_in, event, registry["maija"], registry["kauko"])
    response = add(
        logged_in, event, registry["maija"], None, **{"p2-first_name": "Uuno", "p2-last_name": "Uusikylä"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Pelaaja on jo toisessa parissa tässä kisassa: Maija Kivelä" in html
    assert 'value="Uuno"' in html  # what was typed is kept
    assert Pair.objects.filter(event=event).count() == 1
    assert not Player.objects.filter(last_name="Uusikylä").exists()  # one transaction: no orphan player


def test_two_organisers_entering_the_same_player_at_once(event, organiser, django_user_model, registry):
    """Both open the page and pick Maija; the second to press "Lisää pari" is refused, and the new
    player typed as her partner is not created."""
    second = django_user_model.objects.create_user("toinen", password="salasana-3")
    event.organisers.add(second)
    first_client, second_client = Client(), Client()
    first_client.force_login(organiser)
    second_client.force_login(second)
    assert first_client.get(url(event)).status_code == 200
    assert second_client.get(url(event)).status_code == 200
    assert add(first_client, event, registry["maija"], registry["kauko"]).status_code == 302
    response = add(
        second_client, event, registry["maija"], None, **{"p2-first_name": "Uuno", "p2-last_name": "Uusikylä"}
    )
    assert response.status_code == 200
    assert "Pelaaja on jo toisessa parissa tässä kisassa: Maija Kivelä" in response.content.decode()
    assert PairMember.objects.filter(event=event, player=registry["maija"]).count() == 1
    assert Pair.objects.filter(event=event).count() == 1
    assert not Player.objects.filter(last_name="Uusikylä").exists()


def test_pair_without_home_club_needs_a_club(logged_in, event, registry):
    response = add(logged_in, event, registry["homeless"], registry["maija"])
    assert "Valitse kerho" in response.content.decode()
    assert not Pair.objects.exists()


def test_search_button_without_javascript_shows_results_and_keeps_input(logged_in, event, registry):
    response = logged_in.post(
        url(event), {"search": "1", "p1-q": "muston", "p2-first_name": "Uuno", "club": registry["sotk"].pk}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert f'name="p1-player" value="{registry["sakari"].pk}"' in html
    assert 'value="Uuno"' in html
    assert "errorlist" not in html  # a search is not a failed submission
    assert not Pair.objects.exists()


def test_adding_refused_after_the_draw(logged_in, event, registry):
    mark_drawn(event)
    html = logged_in.get(url(event)).content.decode()
    assert "uusia pareja ei voi enää lisätä" in html
    assert 'name="p1-q"' not in html
    response = add(logged_in, event, registry["maija"], registry["kauko"])
    assert response.status_code == 302
    assert not Pair.objects.exists()


# The list and withdrawing ----------------------------------------------------------------------------


def test_pair_list_queries_do_not_grow_with_pairs(
    logged_in, event, make_event, django_assert_max_num_queries
):
    add_pairs(event, 10)
    with django_assert_max_num_queries(12) as small:
        response = logged_in.get(url(event))
    assert response.content.decode().count('<tr id="pari-') == 10
    bigger = make_event()
    bigger.organisers.add(*event.organisers.all())
    add_pairs(bigger, 40)
    with django_assert_max_num_queries(12) as large:
        response = logged_in.get(url(bigger))
    assert response.content.decode().count('<tr id="pari-') == 40
    assert len(small.captured_queries) == len(large.captured_queries)


def test_withdraw_pair(logged_in, event):
    pairs = add_pairs(event, 3)
    response = logged_in.post(reverse("organiser:pair_withdraw", args=[event.slug, pairs[1].pk]))
    assert response.status_code == 302
    assert response.headers["Location"] == url(event)
    pairs[1].refresh_from_db()
    assert pairs[1].withdrawn_at is not None
    assert Pair.objects.filter(event=event, withdrawn_at__isnull=True).count() == 2
    html = logged_in.get(url(event)).content.decode()
    assert "Pari 2 luopui." in html
    assert '<tr id="pari-2" class="withdrawn">' in html


def test_withdraw_annuls_the_pairs_unfinished_matches(logged_in, event):
    pairs = add_pairs(event, 3)
    mark_drawn(event)
    match = Match.objects.create(
        event=event, round=1, table=1, pair_a=pairs[0], pair_b=pairs[1], deals_planned=16
    )
    logged_in.post(reverse("organiser:pair_withdraw", args=[event.slug, pairs[0].pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.ANNULLED
    assert "1 ottelu mitätöitiin." in logged_in.get(url(event)).content.decode()


def test_withdraw_is_post_only(logged_in, event):
    pair = add_pairs(event, 1)[0]
    assert logged_in.get(reverse("organiser:pair_withdraw", args=[event.slug, pair.pk])).status_code == 405
    pair.refresh_from_db()
    assert pair.withdrawn_at is None


def test_withdraw_a_pair_of_another_event_is_404(logged_in, event, make_event):
    foreign = add_pairs(make_event(), 1)[0]
    assert (
        logged_in.post(reverse("organiser:pair_withdraw", args=[event.slug, foreign.pk])).status_code == 404
    )
    foreign.refresh_from_db()
    assert foreign.withdrawn_at is None


def test_withdraw_permissions(client, event, organiser, outsider, make_event):
    make_event().organisers.add(outsider)
    pair = add_pairs(event, 1)[0]
    target = reverse("organiser:pair_withdraw", args=[event.slug, pair.pk])
    client.force_login(outsider)
    assert client.post(target).status_code == 403
    client.logout()
    response = client.post(target)
    assert response.status_code == 302 and response.headers["Location"].startswith(reverse("login"))
    pair.refresh_from_db()
    assert pair.withdrawn_at is None
    client.force_login(organiser)
    assert client.post(target).status_code == 302
    pair.refresh_from_db()
    assert pair.withdrawn_at is not None


def test_withdraw_returns_to_a_local_next_page_only(logged_in, event):
    first, second = add_pairs(event, 2)
    checkin = reverse("organiser:checkin", args=[event.slug])
    target = reverse("organiser:pair_withdraw", args=[event.slug, first.pk])
    assert logged_in.post(target, {"next": checkin}).headers["Location"] == checkin
    target = reverse("organiser:pair_withdraw", args=[event.slug, second.pk])
    assert logged_in.post(target, {"next": "https://example.com/"}).headers["Location"] == url(event)
