"""The organiser's draw page: draw, redraw, swap, the lock after the first result, and who may do it."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from tests.support.builders import add_pairs
from tournaments.actions import draw as draw_actions
from tournaments.actions import entries, event_day
from tournaments.models import DrawSwap, Event, GroupEntry, Match


@pytest.fixture
def event(make_event, organiser):
    event = make_event(name="Arvontakisa")
    event.organisers.add(organiser)
    return event


def draw_url(event):
    return reverse("organiser:draw", args=[event.slug])


def groups_of(event):
    return {e.pair_id: e.group.name for e in GroupEntry.objects.filter(group__event=event).select_related("group")}


def test_permissions(client, event, organiser, outsider, make_event):
    other = make_event(name="Toinen kisa")
    other.organisers.add(outsider)
    add_pairs(event, 16)
    assert client.get(draw_url(event)).status_code == 302  # logged out: to the login page
    assert client.post(draw_url(event)).status_code == 302
    assert event.groups.count() == 0
    client.force_login(outsider)
    assert client.get(draw_url(event)).status_code == 403
    assert client.post(draw_url(event)).status_code == 403
    assert event.groups.count() == 0
    client.force_login(organiser)
    assert client.get(draw_url(event)).status_code == 200


def test_draw_makes_groups_and_schedule(client, event, organiser):
    add_pairs(event, 20)
    client.force_login(organiser)
    response = client.post(draw_url(event), follow=True)
    assert "Lohkot on arvottu" in response.content.decode()
    event.refresh_from_db()
    assert event.draw_seed is not None and event.drawn_at is not None and event.drawn_by == organiser
    sizes = Counter(groups_of(event).values())
    assert len(sizes) == 8 and sorted(sizes.values()) == [2, 2, 2, 2, 3, 3, 3, 3]
    # groups of 3 play 3 matches, groups of 2 one: 4 × 3 + 4 × 1
    assert Match.objects.filter(event=event).count() == 16
    html = client.get(event.get_absolute_url()).content.decode()
    assert str(event.draw_seed) in html


def test_same_seed_reproduces_the_draw(event, organiser, make_event):
    add_pairs(event, 24)
    draw_actions.draw_groups(event, organiser, seed=12345)
    first = groups_of(event)
    draw_actions.draw_groups(event, organiser, seed=999)
    assert groups_of(event) != first
    draw_actions.draw_groups(event, organiser, seed=12345)
    assert groups_of(event) == first


def test_too_few_pairs_offers_one_stage(client, event, organiser):
    add_pairs(event, 10)
    client.force_login(organiser)
    html = client.post(draw_url(event), follow=True).content.decode()
    assert "vähintään 16 paria" in html and "yksivaiheinen" in html
    assert event.groups.count() == 0

    Event.objects.filter(pk=event.pk).update(format=Event.Format.ONE_STAGE, group_count=2)
    client.post(draw_url(event))
    assert sorted(Counter(groups_of(event).values()).values()) == [5, 5]
    # one-stage groups of 5: 10 matches each, 12 deals
    assert Match.objects.filter(event=event).count() == 20
    assert set(Match.objects.filter(event=event).values_list("deals_planned", flat=True)) == {12}


def test_draw_locked_after_first_result(client, event, organiser):
    add_pairs(event, 16)
    client.force_login(organiser)
    client.post(draw_url(event))
    seed = Event.objects.get(pk=event.pk).draw_seed
    match = Match.objects.filter(event=event).first()
    match.status = Match.Status.FINISHED
    match.save()
    html = client.post(draw_url(event), follow=True).content.decode()
    assert "arvonta on lukittu" in html
    assert Event.objects.get(pk=event.pk).draw_seed == seed
    assert "Arvo uudelleen" not in client.get(draw_url(event)).content.decode()


def test_swap_two_pairs(client, event, organiser):
    pairs = add_pairs(event, 16)
    client.force_login(organiser)
    client.post(draw_url(event))
    before = groups_of(event)
    x = pairs[0]
    y = next(p for p in pairs if before[p.pk] != before[x.pk])
    url = reverse("organiser:swap", args=[event.slug])
    unsure = client.post(url, {"pair_x": x.pk, "pair_y": y.pk}, follow=True).content.decode()
    assert "Vahvista toiminto rastilla" in unsure and groups_of(event) == before  # it asks first
    assert "Vaihdan parit: kummankin lohkon otteluohjelma laaditaan uudelleen." in client.get(draw_url(event)).content.decode()
    response = client.post(url, {"pair_x": x.pk, "pair_y": y.pk, "sure": "1"}, follow=True)
    assert "Parit on vaihdettu" in response.content.decode()
    after = groups_of(event)
    assert after[x.pk] == before[y.pk] and after[y.pk] == before[x.pk]
    # the schedule follows: x now meets y's old group-mates
    x_opponents = set(
        Match.objects.filter(pair_a=x).values_list("pair_b", flat=True)
    ) | set(Match.objects.filter(pair_b=x).values_list("pair_a", flat=True))
    assert x_opponents == {p for p, g in before.items() if g == before[y.pk] and p != y.pk}
    assert DrawSwap.objects.filter(event=event).count() == 1
    assert f"{x.name} ↔ {y.name}" in client.get(event.get_absolute_url()).content.decode()


def test_swap_within_a_group_is_refused(client, event, organiser):
    pairs = add_pairs(event, 16)
    client.force_login(organiser)
    client.post(draw_url(event))
    groups = groups_of(event)
    x = pairs[0]
    y = next(p for p in pairs if p != x and groups[p.pk] == groups[x.pk])
    html = client.post(
        reverse("organiser:swap", args=[event.slug]), {"pair_x": x.pk, "pair_y": y.pk, "sure": "1"}, follow=True
    ).content.decode()
    assert "samassa lohkossa" in html
    assert DrawSwap.objects.count() == 0


def test_withdrawn_pair_not_drawn(event, organiser):
    pairs = add_pairs(event, 17)
    entries.withdraw_pair(pairs[3])
    draw_actions.draw_groups(event, organiser)
    assert pairs[3].pk not in groups_of(event)
    assert len(groups_of(event)) == 16


def test_the_page_says_what_the_draw_will_make_and_who_has_not_paid(client, event, organiser):
    """Issue #25: before the draw, the groups, their sizes and deals, and the pairs that have not paid."""
    Event.objects.filter(pk=event.pk).update(entry_fee=20)
    pairs = add_pairs(event, 42)
    for pair in pairs[:39]:
        event_day.record_fee(pair, "cash", user=organiser)
    client.force_login(organiser)
    text = " ".join(client.get(draw_url(event)).content.decode().split())
    assert "Arvonta tekee 8 lohkoa:" in text
    assert "2 lohkoa, 6 paria kussakin: ottelussa 12 jakoa" in text
    assert "6 lohkoa, 5 paria kussakin: ottelussa 12 jakoa" in text
    assert "3 paria ei ole maksanut osallistumismaksua." in text
    client.post(draw_url(event))
    assert sorted(Counter(groups_of(event).values()).values()) == [5] * 6 + [6] * 2  # as the page said
    assert set(event.groups.values_list("deals_planned", flat=True)) == {12}


def test_small_groups_play_16_deals_and_the_page_says_so(client, event, organiser):
    add_pairs(event, 20)
    client.force_login(organiser)
    text = " ".join(client.get(draw_url(event)).content.decode().split())
    assert "4 lohkoa, 2 paria kussakin: ottelussa 16 jakoa" in text
    assert "4 lohkoa, 3 paria kussakin: ottelussa 16 jakoa" in text and "maksanut" not in text
