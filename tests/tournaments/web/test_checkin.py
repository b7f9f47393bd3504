"""The morning check-in: tap a pair present or absent; withdraw every absent pair before the draw."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.entries_helpers import add_pairs, club, mark_drawn, player
from tournaments.actions import entries
from tournaments.models import Pair


@pytest.fixture
def event(make_event, organiser):
    event = make_event(name="Kemin Kevättuppi")
    event.organisers.add(organiser)
    return event


def url(event) -> str:
    return reverse("organiser:checkin", args=[event.slug])


def toggle(client, event, pair, present: bool, **headers):
    return client.post(
        reverse("organiser:checkin_toggle", args=[event.slug]),
        {"pair": pair.pk, "present": "1" if present else "0"}, **headers,
    )


def withdraw_absent(client, event):
    return client.post(reverse("organiser:checkin_withdraw_absent", args=[event.slug]), follow=True)


def test_page_for_the_events_organiser_only(client, event, organiser, outsider, make_event):
    make_event().organisers.add(outsider)
    pair = add_pairs(event, 1)[0]
    client.force_login(organiser)
    assert client.get(url(event)).status_code == 200
    client.force_login(outsider)
    assert client.get(url(event)).status_code == 403
    assert toggle(client, event, pair, True).status_code == 403
    client.logout()
    response = toggle(client, event, pair, True)
    assert response.status_code == 302
    assert response.headers["Location"].startswith(reverse("login"))
    pair.refresh_from_db()
    assert not pair.checked_in


def test_list_sorted_by_number_with_names_club_and_counter(logged_in, event):
    sotk, ots = club(), club("Oulun Tuppiseura", "OTS")
    entries.create_pair(event, player("Maija", "Kivelä", "1005"), player("Kauko", "Tuomela", "1006"), sotk)
    entries.create_pair(
        event, player("Sakari", "Mustonen", "1001"), player("Virpi", "Kinnunen", "1002"), ots
    )
    first = Pair.objects.get(event=event, number=1)
    entries.set_checked_in(first, True)
    html = logged_in.get(url(event)).content.decode()
    assert "1/2 paikalla" in html
    assert html.index('id="pari-1"') < html.index('id="pari-2"')
    assert "Maija Kivelä / Kauko Tuomela" in html and "Sodankylän Tuppikerho" in html
    assert "Sakari Mustonen / Virpi Kinnunen" in html and "Oulun Tuppiseura" in html
    row1 = html[html.index('id="pari-1"') : html.index('id="pari-2"')]
    assert 'aria-pressed="true"' in row1 and 'name="present" value="0"' in row1


def test_tap_without_htmx_redirects_back(logged_in, event):
    pair = add_pairs(event, 2)[1]
    response = toggle(logged_in, event, pair, True)
    assert response.status_code == 302
    assert response.headers["Location"] == url(event) + "#pari-2"
    pair.refresh_from_db()
    assert pair.checked_in
    toggle(logged_in, event, pair, False)
    pair.refresh_from_db()
    assert not pair.checked_in


def test_tap_twice_keeps_the_state_it_asked_for(logged_in, event):
    """A double tap at a noisy venue sends "present" twice; it must not flip back to absent."""
    pair = add_pairs(event, 1)[0]
    toggle(logged_in, event, pair, True)
    toggle(logged_in, event, pair, True)
    pair.refresh_from_db()
    assert pair.checked_in


def test_tap_with_htmx_swaps_only_the_row_and_the_counter(logged_in, event):
    pairs = add_pairs(event, 3)
    response = toggle(logged_in, event, pairs[0], True, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<li id="pari-1">')
    assert 'aria-pressed="true"' in html
    assert 'id="checkin-count"' in html and 'hx-swap-oob="true"' in html and "1/3 paikalla" in html
    assert "<html" not in html and 'id="pari-2"' not in html


def test_pair_of_another_event_is_404(logged_in, event, make_event):
    foreign = add_pairs(make_event(), 1)[0]
    assert toggle(logged_in, event, foreign, True).status_code == 404
    foreign.refresh_from_db()
    assert not foreign.checked_in


def test_withdraw_absent_asks_first_then_withdraws_only_the_absent(logged_in, event):
    pairs = add_pairs(event, 4)
    toggle(logged_in, event, pairs[0], True)
    toggle(logged_in, event, pairs[2], True)
    html = logged_in.get(url(event)).content.decode()
    assert "?vahvista=1" in html
    html = logged_in.get(url(event) + "?vahvista=1").content.decode()
    assert "Poistetaanko 2 poissaolevaa paria?" in html
    assert "Kyllä, poista 2 paria" in html
    assert not Pair.objects.filter(event=event, withdrawn_at__isnull=False).exists()  # asking saves nothing

    response = withdraw_absent(logged_in, event)
    html = response.content.decode()
    assert "2 poissaolevaa paria poistettiin kisasta." in html
    withdrawn = set(
        Pair.objects.filter(event=event, withdrawn_at__isnull=False).values_list("number", flat=True)
    )
    assert withdrawn == {2, 4}
    assert "2/2 paikalla" in html
    assert "Luopuneet" in html


def test_withdrawn_pair_cannot_be_tapped(logged_in, event):
    pair = add_pairs(event, 1)[0]
    entries.withdraw_pair(pair)
    response = toggle(logged_in, event, pair, True, follow=True)
    assert "Pari 1 on luopunut." in response.content.decode()
    pair.refresh_from_db()
    assert not pair.checked_in


def test_after_the_draw_list_shows_who_came_without_withdraw_button(logged_in, event):
    pairs = add_pairs(event, 3)
    toggle(logged_in, event, pairs[0], True)
    mark_drawn(event)
    html = logged_in.get(url(event)).content.decode()
    assert "1/3 paikalla" in html
    assert "vahvista=1" not in html and "poista-poissaolevat" not in html
    assert 'aria-pressed="true"' in html and "disabled" in html
    assert "poista-poissaolevat" not in logged_in.get(url(event) + "?vahvista=1").content.decode()
    response = withdraw_absent(logged_in, event)
    assert "Lohkot on jo arvottu." in response.content.decode()
    assert not Pair.objects.filter(event=event, withdrawn_at__isnull=False).exists()
    toggle(logged_in, event, pairs[1], True)
    pairs[1].refresh_from_db()
    assert not pairs[1].checked_in


def test_checkin_queries_do_not_grow_with_pairs(logged_in, event, make_event, django_assert_max_num_queries):
    add_pairs(event, 10)
    with django_assert_max_num_queries(10) as small:
        response = logged_in.get(url(event))
    assert response.content.decode().count('class="checkin-button"') == 10
    bigger = make_event()
    bigger.organisers.add(*event.organisers.all())
    add_pairs(bigger, 40)
    with django_assert_max_num_queries(10) as large:
        response = logged_in.get(url(bigger))
    assert response.content.decode().count('class="checkin-button"') == 40
    assert len(small.captured_queries) == len(large.captured_queries)
