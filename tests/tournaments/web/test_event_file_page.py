"""The published event's file for download (issue #27): ``/kisat/<slug>/tapahtuma.json``, public and read
only, linked from the final places page and the API; none before the final places are published."""

from __future__ import annotations

from django.urls import reverse

from tests.support.eventfile_helpers import one_stage_event
from tests.support.results_helpers import one_group_event
from tournaments.output import eventfile


def test_no_file_before_publication(client, make_event, organiser):
    event, _group, _pairs = one_group_event(make_event, organiser, 4)
    assert client.get(reverse("event_file", args=[event.slug])).status_code == 404
    assert client.get(reverse("api_event", args=[event.slug])).json()["event_file"] is None
    assert reverse("event_file", args=[event.slug]) not in client.get(reverse("final_places", args=[event.slug])).content.decode()


def test_the_published_file_is_offered_to_everyone(client, make_event, organiser):
    event = one_stage_event(make_event, organiser)
    url = reverse("event_file", args=[event.slug])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="{event.slug}-tapahtuma.json"'
    assert response.content == eventfile.export_text(event).encode()
    again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    assert f'href="{url}"' in client.get(reverse("final_places", args=[event.slug])).content.decode()
    assert client.get(reverse("api_event", args=[event.slug])).json()["event_file"] == url
    assert client.post(url).status_code == 405
