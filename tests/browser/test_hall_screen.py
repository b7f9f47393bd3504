"""Issue #18.7, the hall screen: on a TV (1920×1080) and a projector (1280×720) every panel fits the screen
(nothing scrolls, nothing spills over its edge); the screen rotates by itself, and a result saved at a
table shows on it within a poll, while it keeps rotating."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations
from tests.support.results_helpers import paper
from tournaments.actions import sunday
from tournaments.actions.simulation import play_matches, settle_playoffs
from tournaments.models import Event, Match

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}]

# For each panel in turn: made the current one, does the page scroll, and does anything of it lie outside
# the screen (or outside its own panel)?
CHECK_PANELS = """() => {
  const out = [];
  const panels = Array.from(document.querySelectorAll('#live [data-panel]'));
  for (const p of panels) {
    panels.forEach(q => q.classList.toggle('is-current', q === p));
    const doc = document.documentElement;
    const box = p.getBoundingClientRect();
    const spilled = Array.from(p.querySelectorAll('*')).filter(e => {
      const r = e.getBoundingClientRect();
      return r.height > 0 && (r.bottom > Math.min(innerHeight, box.bottom) + 1 || r.right > innerWidth + 1);
    }).length;
    out.push([p.dataset.panel, doc.scrollHeight > innerHeight || doc.scrollWidth > innerWidth, spilled]);
  }
  return out;
}"""


def simulate(pairs: int, seed: int, until: str) -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", str(pairs), "--seed", str(seed), "--until", until, stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


def check_every_panel(browser, url: str) -> list[str]:
    keys = []
    for screen in SCREENS:
        page = browser.new_context(viewport=screen).new_page()
        page.goto(url)
        results = page.evaluate(CHECK_PANELS)
        assert results, "no panels"
        bad = [(key, scrolls, spilled) for key, scrolls, spilled in results if scrolls or spilled]
        assert not bad, (screen, bad)
        keys = [key for key, _s, _p in results]
        page.context.close()
    return keys


def test_every_panel_fits_a_tv_and_a_projector(browser, live_server):
    # 128 pairs in the middle of round 3: 64 tables in six panels, sixteen groups of eight
    event = simulate(128, 3, "draw")
    rng = random.Random(3)
    play_matches(event.matches.filter(round__lt=3), rng)
    play_matches(event.matches.filter(round=3).order_by("table")[:30], rng)
    keys = check_every_panel(browser, f"{live_server.url}/kisat/{event.slug}/halli/")
    assert sum(k.startswith("tables-") for k in keys) == 6 and sum(k.startswith("group-") for k in keys) == 16
    assert "chart" in keys
    # axe-core finds nothing serious on any kind of panel (dark colours included)
    page = browser.new_context(viewport=SCREENS[0]).new_page()
    page.goto(f"{live_server.url}/kisat/{event.slug}/halli/?vaihto=300")
    for key in ("tables-saturday-3-1", next(k for k in keys if k.startswith("group-")), "chart"):
        page.evaluate("k => document.querySelectorAll('[data-panel]').forEach(p => p.classList.toggle('is-current', "
                      "p.dataset.panel === k))", key)
        assert serious_violations(page) == [], key

    # Sunday, the bracket and the places of a finished event
    finished = simulate(40, 4, "groups")
    sunday.advance(finished, None)
    play_matches(finished.matches.filter(stage="sunday"), rng)
    settle_playoffs(finished, rng, "sunday")
    for _step in ("semi", "final", "done"):
        sunday.create_placements(finished)
        play_matches(finished.matches.filter(stage="placement"), rng)
    keys = check_every_panel(browser, f"{live_server.url}/kisat/{finished.slug}/halli/")
    assert {"bracket-1", "bracket-2", "places"} <= set(keys)
    page.goto(f"{live_server.url}/kisat/{finished.slug}/halli/?vaihto=300")
    for key in ("bracket-1", "places"):
        page.evaluate("k => document.querySelectorAll('[data-panel]').forEach(p => p.classList.toggle('is-current', "
                      "p.dataset.panel === k))", key)
        assert serious_violations(page) == [], key


def test_the_screen_rotates_and_shows_a_result(browser, live_server):
    event = simulate(40, 6, "draw")  # 8 groups of 5: round 1's 16 tables in two panels, then the groups
    page = browser.new_context(viewport=SCREENS[0]).new_page()
    page.goto(f"{live_server.url}/kisat/{event.slug}/halli/?vaihto=2")  # a panel every 2 seconds
    body = page.locator("body")
    expect(body).to_have_attribute("data-current", "tables-saturday-1-1")
    expect(page.locator(".hall-panel.is-current")).to_have_count(1)
    expect(body).to_have_attribute("data-current", "tables-saturday-1-2", timeout=4_000)
    expect(body).to_have_attribute("data-current", "group-" + str(event.groups.get(name="A").pk) + "-1",
                                   timeout=4_000)
    expect(page.locator(".hall-panel.is-current")).to_contain_text("Lohko A")
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")

    # A referee's result at table 1: the tables panel shows it after the next poll, and group A's standings
    # too; the screen went on rotating meanwhile and still shows one panel.
    match = Match.objects.get(event=event, round=1, table=1)
    paper(match, 40, 20)
    first = page.locator('[data-panel="tables-saturday-1-1"] .hall-table').first
    expect(first).to_contain_text("3–2 (40–20)", timeout=12_000)
    rows = page.locator(f'[data-panel="group-{match.group_id}-1"] tbody tr')  # 3 and 2 match points, then 0s
    expect(rows.nth(0)).to_contain_text(match.pair_a.name, timeout=2_000)
    expect(rows.nth(1)).to_contain_text(match.pair_b.name)
    expect(page.locator(".hall-panel.is-current")).to_have_count(1)
    seen = {page.get_attribute("body", "data-current")}
    for _ in range(3):
        page.wait_for_timeout(2_100)
        seen.add(page.get_attribute("body", "data-current"))
    assert len(seen) >= 3  # still rotating after the refresh


# Every visible text's font size, panel by panel (each made the current one in turn): [key, size, text].
SMALL_TEXT = """(least) => {
  const out = [];
  const panels = Array.from(document.querySelectorAll('#live [data-panel]'));
  for (const p of panels) {
    panels.forEach(q => q.classList.toggle('is-current', q === p));
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.data.trim() || !el.getClientRects().length) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || el.closest('.visually-hidden')) continue;
      const size = parseFloat(style.fontSize);
      if (size < least) out.push([p.dataset.panel, size, node.data.trim().slice(0, 30)]);
    }
  }
  return out;
}"""


def test_readable_from_five_metres_on_a_projector(browser, live_server):
    """Issue #25.10: at 1280×720 no text of any panel is under 24 px (the tables, the standings, the
    Sunday chart, the bracket, the places), and the bracket's names are whole."""
    event = simulate(40, 5, "draw")
    rng = random.Random(5)
    play_matches(event.matches.filter(round=1), rng)
    play_matches(event.matches.filter(round=2).order_by("table")[:6], rng)  # round 2 under way
    finished = simulate(40, 4, "groups")
    sunday.advance(finished, None)
    play_matches(finished.matches.filter(stage="sunday"), rng)
    settle_playoffs(finished, rng, "sunday")
    for _step in ("semi", "final", "done"):
        sunday.create_placements(finished)
        play_matches(finished.matches.filter(stage="placement"), rng)
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    seen = set()
    for slug in (event.slug, finished.slug):
        page.goto(f"{live_server.url}/kisat/{slug}/halli/?vaihto=300")
        assert page.evaluate(SMALL_TEXT, 24) == []
        seen |= set(page.evaluate("Array.from(document.querySelectorAll('[data-panel]'), p => p.dataset.panel)"))
    assert {"tables-saturday-2-1", "chart", "bracket-1", "places"} <= seen and any(k.startswith("group-") for k in seen)
    # the bracket: names whole (no "…"), each match named, the winners marked
    page.evaluate("document.querySelectorAll('[data-panel]').forEach(p => p.classList.toggle('is-current', "
                  "p.dataset.panel === 'bracket-1'))")
    sides = page.locator('[data-panel="bracket-1"] .hall-side')
    assert sides.count() == 16
    assert page.evaluate("""() => Array.from(document.querySelectorAll('[data-panel="bracket-1"] .hall-side'))
      .every(e => e.scrollWidth <= e.clientWidth + 1 && getComputedStyle(e).textOverflow !== 'ellipsis')""")
    expect(page.locator('[data-panel="bracket-1"] .hall-side.winner')).to_have_count(8)
    expect(page.locator('[data-panel="bracket-1"] .hall-round').first).to_have_text("Välierä")
    check_every_panel(browser, f"{live_server.url}/kisat/{finished.slug}/halli/")  # and it all still fits


def test_the_current_rounds_tables_are_back_every_30_seconds(browser, live_server):
    """Issue #25.10: the screen's own rotation (static/js/hall.js, run on a fake clock for four minutes)
    shows each panel of the current round's tables at least every 30 seconds, and every other panel too."""
    event = simulate(40, 6, "draw")  # round 1's 16 tables in two panels, then eight groups
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/kisat/{event.slug}/halli/")
    keys = page.evaluate("Array.from(document.querySelectorAll('[data-panel]'), p => p.dataset.panel)")
    shown = []
    for _second in range(0, 240, 10):
        shown.append(page.get_attribute("body", "data-current"))
        page.clock.run_for(10_000)
    assert set(shown) == set(keys)  # every panel had its turn
    for key in ("tables-saturday-1-1", "tables-saturday-1-2"):
        at = [i * 10 for i, k in enumerate(shown) if k == key]
        assert at[0] <= 20 and max(b - a for a, b in zip(at, at[1:], strict=False)) <= 30, (key, shown)
    expect(page.locator(".hall-panel.is-current")).to_have_count(1)
