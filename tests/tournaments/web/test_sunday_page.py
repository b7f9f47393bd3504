"""The public Sunday page (``/kisat/<slug>/sunnuntai/``): before Saturday ends the Sunday chart of RULES.md
§5 with the places already decided filled in and the others "A1 (auki)" (issue #20); then the Sunday groups
with the placement tier each pair has secured, and the placement bracket, whose slots still waiting say
whose winner they wait for (issue #14): "lohkon 1 voittaja", "välierän 1 voittaja"."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.support.results_helpers import one_group_event
from tournaments.actions import sunday
from tournaments.actions.simulation import play_matches, settle_playoffs
from tournaments.models import Event, Match
from tournaments.readmodel import build


def simulate(pairs: int, seed: int, until: str) -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", str(pairs), "--seed", str(seed), "--until", until, stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


def page(client, event) -> str:
    response = client.get(reverse("sunday", args=[event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def tier(html: str, number: int) -> str:
    return html.split(f'id="tier-{number}"')[1].split("</section>")[0]


def test_the_chart_with_sixteen_groups_fills_in_as_saturday_ends(client, db):
    event = simulate(70, 5, "draw")  # 16 groups: the winners go on, A1 B1 O1 P1 in Sunday group 1 …
    html = page(client, event)
    assert "Sunnuntain lohkot (ennakko)" in html
    for name in "ABCDEFGHIJKLMNOP":
        assert f"{name}1 (auki)" in html
    chart = html.split('class="groups chart-preview"')[1].split("</main>")[0]
    assert "A2" not in chart  # one a group goes on (the chart only: a CSRF token may hold any two letters)
    first = html.split("Sunnuntain lohko 1")[1].split("</section>")[0]
    assert [code in first for code in ("A1", "B1", "O1", "P1")] == [True] * 4
    # Saturday played (a play-off recorded wherever a tie needs one): every place of the chart is known
    play_matches(event.matches.filter(stage="saturday"), random.Random(5))
    settle_playoffs(event, random.Random(5))
    html = page(client, event)
    snap = build.build(event.pk)
    assert "(auki)" not in html
    for table in snap.stage_tables("saturday"):
        assert table.rows[0].pair.name in html


def test_a_one_stage_event_has_no_chart(client, make_event, organiser):
    event, group, pairs = one_group_event(make_event, organiser, 4)
    html = page(client, event)
    assert "ennakko" not in html and "Sunnuntain lohkoja ei ole vielä muodostettu." in html


@pytest.fixture
def formed(db):
    event = simulate(40, 14, "groups")
    sunday.advance(event, None)
    return event


def test_slots_say_whose_winner_they_wait_for(client, formed):
    html = page(client, formed)
    first, second = tier(html, 1), tier(html, 2)
    for text in ("lohkon 1 voittaja", "lohkon 2 voittaja", "lohkon 3 voittaja", "lohkon 4 voittaja",
                 "välierän 1 voittaja", "välierän 2 voittaja", "välierän 1 häviäjä", "välierän 2 häviäjä"):
        assert text in first, text
    assert "lohkon 1 kakkonen" in second and "lohkon 4 kakkonen" in second
    assert "lohkon 1 kolmonen" in tier(html, 3) and "lohkon 1 nelonen" in tier(html, 4)
    assert "ei vielä tiedossa" not in html
    # Sunday group 1 is played: its pairs take their slots by name; the other groups' are still awaited
    rng = random.Random(1)
    play_matches(formed.matches.filter(stage="sunday", group__name="1"), rng)
    settle_playoffs(formed, rng, "sunday")  # (a tie, if any, played off)
    table = build.build(formed.pk).table(formed.groups.get(stage="sunday", name="1").pk)
    html = page(client, formed)
    winner, fourth = table.rows[0].pair, table.rows[3].pair
    assert f"{winner.name} <span class=\"meta\">(lohkon 1 voittaja)</span>" in tier(html, 1)
    assert f"{fourth.name} <span class=\"meta\">(lohkon 1 nelonen)</span>" in tier(html, 4)
    assert "varmistettu: sijat 1.–4." in html and "varmistettu: sijat 13.–16." in html  # beside their names
    assert "lohkon 2 voittaja" in tier(html, 1) and "Pareja ei vielä tiedetä" in tier(html, 1)


def test_the_final_waits_for_the_other_semifinal(client, formed):
    rng = random.Random(2)
    play_matches(formed.matches.filter(stage="sunday"), rng)
    settle_playoffs(formed, rng, "sunday")
    sunday.create_placements(formed)
    semi = Match.objects.get(event=formed, tier=1, placement_round="semi", slot=1)
    play_matches([semi], rng)
    snap = build.build(formed.pk)
    done = snap.match(semi.pk)
    winner = done.pair_a if done.outcome.winner == done.pair_a_id else done.pair_b
    loser = done.opponent(winner.pk)
    html = tier(page(client, formed), 1)
    final, third = html.split("Loppuottelu")[1].split("Pronssiottelu")
    assert f"{winner.name} <span class=\"meta\">(välierän 1 voittaja)</span>" in final and "välierän 2 voittaja" in final
    assert f"{loser.name} <span class=\"meta\">(välierän 1 häviäjä)</span>" in third and "välierän 2 häviäjä" in third


def test_the_organisers_bracket_says_it_too(client, formed, organiser):
    formed.organisers.add(organiser)
    client.force_login(organiser)
    html = client.get(reverse("organiser:sunday", args=[formed.slug])).content.decode()
    assert "lohkon 1 voittaja" in html and "välierän 2 häviäjä" in html


def test_unknown_event_is_404(client, db):
    assert client.get(reverse("sunday", args=["ei-ole"])).status_code == 404
