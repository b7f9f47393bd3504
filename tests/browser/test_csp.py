"""The Content-Security-Policy in Debian's chromium: the main public pages, the login, organiser pages (with
an htmx player search) and the secret-link pages load and work with no CSP violation reported, neither
in the console nor as a ``securitypolicyviolation`` event."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from teams.models import Team
from tournaments.models import Event, Match

pytestmark = pytest.mark.django_db(transaction=True)

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture
def world(django_user_model):
    out = io.StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", "1", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    out = io.StringIO()
    call_command("simulate_teams", "--teams", "4", "--seed", "2", stdout=out)
    team_event = Event.objects.get(slug=out.getvalue().split()[-1])
    organiser = django_user_model.objects.create_user("csp-organiser", password="csp-salasana-1")
    event.organisers.add(organiser)
    team_event.organisers.add(organiser)
    return event, team_event


def watched(page):
    console = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.add_init_script(WATCH)
    return console


def violations(page, console) -> list[str]:
    found = [line for line in console if "Content Security Policy" in line or "Refused to" in line]
    return found + page.evaluate("window.__csp || []")


def visit(page, console, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.status < 400, (url, response and response.status)
    assert "script-src 'self'" in response.headers.get("content-security-policy", ""), url
    page.wait_for_load_state("load")
    page.wait_for_timeout(150)  # late violations (htmx start-up) are reported asynchronously
    assert violations(page, console) == [], url


def test_pages_under_the_policy(page, live_server, world):
    event, team_event = world
    console = watched(page)
    base = live_server.url
    match = Match.objects.filter(event=event, stage="saturday").order_by("pk").first()
    for path in [
        "/", f"/kisat/{event.slug}/", f"/kisat/{event.slug}/ohjelma/", f"/kisat/{event.slug}/lohkot/A/",
        f"/kisat/{event.slug}/ottelut/{match.pk}/", f"/kisat/{event.slug}/parit/1/",
        f"/kisat/{event.slug}/sunnuntai/", f"/kisat/{event.slug}/lopputulokset/", "/cup/",
        f"/joukkuekisa/{team_event.slug}/", f"/tulos/{match.token}/",
        f"/joukkue/{Team.objects.filter(event=team_event).first().token}/",
    ]:
        visit(page, console, base + path)
    # the htmx-refreshed styles really come from the stylesheet: the site header is laid out
    assert page.locator(".site-header").evaluate("e => getComputedStyle(e).display") != "inline"

    # the login page, then organiser pages
    visit(page, console, base + "/kirjaudu/")
    page.get_by_label("Käyttäjätunnus").fill("csp-organiser")
    page.get_by_label("Salasana").fill("csp-salasana-1")
    page.get_by_role("button", name="Kirjaudu").last.click()
    page.wait_for_load_state()
    assert page.url.endswith("/jarjestaja/")
    assert violations(page, console) == []
    for path in [
        "/jarjestaja/", f"/jarjestaja/kisat/{event.slug}/", f"/jarjestaja/kisat/{event.slug}/tulokset/",
        f"/jarjestaja/kisat/{event.slug}/ottelut/{match.pk}/", f"/jarjestaja/kisat/{event.slug}/sunnuntai/",
        f"/jarjestaja/joukkuekisa/{team_event.slug}/",
        f"/jarjestaja/joukkuekisa/{team_event.slug}/joukkueet/{Team.objects.filter(event=team_event).first().pk}/",
    ]:
        visit(page, console, base + path)

    # an htmx request: the player search of the pairs page (an upcoming event takes pairs)
    upcoming = Event.objects.create(
        name="Tuleva kisa", slug="tuleva-kisa", season=event.season, starts_on=event.starts_on, ends_on=event.ends_on
    )
    upcoming.organisers.add(event.organisers.first())
    visit(page, console, base + f"/jarjestaja/kisat/{upcoming.slug}/parit/")
    search = page.locator('input[name="p1-q"]')
    with page.expect_response(lambda r: "/pelaajat/haku/" in r.url) as searched:
        search.fill("Aho")
    assert searched.value.status == 200
    page.wait_for_timeout(200)
    assert violations(page, console) == []


def test_the_scoresheet_script_runs_under_the_policy(page, live_server, world):
    """scoresheet.js (a static file) hides the fields a line does not need: it runs, with no violation."""
    event, _team_event = world
    console = watched(page)
    upcoming = Match.objects.filter(event=event).order_by("pk").first()
    visit(page, console, live_server.url + f"/tulos/{upcoming.token}/")
    assert violations(page, console) == []
