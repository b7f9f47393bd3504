"""Events in and out of the federation's site with an organiser's token (issue #27.4):
``POST /api/events/import/`` (``push_event``) and ``GET /api/events/<slug>/file/`` (``pull_registry --event``)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from federation.actions import tokens
from tests.support.eventfile_helpers import corrected_again, empty_database, one_stage_event, simulated
from tournaments.models import Event
from tournaments.output.eventfile import export_text

pytestmark = pytest.mark.slow  # a simulated 16-pair event each


@pytest.fixture
def sent(db):
    """A played event's file, on a site that does not have the event (nor its players) yet."""
    event = simulated(16, seed=4)
    text = export_text(event)
    empty_database()
    return json.loads(text)["event"]["slug"], text.encode()


@pytest.fixture
def creator(organiser):
    organiser.user_permissions.add(Permission.objects.get(codename="add_event"))
    return organiser


def post(client, body: bytes, token: str | None):
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    return client.post(reverse("api_event_import"), body, content_type="application/json", **headers)


def test_three_senders(client, sent, creator, outsider):
    """No token: 401; the token of one who may not create events: 403; an organiser's who may: the event."""
    slug, body = sent
    assert post(client, body, None).status_code == 401
    assert post(client, body, "tpt_nonsense").status_code == 401
    _row, other = tokens.make(outsider, "kone")
    assert post(client, body, other).status_code == 403
    assert not Event.objects.exists()
    _row, token = tokens.make(creator, "kone")
    answer = post(client, body, token)
    assert answer.status_code == 201 and answer.json()["slug"] == slug and answer.json()["created"]
    assert "no-store" in answer["Cache-Control"]
    event = Event.objects.get(slug=slug)
    assert event.can_organise(creator)
    assert export_text(event).encode() == body  # the site holds what the laptop sent, to the byte


def test_sent_again_changes_nothing_and_another_file_is_refused(client, sent, creator):
    slug, body = sent
    _row, token = tokens.make(creator, "kone")
    assert post(client, body, token).status_code == 201
    again = post(client, body, token)
    assert again.status_code == 200 and not again.json()["created"]
    assert Event.objects.filter(slug=slug).count() == 1
    changed = json.loads(body)
    changed["event"]["venue"] = "Toinen paikka"
    refused = post(client, json.dumps(changed).encode(), token)
    assert refused.status_code == 409 and refused.json()["errors"]
    assert Event.objects.get(slug=slug).venue != "Toinen paikka"


def test_an_invalid_file_is_refused_saying_why(client, sent, creator):
    _slug, body = sent
    _row, token = tokens.make(creator, "kone")
    for junk in (b"", b"{", b'{"format": "tuppi-event"}', b"\xff\xfe"):
        answer = post(client, junk, token)
        assert answer.status_code == 400 and answer.json()["errors"], junk
    assert not Event.objects.exists()
    assert client.get(reverse("api_event_import")).status_code == 405


def test_an_organiser_takes_his_event_with_his_token(client, db, creator, outsider):
    event = simulated(16, seed=4)
    event.organisers.add(creator)
    url = reverse("api_event_file", args=[event.slug])
    assert client.get(url).status_code == 401
    _row, other = tokens.make(outsider, "kone")
    assert client.get(url, HTTP_AUTHORIZATION=f"Token {other}").status_code == 403
    _row, token = tokens.make(creator, "kone")
    answer = client.get(url, HTTP_AUTHORIZATION=f"Token {token}")
    assert answer.status_code == 200 and answer.content.decode() == export_text(event)
    assert "no-store" in answer["Cache-Control"]


def test_a_corrected_file_of_a_published_event_is_recorded_as_a_correction(client, creator, make_event, tmp_path):
    event = one_stage_event(make_event, creator)
    published = export_text(event).encode()
    corrected_again(event)
    corrected = export_text(event).encode()
    empty_database()
    _row, token = tokens.make(creator, "kone")
    assert post(client, published, token).status_code == 201
    answer = post(client, corrected, token)
    assert answer.status_code == 200 and answer.json()["corrected"] and not answer.json()["created"]
    assert any("Väärä tikkimäärä" in note for note in answer.json()["notes"])
    assert export_text(Event.objects.get(slug=event.slug)).encode() == corrected
    refused = post(client, published, token)  # the older file now
    assert refused.status_code == 409 and "vanhempi" in " ".join(refused.json()["errors"])
