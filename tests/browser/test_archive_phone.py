"""Issue #28: the archive's tables on a phone (390×844). A wide table scrolls sideways inside its box,
with a hint, and its first column (the season, the event) stays in view; the page itself never does."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.cup.builders import club, one_group_event, player
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "fi-FI"}
IN_BOX = """([sel, box]) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  const b = document.querySelector(box).getBoundingClientRect();
  return r.left >= b.left - 1 && r.right <= b.right + 1;
}"""


@pytest.fixture
def seasons(db):
    home = club("Äkäslompolon Tuppikerho", "ÄTK")
    a, b = player("Äijä-Pekka", "Kivelä-Sjöberg", home), player("Håkan", "Mäkelä-Öhman", home)
    c, d = player("Into", "Kivelä", home), player("Uuno", "Öhman", home)
    one_group_event("Kevään pitkänimisin osakilpailu", dt.date(2026, 3, 7), [(a, b, home), (c, d, home)], weight=Decimal(1))
    one_group_event("Sodankylän SM-parikisa", dt.date(2026, 6, 6), [(c, d, home), (a, b, home)],
                    kind=Event.Kind.SM_PAIRS, weight=Decimal(1))
    return a


@pytest.mark.parametrize("path", ["/kaudet/", "player"])
def test_a_wide_table_scrolls_with_its_first_column_in_view(browser, live_server, seasons, path):
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live_server.url + (f"/pelaajat/{seasons.pk}/" if path == "player" else path))
    wrap = ".archive-wrap"
    assert phone.locator(wrap).first.evaluate("el => el.scrollWidth > el.clientWidth")
    expect(phone.locator(".scroll-hint").first).to_be_visible()  # static/js/scrollhint.js shows it
    phone.locator(wrap).first.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    phone.wait_for_function("() => document.querySelector('.archive-wrap').scrollLeft > 0")
    first = ".archive-wrap tbody tr:first-child"
    assert phone.evaluate(IN_BOX, [f"{first} td:first-child", wrap])
    assert phone.evaluate(IN_BOX, [f"{first} td:last-child", wrap])
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
