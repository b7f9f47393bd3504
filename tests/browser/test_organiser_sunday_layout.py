"""The organiser's Sunday page on a venue laptop (issue #14): at 1280 px every Sunday group's table shows
whole (no column cut off, no name squeezed a letter a line), and no row asks for a play-off before the
Sunday groups are played."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tests.browser.login import log_in
from tournaments.actions import sunday
from tournaments.models import Event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def simulated(until: str) -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", "40", "--seed", "5", "--until", until, stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


@pytest.mark.parametrize("until", ["groups", "all"])
def test_sunday_groups_read_whole_on_a_laptop(request, live_server, organiser, until):
    if not request.config.pluginmanager.hasplugin("playwright"):
        pytest.skip("Playwright is switched off (-p no:playwright)")
    event = simulated(until)
    event.organisers.add(organiser)
    if until == "groups":  # the Sunday groups just formed, not a match played
        sunday.advance(event, organiser)
    page = request.getfixturevalue("browser").new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/jarjestaja/kisat/{event.slug}/sunnuntai/")
    widths = page.evaluate(
        "[...document.querySelectorAll('.groups .table-wrap')].map(e => [e.scrollWidth, e.clientWidth])"
    )
    assert len(widths) == 4 and all(scroll <= client for scroll, client in widths), widths
    # a pair's name is never broken inside a word: each name cell is at most two lines ("A / B" may wrap)
    lines = page.evaluate(
        "[...document.querySelectorAll('.groups table.standings tbody td:nth-child(2)')].map("
        "td => Math.round(td.getBoundingClientRect().height / parseFloat(getComputedStyle(td).lineHeight)))"
    )
    assert lines and max(lines) <= 3, lines
    if until == "groups":
        assert "uusinta tarvitaan" not in page.content().lower()
