"""The organiser's results desk (issues #16 and #18): what awaits the pairs' acceptance or the organiser's
confirmation, confirmed from the list at the versions shown; filters by round, group and state; a live
part that refreshes itself; an organiser, a fellow organiser and an outsider."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.builders import add_pairs
from tests.support.results_helpers import enter, link_url, page_messages, rami, store
from tournaments.actions import draw
from tournaments.actions import results as result_actions
from tournaments.models import Match


@pytest.fixture
def desk(make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=6)
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
    result_actions.delete_last_entry(match, version=seen, actor=result_actions.Actor(user=organiser))  # meanwhile
    store(match, [rami("A", 0)], user=organiser)
    response = client.post(reverse("organiser:confirm_many", args=[desk.slug]), {"confirm": f"{match.pk}:{seen}"},
                           follow=True)
    assert any("muutoksen sillä välin" in m for m in page_messages(response.content.decode()))
    match.refresh_from_db()
    assert match.confirmed_at is None


def test_a_corrected_result_is_listed_as_such(client, desk, organiser):
    match = store(matches(desk)[0], [rami("B", 0)], user=organiser)
    result_actions.set_confirmed(match, True, version=None, user=organiser)
    match.refresh_from_db()
    result_actions.replace_entry(match, 1, result_actions.EntryData(kind="deal", game="rami", caller_seat=1, tricks_a=0,
                                                        tricks_b=13), version=match.version,
                           actor=result_actions.Actor(user=organiser))
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


def test_results_awaiting_acceptance_are_confirmed_from_the_list_without_it(client, desk, organiser):
    """Issue #25 point 3: pairs who walk off without tapping "hyväksyy" leave results the desk confirms in
    bulk, at the versions shown, saying that it is without the pairs' acceptance."""
    first, second, third = matches(desk)[:3]
    for match in (first, second):
        enter(client, link_url(match), match, [rami("B", 0)])  # finished on the link, nobody accepted
    enter(client, link_url(third), third, [rami("B", 0)])
    client.force_login(organiser)
    html = client.get(url(desk)).content.decode()
    assert "voit vahvistaa tuloksen ilman parien hyväksyntää" in html
    assert f'aria-label="Vahvista {first.round}/{first.table} ilman parien hyväksyntää"' in html
    assert not re.findall(r'name="confirm" value="\d+:\d+" checked', html)  # none ticked for the organiser
    shown = re.findall(r'name="unaccepted" value="(\d+:\d+)"', html)
    assert len(shown) == 3
    third.refresh_from_db()
    result_actions.accept_result(third, "A", version=third.version, actor=result_actions.Actor(via_link=True))  # meanwhile
    response = client.post(
        reverse("organiser:confirm_many", args=[desk.slug]),
        {"unaccepted": shown, "unaccepted_too": "1", "back": url(desk)}, follow=True,
    )
    said = page_messages(response.content.decode())
    assert "2 tulosta vahvistettu. Niistä 2 ilman parien hyväksyntää." in said
    assert any(m.startswith(f"{third.round}/{third.table}: ") for m in said)  # changed since it was shown
    for match in (first, second, third):
        match.refresh_from_db()
    assert first.confirmed_at and second.confirmed_at and third.confirmed_at is None
    assert to_do(response.content.decode()) == [f"{third.round}/{third.table}"]


def test_one_result_awaiting_acceptance_ticked_by_hand(client, desk, organiser):
    first, second = matches(desk)[:2]
    for match in (first, second):
        enter(client, link_url(match), match, [rami("B", 0)])
    first.refresh_from_db()
    client.force_login(organiser)
    response = client.post(reverse("organiser:confirm_many", args=[desk.slug]),
                           {"confirm": f"{first.pk}:{first.version}"}, follow=True)
    assert "1 tulos vahvistettu. Niistä 1 ilman parien hyväksyntää." in page_messages(response.content.decode())
    second.refresh_from_db()
    assert second.confirmed_at is None


def test_a_penalty_or_forfeit_tuppi_says_so_where_the_result_is_shown_compactly(client, desk, organiser):
    """Issue #25: not "0–5 (52–52) tuppi" with no word that it was a penalty."""
    penalty, forfeited, played = matches(desk)[:3]
    actor = result_actions.Actor(user=organiser)
    store(penalty, [rami("A", 9)], user=organiser)
    penalty.refresh_from_db()
    result_actions.add_entry(penalty, result_actions.EntryData(kind="tuppi", pair="B"), version=None, actor=actor)
    result_actions.add_entry(forfeited, result_actions.EntryData(kind="forfeit", pair="A"), version=None, actor=actor)
    store(played, [rami("B", 0)], user=organiser)  # a nälsytuppi: a tuppi won at the table
    client.force_login(organiser)
    html = client.get(url(desk)).content.decode()

    def row(match) -> str:
        found = re.search(rf'<span class="table-no">{match.round}/{match.table}</span>(.*?)</li>', html, re.S)
        return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())

    assert "0–5 (12–0) tuppi (rangaistus)" in row(penalty)
    assert f"luovutus ({forfeited.pair_a.name} luovutti)" in row(forfeited)
    assert row(played).split(" · ")[0].endswith(") tuppi")  # a real tuppi is just that
    sheet = client.get(reverse("organiser:match", args=[desk.slug, penalty.pk])).content.decode()
    assert "(rangaistus: vastustaja pantiin tuppeen)" in sheet
    sheet = client.get(reverse("organiser:match", args=[desk.slug, forfeited.pk])).content.decode()
    assert "(vastustajan luovutus)" in sheet
