"""A second person saving the same match does not silently overwrite the first (the version check), and
every change to a result is recorded (who or which link, when, before and after) for the organisers."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.results_helpers import (
    input_value,
    link_url,
    nolo,
    one_group_event,
    organiser_url,
    page_messages,
    rami,
    sheet_lines,
    store,
)
from tournaments.actions import results
from tournaments.models import Match, ResultChange

STALE = "Joku muu tallensi tähän otteluun muutoksen sillä välin."


@pytest.fixture
def setup(make_event, organiser, outsider):
    event, group, pairs = one_group_event(make_event, organiser, 5)
    make_event(name="Toinen kisa").organisers.add(outsider)
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    return event, match


def test_second_save_on_the_same_version_is_refused(setup, organiser):
    event, match = setup
    first, second = Client(), Client()
    first.force_login(organiser)  # the organiser at the desk, a player with the link at the table
    html_first = first.get(organiser_url(match)).content.decode()
    html_second = second.get(link_url(match)).content.decode()
    version = input_value(html_first, "version")
    assert version == input_value(html_second, "version") == "0"

    assert first.post(organiser_url(match) + "rivi/", {**rami("A", 9), "version": version}).status_code == 302
    response = second.post(link_url(match) + "rivi/", {**nolo(4), "version": version})
    assert response.status_code == 200
    html = response.content.decode()
    assert any(m.startswith(STALE) for m in page_messages(html))
    # the first person's line is intact, the second's was not stored, and the sheet shows the first one
    assert list(match.entries.values_list("game", "caller_seat", "tricks_a")) == [("rami", 1, 9)]
    assert sheet_lines(html) == [["1", "R", "1", "9–4", "12 A", "12", ""]]
    # what the second person typed is kept, now on the current version, so saving again is a deliberate act
    assert input_value(html, "game") == "nolo" and input_value(html, "tricks_a") == "4"
    assert input_value(html, "version") == "1"
    assert ResultChange.objects.count() == 1


def test_stale_correction_and_delete_are_refused(setup, organiser):
    event, match = setup
    match = store(match, [rami("A", 9), nolo(4)], user=organiser)
    stale = match.version - 1
    client = Client()
    client.force_login(organiser)
    url = organiser_url(match)
    response = client.post(url + "rivi/1/", {**rami("A", 10), "version": stale})
    assert any(m.startswith(STALE) for m in page_messages(response.content.decode()))
    response = client.post(url + "poista-viimeinen/", {"version": stale}, follow=True)
    assert any(m.startswith(STALE) for m in page_messages(response.content.decode()))
    assert list(match.entries.values_list("tricks_a", flat=True)) == [9, 4]
    with pytest.raises(results.ResultRefused) as refused:
        results.save_paper(
            match, results.PaperData(40, 20, 12), version=stale, actor=results.Actor(user=organiser)
        )
    assert refused.value.code == "stale"


def test_paper_and_confirmation_in_the_history(client, setup, organiser):
    event, match = setup
    match = results.save_paper(
        match, results.PaperData(56, 12, 5, "A"), version=0, actor=results.Actor(user=organiser)
    )
    results.set_confirmed(match, True, version=None, user=organiser)
    client.force_login(organiser)
    html = client.get(reverse("organiser:match_history", args=[event.slug, match.pk])).content.decode()
    assert "tulos paperipöytäkirjasta" in html and "tulos vahvistettu" in html
    assert "paperipöytäkirja 56–12, 5 jakoa, tuppi A" in html
    assert [c.action for c in ResultChange.objects.order_by("pk")] == ["paper", "confirm"]
    assert ResultChange.objects.order_by("pk").last().after["confirmed"] is True


def test_every_change_is_recorded_with_who_before_and_after(setup, organiser):
    event, match = setup
    client, link = Client(), Client()
    client.force_login(organiser)
    link.post(link_url(match) + "rivi/", {**rami("A", 9), "version": 0})  # 1: via the link
    client.post(organiser_url(match) + "rivi/", {**nolo(4), "version": 1})  # 2: the organiser
    client.post(organiser_url(match) + "rivi/2/", {**nolo(5), "version": 2})  # 3: a correction
    client.post(organiser_url(match) + "poista-viimeinen/", {"version": 3})  # 4: delete line 2
    changes = list(ResultChange.objects.filter(match=match).order_by("at", "pk"))
    assert [c.action for c in changes] == ["add", "add", "edit", "delete"]
    assert [(c.via_link, c.user) for c in changes] == [
        (True, None),
        (False, organiser),
        (False, organiser),
        (False, organiser),
    ]
    assert changes[0].before["entries"] == [] and changes[0].after["entries"][0]["tricks_a"] == 9
    assert [e["tricks_a"] for e in changes[2].before["entries"]] == [9, 4]
    assert [e["tricks_a"] for e in changes[2].after["entries"]] == [9, 5]
    assert [e["tricks_a"] for e in changes[3].after["entries"]] == [9]
    assert all(c.at is not None for c in changes)
    match.refresh_from_db()
    assert match.version == 4


def test_history_page_needs_an_organiser_of_the_event(client, setup, organiser, outsider):
    event, match = setup
    store(match, [rami("A", 9)], user=organiser)
    Client().post(link_url(match) + "rivi/", {**nolo(4), "version": 1})
    url = reverse("organiser:match_history", args=[event.slug, match.pk])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    html = client.get(url).content.decode()
    assert "Muutoshistoria" in html
    assert "pöytäkirjan linkin kautta" in html and organiser.username in html
    assert html.count('<li class="card">') == 2
    # what changed, as the scoresheet writes it: the newest first; the link added line 2, a nolo 4–9
    assert "rivi lisätty" in html and ">add<" not in html and "· add" not in html
    newest = html.split('<li class="card">')[1]
    before, after = newest.split('class="before"')[1].split('class="after"')
    assert "1. R (1) 9–4" in before and "2. N 4–9" not in before
    assert "1. R (1) 9–4" in after and "2. N 4–9" in after
    # the organiser's scoresheet links to it
    assert url in client.get(organiser_url(match)).content.decode()
