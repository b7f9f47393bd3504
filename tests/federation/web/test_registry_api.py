"""``GET /api/registry/`` (issue #27.4): the registry for the venue laptops, public, with an ETag."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from federation.schemas import check_registry
from registry.models import Player
from tests.support.registry_builders import small_registry


@pytest.mark.django_db
def test_anyone_gets_the_registry_and_a_304_while_it_is_unchanged(client):
    small_registry()
    url = reverse("api_registry")
    first = client.get(url)
    assert first.status_code == 200 and first["Content-Type"] == "application/json"
    doc = json.loads(first.content)
    check_registry(doc)
    assert len(doc["players"]) == 4
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    Player.objects.filter(member_number="1001").update(first_name="Aina")
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and "Aina" in changed.content.decode()
    assert client.post(url).status_code == 405
