"""The event form on a phone (issue #14.1): choosing the SM team competition hides the fields it does not
use (format, groups, Saturday and Sunday deals, draw and Sunday times) and choosing a pair event again
brings them back; the event saves with what shows."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.login import log_in
from tournaments.models import Event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

HIDDEN_FOR_TEAMS = ["format", "group_count", "deals_saturday", "deals_sunday", "draw_time", "sunday_play_time"]


def test_the_team_kind_hides_what_it_does_not_use(request, live_server, organiser):
    if not request.config.pluginmanager.hasplugin("playwright"):
        pytest.skip("Playwright is switched off (-p no:playwright)")
    organiser.user_permissions.add(Permission.objects.get(codename="add_event"))
    page = request.getfixturevalue("browser").new_context(viewport={"width": 390, "height": 844}).new_page()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}{reverse('organiser:event_create')}")
    for name in HIDDEN_FOR_TEAMS:
        expect(page.locator(f"#id_{name}")).to_be_visible()
    page.select_option("#id_kind", "sm_team")
    for name in HIDDEN_FOR_TEAMS:
        expect(page.locator(f"#id_{name}")).to_be_hidden()
    expect(page.locator("#id_deals_placement")).to_be_visible()
    page.select_option("#id_kind", "cup")
    expect(page.locator("#id_format")).to_be_visible()
    page.select_option("#id_kind", "sm_team")
    page.fill("#id_name", "SM-joukkuekisa 2027")
    page.fill("#id_starts_on", "2027-03-13")
    page.fill("#id_ends_on", "2027-03-14")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"**{reverse('organiser:event', args=['sm-joukkuekisa-2027'])}")
    assert Event.objects.get(slug="sm-joukkuekisa-2027").kind == "sm_team"
