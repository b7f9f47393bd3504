"""Issue #24, finding 3: a correction after publication left a "finished" event with 14 of 32 places, the
new published record holding none, and ``verify_event`` said OK.

Every path that can change a published event's results ends in one guard (``result_actions.republish``): the
change needs a reason and must leave every final place decided; then the places are computed again and a
new published record holds them, with the reason. Otherwise it is refused, saying why, and nothing of it
is kept. Each path is tried here, through the organiser's pages, refused and accepted.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from teams.actions import places as places_actions
from tests.support.results_helpers import (
    match_between,
    one_group_event,
    organiser_url,
    page_messages,
    side,
    tie_group,
    won,
)
from tests.teams.builders import drawn_event, pair_matches, play, row
from tournaments.actions import entries, publication, sunday
from tournaments.actions import results as result_actions
from tournaments.actions.simulation import confirm_all
from tournaments.models import Event, Match, Pair, PaperResult, Publication
from tournaments.readmodel import build
from tournaments.web.forms_results import EntryForm

INCOMPLETE = "saa jättää yhtään lopputulosten sijaa ratkaisematta"


def verify_ok(event: Event) -> bool:
    try:
        call_command("verify_event", event.slug, stdout=StringIO(), stderr=StringIO())
    except SystemExit:
        return False
    return True


def said(response) -> str:
    return " ".join(page_messages(response.content.decode()))


def published(event: Event, organiser) -> Event:
    """Publish the event's final places, confirming every result in the same step."""
    sunday.publish(event, organiser, confirm={m.pk: m.version for m in result_actions.unconfirmed(event)})
    return Event.objects.get(pk=event.pk)


def places(event: Event):
    return build.build(event.pk).final_places


def records(event: Event) -> int:
    return Publication.objects.filter(event=event).count()


@pytest.fixture
def weekend(db, organiser, client):
    """A two-day event of 16 pairs played and published (32 places would fail the same way)."""
    out = StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", "3", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    event.organisers.add(organiser)
    client.force_login(organiser)
    return event


@pytest.fixture
def ladder(make_event, organiser, client):
    """A one-stage event of five pairs, results from paper, P1 > P2 > P3 > P4 > P5, published."""
    event, _group, pairs = one_group_event(make_event, organiser, 5)
    for i, winner in enumerate(pairs):
        for loser in pairs[i + 1:]:
            won(winner, loser, 40, 20)
    client.force_login(organiser)
    return published(event, organiser), pairs


def final(event) -> Match:
    return Match.objects.get(event=event, stage="placement", tier=1, placement_round="final")


# --- refused: the places would be left undecided -------------------------------------------------------------


def test_deleting_the_finals_last_line_is_refused_and_the_places_stay(client, weekend):
    match, before = final(weekend), places(weekend)
    lines = match.entries.count()
    response = client.post(organiser_url(match) + "poista-viimeinen/", {"version": match.version, "reason": "Väärä jako"})
    assert response.status_code == 200 and INCOMPLETE in said(response)
    assert match.entries.count() == lines and places(weekend) == before
    assert records(weekend) == 1 and verify_ok(weekend)


def test_clearing_a_paper_result_is_refused(client, ladder):
    event, (p1, p2, *_rest) = ladder
    match = match_between(p1, p2)
    response = client.post(organiser_url(match) + "poista-paperi/", {"version": match.version, "reason": "Väärä"})
    assert INCOMPLETE in said(response)
    assert PaperResult.objects.filter(match=match).exists() and places(event) is not None
    assert records(event) == 1 and verify_ok(event)


def test_a_correction_without_a_reason_is_refused(client, ladder):
    event, (p1, p2, *_rest) = ladder
    match = match_between(p1, p2)
    response = client.post(organiser_url(match) + "paperi/", {"version": match.version, "total_a": 20, "total_b": 40,
                                                               "deals_played": 12})
    assert "kirjoita muutoksen syy" in said(response) and records(event) == 1


def test_undoing_a_withdrawal_is_refused(client, make_event, organiser):
    event, _group, pairs = one_group_event(make_event, organiser, 5)
    entries.withdraw_pair(pairs[4], organiser)  # its matches are annulled
    for i, winner in enumerate(pairs[:4]):
        for loser in pairs[i + 1:4]:
            won(winner, loser, 40, 20)
    event = published(event, organiser)
    client.force_login(organiser)
    response = client.post(reverse("organiser:pair_undo_withdraw", args=[event.slug, pairs[4].pk]), follow=True)
    assert "Kisan lopputulokset on jo julkaistu: luopumista ei voi enää perua." in said(response)
    assert Pair.objects.get(pk=pairs[4].pk).withdrawn_at is not None
    assert places(event) is not None and records(event) == 1 and verify_ok(event)


