"""Issue #25.9: the cup ranking on a phone (390×844). The table is wider than the screen: a hint says it
scrolls sideways, and the place and the name stay in view while it scrolls; the event columns are headed
with a name a reader understands; a name search finds a player with or without the diacritics.

The season is the cup tests' hand-worked one (tests/cup/conftest.py): three events, ten players."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.cup.conftest import hand_season  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "en-US"}

# Is the element wholly inside the scrolling box's visible part?
IN_BOX = """([sel, box]) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  const b = document.querySelector(box).getBoundingClientRect();
  return r.left >= b.left - 1 && r.right <= b.right + 1;
}"""


def test_the_ranking_scrolls_sideways_with_its_first_columns_in_view(browser, live_server, hand_season):  # noqa: F811
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live_server.url + reverse("cup:players", args=[hand_season.season.pk]))
    wrap = phone.locator(".cup-wrap")
    assert wrap.evaluate("el => el.scrollWidth > el.clientWidth")  # wider than the phone
    hint = phone.locator(".cup-wrap").locator("xpath=preceding-sibling::p[1]")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("vieritä sitä vaakasuunnassa")
    # the event columns: a short name and the date, the whole name in the title
    heads = phone.locator("th.event")
    expect(heads.nth(0)).to_contain_text("Kemin")
    expect(heads.nth(1)).to_contain_text("Oulun")
    expect(heads.nth(0).locator("abbr")).to_have_attribute("title", "Kemin osakilpailu, 13.9.2025")
    # scrolled to its end: the last column is in view, and so are the place and the name
    wrap.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    phone.wait_for_function("() => document.querySelector('.cup-wrap').scrollLeft > 0")
    first = "tbody tr:first-child"
    for cell in ("td.rank", "td.who", "td:last-child"):
        assert phone.evaluate(IN_BOX, [f"{first} {cell}", ".cup-wrap"]), cell
    assert phone.evaluate("""() => {  // the name column is not under the place column
      const a = document.querySelector('tbody tr:first-child td.rank').getBoundingClientRect();
      const b = document.querySelector('tbody tr:first-child td.who').getBoundingClientRect();
      return b.left >= a.right - 1;
    }""")
    expect(phone.locator(f"{first} td.rank")).to_have_text("1.–2.")
    expect(phone.locator(f"{first} td.who")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # only the table scrolls


def test_a_name_search_ignores_diacritics(browser, live_server, hand_season):  # noqa: F811
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live_server.url + reverse("cup:players", args=[hand_season.season.pk]))
    search = phone.get_by_label("Etsi nimellä")
    expect(search).to_be_visible()
    search.fill("gron")
    rows = phone.locator("#cup-players-list tr:visible")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Greta Grön")
    expect(phone.locator("#cup-players-list-found")).to_have_text("1 pelaaja löytyi")
    search.fill("Kemin")  # a club's name finds its players
    expect(rows).to_have_count(2)
    search.fill("xyz")
    expect(rows).to_have_count(0)
    expect(phone.locator("#cup-players-none")).to_be_visible()
    search.fill("")
    expect(rows).to_have_count(10)
    # the pairs' ranking has the same search
    phone.goto(live_server.url + reverse("cup:pairs", args=[hand_season.season.pk]))
    phone.get_by_label("Etsi nimellä").fill("heino")
    expect(phone.locator("#cup-pairs-list tr:visible")).to_have_count(1)
    expect(phone.locator("#cup-pairs-list tr:visible")).to_contain_text("Greta Grön")
