"""Who may enter a result: the event's organisers, and whoever holds a match's secret link (for that match
alone, until an organiser confirms the result). Every permission test tries the owner, an organiser of
another event and a logged-out visitor."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.results_helpers import (
    input_value,
    link_url,
    nolo,
    one_group_event,
    organiser_url,
    page_messages,
    post_line,
    rami,
    sheet_lines,
    status_text,
    store,
)
from tournaments.actions import entries, results
from tournaments.models import Match, PaperResult, ResultChange


@pytest.fixture
def setup(make_event, organiser, outsider):
    event, group, pairs = one_group_event(make_event, organiser, 5)
    other = make_event(name="Toinen kisa")
    other.organisers.add(outsider)  # an organiser, but of another event
    matches = list(Match.objects.filter(event=event).order_by("round", "table"))
    return event, matches, pairs


def test_organiser_url_permissions(client, setup, organiser, outsider):
    event, matches, pairs = setup
    match = matches[0]
    url = organiser_url(match)
    # logged out: to the login page, nothing stored
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert post_line(client, url, rami("A", 9), match=match).status_code == 302
    assert match.entries.count() == 0
    # an organiser of another event: 403, nothing stored
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    assert post_line(client, url, rami("A", 9), match=match).status_code == 403
    assert client.get(reverse("organiser:match_history", args=[event.slug, match.pk])).status_code == 403
    assert (
        client.post(reverse("organiser:sheet_confirm", args=[event.slug, match.pk]), {"confirmed": "1"}).status_code
        == 403
    )
    assert match.entries.count() == 0 and ResultChange.objects.count() == 0
    # this event's organiser: the sheet and the line are saved, under the organiser's name
    client.force_login(organiser)
    html = client.get(url).content.decode()
    assert (
        "Kirjaa seuraava jako" in html and link_url(match) in html
    )  # the secret link is shown to organisers
    assert post_line(client, url, rami("A", 9), match=match).status_code == 302
    assert match.entries.count() == 1
    change = ResultChange.objects.get()
    assert change.user == organiser and not change.via_link


def test_superuser_may_enter(client, setup, django_user_model):
    event, matches, pairs = setup
    admin = django_user_model.objects.create_superuser("liitto", password="x-salasana-3")
    client.force_login(admin)
    assert post_line(client, organiser_url(matches[0]), rami("A", 9), match=matches[0]).status_code == 302
    assert matches[0].entries.count() == 1


def test_secret_link_works_logged_out_for_its_match_only(client, setup, outsider):
    event, matches, pairs = setup
    mine, other = matches[0], matches[1]
    html = client.get(link_url(mine)).content.decode()
    assert "Kirjaa seuraava jako" in html
    assert mine.pair_a.full_name in html and mine.pair_b.full_name in html
    # the organisers' section (confirmation, history, the link itself) is not shown to a link holder
    assert "Muutoshistoria" not in html and "Vahvista tulos" not in html
    assert post_line(client, link_url(mine), rami("A", 9), match=mine).status_code == 302
    assert mine.entries.count() == 1 and other.entries.count() == 0
    change = ResultChange.objects.get()
    assert change.via_link and change.user is None
    # the link gives nothing else: the other match's organiser page still needs a login
    assert post_line(client, organiser_url(other), rami("A", 9), match=other).status_code == 302
    assert other.entries.count() == 0
    # a logged-in organiser of another event may use a link too (it is the link that counts)
    client.force_login(outsider)
    assert post_line(client, link_url(other), nolo(4), match=other).status_code == 302
    assert other.entries.count() == 1 and ResultChange.objects.filter(match=other).get().via_link


def test_wrong_token_is_404(client, setup):
    event, matches, pairs = setup
    assert client.get(reverse("link:sheet", args=["ei-tallainen-linkki"])).status_code == 404
    assert (
        client.post(
            reverse("link:sheet", args=["ei-tallainen-linkki"]), {**rami("A", 9), "version": 0}
        ).status_code
        == 404
    )
    assert Match.objects.filter(entries__isnull=False).count() == 0


def test_tokens_are_unique_and_secret(setup):
    event, matches, pairs = setup
    tokens = {m.token for m in matches}
    assert len(tokens) == len(matches) and all(len(t) >= 20 for t in tokens)


def test_confirmed_result_is_read_only_through_the_link(client, setup, organiser):
    event, matches, pairs = setup
    match = matches[0]
    # B calls rami and takes nothing: nälsytuppi from the table, A wins 5–0 at once
    match = store(match, [rami("B", 0)])
    results.set_confirmed(match, True, version=None, user=organiser)
    match.refresh_from_db()
    version = match.version
    html = client.get(link_url(match)).content.decode()
    assert "Järjestäjä on vahvistanut tuloksen" in html
    assert 'name="tricks_a"' not in html and "Poista viimeinen rivi" not in html
    refused = post_line(client, link_url(match), nolo(4), match=match)
    assert "vain järjestäjä voi enää muuttaa" in " ".join(page_messages(refused.content.decode()))
    response = client.post(link_url(match) + "poista-viimeinen/", {"version": version})
    assert response.status_code == 200 and "vain järjestäjä voi enää muuttaa" in " ".join(
        page_messages(response.content.decode())
    )
    assert match.entries.count() == 1
    # the service refuses it too, whatever the page does
    with pytest.raises(results.ResultRefused):
        results.delete_last_entry(match, version=version, actor=results.Actor(via_link=True))
    # the organiser may still change it: delete the line and enter another
    client.force_login(organiser)
    url = organiser_url(match)
    assert client.post(url + "poista-viimeinen/", {"version": version}).status_code == 302
    assert post_line(client, url, rami("A", 0), match=match).status_code == 302
    # A called and took nothing: 56 to B, B wins by tuppi
    assert f"{match.pair_b.name} voitti tupilla" in status_text(client.get(url).content.decode())
    assert list(match.entries.values_list("caller_seat", "tricks_a", "tricks_b")) == [(1, 0, 13)]


def test_a_reopened_confirmation_keeps_the_link_closed(client, setup, organiser):
    """Issue #16: once the organiser has confirmed a result, the link only shows it, also after the
    confirmation is reopened; the organiser can still correct it."""
    event, matches, pairs = setup
    match = store(matches[0], [rami("B", 0)])
    client.force_login(organiser)
    confirm = reverse("organiser:sheet_confirm", args=[event.slug, match.pk])
    assert client.post(confirm, {"confirmed": "1", "version": match.version}).status_code == 302
    match.refresh_from_db()
    assert match.confirmed_at is not None and match.confirmed_by == organiser and match.link_closed
    client.post(confirm, {"confirmed": "0", "version": match.version})
    match.refresh_from_db()
    assert match.confirmed_at is None and match.link_closed
    client.logout()
    refused = client.post(link_url(match) + "poista-viimeinen/", {"version": match.version})
    assert refused.status_code == 200 and match.entries.count() == 1
    assert "vain järjestäjä voi enää muuttaa" in " ".join(page_messages(refused.content.decode()))
    client.force_login(organiser)
    url = reverse("organiser:match", args=[event.slug, match.pk])
    assert client.post(url + "poista-viimeinen/", {"version": match.version}).status_code == 302
    assert match.entries.count() == 0


def test_unfinished_result_cannot_be_confirmed(client, setup, organiser):
    event, matches, pairs = setup
    match = store(matches[0], [rami("A", 9)])
    client.force_login(organiser)
    response = client.post(
        reverse("organiser:sheet_confirm", args=[event.slug, match.pk]),
        {"confirmed": "1", "version": match.version}, follow=True,
    )
    assert "Vain päättyneen ottelun tuloksen voi vahvistaa." in page_messages(response.content.decode())
    match.refresh_from_db()
    assert match.confirmed_at is None


def test_match_of_another_event_is_404_through_this_events_url(client, setup, organiser, make_event):
    event, matches, pairs = setup
    other_event, _group, _pairs = one_group_event(make_event, organiser, 4, seed=5)
    foreign = Match.objects.filter(event=other_event).first()
    client.force_login(organiser)  # organises both events, but the URL names this one
    url = reverse("organiser:match", args=[event.slug, foreign.pk])
    assert client.get(url).status_code == 404
    assert client.post(url + "rivi/", {**rami("A", 9), "version": 0}).status_code == 404
    assert (
        client.post(
            reverse("organiser:sheet_confirm", args=[event.slug, foreign.pk]), {"confirmed": "1"}
        ).status_code
        == 404
    )
    assert client.get(reverse("organiser:match_history", args=[event.slug, foreign.pk])).status_code == 404
    assert foreign.entries.count() == 0


def test_annulled_match_refuses_entry(client, setup, organiser):
    event, matches, pairs = setup
    match = matches[0]
    entries.withdraw_pair(match.pair_a)
    match.refresh_from_db()
    assert match.status == "annulled"
    client.force_login(organiser)
    html = client.get(organiser_url(match)).content.decode()
    assert "Ottelu on mitätöity." in html and 'name="tricks_a"' not in html
    refused = post_line(client, organiser_url(match), rami("A", 9), match=match)
    assert "Ottelu on mitätöity: sille ei kirjata tulosta." in page_messages(refused.content.decode())
    client.logout()
    refused = post_line(client, link_url(match), rami("A", 9), match=match)
    assert "Ottelu on mitätöity: sille ei kirjata tulosta." in page_messages(refused.content.decode())
    paper_post = {"version": 0, "total_a": 40, "total_b": 20, "deals_played": 12}
    assert client.post(link_url(match) + "paperi/", paper_post).status_code == 200
    with pytest.raises(results.ResultRefused, match="mitätöity"):
        store(match, [rami("A", 9)], user=organiser)
    assert match.entries.count() == 0 and not PaperResult.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.status == "annulled"


def test_link_form_keeps_the_version(client, setup):
    event, matches, pairs = setup
    match = store(matches[0], [rami("A", 9)])
    html = client.get(link_url(match)).content.decode()
    assert input_value(html, "version") == str(match.version) == "1"
    assert sheet_lines(html) == [["1", "R", "1", "9–4", "12 A", "12", ""]]


def test_an_organisers_correction_of_a_confirmed_result_keeps_the_link_closed(client, setup, organiser):
    """Issue #16: the organiser corrects a confirmed result: it is no longer confirmed but "corrected,
    awaiting confirmation", and the secret link stays read-only (it no longer silently reopens)."""
    event, matches, pairs = setup
    match = store(matches[0], [rami("B", 0)])  # nälsytuppi: finished at once
    results.set_confirmed(match, True, version=None, user=organiser)
    match.refresh_from_db()
    results.delete_last_entry(match, version=match.version, actor=results.Actor(user=organiser))
    match.refresh_from_db()
    assert match.confirmed_at is None and match.status == "scheduled"
    assert match.link_closed and match.corrected_at is not None
    refused = post_line(client, link_url(match), nolo(4), match=match)
    assert refused.status_code == 200 and match.entries.count() == 0
    client.force_login(organiser)
    html = client.get(organiser_url(match)).content.decode()
    assert "odottaa vahvistusta" in html
