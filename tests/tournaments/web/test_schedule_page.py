"""The public schedule: per round, who plays whom at which table; no login; fixed query count."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.builders import add_pairs
from tournaments.actions import draw
from tournaments.models import Match
from tournaments.readmodel import heads


def test_round_shows_every_match_with_table(client, make_event, organiser):
    event = make_event()
    add_pairs(event, 20)
    draw.draw_groups(event, organiser, seed=5)
    html = client.get(reverse("schedule", args=[event.slug]) + "?kierros=1").content.decode()
    for match in Match.objects.filter(event=event, round=1):
        assert f"<small>pöytä</small> {match.table}</span>" in html  # the table number has a visible label
        assert match.pair_a.name in html and match.pair_b.name in html
    assert "?kierros=3" in html  # groups of 3 play three rounds


def test_unknown_round_is_404_and_bad_round_falls_back(client, make_event, organiser):
    event = make_event()
    add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=5)
    assert client.get(reverse("schedule", args=[event.slug]) + "?kierros=9").status_code == 404
    assert client.get(reverse("schedule", args=[event.slug]) + "?kierros=x").status_code == 200


def test_before_the_draw(client, make_event):
    event = make_event()
    assert "Ohjelmaa ei ole vielä laadittu." in client.get(reverse("schedule", args=[event.slug])).content.decode()


def queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_query_count_does_not_grow_with_the_event(client, make_event, organiser, monkeypatch):
    # the shared head lasts 3 s, which a loaded machine's larger event may outlast within one request
    monkeypatch.setattr(heads, "SHARED_SECONDS", 3600)
    small, large = make_event(), make_event()
    add_pairs(small, 16)
    add_pairs(large, 70)
    draw.draw_groups(small, organiser, seed=1)
    draw.draw_groups(large, organiser, seed=1)
    for name in ("schedule", "event"):
        assert queries(client, reverse(name, args=[small.slug])) == queries(client, reverse(name, args=[large.slug]))


def test_resting_pairs_are_listed_for_each_round(client, make_event, organiser):
    """Issue #18: an odd-sized group rests one pair a round; the schedule names it under its group. An even
    group rests nobody, and a group with no match left in a round (a smaller group already done) is not said
    to rest."""
    from tests.support.builders import add_pairs as more_pairs

    event = make_event()
    more_pairs(event, 36)  # 8 groups: four of 5 (five rounds) and four of 4 (three rounds)
    draw.draw_groups(event, organiser, seed=5)
    sizes = {g.name: g.entries.count() for g in event.groups.all()}
    assert sorted(sizes.values()) == [4] * 4 + [5] * 4
    for number in (1, 4):
        html = client.get(reverse("schedule", args=[event.slug]) + f"?kierros={number}").content.decode()
        assert "Lepovuorossa" in html
        resting = html.split("Lepovuorossa")[1].split("</ul>")[0]
        for group in event.groups.all():
            in_round = Match.objects.filter(group=group, round=number)
            playing = {p for m in in_round for p in (m.pair_a_id, m.pair_b_id)}
            rest = [e.pair for e in group.entries.select_related("pair") if e.pair_id not in playing]
            if sizes[group.name] == 5:
                assert len(rest) == 1 and f"Lohko {group.name}:" in resting and rest[0].name in resting
            else:
                assert f"Lohko {group.name}:" not in resting


def test_a_fixtures_table_and_round_are_labelled(client, make_event, organiser):
    """Issue #25.10: the group page's matches say "pöytä 9" and "kierros 1" in words, not a bare "1/9"
    (the table number stays on one line: CSS)."""
    event = make_event()
    add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=5)
    html = client.get(reverse("group", args=[event.slug, "A"])).content.decode()
    fixtures = html.split('<ul class="fixtures">')[1].split("</ul>")[0]
    for match in Match.objects.filter(event=event, group__name="A"):
        item = fixtures.split(match.pair_a.name + " – " + match.pair_b.name)[0].rsplit("<li", 1)[1]
        assert f'<span class="table-no"><small>pöytä</small> {match.table}</span>' in item
        rest = fixtures.split(match.pair_a.name + " – " + match.pair_b.name)[1].split("</li>")[0]
        assert f'<span class="meta">kierros {match.round} · ' in rest
    assert f"{match.round}/{match.table}<" not in html
