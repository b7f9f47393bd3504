"""Issue #25: the language switch is in the header too (compact, one tap, no JavaScript needed), not only
at the foot of a long page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_header_switches_the_language_on_a_phone(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    header = page.locator("header.site-header")
    switch = header.get_by_role("button", name="English", exact=True)
    expect(switch).to_be_in_viewport()
    expect(switch).to_have_attribute("lang", "en")
    switch.click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    back = header.get_by_role("button", name="Suomi", exact=True)
    expect(back).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    back.click()
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    context.close()
