"""Issue #4's morning, as the organiser lives it: import 70 entries from a spreadsheet, check the pairs in
on a laptop (two do not come), draw the groups, and show round 1's tables on a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command

from tournaments.models import Event, Match

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def event(make_event, organiser):
    call_command("loaddata", str(ROOT / "fixtures" / "demo_registry.json"), verbosity=0)
    event = make_event(name="Sodankylän Joulutuppi", slug="joulutuppi")
    event.organisers.add(organiser)
    return event


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_import_check_in_draw_and_show_round_one(browser, live_server, event):
    laptop = browser.new_context(viewport={"width": 1280, "height": 800})
    page = laptop.new_page()
    page.goto(f"{live_server.url}/kirjaudu/")
    page.get_by_label("Käyttäjätunnus").fill("organiser")
    page.get_by_label("Salasana").fill("salasana-1")
    page.get_by_role("button", name="Kirjaudu").last.click()

    # Import: a preview first, nothing saved until the organiser accepts.
    page.goto(f"{live_server.url}/jarjestaja/kisat/joulutuppi/tuonti/")
    page.locator('input[type="file"]').set_input_files(str(ROOT / "fixtures" / "sample_entries_70.csv"))
    page.get_by_role("button", name="Esikatsele").click()
    assert event.pairs.count() == 0
    page.get_by_role("button", name="Tuo 70 paria").click()
    page.wait_for_load_state()
    assert event.pairs.count() == 70

    # Check-in: tap each pair that came; pairs 69 and 70 do not come and are withdrawn.
    page.goto(f"{live_server.url}/jarjestaja/kisat/joulutuppi/ilmoittautuminen/")
    for number in range(1, 69):
        row = page.locator(f"#pari-{number}")
        row.get_by_role("button").click()
        page.locator(f'#pari-{number} button[aria-pressed="true"]').wait_for()
    assert event.pairs.filter(checked_in=True).count() == 68
    page.goto(f"{live_server.url}/jarjestaja/kisat/joulutuppi/ilmoittautuminen/?vahvista=1")
    page.get_by_role("button", name="Kyllä, poista 2 paria").click()
    page.wait_for_load_state()
    assert event.pairs.filter(withdrawn_at__isnull=True).count() == 68

    # The draw: 68 pairs → 16 groups of 4 or 5.
    page.goto(f"{live_server.url}/jarjestaja/kisat/joulutuppi/arvonta/")
    page.get_by_role("button", name="Arvo lohkot").click()
    page.wait_for_load_state()
    assert page.get_by_text("Lohkot on arvottu").is_visible()
    assert page.locator(".group").count() == 16
    assert Event.objects.get(pk=event.pk).draw_seed is not None
    laptop.close()

    # A player's phone: round 1, every table with its two pairs, nothing wider than the screen.
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    page = phone.new_page()
    page.goto(f"{live_server.url}/kisat/joulutuppi/ohjelma/?kierros=1")
    round_one = Match.objects.filter(event=event, round=1).select_related("pair_a", "pair_b")
    assert page.locator(".fixture").count() == round_one.count()
    for match in round_one:
        number = page.locator(".table-no", has_text=re.compile(rf"^\s*pöytä\s+{match.table}\s*$"))
        card = page.locator(".fixture", has=number)  # the table number with its visible label (issue #25.10)
        assert card.count() == 1
    assert no_horizontal_scroll(page)
    phone.close()
