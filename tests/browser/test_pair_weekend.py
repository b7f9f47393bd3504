"""Issue #14, done when: a player finds the Sunday table on the pair page at 390 px; and issue #18: on a
phone names wrap between words (never inside one), a table number stays on one line under its label
("pöytä 15", issue #25.10), the cross table shows that it scrolls; issue #25.8: a resting pair's page
leads with the rest."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from tests.support.builders import add_pairs
from tests.support.results_helpers import one_group_event
from tournaments.actions import draw as draw_actions
from tournaments.actions import sunday
from tournaments.actions.simulation import play_matches
from tournaments.models import Event, Match
from tournaments.readmodel import build

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "en-US"}

# Every word of the given elements' text on one line: a word broken inside ("Mannine/n") has two boxes.
WORDS_WHOLE = """sel => {
  const broken = [];
  for (const el of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /\\S+/g;
      let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const boxes = Array.from(range.getClientRects()).filter(r => r.width > 0);
        const lines = new Set(boxes.map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


def simulate(pairs: int, seed: int, until: str) -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", str(pairs), "--seed", str(seed), "--until", until, stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


def test_a_player_finds_the_sunday_table_on_the_pair_page(browser, live_server):
    event = simulate(40, 8, "groups")
    sunday.advance(event, None)
    snap = build.build(event.pk)
    table = snap.stage_tables("sunday")[0]
    pair = table.rows[0].pair
    mine = sorted((m for m in table.matches if pair.pk in (m.pair_a_id, m.pair_b_id)), key=lambda m: m.round)

    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server.url}/kisat/{event.slug}/parit/{pair.number}/")
    box = phone.locator(".next-table")
    expect(box).to_be_visible()
    expect(box).to_contain_text(f"Pöytä {mine[0].table}")
    expect(box).to_contain_text("Sunnuntain lohko 1, kierros 1")
    expect(box).to_contain_text(mine[0].opponent(pair.pk).name)
    assert box.bounding_box()["y"] + box.bounding_box()["height"] < 844  # on the first screen, no scrolling
    expect(phone.get_by_role("link", name="Sunnuntain lohko 1")).to_be_visible()
    expect(phone.locator(".outlook").first).to_contain_text("vielä auki: sijat 1.–16.")  # Sunday: nothing played
    expect(phone.locator(".outlook").last).to_contain_text("jatkoon varmasti")  # Saturday's group: through
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert phone.evaluate(WORDS_WHOLE, ".fixture, .next-table, h1, h2") == []

    # The first Sunday match is played at its table: the page moves on to the next one by itself.
    play_matches(Match.objects.filter(pk=mine[0].pk), random.Random(1))
    expect(box).to_contain_text("Sunnuntain lohko 1, kierros 2", timeout=12_000)
    expect(box).to_contain_text(f"Pöytä {mine[1].table}")


def test_names_and_table_numbers_at_390(browser, live_server):
    event = simulate(40, 3, "draw")  # 8 groups of 5: group H plays at tables 15 and 16
    play_matches(event.matches.filter(round=1), random.Random(2))
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server.url}/kisat/{event.slug}/lohkot/H/")
    numbers = phone.locator(".fixture .table-no")
    expect(numbers.first).to_be_visible()
    expect(phone.locator(".fixture .table-no small").first).to_have_text("pöytä")  # the number says what it is
    expect(phone.locator(".fixture .meta").first).to_contain_text("kierros 1")
    texts = [t.split() for t in numbers.all_inner_texts()]
    assert all(t[0] == "pöytä" for t in texts) and any(t[-1] in ("15", "16") for t in texts)
    assert phone.evaluate(WORDS_WHOLE, ".fixture .table-no") == []  # "15" on one line
    assert phone.evaluate(WORDS_WHOLE, ".fixture, table.standings td") == []
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_cross_table_shows_that_it_scrolls(browser, live_server, make_event, organiser):
    event = make_event(slug="levea", starts_on=timezone.localdate(), format=Event.Format.ONE_STAGE, group_count=1)
    add_pairs(event, 8)  # a cross table of eight columns: wider than a phone
    draw_actions.draw_groups(event, organiser, seed=2)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server.url}/kisat/{event.slug}/lohkot/A/")
    hint = phone.locator("[data-scroll-hint]")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("vieritä")
    wrap = phone.locator(".table-wrap.scroll-shadow")
    assert wrap.evaluate("el => el.scrollWidth > el.clientWidth")
    assert "radial-gradient" in wrap.evaluate("el => getComputedStyle(el).backgroundImage")  # the edge shadow
    # on a wide screen the table fits and the hint goes away
    phone.set_viewport_size({"width": 1280, "height": 800})
    expect(hint).to_be_hidden()


def test_a_resting_pair_sees_its_rest_first(browser, live_server, make_event, organiser, clock):
    """Issue #25.8: resting in round 1, the pair's page leads with "Lepovuoro nyt" and until when, in
    large type; its next match (round 2, at a table another match plays at now) follows, not as big."""
    event, _group, pairs = one_group_event(make_event, organiser, 5)
    playing = {p for m in Match.objects.filter(event=event, round=1) for p in (m.pair_a_id, m.pair_b_id)}
    (resting,) = [p for p in pairs if p.pk not in playing]
    clock.set("2026-12-12 11:30")  # round 1 is on
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server.url}/kisat/{event.slug}/parit/{resting.number}/")
    rest, later = phone.locator(".rest-now"), phone.locator(".next-table")
    expect(rest).to_contain_text("Lepovuoro nyt")
    expect(rest).to_contain_text("kierros 1 · noin klo 12.20 asti")
    expect(later).to_contain_text("Lohko A, kierros 2 · noin 12.20")
    assert rest.bounding_box()["y"] < later.bounding_box()["y"]  # the rest first
    assert later.bounding_box()["y"] + later.bounding_box()["height"] < 844  # both on the first screen
    size = "sel => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize)"
    assert phone.evaluate(size, ".rest-now .big") > phone.evaluate(size, ".next-table .later-table")
