"""Creating and editing an event: who may, what is checked, what is kept when something is wrong."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests.teams.builders import drawn_event
from tournaments.models import Event


@pytest.fixture
def creator(organiser):
    organiser.user_permissions.add(Permission.objects.get(codename="add_event"))
    return organiser


VALID = {
    "name": "Kittilän Kaamostuppi",
    "slug": "",
    "starts_on": "2027-01-16",
    "ends_on": "2027-01-17",
    "venue": "Levin kylätalo",
    "kind": "cup",
    "format": "standard",
    "deals_sunday": "16",
    "deals_placement": "16",
}


def test_create_needs_the_permission(client, organiser, creator, outsider):
    assert client.get(reverse("organiser:event_create")).status_code == 302
    client.force_login(outsider)
    assert client.get(reverse("organiser:event_create")).status_code == 403
    assert client.post(reverse("organiser:event_create"), VALID).status_code == 403
    assert not Event.objects.exists()


def test_create_makes_the_creator_an_organiser(client, creator):
    client.force_login(creator)
    response = client.post(reverse("organiser:event_create"), VALID)
    event = Event.objects.get()
    assert response.headers["Location"] == reverse("organiser:event", args=[event.slug])
    assert event.slug == "kittilan-kaamostuppi"
    assert str(event.season) == "2026–2027"
    assert event.can_organise(creator)
    assert client.get(reverse("organiser:event", args=[event.slug])).status_code == 200


def test_bad_input_keeps_what_was_typed(client, creator):
    client.force_login(creator)
    data = {**VALID, "ends_on": "2027-01-15", "deals_saturday": "8"}
    response = client.post(reverse("organiser:event_create"), data)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Kisa ei voi päättyä ennen kuin se alkaa." in html
    assert "Cupin kisoissa pelataan vähintään 12 jakoa." in html
    assert 'value="Kittilän Kaamostuppi"' in html and 'value="Levin kylätalo"' in html
    assert not Event.objects.exists()


def test_one_stage_needs_a_group_count(client, creator):
    client.force_login(creator)
    html = client.post(reverse("organiser:event_create"), {**VALID, "format": "one_stage"}).content.decode()
    assert "valitse lohkojen määrä" in html
    client.post(reverse("organiser:event_create"), {**VALID, "format": "one_stage", "group_count": "2"})
    assert Event.objects.get().group_count == 2


def test_duplicate_name_gets_its_own_slug(client, creator, make_event):
    make_event(name="Kittilän Kaamostuppi", slug="kittilan-kaamostuppi")
    client.force_login(creator)
    client.post(reverse("organiser:event_create"), VALID)
    assert Event.objects.filter(slug="kittilan-kaamostuppi-2").exists()


def test_edit_by_organiser_only(client, make_event, organiser, outsider):
    event = make_event(name="Vanha nimi")
    event.organisers.add(organiser)
    url = reverse("organiser:event_edit", args=[event.slug])
    data = {**VALID, "name": "Uusi nimi", "slug": event.slug}
    assert client.post(url, data).status_code == 302 and Event.objects.get().name == "Vanha nimi"
    client.force_login(outsider)
    assert client.post(url, data).status_code == 403
    assert Event.objects.get().name == "Vanha nimi"
    client.force_login(organiser)
    assert client.post(url, data).status_code == 302
    assert Event.objects.get().name == "Uusi nimi"


def test_dashboard_permissions(client, make_event, organiser, outsider):
    event = make_event()
    event.organisers.add(organiser)
    url = reverse("organiser:event", args=[event.slug])
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    assert client.get(url).status_code == 200


# --- each kind asks only what it uses (issue #14.1) ---------------------------------------------------

TEAM_UNUSED = ["format", "group_count", "deals_saturday", "deals_sunday", "draw_time", "sunday_play_time"]


def field_rows(html: str) -> dict[str, str]:
    """Field name → the data-hide-for of its paragraph ("" when it shows for every kind)."""
    rows = {}
    for found in re.finditer(r'<p(?: class="has-error")?(?: data-hide-for="([^"]*)")?>\s*<label for="id_(\w+)"', html):
        rows[found[2]] = found[1] or ""
    return rows


def test_the_form_marks_what_a_team_competition_does_not_use(client, creator):
    client.force_login(creator)
    rows = field_rows(client.get(reverse("organiser:event_create")).content.decode())
    assert {name for name, kinds in rows.items() if kinds} == set(TEAM_UNUSED)
    assert all(rows[name] == "sm_team" for name in TEAM_UNUSED)
    assert rows["deals_placement"] == "" and rows["play_time"] == ""  # the pair matches' deals, the start


def test_a_team_competition_saves_without_what_it_does_not_use(client, creator):
    """What the hidden fields still hold (a pair event's choices, or nonsense) neither blocks the save
    nor reaches the event: it takes the defaults."""
    client.force_login(creator)
    data = {**VALID, "kind": "sm_team", "format": "one_stage", "group_count": "", "deals_saturday": "x",
            "deals_sunday": "3", "draw_time": "25:99", "deals_placement": "12"}
    response = client.post(reverse("organiser:event_create"), data)
    assert response.status_code == 302
    event = Event.objects.get()
    assert (event.kind, event.format, event.group_count, event.deals_saturday) == ("sm_team", "standard", None, None)
    assert (event.deals_sunday, event.draw_time.hour, event.deals_placement) == (16, 11, 12)


def test_a_pair_event_still_checks_those_fields(client, creator):
    client.force_login(creator)
    response = client.post(reverse("organiser:event_create"), {**VALID, "format": "one_stage", "deals_sunday": "3"})
    html = response.content.decode()
    assert response.status_code == 200 and not Event.objects.exists()
    assert "Yksivaiheisessa kisassa valitse lohkojen määrä." in html
    assert "Cupin kisoissa pelataan vähintään 12 jakoa." in html


def test_a_drawn_team_competitions_form_leaves_them_out(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)
    client.force_login(organiser)
    url = reverse("organiser:event_edit", args=[event.slug])
    rows = field_rows(client.get(url).content.decode())
    assert not set(TEAM_UNUSED) & set(rows) and "deals_placement" in rows and "name" in rows
    response = client.post(url, {"name": "SM-joukkuekisa 2027", "slug": event.slug, "starts_on": "2026-12-12",
                                 "ends_on": "2026-12-13", "venue": "Kemi"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "SM-joukkuekisa 2027" and event.kind == "sm_team"
