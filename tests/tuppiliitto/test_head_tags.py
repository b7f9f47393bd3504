"""Every page carries a meta description and a favicon (issue #18.9), and the favicon is served."""

from __future__ import annotations

import pytest
from django.urls import reverse


@pytest.mark.parametrize("name", ["home", "login", "cup:index"])
def test_public_pages_have_description_and_icon(client, db, name):
    html = client.get(reverse(name)).content.decode()
    head = html.split("</head>")[0]
    assert '<meta name="description" content="Suomen Tuppiliiton kisat' in head
    assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in head


def test_organiser_pages_too(logged_in):
    head = logged_in.get(reverse("organiser:home")).content.decode().split("</head>")[0]
    assert 'name="description"' in head and 'rel="icon"' in head


def test_description_in_english(client, db):
    client.cookies["django_language"] = "en"
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="description"' in html


def test_favicon_is_served(client, db):
    response = client.get("/static/img/favicon.svg")
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert body.startswith(b"<svg")
