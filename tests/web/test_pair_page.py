"""The public event and pair pages: the event's status and current round, "my next table" (the pair page
shows the next table number and opponent), the pair's matches and position; live pages poll, finished
ones do not."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.results_helpers import finish, one_group_event, paper, rami, store
from tournaments import services
from tournaments.models import Match


@pytest.fixture
def setup(make_event, organiser):
    # one group of five: five rounds of two matches, one pair resting each round
    event, group, pairs = one_group_event(make_event, organiser, 5)
    return event, pairs


def get(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def pair_url(event, pair):
    return reverse("pair", args=[event.slug, pair.number])


def mine(pair):
    return list(
        (Match.objects.filter(pair_a=pair) | Match.objects.filter(pair_b=pair)).order_by("round", "table")
    )


def opponent(match, pair):
    return match.pair_b if match.pair_a_id == pair.pk else match.pair_a


def test_event_page_shows_status_and_current_round(client, setup):
    event, pairs = setup
    html = get(client, event.get_absolute_url())
    assert "käynnissä" in html and "Menossa kierros 1" in html and "0/10 ottelua pelattu" in html
    for match in Match.objects.filter(event=event, round=1):
        paper(match, 40, 20)
    store(Match.objects.filter(event=event, round=2).first(), [rami("A", 9)])  # round 2 under way
    html = get(client, event.get_absolute_url())
    assert "Menossa kierros 2" in html and "2/10 ottelua pelattu" in html
    # "my next table": every pair is offered, each leading to its own page (a plain GET form, no script)
    for pair in pairs:
        assert f'<option value="{pair.number}">{pair.name}</option>' in html
        picked = client.get(reverse("pair_pick", args=[event.slug]), {"pari": pair.number})
        assert picked.status_code == 302 and picked["Location"] == pair_url(event, pair)
    assert client.get(reverse("pair_pick", args=[event.slug]), {"pari": "x"})["Location"] == event.get_absolute_url()


def test_event_page_before_the_draw_and_after_the_end(client, make_event, organiser):
    event = make_event()
    html = get(client, event.get_absolute_url())
    assert "Lohkoja ei ole vielä arvottu." in html and "Menossa kierros" not in html
    event, group, pairs = one_group_event(make_event, organiser, 4)
    for match in Match.objects.filter(event=event):
        paper(match, 40, 20)
    html = get(client, event.get_absolute_url())
    assert "Menossa kierros" not in html and "6/6 ottelua pelattu" in html


def test_pair_page_shows_the_next_table_and_opponent(client, setup):
    event, pairs = setup
    pair = pairs[0]
    first, second = mine(pair)[:2]
    html = get(client, pair_url(event, pair))
    assert pair.full_name in html
    next_box = html.split('class="next-table card"')[1].split("</div>")[0]
    assert f"Pöytä {first.table}" in next_box and f"kierros {first.round}" in next_box
    assert opponent(first, pair).name in next_box
    side = "olette pari A, paikat 1 ja 3" if first.pair_a_id == pair.pk else "olette pari B, paikat 2 ja 4"
    assert side in next_box
    # while the first match is being played it is still the table to go to
    store(first, [rami("A", 9)])
    assert f"kierros {first.round}" in get(client, pair_url(event, pair)).split('class="next-table card"')[1]
    # once it is over, the next one is shown
    store(first, [rami("B", 0)] if first.pair_a_id == pair.pk else [rami("A", 0)])  # a nälsytuppi: over
    next_box = get(client, pair_url(event, pair)).split('class="next-table card"')[1].split("</div>")[0]
    assert f"Pöytä {second.table}" in next_box and f"kierros {second.round}" in next_box
    assert opponent(second, pair).name in next_box


def test_pair_page_shows_matches_and_position(client, setup):
    event, pairs = setup
    pair = pairs[0]
    matches = mine(pair)
    assert len(matches) == 4
    for match in matches:  # the pair wins every match 40–20 (3–2)
        paper(match, 40, 20) if match.pair_a_id == pair.pk else paper(match, 20, 40)
    html = get(client, pair_url(event, pair))
    # 4 wins × 3 = 12 match points, 4 × 40 = 160 rise points, first in the group
    assert "Lohko A</a>: sija 1" in html
    assert "ottelupisteet 12 · voitot 4 · nousupisteet 160" in html
    assert "Kaikki lohko-ottelut on pelattu." in html and "next-table" not in html
    for match in matches:
        assert reverse("match", args=[event.slug, match.pk]) in html


def test_withdrawn_pair_page(client, setup):
    event, pairs = setup
    services.withdraw_pair(pairs[1])
    html = get(client, pair_url(event, pairs[1]))
    assert "luopunut" in html and html.count('class="fixture annulled"') == 4 and "next-table" not in html


def test_unknown_pair_is_404(client, setup):
    event, pairs = setup
    assert client.get(reverse("pair", args=[event.slug, 99])).status_code == 404


@pytest.mark.parametrize("page", ["event", "pair", "schedule", "group"])
def test_live_pages_poll_only_while_the_event_is_live(client, setup, page):
    event, pairs = setup
    args = {
        "event": [event.slug],
        "pair": [event.slug, pairs[0].number],
        "schedule": [event.slug],
        "group": [event.slug, "A"],
    }[page]
    url = reverse(page, args=args)
    html = get(client, url)
    assert (
        html.count('hx-trigger="every 5s"') == 1 and f'hx-get="{url}"' in html and 'hx-select="#live"' in html
    )
    assert 'id="live"' in html
    finish(event)
    html = get(client, url)
    assert "hx-trigger" not in html and "hx-get" not in html
    assert 'id="live"' in html  # the same page, just still
