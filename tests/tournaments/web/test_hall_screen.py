"""The hall screen (issue #18.7), ``/kisat/<slug>/halli/``: a kiosk page for a projector or a TV, no login,
that rotates (static/js/hall.js) through panels cut from the event's snapshot (tournaments/readmodel/hall.py): the
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

from tests.support.builders import add_pairs
from tests.support.results_helpers import finish, paper
from tournaments.actions import sunday
from tournaments.actions.simulation import play_matches, settle_playoffs
from tournaments.models import Event, Match
from tournaments.readmodel import build, hall

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
    from tournaments.actions import draw as draw_actions

    draw_actions.draw_groups(event, organiser, seed=4)
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
    snap = build.build(drawn.pk)
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


@pytest.mark.slow
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


@pytest.mark.slow
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
    assert keys[0] == "tables-placement-1-1" and "Sijoitusottelut: välierät" in html
    assert [k for k in keys if k.startswith("bracket")] == ["bracket-1", "bracket-2"]  # two tiers a panel
    assert "välierän 1 voittaja" in panel(html, "bracket-1")  # the finals wait for their semifinals
    for _step in ("semi", "final"):
        play_matches(event.matches.filter(stage="placement"), rng)
        sunday.create_placements(event)
    html = client.get(hall_url(event)).content.decode()
    # issue #25.10: each match says which it is, and its winner is marked
    bracket = html.split('data-panel="bracket-1"')[1].split("data-panel=")[0]  # (its tiers are sections)
    assert bracket.count('<span class="hall-round">Välierä</span>') == 4
    assert bracket.count('<span class="hall-round">Loppuottelu</span>') == 2
    assert bracket.count('<span class="hall-round">Pronssiottelu</span>') == 2
    final = Match.objects.get(event=event, stage="placement", tier=1, placement_round="final")
    winner = build.build(event.pk).pairs[build.build(event.pk).match(final.pk).outcome.winner]
    assert f'<span class="hall-side winner">{winner.name} <span class="winner-mark"' in bracket
    assert bracket.count("(voittaja)") == 8  # every match of tiers 1 and 2 is played
    assert panels(html)[-1] == "places" and "Lopputulokset" in html
    places = panel(html, "places")
    assert places.count("<li>") == 16 and '<span class="hall-place">1.</span>' in places


def test_the_current_rounds_tables_come_back_every_30_seconds(client, drawn):
    """Issue #25.10: at 10 seconds a panel the screen shows the current round's tables, then two other
    panels, then the tables again (data-rotation: the order static/js/hall.js follows)."""
    html = client.get(hall_url(drawn)).content.decode()
    order = re.search(r'data-rotation="([^"]*)"', html).group(1).split()
    assert set(order) == set(panels(html))  # every panel is in the turn
    assert order[:4] == ["tables-saturday-1-1", panels(html)[1], panels(html)[2], "tables-saturday-1-1"]
    assert_tables_every_30_seconds(order)


@pytest.mark.slow
def test_more_tables_come_back_as_often_as_they_can(client, db):
    """Two panels of tables (16 tables): both, then one other panel; a larger event (32 tables, three
    panels): a panel of tables every other panel."""
    for pairs, seed, count in ((70, 3, 3), (40, 6, 2)):
        event = simulate(pairs, seed, "draw")
        html = client.get(hall_url(event)).content.decode()
        order = re.search(r'data-rotation="([^"]*)"', html).group(1).split()
        assert set(order) == set(panels(html)) and sum(k.startswith("tables-") for k in panels(html)) == count
        if count == 2:
            assert_tables_every_30_seconds(order)
        else:
            assert all(order[i].startswith("tables-") for i in range(0, len(order), 2))


def assert_tables_every_30_seconds(order: list[str]) -> None:
    """Every panel of tables comes back within three panels (30 s at 10 s a panel), round the cycle too."""
    for key in {k for k in order if k.startswith("tables-")}:
        places = [i for i, k in enumerate(order) if k == key]
        gaps = [b - a for a, b in zip(places, places[1:], strict=False)] + [places[0] + len(order) - places[-1]]
        assert max(gaps) <= 3, (key, order)


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
