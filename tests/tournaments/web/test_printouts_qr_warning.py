"""Issue #25 point 7: scoresheets printed from 127.0.0.1 or localhost (``make run``) carry QR codes no phone
can open; the printouts page says so, and what to do, before anything is printed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from lib.http import loopback
from tests.support.builders import add_pairs
from tournaments.actions import draw

WARNING = "QR-koodit osoittaisivat vain tähän koneeseen"


@pytest.fixture
def page(make_event, organiser, client):
    event = make_event()
    event.organisers.add(organiser)
    add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=1)
    client.force_login(organiser)
    return reverse("organiser:printouts", args=[event.slug])


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_printouts_from_this_machine_warn_and_say_what_to_do(client, page, host, settings):
    settings.TUPPI_PUBLIC_URL = ""
    html = " ".join(client.get(page, HTTP_HOST=host).content.decode().split())
    assert WARNING in html and f"({'http://' + host})" in html
    assert "make venue" in html and "TUPPI_PUBLIC_URL" in html


def test_no_warning_for_an_address_phones_reach(client, page, settings):
    settings.TUPPI_PUBLIC_URL = "http://192.168.1.20:8000"  # as make venue sets it
    assert WARNING not in client.get(page, HTTP_HOST="127.0.0.1:8000").content.decode()
    settings.TUPPI_PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["tulokset.example.fi"]
    assert WARNING not in client.get(page, HTTP_HOST="tulokset.example.fi").content.decode()


def test_loopback_addresses():
    assert all(loopback(url) for url in ("http://127.0.0.1:8000", "http://127.0.0.2/", "http://[::1]:8000/",
                                         "http://localhost/", "http://tuppi.localhost:8000"))
    assert not any(loopback(url) for url in ("http://192.168.1.20:8000", "https://tulokset.example.fi", ""))
