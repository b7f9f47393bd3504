"""Issue #16, point 7: the referee's phone never loses a deal. The phone loses the network for three deals;
the lines wait in the browser, the page says how many, and when the network returns they are sent in
order and each is stored once."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.support.builders import add_pairs
from tournaments.actions import draw
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
    draw.draw_groups(event, organiser, seed=1)
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


# --- issue #25, point 1: what the referee sees, at phone size, is what the next entry depends on -----------

IN_VIEW = """(selector) => {
  const el = document.querySelector(selector);
  const r = el.getBoundingClientRect();
  if (!r.height || r.top < -1 || r.bottom > window.innerHeight + 1) return false;  // a pixel's rounding
  // not under anything (the sticky Save bar): the element itself is what is drawn at its centre
  return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
}"""


def in_view(page, selector: str) -> bool:
    """The element is wholly within the viewport and nothing is drawn over its centre."""
    return page.evaluate(IN_VIEW, selector)


def open_sheet(browser, live_server, make_event, **fields):
    event = make_event(starts_on=timezone.localdate(), format=Event.Format.ONE_STAGE, group_count=1, **fields)
    add_pairs(event, 4)
    draw.draw_groups(event, None, seed=1)
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/tulos/{match.token}/")
    return match, context, phone


def test_offline_the_queue_and_the_rise_after_it_are_in_view(browser, live_server, make_event):
    match, context, phone = open_sheet(browser, live_server, make_event)
    type_deal(phone, "rami", 9, caller_seat=1)  # stored: A up 12
    expect(phone.locator("#viimeisin")).to_contain_text("nousulla 12")

    context.set_offline(True)
    type_deal(phone, "nolo", 4)  # A takes 4 in a nolo: A wins 12, A up 24
    queue = phone.locator("#jono")
    expect(queue).to_contain_text("1 rivi odottaa lähetystä")  # one line: singular
    expect(queue).to_contain_text(f"{match.pair_a.name} nousulla 24")
    assert in_view(phone, "#jono")  # not behind the sticky Save bar
    type_deal(phone, "rami", 8, caller_seat=3)  # A makes rami 8: A up 32
    expect(queue).to_contain_text("2 riviä odottaa lähetystä")
    expect(queue).to_contain_text(f"{match.pair_a.name} nousulla 32 · nousupisteet 32–0")
    assert in_view(phone, "#jono")
    # the last line shown above the form is the queued one, not the stored "nousulla 12"
    expect(phone.locator("#viimeisin")).to_be_hidden()
    expect(phone.locator("#jonossa")).to_contain_text("nousulla 32")
    type_deal(phone, "nolo", 9)  # A takes 9 in a nolo: B wins, A falls at 32, the table
    expect(queue).to_contain_text("pöytäpeli · nousupisteet 32–0")
    assert match.entries.count() == 1
    context.close()


def test_a_reload_and_a_second_tab_offline_show_the_sheet_from_the_device(browser, live_server, make_event):
    match, context, phone = open_sheet(browser, live_server, make_event)
    phone.wait_for_function("() => navigator.serviceWorker.ready.then((r) => !!r.active)")
    type_deal(phone, "rami", 9, caller_seat=1)  # stored online; the reload keeps the newest sheet
    expect(phone.locator("#viimeisin")).to_contain_text("nousulla 12")

    context.set_offline(True)
    type_deal(phone, "nolo", 4)
    phone.reload()
    expect(phone.get_by_role("heading", name="Pöytäkirja")).to_be_visible()
    expect(phone.locator("table.sheet tbody tr")).to_have_count(1)
    expect(phone.locator("#jono")).to_contain_text("1 rivi odottaa lähetystä")
    expect(phone.locator("#jono")).to_contain_text("nousulla 24")

    second = context.new_page()
    second.goto(f"{live_server.url}/tulos/{match.token}/")
    expect(second.locator("#jono")).to_contain_text("1 rivi odottaa lähetystä")
    second.close()

    context.set_offline(False)
    expect(phone.locator("table.sheet tbody tr")).to_have_count(2, timeout=20_000)
    assert match.entries.count() == 2
    context.close()


def test_after_the_last_deal_the_result_and_the_acceptance_are_in_view(browser, live_server, make_event):
    match, context, phone = open_sheet(browser, live_server, make_event, require_acceptance=True)
    type_deal(phone, "rami", 13, caller_seat=1)  # A up 28
    expect(phone.locator("#viimeisin")).to_contain_text("nousulla 28")
    type_deal(phone, "rami", 13, caller_seat=3)  # A up 56: tuppi, the match is over
    expect(phone.locator("#tulos")).to_contain_text("voitti tupilla")
    assert in_view(phone, "#tulos")
    accept = phone.get_by_role("button", name="Pari A hyväksyy")
    expect(accept).to_be_in_viewport()
    expect(phone.locator(".accept")).to_contain_text("tällä puhelimella toistensa nähden")
    context.close()


def test_a_line_sent_before_the_network_went_away_again_counts_in_the_rise_shown(browser, live_server, make_event):
    """The queue sends its first line, then the network goes away again: the page, older than that line,
    still shows the rise with it (not the rise its own version had)."""
    event = make_event(starts_on=timezone.localdate(), format=Event.Format.ONE_STAGE, group_count=1)
    add_pairs(event, 4)
    draw.draw_groups(event, None, seed=1)
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    context = browser.new_context(**PHONE, service_workers="block")  # the page's own requests, routed below
    phone = context.new_page()
    phone.goto(f"{live_server.url}/tulos/{match.token}/")
    context.set_offline(True)
    type_deal(phone, "rami", 9, caller_seat=1)  # A up 12
    type_deal(phone, "nolo", 4)  # A up 24
    expect(phone.locator("#jono")).to_contain_text("nousulla 24")
    sent = []

    def one_then_gone(route):
        if sent:
            route.abort("internetdisconnected")
        else:
            sent.append(route.request.url)
            route.continue_()

    phone.route("**/rivi/", one_then_gone)
    context.set_offline(False)
    expect(phone.locator("#jono")).to_contain_text("1 rivi odottaa lähetystä", timeout=20_000)
    assert match.entries.count() == 1
    expect(phone.locator("#jono")).to_contain_text(f"{match.pair_a.name} nousulla 24 · nousupisteet 24–0")
    context.close()
