"""Issue #16, "Results you can trust": each finding reproduced, and what stops it now.

- published results stay editable through the QR links → publication closes every link;
- confirmation confirms what the organiser never saw → it carries the version shown;
- an organiser's correction of a confirmed match silently reopens it → it stays closed, "corrected";
- delete last / clear paper accepted without a version → the version is required;
- a withdrawal writes no history and cannot be undone → both;
- after the draw kind, format and deal counts can still change → fixed (a redraw may change them);
- acceptance at the table; a tamper-evident published record checked by ``manage.py verify_event``.
"""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db.models import Q
from django.urls import reverse

from tests.support.builders import add_pairs
from tests.support.results_helpers import (
    enter,
    link_url,
    one_group_event,
    organiser_url,
    page_messages,
    post_line,
    rami,
    store,
)
from tournaments.actions import draw as draw_actions
from tournaments.actions import entries, sunday
from tournaments.actions import results as result_actions
from tournaments.actions.simulation import confirm_all, play_matches
from tournaments.models import Entry, Event, Match, Publication, ResultChange, Withdrawal
from tournaments.readmodel import build
from tournaments.web.forms_results import EntryForm


def published_event() -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", "3", stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


def final(event) -> Match:
    return Match.objects.get(event=event, stage="placement", tier=1, placement_round="final")


def messages_of(response) -> str:
    return " ".join(page_messages(response.content.decode()))


