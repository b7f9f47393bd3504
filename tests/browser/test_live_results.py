"""Issue #5's table and hallway: a referee enters a whole match deal by deal on a phone through the
scoresheet's secret link, while a player's phone on the group page sees the standings change by itself
(no reload)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.support.builders import add_pairs
from tournaments.actions import draw
from tournaments.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "en-US"}


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def enter_deal(page, game: str, tricks_a: int, caller_seat: int | None = None) -> None:
    page.locator(f'label.toggle:has(input[name="game"][value="{game}"])').click()
    if caller_seat:
        page.locator(f'label.toggle:has(input[name="caller_seat"][value="{caller_seat}"])').click()
    page.get_by_label("Parin A kasat").fill(str(tricks_a))
    page.get_by_role("button", name="Tallenna jako").click()
    page.wait_for_load_state()


def test_referee_enters_a_match_while_a_player_watches(browser, live_server, make_event, organiser):
    event = make_event(name="Joulutuppi", slug="joulutuppi", starts_on=timezone.localdate())
    add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=11)
    match = Match.objects.get(event=event, group__name="A")  # groups of 2: one match
    a, b = match.pair_a.name, match.pair_b.name

    player = browser.new_context(**PHONE).new_page()
    player.goto(f"{live_server.url}/kisat/joulutuppi/lohkot/A/")
    player.evaluate("window.__notReloaded = true")
    standings = player.locator("table.standings tbody tr")
    expect(standings.first).to_contain_text("0")

    referee = browser.new_context(**PHONE).new_page()
    referee.goto(f"{live_server.url}/tulos/{match.token}/")
    assert no_horizontal_scroll(referee)
    # Deal 1: B's caller (seat 2) makes rami with 9 tricks: 4 × (9 − 6) = 12, B up 12.
    enter_deal(referee, "rami", tricks_a=4, caller_seat=2)
    expect(referee.locator("table.sheet tbody tr").nth(0)).to_contain_text("12 B")
    # Deal 2: nolo, A takes 9 tricks, so B wins 4 × (9 − 6) = 12: B's rise 24.
    enter_deal(referee, "nolo", tricks_a=9)
    expect(referee.locator("table.sheet tbody tr").nth(1)).to_contain_text("24")
    expect(referee.get_by_role("status")).to_contain_text(f"{b} nousulla 24")
    # Deal 3: A's caller (seat 1) takes no trick: nälsytuppi, 56 to B; 24 + 56 = 80 ≥ 52 → tuppi, 5–0.
    enter_deal(referee, "rami", tricks_a=0, caller_seat=1)
    expect(referee.get_by_role("status")).to_contain_text("voitti tupilla")
    expect(referee.get_by_role("status")).to_contain_text("ottelupisteet 0–5")  # A–B
    assert referee.get_by_role("button", name="Tallenna jako").count() == 0  # nothing after the end
    assert no_horizontal_scroll(referee)

    # The player's page refreshed its standings by itself within a few seconds: B first with 5 points.
    expect(standings.first).to_contain_text(b, timeout=12_000)
    expect(standings.first).to_contain_text("5")
    expect(standings.nth(1)).to_contain_text(a)
    assert player.evaluate("window.__notReloaded === true")
    assert no_horizontal_scroll(player)
