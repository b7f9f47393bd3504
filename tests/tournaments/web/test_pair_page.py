"""The public event and pair pages: the event's status and current round, "my next table" (the pair page
shows the next table number and opponent), the pair's matches and position; live pages poll, finished
ones do not."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tests.clock import HELSINKI
from tests.support.results_helpers import finish, one_group_event, paper, rami, store
from tournaments.actions import draw, entries
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
    # "my next table": every pair is offered (the search box's list), each number leading to its own page, as
    # does a choice from the list ("12: Name / Name"): a plain GET form, no script
    for pair in pairs:
        assert f'<option value="{pair.number}: {pair.name}">' in html
        for typed in (pair.number, f"{pair.number}: {pair.name}"):
            picked = client.get(reverse("pair_pick", args=[event.slug]), {"pari": typed})
            assert picked.status_code == 302 and picked["Location"] == pair_url(event, pair)
    assert client.get(reverse("pair_pick", args=[event.slug]), {"pari": " "})["Location"] == event.get_absolute_url()
    # a name that is nobody's: said so, with the search box again
    nobody = client.get(reverse("pair_pick", args=[event.slug]), {"pari": "xyz"})
    assert nobody.status_code == 200 and "Haulla ”xyz” ei löytynyt yhtään paria." in nobody.content.decode()


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
    entries.withdraw_pair(pairs[1])
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


# --- the whole weekend (issue #14, point 4), rest rounds and the picker (issue #18) -------------------


def simulate(pairs: int, seed: int, until: str):
    from io import StringIO

    from django.core.management import call_command

    from tournaments.models import Event

    out = StringIO()
    call_command("simulate_event", "--pairs", str(pairs), "--seed", str(seed), "--until", until, stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


def next_box(html: str) -> str:
    assert 'class="next-table card' in html, "no next match on the page"
    return html.split('class="next-table card')[1].split("</div>")[0]


def rest_box(html: str) -> str:
    return html.split('class="rest-now card"')[1].split("</div>")[0] if 'class="rest-now card"' in html else ""


def test_a_resting_pair_sees_its_rest_first_then_its_next_match(client, setup, clock):
    """A group of five rests one pair a round: the pair page lists its rest round among its matches, and
    while the event is in that round the page leads with the rest and until about when it lasts, then
    the next match with its round and estimated start (issue #25.8: not a big "Pöytä 9" for a table
    another match is playing at now)."""
    event, pairs = setup
    first_round = Match.objects.filter(event=event, round=1)
    playing = {p for m in first_round for p in (m.pair_a_id, m.pair_b_id)}
    (resting,) = [p for p in pairs if p.pk not in playing]
    html = get(client, pair_url(event, resting))
    assert html.count('class="fixture bye"') == 1
    bye = html.split('class="fixture bye"')[1].split("</li>")[0]
    assert "lepovuoro" in bye and "kierros 1" in bye
    # before round 1 its rest comes first, "next"; once round 1 is on (11.15), "now": the page's ETag
    # follows the clock too, so a phone polling since 11.10 gets the change
    assert "Seuraavaksi lepovuoro" in rest_box(html)
    clock.set(dt.datetime(2026, 12, 12, 11, 10, tzinfo=HELSINKI))
    before = client.get(pair_url(event, resting), HTTP_HX_REQUEST="true")
    assert "Seuraavaksi lepovuoro" in rest_box(before.content.decode())
    clock.set(dt.datetime(2026, 12, 12, 11, 16, tzinfo=HELSINKI))
    poll = client.get(pair_url(event, resting), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=before["ETag"])
    assert poll.status_code == 200 and "Lepovuoro nyt" in rest_box(poll.content.decode())
    html = get(client, pair_url(event, resting))
    rest = rest_box(html)
    assert "Lepovuoro nyt" in rest and "kierros 1" in rest and "noin klo 12.20 asti" in rest  # round 2: 12.20
    assert html.index('class="rest-now card"') < html.index('class="next-table card')  # the rest comes first
    box = next_box(html)
    (later,) = [m for m in mine(resting) if m.round == 2]
    assert "Lohko A, kierros 2" in box and "noin 12.20" in box and f"Pöytä {later.table}" in box
    assert 'class="big"' not in box  # the later round's table is not the headline
    # once round 1 is played the rest round is behind it: the page leads with the next match
    for match in first_round:
        paper(match, 40, 20)
    html = get(client, pair_url(event, resting))
    assert rest_box(html) == "" and "lepovuoro" not in next_box(html)
    assert f'<strong class="big">Pöytä {later.table}</strong>' in next_box(html)
    # a pair that plays round 1 has its rest round later, in its list only
    other = pairs[0] if pairs[0] != resting else pairs[1]
    html = get(client, pair_url(event, other))
    assert html.count('class="fixture bye"') == 1 and "lepovuoro" not in next_box(html) and not rest_box(html)


@pytest.mark.slow
def test_the_pair_page_covers_the_whole_weekend(client, db):
    """Saturday through: waiting for Sunday; then the Sunday group's next table, round and opponent; the
    placement semifinal, the final or the match for third; and the final place once known."""
    import random

    from tournaments.actions import sunday
    from tournaments.actions.simulation import play_matches, settle_playoffs
    from tournaments.readmodel import build

    event = simulate(40, 21, "groups")
    snap = build.build(event.pk)
    winner = snap.stage_tables("saturday")[0].rows[0].pair
    html = get(client, reverse("pair", args=[event.slug, winner.number]))
    assert "jatkoon varmasti" in html and "Jatkoon sunnuntaihin" in html and "next-table" not in html

    sunday.advance(event, None)
    group = event.groups.get(stage="sunday", entries__pair_id=winner.pk)
    first = (Match.objects.filter(group=group, pair_a_id=winner.pk) | Match.objects.filter(
        group=group, pair_b_id=winner.pk)).order_by("round").first()
    html = get(client, reverse("pair", args=[event.slug, winner.number]))
    box = next_box(html)
    other = first.pair_b if first.pair_a_id == winner.pk else first.pair_a
    assert f"Pöytä {first.table}" in box and f"Sunnuntain lohko {group.name}, kierros {first.round}" in box
    assert other.name in box
    assert f"Sunnuntain lohko {group.name}</a>" in html and "Lohko A</a>" in html  # Sunday above Saturday
    assert html.index(f"Sunnuntain lohko {group.name}</a>") < html.index("Lohko A</a>")

    rng = random.Random(3)
    play_matches(event.matches.filter(group=group), rng)  # its Sunday group is done, the others are not
    settle_playoffs(event, rng, "sunday")
    html = get(client, reverse("pair", args=[event.slug, winner.number]))
    assert "next-table" not in html and "Seuraavaksi" in html and "sunnuntain lohkot on pelattu" in html

    play_matches(event.matches.filter(stage="sunday"), rng)
    settle_playoffs(event, rng, "sunday")
    sunday.create_placements(event)
    semi = (Match.objects.filter(event=event, placement_round="semi", pair_a_id=winner.pk) | Match.objects.filter(
        event=event, placement_round="semi", pair_b_id=winner.pk)).get()
    places = {1: "1.–4.", 2: "5.–8.", 3: "9.–12.", 4: "13.–16."}[semi.tier]
    box = next_box(get(client, reverse("pair", args=[event.slug, winner.number])))
    assert f"Pöytä {semi.table}" in box and f"Sijoitusottelu: välierä, sijat {places}" in box

    play_matches([semi], rng)
    semi.refresh_from_db()
    html = get(client, reverse("pair", args=[event.slug, winner.number]))
    assert "Seuraavaksi loppuottelu" in html or "Seuraavaksi pronssiottelu" in html
    assert f"välierän {2 if semi.slot == 1 else 1}" in html

    for _step in ("semi", "final"):
        play_matches(event.matches.filter(stage="placement"), rng)
        sunday.create_placements(event)
    play_matches(event.matches.filter(stage="placement"), rng)
    place = dict((p, pl) for pl, p in build.build(event.pk).final_places)[winner.pk]
    html = get(client, reverse("pair", args=[event.slug, winner.number]))
    assert "Lopullinen sija" in html and f'<strong class="big">{place}.</strong>' in html
    assert "next-table" not in html and "Seuraavaksi" not in html
    assert "Sijoitusottelut" in html and ("loppuottelu, sijat" in html or "pronssiottelu, sijat" in html)


def test_a_pair_out_on_saturday_gets_its_shared_final_place(client, make_event, organiser):
    """A one-stage group with a three-way tie never played off: the three share places 1–3."""
    from tests.support.results_helpers import tie_group

    event, group, (p1, p2, p3, p4, p5) = tie_group(make_event, organiser)
    html = get(client, pair_url(event, p2))
    assert '<strong class="big">1.–3.</strong>' in html
    assert '<strong class="big">4.</strong>' in get(client, pair_url(event, p4))


def test_the_picker_finds_a_pair_by_name(client, make_event, organiser):
    """The event page's "my pair" box is a plain GET form: a name (any part of a player's name or the club,
    diacritics ignored) leads to the one pair it finds, or lists the pairs it finds."""
    from registry.models import Player
    from tests.support.builders import add_pairs, clubs
    from tournaments.models import Event

    event = make_event(format=Event.Format.ONE_STAGE, group_count=1)
    pairs = add_pairs(event, 4)
    aino = Player.objects.create(first_name="Aino", last_name="Kivelä", member_number="K1")
    matti = Player.objects.create(first_name="Matti", last_name="Mäkelä", member_number="K2")
    target = entries.create_pair(event, aino, matti, clubs()[0])
    entries.set_checked_in(target, True)
    draw.draw_groups(event, organiser, seed=1)
    url = reverse("pair_pick", args=[event.slug])
    for typed in ("kivela", "KIVELÄ", "aino kiv", "makela matti"):
        response = client.get(url, {"pari": typed})
        assert response.status_code == 302 and response["Location"] == pair_url(event, target), typed
    response = client.get(url, {"pari": "Suku"})  # the other four: a list to choose from
    html = response.content.decode()
    assert response.status_code == 200 and "löytyi 4 paria" in html
    for pair in pairs:
        assert pair_url(event, pair) in html
    assert pair_url(event, target) not in html
    assert client.get(reverse("pair_pick", args=["ei-ole"]), {"pari": "kivela"}).status_code == 404


def test_the_event_page_offers_the_remembered_pair(client, setup):
    """The device's own pair (localStorage, static/js/mypair.js) needs a place on the event page and a
    "remember" button on the pair page; both are hidden until the script shows them."""
    event, pairs = setup
    html = get(client, event.get_absolute_url())
    assert "data-my-pair-link" in html and f'data-url="{reverse("pair", args=[event.slug, 0])}"' in html
    assert "js/mypair.js" in html
    html = get(client, pair_url(event, pairs[0]))
    assert 'data-my-pair-remember' in html and f'data-number="{pairs[0].number}"' in html and "hidden>" in html
    assert "Muista oma parini tällä laitteella" in html and "js/mypair.js" in html
