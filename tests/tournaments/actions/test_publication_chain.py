"""Issue #24, finding 2: the published digest and ``verify_event`` did not cover who played.

Swapping a player of the third-placed pair directly in the database changed the public results and the
cup points, and ``verify_event`` still exited 0: the canonical record held pairs but not their players,
and no names. Now the record covers each pair's players (member number and name), names and clubs as
printed, every line, paper results, play-offs, withdrawals, forfeits and the final places; each published
record names the digest of the one before it (a chain), and ``verify_event`` checks the whole chain.
"""

from __future__ import annotations

import importlib
import json
import subprocess
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.urls import reverse

from registry.models import Player
from tournaments.actions import publication
from tournaments.actions import results as result_actions
from tournaments.models import Event, Match, PairMember, Publication
from tournaments.readmodel import build
from tournaments.web.forms_results import EntryForm


def simulated(seed: int = 3) -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", str(seed), stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


def verify(event: Event) -> tuple[int, str]:
    """``manage.py verify_event``: its exit code and what it said."""
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_event", event.slug, stdout=out, stderr=err)
    except SystemExit as stop:
        return stop.code, err.getvalue()
    return 0, out.getvalue()


def correct_first_line(event: Event, reason: str) -> Match:
    """An organiser's correction after publication that keeps every place: the final's first line typed
    again as it stands."""
    final = Match.objects.get(event=event, stage="placement", tier=1, placement_round="final")
    first = final.entries.get(position=1)
    data = EntryForm(EntryForm.initial_from(first) | {"version": final.version, "reason": reason})
    assert data.is_valid(), data.errors
    return result_actions.replace_entry(final, 1, data.entry_data(), version=final.version, actor=result_actions.Actor(), reason=reason)


def third_placed_pair(event: Event):
    places = build.build(event.pk).final_places
    return build.build(event.pk).pairs[next(pair for place, pair in places if place == 3)]


def test_a_player_swapped_in_the_database_is_found_and_the_pair_named(db):
    event = simulated()
    assert verify(event)[0] == 0
    pair = third_placed_pair(event)
    stranger = Player.objects.exclude(pair_memberships__event=event).order_by("pk").first()
    PairMember.objects.filter(pair_id=pair.pk, position=1).update(player_id=stranger.pk)  # behind the app's back

    code, said = verify(event)

    assert code == 1
    assert f"pair {pair.number}: its players were {pair.players[0].first_name} {pair.players[0].last_name}" in said
    assert f"now {stranger.first_name} {stranger.last_name}" in said
    assert "digest" in said


@pytest.mark.slow
def test_a_name_or_a_club_changed_as_printed_is_found(db):
    event = simulated()
    pair = third_placed_pair(event)
    Player.objects.filter(pk=pair.players[1].pk).update(last_name="Toinen")
    code, said = verify(event)
    assert code == 1 and f"pair {pair.number}: its players were" in said and "Toinen" in said


def test_the_record_covers_players_names_lines_and_places_and_no_database_id(db):
    """The same facts in two events (the same seed: other ids, other rows) give the same record, but for
    the event's own address."""
    first, second = simulated(3), simulated(3)
    records = []
    for event in (first, second):
        kept = publication.chain(event)[0]
        record = json.loads(kept.record)
        assert publication.sha256(kept.record) == kept.digest
        record["event"].pop("slug")
        records.append(record)
    assert records[0] == records[1]
    record = records[0]
    pair = build.build(first.pk).pairs
    one = next(iter(pair.values()))
    member = Player.objects.get(pk=one.players[0].pk).member_number
    entry = next(p for p in record["pairs"] if p["number"] == one.number)
    assert entry["players"][0] == [member, one.players[0].first_name, one.players[0].last_name]
    assert entry["club"][0] == one.club.name
    assert len(record["places"]) == 16 and record["previous"] == ""
    assert sum(len(m["lines"]) for m in record["matches"]) == sum(m.entries.count() for m in first.matches.all())


def test_each_correction_adds_a_link_naming_the_record_before_it(db, organiser):
    event = simulated()
    correct_first_line(event, "Tarkistettu pöytäkirjasta")
    correct_first_line(event, "Tarkistettu uudelleen")
    links = publication.chain(event)
    assert [link.kind for link in links] == ["publish", "correction", "correction"]
    assert [link.previous_digest for link in links] == ["", links[0].digest, links[1].digest]
    assert len({link.digest for link in links}) == 3  # each digest covers the history before it
    assert all(link.places == links[0].places for link in links)
    code, said = verify(event)
    assert code == 0 and "chain of 3" in said


def test_verify_event_says_which_link_breaks(db):
    event = simulated()
    correct_first_line(event, "Tarkistettu pöytäkirjasta")
    correct_first_line(event, "Tarkistettu uudelleen")
    links = publication.chain(event)
    Publication.objects.filter(pk=links[1].pk).update(digest="0" * 64)  # a record replaced in place
    code, said = verify(event)
    assert code == 1
    assert "the chain breaks at link 2 (the correction 'Tarkistettu pöytäkirjasta'" in said
    assert "the chain breaks at link 3" in said

    Publication.objects.filter(pk=links[1].pk).delete()  # or taken out of the chain
    code, said = verify(event)
    assert code == 1 and "the chain breaks at link 2 (the correction 'Tarkistettu uudelleen'" in said


def test_a_second_record_cannot_follow_the_same_one(db):
    """A record that would silently replace the published one (naming the same record before it) is
    refused by the database."""
    event = simulated()
    first = publication.chain(event)[0]
    with pytest.raises(IntegrityError), transaction.atomic():
        Publication.objects.create(event=event, kind="publish", places=first.places, digest="1" * 64,
                                   previous_digest="", record="{}")


def test_the_final_places_page_and_the_results_list_print_the_current_digest(client, db):
    event = simulated()
    correct_first_line(event, "Tarkistettu pöytäkirjasta")
    current = publication.latest(event).digest
    html = client.get(reverse("final_places", args=[event.slug])).content.decode()
    assert current in html and publication.chain(event)[0].digest not in html
    pdf = client.get(reverse("results_pdf", args=[event.slug])).content
    text = subprocess.run(["pdftotext", "-raw", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert current in "".join(text.split())


def test_records_kept_before_the_chain_are_still_checked(db):
    """Rows published before issue #24 (their digest of the older record, no kept text) are linked by the
    migration and checked in their own form."""
    event = simulated()
    row = publication.latest(event)
    Publication.objects.filter(pk=row.pk).update(
        record="", previous_digest="x", digest=publication.digest(publication.legacy_record(event.pk))
    )
    migration = importlib.import_module("tournaments.migrations.0009_publication_chain")
    migration.link_records(apps, None)
    assert Publication.objects.get(pk=row.pk).previous_digest == ""
    assert verify(event)[0] == 0
    final = Match.objects.get(event=event, stage="placement", tier=1, placement_round="final")
    line = final.entries.get(position=1)
    final.entries.filter(pk=line.pk).update(penalised=not line.penalised)
    assert verify(event)[0] == 1
