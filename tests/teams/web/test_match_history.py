"""A team match before its pairs sit down, on the organiser's side: reopening both orders (a leader
declared the wrong order, or an undone start), the history that keeps every declaration, reopening,
start and undone start (hidden orders stay hidden there too), the note that a decided team match's third
pair match no longer counts, and the printout of every leader's link with its QR code."""

from __future__ import annotations

import io
import subprocess
import tempfile
from pathlib import Path

import pytest
import zxingcpp
from django.core.exceptions import ValidationError
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from teams import history
from teams.actions import orders as orders_actions
from teams.models import TeamMatch, TeamMatchChange, TeamOrder
from tests.support.results_helpers import page_messages
from tests.teams.builders import declare, drawn_event, pair_matches, start, win


@pytest.fixture
def drawn(make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 4, name="SM-joukkuekisa", slug="sm-joukkue")
    return event, teams


def semi(event) -> TeamMatch:
    return TeamMatch.objects.filter(event=event, round=1).order_by("slot").first()


def reopen_url(event, row) -> str:
    return reverse("teams_organiser:reopen_orders", args=[event.slug, row.pk])


def test_the_organiser_reopens_both_orders_and_the_leaders_declare_again(client, drawn, organiser):
    event, _teams = drawn
    row = semi(event)
    declare(row, row.team_a, (3, 2, 1))
    declare(row, row.team_b)
    assert orders_actions.orders_locked(row)
    client.force_login(organiser)
    client.post(reopen_url(event, row))  # the box unticked: nothing is reopened
    assert TeamOrder.objects.filter(team_match=row).count() == 2
    response = client.post(reopen_url(event, row), {"sure": "1"}, follow=True)
    assert "Järjestykset avattu" in " ".join(page_messages(response.content.decode()))
    assert not TeamOrder.objects.filter(team_match=row).exists() and not orders_actions.orders_locked(row)
    declare(row, row.team_a)  # the leader may declare again, a different order
    assert TeamOrder.objects.get(team_match=row, team=row.team_a).pair_ids == tuple(
        tp.pair_id for tp in row.team_a.team_pairs.order_by("number")
    )


def test_reopening_is_refused_once_started_and_when_nothing_was_declared(drawn, organiser):
    event, _teams = drawn
    row = semi(event)
    with pytest.raises(ValidationError) as refused:
        orders_actions.reopen_orders(row, organiser)
    assert refused.value.code == "none"
    start(row, organiser)
    with pytest.raises(ValidationError) as refused:
        orders_actions.reopen_orders(row, organiser)
    assert refused.value.code == "started"
    assert TeamOrder.objects.filter(team_match=row).count() == 2


def test_an_undone_start_can_be_reopened(drawn, organiser):
    event, _teams = drawn
    row = semi(event)
    start(row, organiser)
    orders_actions.cancel_start(row, organiser)
    assert orders_actions.orders_locked(row)  # an undone start keeps the orders locked …
    assert orders_actions.reopen_orders(row, organiser) == 2  # … until the organiser reopens them
    assert not orders_actions.orders_locked(row)


def test_the_history_keeps_every_step(drawn, organiser):
    event, _teams = drawn
    row = semi(event)
    declare(row, row.team_a, (2, 1, 3))
    declare(row, row.team_b)
    orders_actions.reopen_orders(row, organiser)
    start(row, organiser)
    orders_actions.cancel_start(row, organiser)
    actions = list(TeamMatchChange.objects.filter(team_match=row).values_list("action", flat=True))
    assert actions == ["declared", "declared", "reopened", "declared", "declared", "started", "start_cancelled"]
    lines = history.history(TeamMatch.objects.get(pk=row.pk))
    reopened = lines[2]
    by_team = dict(reopened.orders)
    first_pairs = [tp.pair.full_name for tp in sorted(row.team_a.team_pairs.all(), key=lambda tp: tp.number)]
    assert by_team[row.team_a.name]["pairs"] == [first_pairs[1], first_pairs[0], first_pairs[2]]
    assert reopened.by == "organiser" and lines[0].via_link and lines[0].team == row.team_a.name


def test_the_history_hides_an_order_until_both_are_in(client, drawn, organiser):
    event, _teams = drawn
    row = semi(event)
    declare(row, row.team_a)
    client.force_login(organiser)
    url = reverse("teams_organiser:match", args=[event.slug, row.pk])
    html = client.get(url).content.decode()
    names = [tp.pair.full_name for tp in row.team_a.team_pairs.all()]
    assert "Historia" in html and "järjestys ilmoitettu" in html
    assert not any(name in html for name in names)
    declare(row, row.team_b)
    html = client.get(url).content.decode()
    assert all(name in html for name in names)


@pytest.mark.parametrize("name", ["reopen_orders", "cancel_start", "start_match"])
def test_an_organiser_of_another_event_cannot(client, drawn, outsider, name):
    event, _teams = drawn
    row = semi(event)
    declare(row, row.team_a)
    declare(row, row.team_b)
    client.force_login(outsider)
    url = reverse(f"teams_organiser:{name}", args=[event.slug, row.pk])
    assert client.post(url, {"sure": "1"}).status_code == 403
    client.logout()
    assert client.post(url, {"sure": "1"}).status_code == 302  # to the login page
    assert TeamOrder.objects.filter(team_match=row).count() == 2 and semi(event).started_at is None


def test_a_decided_team_match_says_the_third_pair_match_no_longer_counts(client, drawn, organiser):
    event, _teams = drawn
    row = start(semi(event), organiser)
    first, second, third = pair_matches(row)
    win(first, "A")
    page = reverse("teams:match", args=[event.slug, row.pk])
    assert "ei enää vaikuta voittajaan" not in client.get(page).content.decode()
    win(second, "A")
    html = client.get(page).content.decode()
    assert f"parien ottelu 3 (pöytä {third.table}) ei enää vaikuta voittajaan" in html
    client.force_login(organiser)
    html = client.get(reverse("teams_organiser:match", args=[event.slug, row.pk])).content.decode()
    assert "ei enää vaikuta voittajaan" in html


def test_the_leaders_links_printout(client, drawn, organiser, outsider):
    event, teams = drawn
    url = reverse("teams_organiser:leader_links", args=[event.slug])
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "no-store" in response["Cache-Control"]  # the links are credentials
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    links = ["http://testserver" + reverse("teams:leader", args=[t.token]) for t in teams]
    for team in teams:
        assert team.name in text and team.leader_name in text
    flat = text.replace("\n", "")
    assert all(link in flat for link in links)
    with tempfile.TemporaryDirectory() as tmp:  # every QR code reads back as its team's link
        pdf = Path(tmp) / "leaders.pdf"
        pdf.write_bytes(response.content)
        subprocess.run(["pdftoppm", "-r", "200", "-png", str(pdf), str(Path(tmp) / "p")], check=True)
        read = [r.text for page in sorted(Path(tmp).glob("p*.png")) for r in zxingcpp.read_barcodes(Image.open(page))]
    assert sorted(read) == sorted(links)
