"""Issue #13, done when: two phones on a group page and one on the event page while a referee enters deals
on a fourth; each save shows on the others within one poll, and a phone that polls while nothing changes
keeps its page exactly as it is (no swap: its cross table stays scrolled where the player left it)."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.support.builders import add_pairs
from tournaments.actions import draw
from tournaments.models import Event, Match

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "en-US"}
POLL_S = 5


def save_deal(page, game: str, tricks_a: int, caller_seat: int | None = None) -> None:
    page.locator(f'label.toggle:has(input[name="game"][value="{game}"])').click()
    if caller_seat:
        page.locator(f'label.toggle:has(input[name="caller_seat"][value="{caller_seat}"])').click()
    page.get_by_label("Parin A kasat").fill(str(tricks_a))
    page.get_by_role("button", name="Tallenna jako").click()
    page.wait_for_load_state()


def watch(page) -> dict:
    """Count the page's polls of its live part by answer status."""
    seen = {"200": 0, "304": 0}

    def on_response(response):
        if response.request.headers.get("hx-request") == "true":
            seen[str(response.status)] = seen.get(str(response.status), 0) + 1

    page.on("response", on_response)
    return seen


def test_phones_follow_a_referee_and_keep_their_place(browser, live_server, make_event, organiser):
    event = make_event(
        name="Kittilän Kaamostuppi", slug="kaamostuppi", starts_on=timezone.localdate(),
        format=Event.Format.ONE_STAGE, group_count=1,
    )
    add_pairs(event, 8)  # one group of 8: a cross table wider than a phone
    draw.draw_groups(event, organiser, seed=2)
    match = Match.objects.filter(event=event, round=1).order_by("table").first()
    group_url = f"{live_server.url}/kisat/kaamostuppi/lohkot/A/"

    phones = []
    for _ in range(2):
        page = browser.new_context(**PHONE).new_page()
        polls = watch(page)
        page.goto(group_url)
        phones.append((page, polls))
    hall = browser.new_context(**PHONE).new_page()
    hall_polls = watch(hall)
    hall.goto(f"{live_server.url}/kisat/kaamostuppi/")
    expect(hall.locator("#live")).to_contain_text("0/28")

    first, first_polls = phones[0]
    wrap = first.locator("#live .table-wrap").nth(1)  # the cross table (the standings come first)
    assert wrap.evaluate("el => el.scrollWidth > el.clientWidth"), "the cross table should need scrolling"
    left = wrap.evaluate("el => { el.scrollLeft = el.scrollWidth; return el.scrollLeft; }")  # to the far right
    assert left > 0
    first.evaluate("document.getElementById('live').dataset.marked = 'yes'")

    # Nothing changes for more than a poll: the answer is 304 and the page is left as it is.
    first.wait_for_timeout((POLL_S + 2) * 1000)  # (Playwright delivers the response events meanwhile)
    assert first_polls["304"] >= 1 and first_polls["200"] == 0
    assert first.evaluate("document.getElementById('live').dataset.marked") == "yes"  # not swapped
    assert wrap.evaluate("el => el.scrollLeft") == left

    # The referee's phone ends the match at once: B's caller (seat 2) takes no trick, a nälsytuppi 56 to A.
    referee = browser.new_context(**PHONE).new_page()
    referee.goto(f"{live_server.url}/tulos/{match.token}/")
    saved = time.monotonic()
    save_deal(referee, "rami", tricks_a=13, caller_seat=2)
    expect(referee.get_by_role("status")).to_contain_text("voitti tupilla")

    def left_ms() -> float:
        """What is left of the time every phone has to show the save: about one poll after the save began
        (the save itself may take a while on a loaded machine, so the waits share one deadline)."""
        return max(1.0, (saved + 2 * POLL_S + 2 - time.monotonic()) * 1000)  # 0 would be no timeout at all

    winner = match.pair_a.name
    for page, _polls in phones:
        # the winner may be first before the result too (level pairs keep the draw's order), so the wait for
        # the poll is on the points
        expect(page.locator("table.standings tbody tr").first).to_contain_text(winner, timeout=left_ms())
        expect(page.locator("table.standings tbody tr").first).to_contain_text("5", timeout=left_ms())
    expect(hall.locator("#live")).to_contain_text("1/28", timeout=left_ms())
    assert time.monotonic() - saved < 2 * POLL_S + 2  # every phone saw it within about one poll
    # The first phone's page was swapped (the marker is gone), and its cross table kept its scroll.
    assert first.evaluate("document.getElementById('live').dataset.marked") is None
    assert first.locator("#live .table-wrap").nth(1).evaluate("el => el.scrollLeft") == left
    assert hall_polls["200"] >= 1
