"""An event file uploaded on the site's organiser pages (issue #27.4): as ``push_event`` sends it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.support.eventfile_helpers import empty_database, simulated
from tournaments.models import Event
from tournaments.output.eventfile import export_text

URL = "/jarjestaja/tuo-kisa/"


@pytest.fixture
def text(db):
    event = simulated(16, seed=6)
    exported = export_text(event)
    empty_database()
    return exported


def upload(content: str | bytes) -> dict:
    raw = content.encode() if isinstance(content, str) else content
    return {"file": SimpleUploadedFile("tapahtuma.json", raw, content_type="application/json")}


def test_the_address():
    assert reverse("federation:upload") == URL


@pytest.mark.slow
def test_three_users(client, text, organiser, outsider):
    assert client.post(URL, upload(text)).status_code == 302  # to the login page
    assert not Event.objects.exists()
    client.force_login(outsider)
    refused = client.post(URL, upload(text))
    assert refused.status_code == 200 and "field-error" in refused.content.decode()
    assert not Event.objects.exists()
    organiser.user_permissions.add(Permission.objects.get(codename="add_event"))
    client.force_login(organiser)
    done = client.post(URL, upload(text))
    event = Event.objects.get()
    assert done.headers["Location"] == reverse("organiser:event", args=[event.slug])
    assert event.can_organise(organiser) and export_text(event) == text


def test_a_broken_file_is_named_next_to_the_field(client, db, organiser):
    organiser.user_permissions.add(Permission.objects.get(codename="add_event"))
    client.force_login(organiser)
    for junk in (b"not json", b'{"format": "tuppi-event", "version": 1}'):
        page = client.post(URL, upload(junk))
        html = page.content.decode()
        assert page.status_code == 200 and "field-error" in html and "kisatiedosto" in html.lower()
    assert client.post(URL, {}).status_code == 200
    assert not Event.objects.exists()
