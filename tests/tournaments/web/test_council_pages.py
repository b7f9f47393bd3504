"""The judges' council's pages (issue #29): the appeal on the referee's phone (the match's secret link)
and on the organiser's match page, the council's page for the event's organisers, and what the public
pages and the API show of an appeal and its ruling.

The issue's "done when", as a council would at a live event: pair B appeals a penalty on the referee's
phone; the organiser's sheet holds the match; the council rules the penalty away with three members
named; the standings, the public match page and the API follow."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tests.clock import HELSINKI
from tests.support.results_helpers import (
    field_errors,
    link_url,
    one_group_event,
    organiser_url,
    page_messages,
    rami,
    store,
)
from tournaments.actions import council, event_day
from tournaments.actions import results as result_actions
from tournaments.actions.results import Actor, EntryData
from tournaments.models import Appeal, Entry, Event, Match, Ruling

COUNCIL = ["Aino Ahola", "Bertta Berg", "Cecilia Carlsson"]


@pytest.fixture
def event(make_event, organiser):
    event, _group, _pairs = one_group_event(make_event, organiser, 5, name="Neuvostokisa", slug="neuvostokisa")
    event_day.set_council(event, COUNCIL)
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def penalised(event, organiser) -> Match:
    """Pair A leads after a deal; the referee puts pair B in the tuppi (A wins 5–0)."""
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    match = store(match, [rami("A", 8)], user=organiser)
    return result_actions.add_entry(
        match, EntryData(kind=Entry.Kind.TUPPI, pair="A"), version=None, actor=Actor(via_link=True)
    )


def council_url(event) -> str:
    return reverse("organiser:council", args=[event.slug])


def api_match(client, event, match) -> dict:
    data = client.get(reverse("api_event", args=[event.slug])).json()
    return next(m for g in data["groups"] for m in g["matches"] if m["id"] == match.pk)


def test_the_council_page_is_for_the_event_s_organisers(client, event, organiser, outsider):
    assert client.get(council_url(event)).status_code == 302  # to the login page
    assert client.post(reverse("organiser:council_rule", args=[event.slug]), {}).status_code == 302
    client.force_login(outsider)
    assert client.get(council_url(event)).status_code == 403
    assert client.post(reverse("organiser:council_rule", args=[event.slug]), {"match": 1}).status_code == 403
    client.force_login(organiser)
    html = client.get(council_url(event)).content.decode()
    assert "Ei käsiteltäviä valituksia." in html and "Aino Ahola, Bertta Berg, Cecilia Carlsson" in html


def test_pair_b_appeals_on_the_referee_s_phone_and_the_council_rules_the_penalty_away(
    client, event, organiser, penalised
):
    match = penalised
    # the referee's phone: the sheet links to the appeal form, which files it
    assert link_url(match) + "valitus/" in client.get(link_url(match)).content.decode()
    form = client.get(link_url(match) + "valitus/")
    assert form.status_code == 200 and "Valitusaika päättyy klo" in form.content.decode()
    refused = client.post(link_url(match) + "valitus/", {"side": "B", "subject": ""})
    assert refused.status_code == 200 and "subject" in field_errors(refused.content.decode())
    response = client.post(link_url(match) + "valitus/", {"side": "B", "subject": "Ei merkinantoa", "line": "2"})
    assert response.status_code == 302
    appeal = Appeal.objects.get(match=match)
    assert (appeal.side, appeal.line, appeal.status, appeal.filed_by_organiser) == ("B", 2, "open", False)
    # the public pages and the API say so; the group's standings are provisional
    public = client.get(reverse("match", args=[event.slug, match.pk])).content.decode()
    assert "valitus käsittelyssä" in public
    group = client.get(reverse("group", args=[event.slug, "A"])).content.decode()
    assert "valitus käsittelyssä" in group and "alustava" in group
    pair = client.get(reverse("pair", args=[event.slug, match.pair_b.number])).content.decode()
    assert "valitus käsittelyssä" in pair
    found = api_match(client, event, match)
    assert found["appeal"]["status"] == "open" and found["appeal"]["ruled"] is None and found["appeal"]["filed"]
    # the organiser's sheet holds the match: no confirm button, and a confirmation posted is refused
    client.force_login(organiser)
    sheet = client.get(organiser_url(match)).content.decode()
    assert "tuomarineuvoston käsittelyssä" in sheet and "Vahvista tulos" not in sheet
    match.refresh_from_db()
    response = client.post(organiser_url(match) + "vahvista/", {"version": match.version, "confirmed": "1"})
    assert "tulosta ei voi vahvistaa" in response.content.decode()
    # the council rules: two members are not enough, three are
    page = client.get(council_url(event)).content.decode()
    assert "Ei merkinantoa" in page
    prefix = f"a{appeal.pk}"
    data = {
        "appeal": appeal.pk, f"{prefix}-members": COUNCIL[:2], f"{prefix}-referee_heard": "on",
        f"{prefix}-pairs_heard": "on", f"{prefix}-decision": "upheld", f"{prefix}-reasons": "Merkinantoa ei näytetty.",
        f"{prefix}-effect": "penalty_remove", f"{prefix}-position": "2",
    }
    response = client.post(reverse("organiser:council_rule", args=[event.slug]), data)
    assert response.status_code == 200 and "vähintään kolme" in field_errors(response.content.decode())["members"]
    assert not Ruling.objects.exists()
    data[f"{prefix}-members"] = COUNCIL
    response = client.post(reverse("organiser:council_rule", args=[event.slug]), data, follow=True)
    assert "Tuomarineuvoston päätös kirjattu." in page_messages(response.content.decode())
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.entries.count() == 1
    # the public match page, the API and the history carry the ruling
    client.logout()
    public = client.get(reverse("match", args=[event.slug, match.pk])).content.decode()
    assert "valitus hyväksyttiin" in public and "rangaistus poistetaan" in public and "Merkinantoa ei näytetty." in public
    found = api_match(client, event, match)
    assert found["appeal"]["status"] == "upheld" and found["appeal"]["ruled"]
    assert "rangaistus poistetaan" in found["appeal"]["summary"]
    client.force_login(organiser)
    history = client.get(reverse("organiser:match_history", args=[event.slug, match.pk])).content.decode()
    assert "tuomarineuvoston päätös" in history and "valitus tuomarineuvostolle" in history


def test_the_organiser_files_an_appeal_for_a_pair(client, event, organiser, penalised):
    client.force_login(organiser)
    url = organiser_url(penalised) + "valitus/"
    assert client.get(url).status_code == 200
    response = client.post(url, {"side": "A", "subject": "Tuomari keskeytti jaon"})
    assert response.status_code == 302
    assert Appeal.objects.get(match=penalised).filed_by_organiser


def test_a_match_without_appeals_has_appeal_null_in_the_api(client, event):
    data = client.get(reverse("api_event", args=[event.slug])).json()
    assert all(m["appeal"] is None for g in data["groups"] for m in g["matches"])


def test_the_council_waives_a_late_forfeit_from_its_page(client, event, organiser, clock):
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    clock.set(dt.datetime(2026, 12, 12, 11, 40, tzinfo=HELSINKI))
    event_day.late_forfeit(match, "A", user=organiser)
    client.force_login(organiser)
    page = client.get(council_url(event)).content.decode()
    assert "Myöhästymisluovutukset" in page
    prefix = f"m{match.pk}"
    response = client.post(reverse("organiser:council_rule", args=[event.slug]), {
        "match": match.pk, f"{prefix}-members": COUNCIL, f"{prefix}-decision": "decided",
        f"{prefix}-reasons": "Juna myöhästyi.", f"{prefix}-effect": "waive_late",
    })
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    assert "Juna myöhästyi." in client.get(council_url(event)).content.decode()
    assert council.open_appeals(event).count() == 0


def test_the_council_excludes_a_player_from_its_page_and_the_public_pages_say_why(client, event, organiser):
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    store(match, [rami("A", 8)], user=organiser)
    pair = match.pair_a
    player = pair.members.order_by("position").first().player
    client.force_login(organiser)
    url = reverse("organiser:council_exclude", args=[event.slug])
    data = {"exclusion-player": f"{pair.pk}:{player.pk}", "exclusion-members": COUNCIL[:2], "exclusion-reason": "Häiriö"}
    response = client.post(url, data)
    assert response.status_code == 200 and "vähintään kolme" in field_errors(response.content.decode())["members"]
    data["exclusion-members"] = COUNCIL
    assert client.post(url, data).status_code == 302
    client.logout()
    assert client.post(url, data).status_code == 302  # to the login page
    html = client.get(reverse("pair", args=[event.slug, pair.number])).content.decode()
    assert "suljettu kisasta" in html and "Tuomarineuvosto sulki parin pelaajan kisasta: Häiriö" in html
    group = client.get(reverse("group", args=[event.slug, "A"])).content.decode()
    assert "tuomarineuvosto sulki kisasta (Häiriö), ottelut mitätöity" in group


def test_the_council_orders_talking_players_to_forfeit_a_match(client, event, organiser):
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    store(match, [rami("A", 8)], user=organiser)
    client.force_login(organiser)
    url = reverse("organiser:council_order", args=[event.slug])
    data = {"order-members": COUNCIL, "order-decision": "decided", "order-reasons": "Puhuivat pelin aikana.",
            "order-effect": "forfeit", "order-side": "B"}
    refused = client.post(url, data)  # no match chosen
    assert refused.status_code == 200 and "Valitse ottelu." in page_messages(refused.content.decode())
    assert client.post(url, {**data, "match": match.pk}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.entries.last().kind == Entry.Kind.FORFEIT
    public = client.get(reverse("match", args=[event.slug, match.pk])).content.decode()
    assert "pari luovuttaa ottelun" in public and "Puhuivat pelin aikana." in public
    assert api_match(client, event, match)["appeal"] is None  # a ruling without an appeal: no appeal
