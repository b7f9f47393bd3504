"""Issue #6's Sunday: the organiser forms the Sunday groups of a simulated 70-pair event on a laptop, and a
player's phone sees the placement bracket fill up by itself and then the final places."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tournaments.actions import sunday
from tournaments.actions.simulation import play_matches, settle_playoffs
from tournaments.models import Event
from tournaments.readmodel import build

pytestmark = pytest.mark.django_db(transaction=True)


def test_sunday_on_a_laptop_and_a_phone(browser, live_server, organiser):
    out = StringIO()
    call_command("simulate_event", "--pairs", "70", "--seed", "21", "--until", "groups", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    event.organisers.add(organiser)
    rng = random.Random(4)

    laptop = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    laptop.goto(f"{live_server.url}/kirjaudu/")
    laptop.get_by_label("Käyttäjätunnus").fill("organiser")
    laptop.get_by_label("Salasana").fill("salasana-1")
    laptop.get_by_role("button", name="Kirjaudu").last.click()
    laptop.goto(f"{live_server.url}/jarjestaja/kisat/{event.slug}/sunnuntai/")
    laptop.get_by_role("button", name="Muodosta sunnuntain lohkot").click()
    expect(laptop.get_by_text("Sunnuntain lohkot on muodostettu")).to_be_visible()
    assert event.groups.filter(stage="sunday").count() == 4

    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{live_server.url}/kisat/{event.slug}/sunnuntai/")
    phone.evaluate("window.__notReloaded = true")
    expect(phone.get_by_text("Pareja ei vielä tiedetä").first).to_be_visible()

    # The Sunday groups are played (as the referees would); the semifinals appear on the phone by themselves.
    play_matches(event.matches.filter(stage="sunday"), rng)
    settle_playoffs(event, rng, "sunday")
    sunday.create_placements(event)
    expect(phone.locator(".bracket-match")).to_have_count(8, timeout=12_000)
    # Semifinals played: each tier's final and third-place match follow.
    play_matches(event.matches.filter(stage="placement"), rng)
    sunday.create_placements(event)
    expect(phone.locator(".bracket-match")).to_have_count(16, timeout=12_000)
    assert phone.evaluate("window.__notReloaded === true")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # Finals played and published: the final places, with clubs, on the phone.
    play_matches(event.matches.filter(stage="placement"), rng)
    laptop.reload()
    # every result is still unconfirmed: the publishing form lists them ticked, to confirm in this step
    assert laptop.locator('input[name="confirm"]:checked').count() == event.matches.filter(status="finished").count()
    laptop.get_by_label("Julkaisen lopputulokset", exact=False).check()
    laptop.get_by_role("button", name="Julkaise lopputulokset").click()
    expect(laptop.get_by_text("Lopputulokset on julkaistu")).to_be_visible()
    phone.goto(f"{live_server.url}/kisat/{event.slug}/lopputulokset/")
    places = phone.locator(".final-places li")
    expect(places).to_have_count(70)
    winner = event.pairs.get(pk=build.build(event.pk).final_places[0][1])
    expect(places.first).to_contain_text(winner.full_name)
    expect(places.first).to_contain_text(winner.club.name)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