@pytest.fixture
def drawn(make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    add_pairs(event, 16)
    draw_actions.draw_groups(event, organiser, seed=4)
    return event


def first_match(event) -> Match:
    return Match.objects.filter(event=event, stage="saturday").order_by("round", "table").first()


# --- publication locks ------------------------------------------------------------------------------------


def test_published_results_are_read_only_through_every_link(client, db):
    """The finding: one anonymous "delete last line" on the tier-1 final's link cut the final ranking."""
    event = published_event()
    places = build.build(event.pk).final_places
    match = final(event)
    lines = match.entries.count()
    html = client.get(link_url(match)).content.decode()
    assert "Kisan tulokset on julkaistu" in html and "Poista viimeinen rivi" not in html
    refused = client.post(link_url(match) + "poista-viimeinen/", {"version": match.version})
    assert "linkillä voi vain katsoa" in messages_of(refused)
    refused = post_line(client, link_url(final(event)), rami("A", 9), match=match)
    assert match.entries.count() == lines and build.build(event.pk).final_places == places
    with pytest.raises(result_actions.ResultRefused):
        result_actions.delete_last_entry(match, version=None, actor=result_actions.Actor(via_link=True))


def test_publication_needs_every_result_confirmed_and_the_organiser_may_confirm_them_then(db, organiser):
    out = StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", "5", "--until", "sunday", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    rng = random.Random(5)
    for _round in ("semi", "final"):
        sunday.create_placements(event)
        play_matches(event.matches.filter(stage="placement"), rng)
    sunday.create_placements(event)
    left = list(result_actions.unconfirmed(event))
    assert left  # nothing is confirmed yet
    with pytest.raises(ValidationError, match="Vahvista ensin kaikki tulokset"):
        sunday.publish(event, organiser)
    stale = {m.pk: m.version for m in left}
    stale[left[0].pk] -= 1  # the organiser's list is older than this result
    with pytest.raises(result_actions.ResultRefused, match="muutoksen sillä välin"):
        sunday.publish(event, organiser, confirm=stale)
    assert Event.objects.get(pk=event.pk).finished_at is None and not Publication.objects.exists()
    sunday.publish(event, organiser, confirm={m.pk: m.version for m in left})
    event.refresh_from_db()
    assert event.finished_at is not None and not result_actions.unconfirmed(event).exists()
    record = Publication.objects.get(event=event)
    assert record.kind == "publish" and len(record.digest) == 64
    assert record.places == [list(p) for p in build.build(event.pk).final_places]


def test_a_correction_after_publication_needs_a_reason_and_is_shown(client, db, organiser):
    event = published_event()
    event.organisers.add(organiser)
    client.force_login(organiser)
    match = final(event)
    url = reverse("organiser:match", args=[event.slug, match.pk])
    refused = client.post(url + "poista-viimeinen/", {"version": match.version})
    assert "kirjoita muutoksen syy" in messages_of(refused) and match.entries.exists()
    reason = "Tuomarineuvosto: ensimmäinen jako tarkistettiin pöytäkirjasta"
    first = match.entries.get(position=1)
    line = {k: v for k, v in EntryForm.initial_from(first).items() if v not in (None, False, "")}
    line |= {"version": match.version, "reason": reason}
    assert client.post(url + "rivi/1/", line).status_code == 302
    change = ResultChange.objects.filter(match=match).first()
    assert change.reason == reason and change.action == "edit"
    correction = Publication.objects.filter(event=event, kind="correction").get()
    assert correction.reason == reason and correction.match_id == match.pk
    html = client.get(reverse("final_places", args=[event.slug])).content.decode()
    assert "Korjattu julkaisun jälkeen" in html and reason in html and correction.digest in html
    call_command("verify_event", event.slug, stdout=StringIO())  # the corrected record agrees: exit 0


def test_verify_event_agrees_and_then_finds_a_row_changed_behind_the_applications_back(db):
    event = published_event()
    out = StringIO()
    call_command("verify_event", event.slug, stdout=out)
    assert out.getvalue().startswith("OK:")
    line = Entry.objects.filter(match=final(event)).order_by("position").first()
    Entry.objects.filter(pk=line.pk).update(tricks_a=(line.tricks_a + 1) % 14, tricks_b=13 - (line.tricks_a + 1) % 14)
    err = StringIO()
    with pytest.raises(SystemExit) as stop:
        call_command("verify_event", event.slug, stdout=StringIO(), stderr=err)
    assert stop.value.code == 1 and "digest" in err.getvalue()


def test_verify_event_finds_places_that_changed(db):
    event = published_event()
    Publication.objects.filter(event=event).update(places=[[1, 0]])
    err = StringIO()
    with pytest.raises(SystemExit) as stop:
        call_command("verify_event", event.slug, stdout=StringIO(), stderr=err)
    assert stop.value.code == 1 and "final places" in err.getvalue()


# --- acceptance and confirmation --------------------------------------------------------------------------


def test_both_pairs_accept_at_the_table_and_the_link_closes(client, drawn):
    match = first_match(drawn)
    enter(client, link_url(match), match, [rami("B", 0)])  # nälsytuppi: A wins at once
    html = client.get(link_url(match)).content.decode()
    assert "Pari A hyväksyy" in html and "Pari B hyväksyy" in html
    match.refresh_from_db()
    accept = reverse("link:accept", args=[match.token, "A"])
    assert client.post(accept, {"version": match.version}).status_code == 302
    match.refresh_from_db()
    assert match.accepted_a_at is not None and not match.link_closed
    html = client.get(link_url(match)).content.decode()
    assert "Pari A hyväksyi klo" in html and "Pari B hyväksyy" in html
    client.post(reverse("link:accept", args=[match.token, "B"]), {"version": match.version})
    match.refresh_from_db()
    assert match.link_closed and match.accepted_b_at is not None
    html = client.get(link_url(match)).content.decode()
    assert "Molemmat parit ovat hyväksyneet tuloksen" in html and 'name="tricks_a"' not in html
    refused = client.post(link_url(match) + "poista-viimeinen/", {"version": match.version})
    assert "vain järjestäjä" in messages_of(refused) and match.entries.count() == 1
    actions = list(ResultChange.objects.filter(match=match).order_by("at", "pk").values_list("action", flat=True))
    assert actions == ["add", "accept_a", "accept_b"]


def test_a_change_on_the_link_asks_for_acceptance_again(client, drawn):
    match = first_match(drawn)
    enter(client, link_url(match), match, [rami("B", 0)])
    match.refresh_from_db()
    client.post(reverse("link:accept", args=[match.token, "A"]), {"version": match.version})
    match.refresh_from_db()
    client.post(link_url(match) + "poista-viimeinen/", {"version": match.version})
    match.refresh_from_db()
    assert match.accepted_a_at is None and match.entries.count() == 0


def test_acceptance_can_be_switched_off_for_the_event(client, drawn):
    Event.objects.filter(pk=drawn.pk).update(require_acceptance=False)
    match = first_match(drawn)
    enter(client, link_url(match), match, [rami("B", 0)])
    assert "Pari A hyväksyy" not in client.get(link_url(match)).content.decode()


def test_confirmation_carries_the_version_the_organiser_saw(client, drawn, organiser):
    """The finding: a correction made through the link between the organiser's look and the click was
    confirmed."""
    link = result_actions.Actor(via_link=True)
    match = result_actions.add_entry(first_match(drawn), result_actions.EntryData(kind="deal", game="rami", caller_seat=2,
                                                                       tricks_a=13, tricks_b=0),
                               version=0, actor=link)  # finished on the link, not yet accepted
    client.force_login(organiser)
    seen = match.version
    result_actions.delete_last_entry(match, version=seen, actor=result_actions.Actor(via_link=True))  # meanwhile
    result_actions.add_entry(match, result_actions.EntryData(kind="deal", game="rami", caller_seat=1, tricks_a=0, tricks_b=13),
                       version=seen + 1, actor=result_actions.Actor(via_link=True))
    confirm = reverse("organiser:sheet_confirm", args=[drawn.slug, match.pk])
    refused = client.post(confirm, {"confirmed": "1", "version": seen})
    match.refresh_from_db()
    assert match.confirmed_at is None
    assert "muutoksen sillä välin" in messages_of(refused)
    assert "Vahvista tulos" in refused.content.decode()  # shown again, to confirm what is there now
    assert client.post(confirm, {"confirmed": "1"}).status_code == 200  # no version: refused too
    match.refresh_from_db()
    assert match.confirmed_at is None
    assert client.post(confirm, {"confirmed": "1", "version": match.version}).status_code == 302


def test_every_change_needs_the_version(client, drawn, organiser):
    """The finding: two delete-last requests without a version deleted two lines."""
    match = store(first_match(drawn), [rami("A", 9), rami("A", 9)])
    for url in (link_url(match), organiser_url(match)):
        if "/jarjestaja/" in url:
            client.force_login(organiser)
        assert "vanhentunut" in messages_of(client.post(url + "poista-viimeinen/", {}))
        assert "vanhentunut" in messages_of(client.post(url + "poista-paperi/", {}))
    assert match.entries.count() == 2


# --- withdrawals and the format ----------------------------------------------------------------------------


def test_a_withdrawal_is_kept_and_can_be_undone_until_sunday(client, make_event, organiser):
    drawn, _group, pairs = one_group_event(make_event, organiser, 5)
    pair = pairs[0]
    mine = Match.objects.filter(event=drawn).filter(Q(pair_a=pair) | Q(pair_b=pair))
    played = mine.order_by("round").first()
    store(played, [rami("A", 9)])
    client.force_login(organiser)
    client.post(reverse("organiser:pair_withdraw", args=[drawn.slug, pair.pk]))
    withdrawal = Withdrawal.objects.get(pair=pair)
    assert withdrawal.user == organiser and set(mine.values_list("status", flat=True)) == {"annulled"}
    assert withdrawal.annulled[str(played.pk)] == "playing"
    html = client.get(reverse("organiser:pairs", args=[drawn.slug])).content.decode()
    assert "luopui" in html and "Peru luopuminen" in html
    client.post(reverse("organiser:pair_undo_withdraw", args=[drawn.slug, pair.pk]))
    pair.refresh_from_db()
    withdrawal.refresh_from_db()
    assert pair.withdrawn_at is None and withdrawal.undone_by == organiser
    assert Match.objects.get(pk=played.pk).status == "playing" and played.entries.count() == 1
    assert set(mine.exclude(pk=played.pk).values_list("status", flat=True)) == {"scheduled"}


def test_undo_refused_once_sunday_has_started(db):
    out = StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", "6", "--until", "sunday", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    pair = event.pairs.order_by("number").first()
    entries.withdraw_pair(pair)
    with pytest.raises(ValidationError, match="Sunnuntai on jo alkanut"):
        entries.undo_withdrawal(pair)


def test_format_and_deals_are_fixed_by_the_draw_but_a_redraw_may_change_them(client, drawn, organiser):
    client.force_login(organiser)
    edit = reverse("organiser:event_edit", args=[drawn.slug])
    form = client.get(edit).context["form"]
    data = {name: form[name].value() or "" for name in form.fields}
    data.update(format="one_stage", group_count="2", deals_sunday="20", name="Uusi nimi")
    assert client.post(edit, data).status_code == 302
    event = Event.objects.get(pk=drawn.pk)
    assert (event.name, event.format, event.deals_sunday) == ("Uusi nimi", "standard", 16)  # only the name
    draw = reverse("organiser:draw", args=[drawn.slug])
    redraw = {"kind": "cup", "format": "one_stage", "group_count": "2", "deals_saturday": "", "deals_sunday": "16",
              "deals_placement": "16"}
    client.post(draw, redraw)  # not confirmed: nothing happens
    assert Event.objects.get(pk=drawn.pk).format == "standard"
    client.post(draw, {**redraw, "sure": "on"})
    event = Event.objects.get(pk=drawn.pk)
    assert event.format == "one_stage" and event.groups.filter(stage="saturday").count() == 2


def test_simulated_events_confirm_and_publish_with_a_record(db):
    event = published_event()
    assert not result_actions.unconfirmed(event).exists()
    assert Publication.objects.filter(event=event, kind="publish").count() == 1
    assert confirm_all(event) == 0  # nothing left to confirm


# --- the referee's phone: a line sent twice is stored once --------------------------------------------------


def test_a_line_sent_twice_is_stored_once(client, drawn):
    """A retry (the answer was lost), a double tap or a second tab sending the same line: one line."""
    match = first_match(drawn)
    line = {**rami("A", 9), "client_id": "rivi-1-abc", "version": match.version}
    first = client.post(link_url(match) + "rivi/", line, HTTP_ACCEPT="application/json")
    assert first.status_code == 200 and first.json() == {"ok": True, "version": 1}
    again = client.post(link_url(match) + "rivi/", line, HTTP_ACCEPT="application/json")  # the old version
    assert again.json() == {"ok": True, "version": 1}
    assert client.post(link_url(match) + "rivi/", line).status_code == 302  # a plain form post too
    assert list(match.entries.values_list("client_id", flat=True)) == ["rivi-1-abc"]
    second = {**rami("A", 9), "client_id": "rivi-2-abc", "version": 1}
    assert client.post(link_url(match) + "rivi/", second, HTTP_ACCEPT="application/json").json()["ok"]
    assert match.entries.count() == 2


def test_the_queue_is_told_why_a_line_is_refused(client, drawn):
    match = first_match(drawn)
    stale = client.post(link_url(match) + "rivi/", {**rami("A", 9), "client_id": "x1", "version": 7},
                        HTTP_ACCEPT="application/json")
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    bad = client.post(link_url(match) + "rivi/", {"kind": "deal", "game": "rami", "caller_seat": 1,
                                                   "tricks_a": 14, "version": 0, "client_id": "x2"},
                      HTTP_ACCEPT="application/json")
    assert bad.status_code == 422 and "tricks_a" in bad.json()["errors"]
    assert match.entries.count() == 0
