"""axe-core (axe-playwright-python) over the main pages at phone size (issue #18.9): the public pages of a
live and a finished event, the cup, a match's secret link and the organiser's pairs, check-in, draw and
results pages, with no serious or critical violation. The demo season (``setup_demo``) is the data: a
finished event with its Sunday, a live one in round 3, an upcoming one with entries waiting for its draw."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command

from tournaments.actions import entries as entry_actions
from tournaments.management.commands.setup_demo import DEMO_ORGANISER
from tournaments.models import Event, Match

pytestmark = pytest.mark.django_db(transaction=True)

SERIOUS = {"serious", "critical"}


@pytest.fixture
def demo(db):
    call_command("setup_demo", verbosity=0)
    events = Event.objects.filter(kind=Event.Kind.CUP).order_by("starts_on")
    demo = {
        "finished": events.filter(finished_at__isnull=False).last(),
        "live": events.filter(drawn_at__isnull=False, finished_at__isnull=True).get(),
        "upcoming": events.filter(drawn_at__isnull=True).exclude(pairs=None).first(),
    }
    # withdrawn pairs, struck through wherever they are listed (their contrast is checked too)
    live_group_b = demo["live"].groups.get(name="B")
    entry_actions.withdraw_pair(live_group_b.entries.order_by("slot").last().pair, None)
    entry_actions.withdraw_pair(demo["upcoming"].pairs.order_by("number").first(), None)
    return demo


def public_pages(demo) -> list[str]:
    live, finished = demo["live"], demo["finished"]
    played = live.matches.filter(status=Match.Status.FINISHED).order_by("round", "table").first()
    open_match = live.matches.filter(status=Match.Status.SCHEDULED).order_by("round", "table").first()
    return [
        "/",
        f"/kisat/{live.slug}/",
        f"/kisat/{live.slug}/lohkot/A/",
        f"/kisat/{live.slug}/lohkot/B/",
        f"/kisat/{live.slug}/parit/1/",
        f"/kisat/{live.slug}/ohjelma/",
        f"/kisat/{live.slug}/ottelut/{played.pk}/",
        f"/kisat/{finished.slug}/sunnuntai/",
        f"/kisat/{finished.slug}/lopputulokset/",
        f"/kisat/{finished.slug}/lohkot/A/",
        "/cup/",
        f"/tulos/{open_match.token}/",
        *archive_pages(finished),
    ]


def archive_pages(finished) -> list[str]:
    """Issue #28: the archive's pages, for a player of the finished event and the player's first opponent."""
    played = finished.matches.filter(status=Match.Status.FINISHED).order_by("pk").first()
    me = played.pair_a.members.order_by("position").first().player_id
    other = played.pair_b.members.order_by("position").first().player_id
    return ["/pelaajat/", "/pelaajat/?q=a", f"/pelaajat/{me}/", f"/pelaajat/{me}/vs/{other}/", "/kerhot/",
            f"/kerhot/{played.pair_a.club_id}/", "/kaudet/", f"/kaudet/{finished.season_id}/"]


def organiser_pages(demo) -> list[str]:
    live, upcoming = demo["live"], demo["upcoming"]
    return [
        "/jarjestaja/",
        f"/jarjestaja/kisat/{upcoming.slug}/parit/",
        f"/jarjestaja/kisat/{upcoming.slug}/ilmoittautuminen/",
        f"/jarjestaja/kisat/{upcoming.slug}/arvonta/",
        f"/jarjestaja/kisat/{live.slug}/parit/",
        f"/jarjestaja/kisat/{live.slug}/arvonta/",
        f"/jarjestaja/kisat/{live.slug}/tulokset/",
    ]


def serious_violations(page) -> list[str]:
    results = Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in SERIOUS:
            targets = [", ".join(node["target"]) for node in violation["nodes"][:3]]
            found.append(f"{violation['id']} ({violation['impact']}, {len(violation['nodes'])}): {targets}")
    return found


