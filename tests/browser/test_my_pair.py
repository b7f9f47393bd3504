"""Issue #18, "my pair": found by name or pair number on the event page (a plain GET form, so it works
without JavaScript too), remembered on the device (localStorage, static/js/mypair.js): the next visit to the
event page is one tap from the pair's page."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from registry.models import Player
from tests.support.builders import add_pairs, clubs
from tournaments.actions import draw, entries
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "en-US"}


@pytest.fixture
def event(make_event, organiser):
    event = make_event(name="Sallan Tunturituppi", slug="tunturituppi", starts_on=timezone.localdate(),
                       format=Event.Format.ONE_STAGE, group_count=1)
    add_pairs(event, 5)
    aino = Player.objects.create(first_name="Aino", last_name="Kivelä", member_number="M1")
    olli = Player.objects.create(first_name="Olli", last_name="Mäkäräinen", member_number="M2")
    pair = entries.create_pair(event, aino, olli, clubs()[0])
    entries.set_checked_in(pair, True)
    draw.draw_groups(event, organiser, seed=3)
    pair.refresh_from_db()
    return event, pair


def test_found_by_name_then_remembered_on_the_phone(browser, live_server, event):
    event, pair = event
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/kisat/{event.slug}/")
    expect(page.locator("[data-my-pair-link]")).to_be_hidden()  # nothing remembered yet
    page.get_by_label("Oma pari: seuraava pöytä ja ottelut").fill("kivela")  # no "ä" on a hurried thumb
    page.get_by_role("button", name="Näytä").click()
    page.wait_for_url(f"**/kisat/{event.slug}/parit/{pair.number}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Aino Kivelä / Olli Mäkäräinen")

    page.get_by_role("button", name="Muista oma parini tällä laitteella").click()
    expect(page.get_by_text("Oma parisi tällä laitteella.")).to_be_visible()
    expect(page.get_by_role("button", name="Muista oma parini tällä laitteella")).to_be_hidden()

    # The next visit (a new tab, the same phone): one tap from the event page to the pair.
    later = context.new_page()
    later.goto(f"{live_server.url}/kisat/{event.slug}/")
    link = later.locator("[data-my-pair-link] a")
    expect(link).to_be_visible()
    expect(link).to_have_text(pair.name)
    link.click()
    later.wait_for_url(f"**/kisat/{event.slug}/parit/{pair.number}/")

    # Forgotten: the event page no longer offers it.
    later.get_by_role("button", name="Unohda").click()
    expect(later.get_by_role("button", name="Muista oma parini tällä laitteella")).to_be_visible()
    later.goto(f"{live_server.url}/kisat/{event.slug}/")
    expect(later.locator("[data-my-pair-link]")).to_be_hidden()
    assert later.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_picker_works_without_javascript(browser, live_server, event):
    event, pair = event
    page = browser.new_context(**PHONE, java_script_enabled=False).new_page()
    page.goto(f"{live_server.url}/kisat/{event.slug}/")
    page.get_by_label("Oma pari: seuraava pöytä ja ottelut").fill(str(pair.number))
    page.get_by_role("button", name="Näytä").click()
    page.wait_for_url(f"**/kisat/{event.slug}/parit/{pair.number}/")
    page.goto(f"{live_server.url}/kisat/{event.slug}/")
    page.get_by_label("Oma pari: seuraava pöytä ja ottelut").fill("suku")  # five pairs: a list to choose from
    page.get_by_role("button", name="Näytä").click()
    expect(page.locator(".pair-choices li")).to_have_count(5)
    page.locator(".pair-choices a").first.click()
    page.wait_for_url("**/parit/*/")
    expect(page.get_by_role("button", name="Muista oma parini tällä laitteella")).to_be_hidden()  # needs a script
