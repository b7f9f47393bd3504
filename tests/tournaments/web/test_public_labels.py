"""Issue #25.10 and its smaller points, the public side: what a reader needs to read a page is on it. The
match page explains the sheet's letters and marks ("Merkinnät", as the referee's link and the organiser's
sheet do); the pair page's matches name their table in words; a placement match is called a semifinal,
a final or a third-place match, never "kierros 1" or "kierros 2"."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tests.support.results_helpers import one_group_event, rami, store
from tests.tournaments.web.test_pair_page import simulate
from tournaments.actions import sunday
from tournaments.actions.simulation import play_matches, settle_playoffs
from tournaments.models import Match


def get(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_match_page_explains_its_letters_and_marks(client, make_event, organiser):
    event, _group, _pairs = one_group_event(make_event, organiser, 4)
    match = Match.objects.filter(event=event).first()
    store(match, [rami("A", 3)])  # a robbed rami: "ry" on the sheet
    html = get(client, reverse("match", args=[event.slug, match.pk]))
    legend = html.split('<details class="legend">')[1].split("</details>")[0]
    assert "<summary>Merkinnät</summary>" in legend
    for code, meaning in (("R", "rami"), ("N", "nolo"), ("ry", "ryöstö"), ("k", "kesken"), ("+", "loppuun")):
        assert meaning in legend.split(f"<dt>{code}</dt><dd>")[1].split("</dd>")[0], code


def test_the_pair_pages_matches_name_their_table(client, make_event, organiser):
    event, _group, pairs = one_group_event(make_event, organiser, 4)
    html = get(client, reverse("pair", args=[event.slug, pairs[0].number]))
    for match in Match.objects.filter(event=event).filter(pair_a=pairs[0]) | Match.objects.filter(pair_b=pairs[0]):
        assert f'<span class="table-no"><small>pöytä</small> {match.table}</span>' in html


@pytest.fixture
def placements(db):
    """A 40-pair event through Sunday's groups with the semifinals made."""
    event = simulate(40, 9, "groups")
    sunday.advance(event, None)
    rng = random.Random(2)
    play_matches(event.matches.filter(stage="sunday"), rng)
    settle_playoffs(event, rng, "sunday")
    sunday.create_placements(event)
    return event


def test_a_placement_match_is_called_by_its_name(client, placements):
    semi = Match.objects.filter(event=placements, stage="placement", tier=1).order_by("slot").first()
    html = get(client, reverse("match", args=[placements.slug, semi.pk]))
    assert f"Välierä, sijat 1.–4. · pöytä {semi.table}" in html and "kierros 1" not in html
    html = get(client, reverse("pair", args=[placements.slug, semi.pair_a.number]))
    box = html.split('class="next-table card')[1].split("</div>")[0]
    assert "Sijoitusottelu: välierä, sijat 1.–4." in box and "kierros" not in box
    html = get(client, reverse("sunday", args=[placements.slug]))
    assert "Välierät" in html
    placement_lines = [line for line in html.splitlines() if "bracket-match" in line or "tier" in line]
    assert not any("kierros" in line for line in placement_lines)
