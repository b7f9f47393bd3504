"""Issue #9's done-when, on phones: two team leaders declare their pairs' order through their secret
links; neither sees the other's order until both have declared, and the first leader's page shows the
opponent's order by itself (no reload) once it is in. Then the organiser starts the round on a laptop and
the bracket moves on by itself when the pair results are entered."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from teams.actions import bracket as bracket_actions
from teams.models import TeamMatch, TeamOrder
from tests.browser.login import log_in
from tests.teams.builders import add_team, pair_matches, team_event, win

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "en-US"}
LAPTOP = {"viewport": {"width": 1366, "height": 800}, "locale": "en-US"}


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_leaders_declare_from_their_phones(request, live_server, make_event, organiser):
    if not request.config.pluginmanager.hasplugin("playwright"):
        pytest.skip("Playwright is switched off (-p no:playwright)")
    browser = request.getfixturevalue("browser")
    today = timezone.localdate()
    event = team_event(
        make_event,
        organiser,
        name="SM-joukkuekisa",
        slug="sm-joukkue",
        starts_on=today,
        ends_on=today + dt.timedelta(days=1),
    )
    for name in ("Kemin Kasat", "Oulun Nolot", "Tornion Tupit", "Rovaniemen Ramit"):
        add_team(event, name)
    bracket_actions.draw(event, organiser, seed=9)
    semi = TeamMatch.objects.select_related("team_a", "team_b").get(event=event, round=1, slot=1)
    a, b = semi.team_a, semi.team_b
    a_pairs = [tp.pair.full_name for tp in a.team_pairs.all()]
    b_pairs = [tp.pair.full_name for tp in b.team_pairs.all()]

    leader_a = browser.new_context(**PHONE).new_page()
    leader_a.goto(f"{live_server.url}/joukkue/{a.token}/")
    assert no_horizontal_scroll(leader_a)
    expect(leader_a.get_by_role("heading", level=1)).to_contain_text(a.name)
    # pair 3 first, then 1 and 2
    leader_a.get_by_label("Pari 1").select_option(label=a_pairs[2])
    leader_a.get_by_label("Pari 2").select_option(label=a_pairs[0])
    leader_a.get_by_label("Pari 3").select_option(label=a_pairs[1])
    leader_a.get_by_label("Olen tarkistanut järjestyksen").check()
    leader_a.get_by_role("button", name="Ilmoita järjestys").click()
    expect(leader_a.locator(".messages")).to_contain_text("Järjestys ilmoitettu.")
    leader_a.evaluate("window.__notReloaded = true")

    leader_b = browser.new_context(**PHONE).new_page()
    leader_b.goto(f"{live_server.url}/joukkue/{b.token}/")
    lineup = leader_b.locator("table.lineup")
    expect(lineup).to_contain_text("ilmoitettu")
    for name in a_pairs:
        expect(lineup).not_to_contain_text(name)
    leader_b.get_by_role("button", name="Ilmoita järjestys").click()  # the default order: one tap is not enough
    assert not TeamOrder.objects.filter(team=b).exists()
    leader_b.get_by_label("Olen tarkistanut järjestyksen").check()
    leader_b.get_by_role("button", name="Ilmoita järjestys").click()
    expect(leader_b.get_by_role("status")).to_contain_text("Järjestys on lukittu")
    expect(leader_b.locator("table.lineup tbody tr").nth(0)).to_contain_text(a_pairs[2])
    assert no_horizontal_scroll(leader_b)

    # A's phone shows B's order by itself
    expect(leader_a.locator("table.lineup")).to_contain_text(b_pairs[0], timeout=12_000)
    assert leader_a.evaluate("window.__notReloaded === true")
    expect(leader_a.get_by_role("button", name="Ilmoita järjestys")).to_have_count(0)

    # the organiser starts round 1 on a laptop; the other semifinal waits for its declarations
    desk = browser.new_context(**LAPTOP).new_page()
    log_in(desk, live_server.url)
    desk.goto(f"{live_server.url}/jarjestaja/joukkuekisa/sm-joukkue/kierrokset/")
    start = desk.locator("form", has=desk.get_by_role("button", name="Aloita kierros 1 (Välierät)"))
    start.get_by_role("button").click()  # the required box is not ticked: the browser keeps the form
    assert TeamMatch.objects.get(pk=semi.pk).started_at is None
    start.get_by_role("checkbox").check()
    start.get_by_role("button").click()
    expect(desk.locator(".messages")).to_contain_text("1 joukkueottelu alkoi.")
    semi.refresh_from_db()
    assert semi.started_at is not None

    # results through the scoresheet services: 2–0 to B, and the final is waiting for the other semifinal
    first, second, _third = pair_matches(semi)
    win(first, "B")
    win(second, "B")
    # B's phone moves on by itself: the semifinal is won, the final's other team not known yet
    expect(leader_b.get_by_role("status")).to_contain_text("Seuraava vastustaja ratkeaa", timeout=12_000)
    expect(leader_b.locator("main")).to_contain_text("0–2")
    public = browser.new_context(**PHONE).new_page()
    public.goto(f"{live_server.url}/joukkuekisa/sm-joukkue/")
    assert no_horizontal_scroll(public)
    expect(public.locator("section.round").nth(1)).to_contain_text(b.name)  # b is in the final
    # stop the polling pages before the live server goes away
    for page in (leader_a, leader_b, desk, public):
        page.context.close()