def test_reopening_the_team_final_is_refused(make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)
    for round_, slot in ((1, 1), (1, 2), (2, 1), (2, 2)):
        found = row(event, round_, slot)
        play(found, found.team_a)
    places_actions.publish(event, organiser, confirm={m.pk: m.version for m in result_actions.unconfirmed(event)})
    deciding = pair_matches(row(event, 2, 1))[-1]
    with pytest.raises(result_actions.ResultRefused, match=INCOMPLETE):
        result_actions.delete_last_entry(deciding, version=None, actor=result_actions.Actor(user=organiser), reason="Väärä")
    assert deciding.entries.exists() and Publication.objects.filter(event=event).count() == 1


# --- accepted: the places are computed again and published with the reason ----------------------------------


def test_correcting_a_line_republishes_the_places(client, weekend):
    match, before = final(weekend), places(weekend)
    first = match.entries.get(position=1)
    line = {k: v for k, v in EntryForm.initial_from(first).items() if v not in (None, False, "")}
    response = client.post(organiser_url(match) + "rivi/1/", {**line, "version": match.version, "reason": "Tarkistettu"})
    assert response.status_code == 302
    record = publication.latest(weekend)
    assert record.kind == "correction" and record.reason == "Tarkistettu" and record.match_id == match.pk
    assert record.places == [list(p) for p in before] and verify_ok(weekend)


def test_a_paper_result_corrected_moves_the_places_and_publishes_them(client, ladder):
    event, (p1, p2, *_rest) = ladder
    match = match_between(p1, p2)
    totals = {"total_a": 20, "total_b": 40} if side(match, p1) == "A" else {"total_a": 40, "total_b": 20}
    response = client.post(organiser_url(match) + "paperi/", {
        "version": match.version, **totals, "deals_played": 12, "reason": "P2 voitti: tuomarineuvoston päätös",
    })
    assert response.status_code == 302
    now = places(event)
    assert now[0] == (1, p2.pk) and now[1] == (2, p1.pk)
    record = publication.latest(event)
    assert record.places == [list(p) for p in now] and record.reason == "P2 voitti: tuomarineuvoston päätös"
    html = client.get(reverse("final_places", args=[event.slug])).content.decode()
    assert "P2 voitti: tuomarineuvoston päätös" in html and record.digest in html
    assert verify_ok(event)


def test_a_playoff_after_publication_needs_a_reason_and_republishes(client, make_event, organiser):
    event, group, (p1, p2, p3, _p4, _p5) = tie_group(make_event, organiser)
    event = published(event, organiser)  # P1, P2 and P3 share the first place for want of a play-off
    assert [place for place, _pair in places(event)][:3] == [1, 1, 1]
    client.force_login(organiser)
    url = reverse("organiser:playoff", args=[event.slug, group.pk])
    desk = client.get(reverse("organiser:results", args=[event.slug])).content.decode()
    assert 'name="reason"' in desk  # the play-off form asks for the reason once published

    refused = client.post(url, {"order": [p2.pk, p1.pk, p3.pk]}, follow=True)
    assert "kirjoita muutoksen syy" in said(refused) and records(event) == 1

    client.post(url, {"order": [p2.pk, p1.pk, p3.pk], "reason": "Uusinta pelattiin palkintojenjaon jälkeen"})
    assert places(event)[:3] == ((1, p2.pk), (2, p1.pk), (3, p3.pk))
    record = publication.latest(event)
    assert record.reason == "Uusinta pelattiin palkintojenjaon jälkeen" and record.places[:3] == [
        [1, p2.pk], [2, p1.pk], [3, p3.pk],
    ]
    assert verify_ok(event)


def test_a_forfeit_line_in_a_correction_is_published_with_the_places(weekend, organiser):
    """The final's loser forfeits in the last line's place: the same winner, a new record."""
    match = final(weekend)
    last = match.entries.order_by("position").last()
    loser = "B" if build.build(weekend.pk).match(match.pk).outcome.winner == match.pair_a_id else "A"
    before = places(weekend)
    result_actions.replace_entry(
        match, last.position, result_actions.EntryData(kind="forfeit", pair=loser), version=match.version,
        actor=result_actions.Actor(user=organiser), reason="Pari luovutti viimeisen jaon",
    )
    assert places(weekend) == before
    assert publication.latest(weekend).reason == "Pari luovutti viimeisen jaon" and verify_ok(weekend)


def test_no_placement_match_can_be_reopened_after_publication(weekend, organiser):
    """The attack: reopen the placement matches one by one through the organiser's correction paths.
    Each that would leave a place undecided is refused; every published record holds all 16 places."""
    actor = result_actions.Actor(user=organiser)
    for match in Match.objects.filter(event=weekend, stage="placement").order_by("tier", "round", "table"):
        for change in (result_actions.delete_last_entry, result_actions.clear_paper):
            try:
                change(match, version=None, actor=actor, reason="Kokeilu")
            except result_actions.ResultRefused:
                continue
            assert len(places(weekend)) == 16  # only a change that kept every place went through
    confirm_all(weekend)
    assert len(places(weekend)) == 16 and verify_ok(weekend)
    assert all(len(p.places) == 16 for p in Publication.objects.filter(event=weekend))