def check(page, base: str, paths: list[str]) -> dict[str, list[str]]:
    problems = {}
    for path in paths:
        response = page.goto(base + path)
        assert response.ok, (path, response.status)
        page.wait_for_load_state("networkidle")
        found = serious_violations(page)
        if found:
            problems[page.url.removeprefix(base)] = found
    return problems


def test_public_and_link_pages(page, live_server, demo):
    problems = check(page, live_server.url, public_pages(demo))
    assert problems == {}


def test_organiser_pages(page, live_server, demo):
    page.goto(f"{live_server.url}/kirjaudu/")
    page.get_by_label("Käyttäjätunnus").fill(DEMO_ORGANISER[0])
    page.get_by_label("Salasana").fill(DEMO_ORGANISER[1])
    page.get_by_role("button", name="Kirjaudu").last.click()
    page.wait_for_load_state()
    problems = check(page, live_server.url, organiser_pages(demo))
    assert problems == {}


def test_wide_tables_scroll_from_the_keyboard(page, live_server, demo):
    """A table wrapper that scrolls is a focusable, named region (axe: scrollable-region-focusable), and
    the arrow keys scroll it."""
    page.goto(f"{live_server.url}/kisat/{demo['live'].slug}/lohkot/A/")
    page.wait_for_load_state("networkidle")
    wraps = page.locator(".table-wrap")
    scrolling = [
        wraps.nth(i) for i in range(wraps.count())
        if wraps.nth(i).evaluate("el => el.scrollWidth > el.clientWidth + 1")
    ]
    assert scrolling, "at 390 px the cross table scrolls"
    for wrap in scrolling:
        assert wrap.get_attribute("tabindex") == "0"
        assert wrap.get_attribute("role") == "region"
        assert wrap.get_attribute("aria-label") or wrap.get_attribute("aria-labelledby")
    cross = scrolling[-1]
    cross.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("el => el.scrollLeft > 0", arg=cross.element_handle())


def test_check_in_search_filters_as_one_types(page, live_server, demo):
    upcoming = demo["upcoming"]
    pair = upcoming.pairs.filter(withdrawn_at=None).order_by("number").last()
    surname = pair.players[0].last_name
    page.goto(f"{live_server.url}/kirjaudu/")
    page.get_by_label("Käyttäjätunnus").fill(DEMO_ORGANISER[0])
    page.get_by_label("Salasana").fill(DEMO_ORGANISER[1])
    page.get_by_role("button", name="Kirjaudu").last.click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/jarjestaja/kisat/{upcoming.slug}/ilmoittautuminen/")
    search = page.get_by_label("Etsi pari nimellä tai numerolla")
    search.fill(str(pair.number))
    assert page.locator("#checkin-list > li:visible").count() == 1
    assert page.locator(f"#pari-{pair.number}").is_visible()
    search.fill(surname.lower().replace("ä", "a").replace("ö", "o"))
    assert page.locator(f"#pari-{pair.number}").is_visible()
    assert "löytyi" in page.locator("#checkin-found").inner_text()
    search.fill("zzzz")
    assert page.locator("#checkin-list > li:visible").count() == 0
    assert page.locator("#checkin-none").is_visible()
    search.fill("")
    assert page.locator("#checkin-list > li:visible").count() == upcoming.pairs.filter(withdrawn_at=None).count()


def test_organiser_pages_on_a_laptop(browser, live_server, demo):
    laptop = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US")
    page = laptop.new_page()
    page.goto(f"{live_server.url}/kirjaudu/")
    page.get_by_label("Käyttäjätunnus").fill(DEMO_ORGANISER[0])
    page.get_by_label("Salasana").fill(DEMO_ORGANISER[1])
    page.get_by_role("button", name="Kirjaudu").last.click()
    page.wait_for_load_state()
    problems = check(page, live_server.url, organiser_pages(demo) + ["/", f"/kisat/{demo['live'].slug}/lohkot/A/"])
    laptop.close()
    assert problems == {}
