"""An organiser's API tokens (issue #27.4): made on the organiser pages, shown once, kept hashed, revoked."""

from __future__ import annotations

import pytest
from django.urls import reverse

from federation.actions import tokens
from federation.models import ApiToken

URL = "/jarjestaja/tunnukset/"


def test_the_address():
    assert reverse("federation:tokens") == URL


def test_three_users(client, organiser, outsider):
    """Anonymous: to the login page; each logged-in user sees and revokes only his own tokens."""
    assert client.get(URL).status_code == 302
    assert client.post(URL, {"name": "Kisakone"}).status_code == 302
    assert not ApiToken.objects.exists()
    client.force_login(organiser)
    made = client.post(URL, {"name": "Levin kisakone"})
    assert made.status_code == 200
    row = ApiToken.objects.get()
    client.force_login(outsider)
    assert "Levin kisakone" not in client.get(URL).content.decode()
    client.post(reverse("federation:token_revoke", args=[row.pk]))
    row.refresh_from_db()
    assert row.active  # not his to revoke
    client.force_login(organiser)
    client.post(reverse("federation:token_revoke", args=[row.pk]))
    row.refresh_from_db()
    assert not row.active


def test_shown_once_and_kept_only_as_a_digest(client, organiser):
    client.force_login(organiser)
    made = client.post(URL, {"name": "Kisakone"})
    html = made.content.decode()
    row = ApiToken.objects.get()
    shown = html.split('<code id="new-token">')[1].split("</code>")[0]
    assert shown.startswith("tpt_") and len(shown) > 40
    assert row.digest == tokens.digest(shown) and shown not in (row.digest, row.prefix)
    assert "no-store" in made["Cache-Control"]
    assert shown not in client.get(URL).content.decode()  # never shown again
    assert tokens.holder(f"Token {shown}") == organiser


def test_a_revoked_or_wrong_token_names_nobody(db, organiser):
    row, token = tokens.make(organiser, "Kisakone")
    assert tokens.holder(f"Token {token}") == organiser
    assert tokens.holder(f"Bearer {token}") is None
    assert tokens.holder(f"Token {token}x") is None
    assert tokens.holder("") is None and tokens.holder(None) is None
    tokens.revoke(organiser, row.pk)
    assert tokens.holder(f"Token {token}") is None


@pytest.mark.parametrize("name", ["", "   ", "=CMD()"])
def test_a_bad_name_is_named_and_nothing_made(client, organiser, name):
    client.force_login(organiser)
    response = client.post(URL, {"name": name})
    assert response.status_code == 200 and "field-error" in response.content.decode()
    assert not ApiToken.objects.exists()
