"""The home page and the login page at phone size (390×844) in Debian's chromium: Finnish first, English
one tap away, and nothing wider than the screen."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.fixture
def demo_events(make_event):
    today = timezone.localdate()
    make_event(name="Pudasjärven Pitkä Tuppiviikonloppu ja Kansainvälinen Kasaturnaus", starts_on=today)
    make_event(name="Oulun Talvituppi", starts_on=today + dt.timedelta(days=30), venue="Kastellin kerhotila")


def test_home_in_finnish_then_english(page, live_server, demo_events):
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "fi"
    assert page.get_by_role("heading", name="Käynnissä").is_visible()
    assert page.get_by_text("Oulun Talvituppi").is_visible()
    assert no_horizontal_scroll(page)

    page.get_by_role("button", name="In English").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("heading", name="Live").is_visible()
    assert page.get_by_role("heading", name="Upcoming").is_visible()
    assert no_horizontal_scroll(page)

    page.get_by_role("button", name="Suomeksi").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "fi"


def test_login_page_in_finnish_then_english(page, live_server, organiser):
    page.goto(live_server.url + "/kirjaudu/")
    assert page.get_by_label("Käyttäjätunnus").is_visible()
    assert no_horizontal_scroll(page)
    page.get_by_label("Käyttäjätunnus").fill("organiser")
    page.get_by_label("Salasana").fill("väärä-salasana")
    page.get_by_role("button", name="Kirjaudu").last.click()
    page.wait_for_load_state()
    assert page.get_by_role("alert").inner_text().startswith("Väärä käyttäjätunnus tai salasana")
    assert no_horizontal_scroll(page)

    page.get_by_role("button", name="In English").click()
    page.wait_for_load_state()
    assert page.get_by_label("Username").is_visible()
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill("salasana-1")
    page.get_by_role("button", name="Log in").last.click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", name="Organiser pages").is_visible()
    assert no_horizontal_scroll(page)
