"""A pair that withdraws before finishing its group has all its group matches annulled, kept and shown."""

from __future__ import annotations

from django.urls import reverse

from tests.support.builders import add_pairs
from tournaments.actions import draw, entries
from tournaments.models import Match


def test_withdrawal_annuls_all_its_matches(make_event, organiser, client):
    event = make_event()
    pairs = add_pairs(event, 24)  # groups of 3: two matches a pair
    draw.draw_groups(event, organiser, seed=7)
    pair = pairs[0]
    mine = Match.objects.filter(pair_a=pair) | Match.objects.filter(pair_b=pair)
    assert mine.count() == 2
    played = mine.first()
    played.status = Match.Status.FINISHED
    played.save()
    assert entries.withdraw_pair(pair) == mine.count()
    assert set(mine.values_list("status", flat=True)) == {"annulled"}
    assert Match.objects.filter(event=event, status="annulled").count() == mine.count()
    html = client.get(reverse("schedule", args=[event.slug]) + f"?kierros={played.round}").content.decode()
    assert 'class="fixture annulled"' in html


def test_withdrawal_after_finishing_the_group_keeps_results(make_event, organiser):
    event = make_event()
    pairs = add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=7)
    pair = pairs[0]
    mine = Match.objects.filter(pair_a=pair) | Match.objects.filter(pair_b=pair)
    mine.update(status=Match.Status.FINISHED)
    assert entries.withdraw_pair(pair) == 0
    assert set(mine.values_list("status", flat=True)) == {"finished"}


def test_swap_keeps_annulment(make_event, organiser):
    event = make_event()
    pairs = add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=7)
    entries.withdraw_pair(pairs[0])
    groups = draw.current_groups(event)
    other = next(p for g in groups if pairs[0].pk not in g for p in g)
    draw.swap_pairs(event, pairs[0], type(pairs[0]).objects.get(pk=other), organiser)
    mine = Match.objects.filter(pair_a=pairs[0]) | Match.objects.filter(pair_b=pairs[0])
    assert mine.exists() and set(mine.values_list("status", flat=True)) == {"annulled"}
