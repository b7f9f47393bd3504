"""Issue #25: at the check-in desk on a phone, the search is emptied after a check-in, ready for the next
name; the pair just checked in stays in view."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.login import log_in
from tests.support.builders import add_pairs

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_search_is_emptied_after_a_check_in(browser, live_server, make_event, organiser):
    event = make_event(name="Kittilän Kaamos", slug="kaamos")
    event.organisers.add(organiser)
    first, second = add_pairs(event, 6, checked_in=False)[:2]
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    log_in(phone, live_server.url)
    phone.goto(f"{live_server.url}/jarjestaja/kisat/kaamos/ilmoittautuminen/")
    search = phone.get_by_label("Etsi pari nimellä tai numerolla")
    search.fill(first.players[0].last_name)
    expect(phone.locator("#checkin-list > li:visible")).to_have_count(1)
    phone.locator(f"#pari-{first.number}").get_by_role("button").click()
    expect(phone.locator(f'#pari-{first.number} button[aria-pressed="true"]')).to_be_visible()
    expect(search).to_have_value("")  # ready for the next name
    expect(phone.locator(f"#pari-{first.number}")).to_be_in_viewport()
    search.fill(second.players[0].last_name)
    expect(phone.locator("#checkin-list > li:visible")).to_have_count(1)
    expect(phone.locator(f"#pari-{second.number}")).to_be_visible()
