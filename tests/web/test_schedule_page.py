"""The public schedule: per round, who plays whom at which table; no login; fixed query count."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.web.builders import add_pairs
from tournaments import services
from tournaments.models import Match


def test_round_shows_every_match_with_table(client, make_event, organiser):
    event = make_event()
    add_pairs(event, 20)
    services.draw_groups(event, organiser, seed=5)
    html = client.get(reverse("schedule", args=[event.slug]) + "?kierros=1").content.decode()
    for match in Match.objects.filter(event=event, round=1):
        assert f'aria-label="Pöytä {match.table}"' in html
        assert match.pair_a.name in html and match.pair_b.name in html
    assert "?kierros=3" in html  # groups of 3 play three rounds


def test_unknown_round_is_404_and_bad_round_falls_back(client, make_event, organiser):
    event = make_event()
    add_pairs(event, 16)
    services.draw_groups(event, organiser, seed=5)
    assert client.get(reverse("schedule", args=[event.slug]) + "?kierros=9").status_code == 404
    assert client.get(reverse("schedule", args=[event.slug]) + "?kierros=x").status_code == 200


def test_before_the_draw(client, make_event):
    event = make_event()
    assert "Ohjelmaa ei ole vielä laadittu." in client.get(reverse("schedule", args=[event.slug])).content.decode()


def queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_query_count_does_not_grow_with_the_event(client, make_event, organiser):
    small, large = make_event(), make_event()
    add_pairs(small, 16)
    add_pairs(large, 70)
    services.draw_groups(small, organiser, seed=1)
    services.draw_groups(large, organiser, seed=1)
    for name in ("schedule", "event"):
        assert queries(client, reverse(name, args=[small.slug])) == queries(client, reverse(name, args=[large.slug]))
