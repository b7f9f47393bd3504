"""The public home page lists events as upcoming, live and finished, in Finnish unless asked otherwise."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone


@pytest.fixture
def events(make_event):
    today = timezone.localdate()
    return {
        "finished": make_event(name="Rovaniemen Syystuppi", starts_on=today - dt.timedelta(days=20)),
        "live": make_event(name="Sodankylän Joulutuppi", starts_on=today),
        "upcoming": make_event(name="Oulun Talvituppi", starts_on=today + dt.timedelta(days=30)),
    }


def section(html: str, heading: str) -> str:
    start = html.index(heading)
    end = html.find("<h2", start + 1)
    return html[start : end if end != -1 else len(html)]


def test_events_listed_by_status(client, events):
    html = client.get(reverse("home")).content.decode()
    assert "Sodankylän Joulutuppi" in section(html, "Käynnissä")
    assert "Oulun Talvituppi" in section(html, "Tulossa")
    assert "Rovaniemen Syystuppi" in section(html, "Päättyneet")
    assert "Oulun Talvituppi" not in section(html, "Käynnissä")


def test_finished_event_flag_wins_over_dates(client, make_event):
    today = timezone.localdate()
    make_event(name="Lopetettu kisa", starts_on=today, finished_at=timezone.now())
    html = client.get(reverse("home")).content.decode()
    assert "Lopetettu kisa" in section(html, "Päättyneet")


def test_empty_home_says_so(client, db):
    html = client.get(reverse("home")).content.decode()
    assert "Yksikään kisa ei ole käynnissä." in html


def test_finnish_by_default(client, db):
    response = client.get(reverse("home"))
    assert response.headers["Content-Language"] == "fi"
    assert '<html lang="fi">' in response.content.decode()


def test_language_switch_to_english(client, events):
    response = client.post(reverse("set_language"), {"language": "en", "next": reverse("home")})
    assert response.status_code == 302
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="en">' in html
    assert "Upcoming" in html and "Finished" in html
    assert "Oulun Talvituppi" in html


def test_event_page_public(client, events):
    response = client.get(events["live"].get_absolute_url())
    assert response.status_code == 200
    assert "Sodankylän Joulutuppi" in response.content.decode()


def test_unknown_event_is_404(client, db):
    assert client.get(reverse("event", args=["ei-ole"])).status_code == 404


def test_browser_language_does_not_override_finnish(client, db):
    # A phone set to English still gets Finnish until the visitor picks English with the switch.
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert response.headers["Content-Language"] == "fi"
