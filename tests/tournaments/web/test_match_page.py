"""The public match page: no login, the scoresheet deal by deal as the paper one shows it, read-only,
never the secret link; it polls for updates while the event is live and the match not over."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.results_helpers import (
    finish,
    nolo,
    one_group_event,
    paper,
    rami,
    sheet_lines,
    sheet_totals,
    status_text,
    store,
)
from tournaments.actions import entries
from tournaments.models import Match


@pytest.fixture
def setup(make_event, organiser):
    event, group, pairs = one_group_event(make_event, organiser, 5)
    matches = list(Match.objects.filter(event=event).order_by("round", "table"))
    return event, matches


def match_url(event, match):
    return reverse("match", args=[event.slug, match.pk])


def get(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_sheet_deal_by_deal_without_login(client, setup, organiser):
    event, (match, *_rest) = setup
    # 1 rami A 10: 16 to A, A up 16; 2 nolo, A took 9: B wins 12, A falls at 16; 3 rami B 8 from seat 4: B up 8
    store(match, [rami("A", 10), nolo(9), rami("B", 8, seat=4)], user=organiser)
    html = get(client, match_url(event, match))
    assert sheet_lines(html) == [
        ["1", "R", "1", "10–3", "16 A", "16", ""],
        ["2", "N", "", "9–4", "12 B", "", ""],
        ["3", "R", "4", "5–8", "8 B", "", "8"],
    ]
    assert sheet_totals(html) == ("16", "8")
    assert "Jakoja pelattu 3/12" in status_text(html) and f"{match.pair_b.name} nousulla 8" in status_text(
        html
    )
    # read-only: no form, no correction links, and never the secret link
    assert 'name="tricks_a"' not in html and 'name="version"' not in html and 'name="total_a"' not in html
    assert "?muokkaa=" not in html and match.token not in html
    assert match.pair_a.full_name in html and match.pair_b.full_name in html


def test_finished_match_shows_the_result(client, setup):
    event, (match, *_rest) = setup
    store(match, [rami("B", 0)])  # B called and took nothing: nälsytuppi, 56 to A, tuppi at once, 5–0
    status = status_text(get(client, match_url(event, match)))
    assert f"{match.pair_a.name} voitti tupilla" in status and "ottelupisteet 5–0" in status


def test_paper_result_is_shown(client, setup):
    event, (match, *_rest) = setup
    paper(match, 60, 20)  # 60 > 48 in 12 deals: 4–1
    html = get(client, match_url(event, match))
    status = status_text(html)
    assert (
        "ottelupisteet 4–1" in status and "nousupisteet 60–20" in status and "paperipöytäkirjasta" in status
    )


def test_polling_while_live_and_unfinished(client, setup):
    event, (match, other, *_rest) = setup
    store(match, [rami("A", 9)])
    html = get(client, match_url(event, match))
    assert 'hx-trigger="every 5s"' in html and f'hx-get="{match_url(event, match)}"' in html
    store(match, [rami("B", 12)])  # B called and took 12: B wins 4 × 6 = 24, A (up 12) falls: the table
    store(match, [rami("B", 0)])  # nälsytuppi from the table: A wins 56, tuppi
    assert "hx-trigger" not in get(client, match_url(event, match))  # over: nothing more to wait for
    finish(event)
    assert "hx-trigger" not in get(client, match_url(event, other))  # the event is over


def test_annulled_match(client, setup):
    event, (match, *_rest) = setup
    entries.withdraw_pair(match.pair_b)
    html = get(client, match_url(event, match))
    assert "Ottelu on mitätöity." in status_text(html)


def test_match_of_another_event_is_404(client, setup, make_event, organiser):
    event, (match, *_rest) = setup
    other, _group, _pairs = one_group_event(make_event, organiser, 4, seed=8)
    foreign = Match.objects.filter(event=other).first()
    assert client.get(match_url(event, foreign)).status_code == 404
    assert client.get(reverse("match", args=[event.slug, 999999])).status_code == 404
