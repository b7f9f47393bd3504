"""Issue #16, point 7: the referee's phone never loses a deal. The phone loses the network for three deals;
the lines wait in the browser, the page says how many, and when the network returns they are sent in
order and each is stored once."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.web.builders import add_pairs
from tournaments import services
from tournaments.models import Event, Match

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "en-US"}


def type_deal(page, game: str, tricks_a: int, caller_seat: int | None = None) -> None:
    page.locator(f'label.toggle:has(input[name="game"][value="{game}"])').click()
    if caller_seat:
        page.locator(f'label.toggle:has(input[name="caller_seat"][value="{caller_seat}"])').click()
    page.get_by_label("Parin A kasat").fill(str(tricks_a))
    page.get_by_role("button", name="Tallenna jako").click()


def test_three_deals_typed_offline_are_stored_once_in_order(browser, live_server, make_event, organiser):
    event = make_event(
        name="Inarin Kaamos", slug="kaamos", starts_on=timezone.localdate(),
        format=Event.Format.ONE_STAGE, group_count=1,
    )
    add_pairs(event, 4)
    services.draw_groups(event, organiser, seed=1)
    match = Match.objects.filter(event=event).order_by("round", "table").first()

    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/tulos/{match.token}/")
    # the form shows only what a deal needs: no penalty pair, no penalty points
    expect(phone.locator(".field-pair")).to_be_hidden()
    expect(phone.locator(".field-points")).to_be_hidden()

    context.set_offline(True)
    type_deal(phone, "rami", 9, caller_seat=1)  # A makes rami 9: 12 to A
    type_deal(phone, "nolo", 4)  # A takes 4 in a nolo: A wins 12, A up 24
    type_deal(phone, "rami", 8, caller_seat=3)  # A makes rami 8: 8 more, A up 32
    expect(phone.locator("#jono")).to_contain_text("3 riviä odottaa lähetystä")
    expect(phone.locator("#jono")).to_contain_text("Ei verkkoyhteyttä")
    assert match.entries.count() == 0  # nothing reached the server

    context.set_offline(False)
    phone.wait_for_function(f"() => !localStorage.getItem('tuppi-jono-{match.pk}') || "
                            f"localStorage.getItem('tuppi-jono-{match.pk}') === '[]'", timeout=20_000)
    phone.wait_for_load_state()
    expect(phone.locator("table.sheet tbody tr")).to_have_count(3, timeout=10_000)
    stored = list(match.entries.order_by("position").values_list("game", "caller_seat", "tricks_a", "client_id"))
    assert [row[:3] for row in stored] == [("rami", 1, 9), ("nolo", None, 4), ("rami", 3, 8)]
    assert len({row[3] for row in stored}) == 3 and all(row[3] for row in stored)
    expect(phone.get_by_role("status")).to_contain_text("nousulla 32")
    context.close()
