"""Issue #14's done-when for team entry, in a browser on a laptop: the organiser enters a team by typing
in the player searches (results as they type, each player with the club they represent this season),
choosing from the results, and saves it; the page reads at phone width too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from registry.models import Player, SeasonClub
from teams.models import Team
from tests.browser.login import log_in
from tests.teams.builders import club, team_event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

LAPTOP = {"viewport": {"width": 1280, "height": 900}, "locale": "fi-FI"}
PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "fi-FI"}
NAMES = [("Aino", "Kivelä"), ("Eino", "Mäkelä"), ("Sanna", "Häkkinen"), ("Pekka", "Öhman"), ("Tiina", "Åström"), ("Juha", "Ylönen")]


def test_a_team_entered_by_search_as_you_type(request, live_server, make_event, organiser):
    if not request.config.pluginmanager.hasplugin("playwright"):
        pytest.skip("Playwright is switched off (-p no:playwright)")
    browser = request.getfixturevalue("browser")
    event = team_event(make_event, organiser, name="SM-joukkuekisa", slug="sm-joukkue")
    home, registry = club("Kemin Kasat"), club("Oulun Tuppi")
    people = [Player.objects.create(first_name=first, last_name=last, member_number=str(100 + i), club=registry)
              for i, (first, last) in enumerate(NAMES)]
    for player in people:  # registered in Oulu, but they play for Kemi this season
        SeasonClub.objects.create(season=event.season, player=player, club=home)

    page = browser.new_context(**LAPTOP).new_page()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/jarjestaja/joukkuekisa/{event.slug}/")
    page.get_by_role("link", name="Lisää joukkue").click()
    page.get_by_label("Joukkueen nimi").fill("Kasat")
    page.get_by_label("Kerho", exact=True).select_option(label="Kemin Kasat")
    page.get_by_label("Joukkueenjohtaja").fill("Liisa Johtaja")
    slots = [f"pair{k}_player{n}" for k in (1, 2, 3) for n in (1, 2)]
    for slot, player in zip(slots, people, strict=True):
        # typed without the diacritics, as on a laptop's keyboard in a hurry
        page.locator(f"#id_{slot}_q").press_sequentially(player.last_name.translate(str.maketrans("äöåÖÅ", "aoaOA"))[:5])
        results = page.locator(f"#{slot}-results")
        expect(results).to_contain_text(player.full_name)
        expect(results).to_contain_text("kaudella: Kemin Kasat")
        results.get_by_role("radio", name=player.full_name).check()
    page.get_by_role("button", name="Lisää joukkue").click()
    expect(page.locator(".messages")).to_contain_text("Joukkue Kasat lisätty.")
    team = Team.objects.get(event=event, name="Kasat")
    assert team.reinforcements == 0  # their season club is the team's: no reinforcement

    phone = browser.new_context(**PHONE).new_page()
    log_in(phone, live_server.url)
    phone.goto(f"{live_server.url}/jarjestaja/joukkuekisa/{event.slug}/joukkueet/uusi/")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
