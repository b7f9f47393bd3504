"""The hall screen (issue #18.7), ``/kisat/<slug>/halli/``: a kiosk page for a projector or a TV, no login,
that rotates (static/js/hall.js) through panels cut from the event's snapshot (tournaments/hall.py): the
current round's tables, every group's standings with who is through (issue #20), then the placement
bracket and the places; live like every public page. The browser test (tests/browser/test_hall_screen.py)
shows it rotating, updating and never scrolling."""

from __future__ import annotations

import random
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.web.builders import add_pairs
from tests.web.results_helpers import finish, paper
from tournaments import hall, readmodel, sunday
from tournaments.models import Event, Match
from tournaments.simulation import play_matches, settle_playoffs

POLL = {"HTTP_HX_REQUEST": "true"}


def hall_url(event) -> str:
    return reverse("hall", args=[event.slug])


def panels(html: str) -> list[str]:
    return re.findall(r'data-panel="([^"]+)"', html)


def panel(html: str, key: str) -> str:
    return html.split(f'data-panel="{key}"')[1].split("</section>")[0]


def simulate(pairs: int, seed: int, until: str) -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", str(pairs), "--seed", str(seed), "--until", until, stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


@pytest.fixture
def drawn(make_event, organiser):
    event = make_event(name="Tornion Tuppi", slug="tornion-tuppi")
    add_pairs(event, 20)  # 8 groups: four of 3 and four of 2
    from tournaments import services

    services.draw_groups(event, organiser, seed=4)
    return event


def test_a_page_of_its_own_for_a_screen(client, drawn):
    response = client.get(hall_url(drawn))
    html = response.content.decode()
    assert response.status_code == 200
    assert '<body class="hall" data-hall data-rotate="10">' in html and "js/hall.js" in html
    assert "site-header" not in html and "site-footer" not in html  # no header, no menus: the whole screen
    assert 'hx-trigger="every 5s"' in html and f'hx-get="{hall_url(drawn)}"' in html
    # the first panel is shown without any script; the others wait their turn
    assert html.count("is-current") == 1 and 'is-current" data-panel="tables-saturday-1-1"' in html


def test_the_current_round_then_every_group(client, drawn):
    html = client.get(hall_url(drawn)).content.decode()
    keys = panels(html)
    snap = readmodel.build(drawn.pk)
    groups = snap.stage_tables("saturday")
    assert keys == ["tables-saturday-1-1"] + [f"group-{t.group.pk}-1" for t in groups]
    tables = panel(html, "tables-saturday-1-1")
    round_one = Match.objects.filter(event=drawn, round=1).order_by("table")
    assert "Kierros 1" in tables and tables.count('<li class="hall-table') == round_one.count()
    for match in round_one:
        assert f'<span class="hall-no">{match.table}</span>' in tables and match.pair_a.name in tables
    # two of each group go on: a group of two is through at once, a group of three still open
    two = next(t for t in groups if len(t.rows) == 2)
    three = next(t for t in groups if len(t.rows) == 3)
    group = panel(html, f"group-{two.group.pk}-1")
    assert f"Lohko {two.group.name}" in group and "alustava" in group and group.count("jatkoon varmasti") == 2
    assert panel(html, f"group-{three.group.pk}-1").count("vielä auki") == 3
    # a result: the round moves on when its last match is in
    for match in round_one:
        paper(match, 40, 20)
    html = client.get(hall_url(drawn)).content.decode()
    assert panels(html)[0] == "tables-saturday-2-1" and "Kierros 2" in html
    # Saturday under way: the Sunday chart as far as it is decided (RULES.md §5: group 1 = A1 B1 G2 H2)
    assert panels(html)[-1] == "chart"
    chart = panel(html, "chart")
    assert "Sunnuntain lohko 1" in chart and "G2" in chart and "(auki)" in chart


def test_a_large_round_is_cut_into_even_panels(client, db):
    event = simulate(70, 3, "draw")  # 16 groups of 4–5: 32 tables in round 1
    html = client.get(hall_url(event)).content.decode()
    tables = [k for k in panels(html) if k.startswith("tables-")]
    count = Match.objects.filter(event=event, round=1).count()
    assert len(tables) == -(-count // hall.TABLES_PER_PANEL)
    sizes = [panel(html, k).count('<li class="hall-table') for k in tables]
    assert sum(sizes) == count and max(sizes) <= hall.TABLES_PER_PANEL and max(sizes) - min(sizes) <= 1
    assert "pöydät 1–" in panel(html, tables[0])
    assert len([k for k in panels(html) if k.startswith("group-")]) == 16
    # every panel says where it is in the turn
    assert f"1/{len(panels(html))}</span>" in html


def test_sunday_the_bracket_and_the_places(client, db):
    event = simulate(40, 9, "groups")
    sunday.advance(event, None)
    html = client.get(hall_url(event)).content.decode()
    keys = panels(html)
    assert keys[0] == "tables-sunday-1-1" and "Sunnuntain lohkot, kierros 1" in html
    assert sum(k.startswith("group-") for k in keys) == 4 and "Sunnuntain lohko 1" in html
    assert "varmistettu" not in html  # nothing played on Sunday yet: every tier open
    rng = random.Random(2)
    play_matches(event.matches.filter(stage="sunday"), rng)
    settle_playoffs(event, rng, "sunday")
    sunday.create_placements(event)
    html = client.get(hall_url(event)).content.decode()
    keys = panels(html)
    assert keys[0] == "tables-placement-1-1" and "Sijoitusottelut: välierät" in html and "bracket" in keys
    assert "välierän 1 voittaja" in panel(html, "bracket")  # the finals wait for their semifinals
    for _step in ("semi", "final"):
        play_matches(event.matches.filter(stage="placement"), rng)
        sunday.create_placements(event)
    html = client.get(hall_url(event)).content.decode()
    assert panels(html)[-1] == "places" and "Lopputulokset" in html
    places = panel(html, "places")
    assert places.count("<li>") == 16 and '<span class="hall-place">1.</span>' in places


def test_the_live_part_is_polled_and_answers_304(client, drawn):
    first = client.get(hall_url(drawn), **POLL)
    assert first.status_code == 200 and first.content.decode().startswith('<div id="live"')
    assert client.get(hall_url(drawn), HTTP_IF_NONE_MATCH=first["ETag"], **POLL).status_code == 304
    paper(Match.objects.filter(event=drawn).order_by("round", "table").first(), 40, 20)
    again = client.get(hall_url(drawn), HTTP_IF_NONE_MATCH=first["ETag"], **POLL)
    assert again.status_code == 200 and "3–2 (40–20)" in again.content.decode()
    finish(drawn)
    assert "hx-trigger" not in client.get(hall_url(drawn)).content.decode()


def test_before_the_draw(client, make_event):
    event = make_event()
    html = client.get(hall_url(event)).content.decode()
    assert panels(html) == ["empty"] and "Lohkoja ei ole vielä arvottu." in html


def test_unknown_event_and_team_competition_are_404(client, make_event, organiser):
    from tests.teams.builders import drawn_event

    assert client.get(reverse("hall", args=["ei-ole"])).status_code == 404
    team_event, _teams = drawn_event(make_event, organiser, 4)
    assert client.get(hall_url(team_event)).status_code == 404
