"""The organiser's results desk (issues #16 and #18): what awaits the pairs' acceptance or the organiser's
confirmation, confirmed from the list at the versions shown; filters by round, group and state; a live
part that refreshes itself; an organiser, a fellow organiser and an outsider."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.web.builders import add_pairs
from tests.web.results_helpers import enter, link_url, page_messages, rami, store
from tournaments import services
from tournaments.models import Match


@pytest.fixture
def desk(make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    add_pairs(event, 16)
    services.draw_groups(event, organiser, seed=6)
    return event


def url(event, **filters) -> str:
    query = "&".join(f"{k}={v}" for k, v in filters.items())
    return reverse("organiser:results", args=[event.slug]) + (f"?{query}" if query else "")


def to_do(html: str) -> list[str]:
    section = re.search(r'<section class="card to-do".*?</section>', html, re.S)
    return [] if section is None else re.findall(r'<span class="table-no">([^<]+)</span>', section.group(0))


def matches(event):
    return list(Match.objects.filter(event=event).order_by("round", "table"))


def test_the_desk_is_for_the_events_organisers(client, desk, organiser, outsider, django_user_model):
    fellow = django_user_model.objects.create_user("toinen", password="salasana-3")
    desk.organisers.add(fellow)
    target = url(desk)
    assert client.get(target).status_code == 302  # to the login page
    client.force_login(outsider)
    assert client.get(target).status_code == 403
    assert client.post(reverse("organiser:confirm_many", args=[desk.slug]), {}).status_code == 403
    for user in (organiser, fellow):
        client.force_login(user)
        assert client.get(target).status_code == 200


def test_what_awaits_acceptance_and_confirmation_and_confirming_from_the_list(client, desk, organiser):
    first, second, third = matches(desk)[:3]
    enter(client, link_url(first), first, [rami("B", 0)])  # finished on the link: the pairs to accept
    store(second, [rami("B", 0)], user=organiser)  # finished by the organiser: to confirm
    store(third, [rami("A", 9)])  # under way
    client.force_login(organiser)
    html = client.get(url(desk)).content.decode()
    assert to_do(html) == [f"{first.round}/{first.table}", f"{second.round}/{second.table}"]
    assert "odottaa parien hyväksyntää" in html and "odottaa vahvistusta" in html
    # only the results the organiser may confirm are ticked: not the one awaiting the pairs
    ticked = re.findall(r'name="confirm" value="(\d+):(\d+)" checked', html)
    second.refresh_from_db()
    assert ticked == [(str(second.pk), str(second.version))]
    response = client.post(
        reverse("organiser:confirm_many", args=[desk.slug]),
        {"confirm": [f"{a}:{b}" for a, b in ticked], "back": url(desk)}, follow=True,
    )
    assert "1 tulos vahvistettu." in page_messages(response.content.decode())
    second.refresh_from_db()
    assert second.confirmed_at is not None and second.confirmed_by == organiser
    assert to_do(response.content.decode()) == [f"{first.round}/{first.table}"]


def test_a_stale_tick_is_refused(client, desk, organiser):
    match = store(matches(desk)[0], [rami("B", 0)], user=organiser)
    client.force_login(organiser)
    seen = match.version
    services.delete_last_entry(match, version=seen, actor=services.Actor(user=organiser))  # meanwhile
    store(match, [rami("A", 0)], user=organiser)
    response = client.post(reverse("organiser:confirm_many", args=[desk.slug]), {"confirm": f"{match.pk}:{seen}"},
                           follow=True)
    assert any("muutoksen sillä välin" in m for m in page_messages(response.content.decode()))
    match.refresh_from_db()
    assert match.confirmed_at is None


def test_a_corrected_result_is_listed_as_such(client, desk, organiser):
    match = store(matches(desk)[0], [rami("B", 0)], user=organiser)
    services.set_confirmed(match, True, version=None, user=organiser)
    match.refresh_from_db()
    services.replace_entry(match, 1, services.EntryData(kind="deal", game="rami", caller_seat=1, tricks_a=0,
                                                        tricks_b=13), version=match.version,
                           actor=services.Actor(user=organiser))
    client.force_login(organiser)
    html = client.get(url(desk, tila="corrected")).content.decode()
    assert "korjattu, odottaa vahvistusta" in html and to_do(html) == [f"{match.round}/{match.table}"]


def test_filters_and_the_live_part(client, desk, organiser):
    client.force_login(organiser)
    html = client.get(url(desk, kierros=1)).content.decode()
    rounds = {re.match(r"(\d+)/", t).group(1) for t in re.findall(r'<span class="table-no">([^<]+)</span>', html)}
    assert rounds == {"1"}
    html = client.get(url(desk, lohko="B")).content.decode()
    assert 'id="lohko-B"' in html and 'id="lohko-A"' not in html
    part = client.get(url(desk), HTTP_HX_REQUEST="true").content.decode()
    assert part.strip().startswith('<div id="desk"') and "<html" not in part
    assert 'hx-trigger="every 10s"' in part and "data-poll-pauses-in-forms" in part
