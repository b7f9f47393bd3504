"""A banned player on the organiser's pages (issue #29): the pair form and the replace form refuse him
with the ban's end next to the field (what was chosen kept), the import preview refuses his row, and the
check-in list flags a pair entered before the ban was recorded."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from registry.models import Ban
from tests.support.entries_helpers import HEADER, add_pairs, club, csv_upload, player
from tournaments.models import Pair, PairMember

REFUSAL = "Pelaajalla on pelikielto 31.12.2027 asti."


@pytest.fixture
def event(make_event, organiser):
    event = make_event(name="Kemin Kevättuppi", starts_on=dt.date(2027, 3, 6))
    event.organisers.add(organiser)
    return event


def ban(who, starts_on=dt.date(2027, 1, 1)):
    return Ban.objects.create(
        player=who, starts_on=starts_on, ends_on=dt.date(2027, 12, 31), reason="Häiriköinti",
        decision="Hallituksen päätös 12.3.2027 §4", decided_on=starts_on,
    )


def test_the_pair_form_refuses_a_banned_player_next_to_his_slot(logged_in, event):
    sotk = club()
    who, mate = player("Kalle", "Kieltonen", "9001", sotk), player("Maija", "Kivelä", "1005", sotk)
    ban(who)
    response = logged_in.post(
        reverse("organiser:pairs", args=[event.slug]), {"p1-player": mate.pk, "p2-player": who.pk, "p2-q": "kielto"}
    )
    html = response.content.decode()
    assert response.status_code == 200 and not Pair.objects.filter(event=event).exists()
    slot2 = html[html.index('id="p2-results"') - 2000 : html.index('id="p2-results"')]
    assert REFUSAL in slot2  # in the second player's slot
    assert f'name="p2-player" value="{who.pk}" checked' in html and 'value="kielto"' in html  # kept


def test_the_replace_form_refuses_a_banned_player(logged_in, event):
    pair = add_pairs(event, 1)[0]
    who = player("Kalle", "Kieltonen", "9001")
    ban(who)
    response = logged_in.post(
        reverse("organiser:pair_replace", args=[event.slug]), {"member": f"{pair.pk}:2", "r-player": who.pk}
    )
    assert "Pelaajalla Kalle Kieltonen on pelikielto 31.12.2027 asti." in response.content.decode()
    assert not PairMember.objects.filter(player=who).exists()


def test_the_import_preview_refuses_a_banned_players_row(logged_in, event):
    sotk = club()
    ban(player("Kalle", "Kieltonen", "9001", sotk))
    player("Maija", "Kivelä", "1005", sotk)
    text = "\n".join([HEADER, "Kalle;Kieltonen;9001;Maija;Kivelä;1005;Sodankylän Tuppikerho"]) + "\n"
    preview = logged_in.post(reverse("organiser:import", args=[event.slug]), {"file": csv_upload(text)}, follow=True)
    assert "Pelaajalla Kalle Kieltonen on pelikielto 31.12.2027 asti." in preview.content.decode()
    assert not Pair.objects.filter(event=event).exists()


def test_check_in_flags_a_pair_entered_before_the_ban(logged_in, event):
    first, second = add_pairs(event, 2)
    who = second.players[1]
    url = reverse("organiser:checkin", args=[event.slug])
    assert "pelikielto" not in logged_in.get(url).content.decode()
    ban(who)  # the board bans him after the pair was entered
    html = logged_in.get(url).content.decode()
    row = html[html.index(f'id="pari-{second.number}"') :]
    row = row[: row.index("</li>")]
    assert f"pelikielto: {who.full_name} 31.12.2027 asti" in row
    assert "pelikielto" not in html[html.index(f'id="pari-{first.number}"') : html.index(f'id="pari-{second.number}"')]
    toggled = logged_in.post(
        reverse("organiser:checkin_toggle", args=[event.slug]), {"pair": second.pk, "present": "1"}, HTTP_HX_REQUEST="true"
    )
    assert f"pelikielto: {who.full_name} 31.12.2027 asti" in toggled.content.decode()  # the row htmx swaps in


def test_a_ban_after_the_event_flags_nothing(logged_in, event):
    pair = add_pairs(event, 1)[0]
    ban(pair.players[0], starts_on=dt.date(2027, 3, 8))
    assert "pelikielto" not in logged_in.get(reverse("organiser:checkin", args=[event.slug])).content.decode()


def test_the_player_search_marks_a_banned_player_who_cannot_be_chosen(logged_in, event):
    who = player("Kalle", "Kieltonen", "9001")
    search = reverse("organiser:player_search")
    query = {"q": "kielto", "slot": "1", "kisa": event.slug}
    html = logged_in.get(search, query).content.decode()
    assert "pelikielto" not in html and f'value="{who.pk}" disabled' not in html
    ban(who)
    html = logged_in.get(search, query).content.decode()
    assert "pelikielto 31.12.2027 asti" in html and f'value="{who.pk}" disabled' in html
