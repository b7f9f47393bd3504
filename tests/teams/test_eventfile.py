"""The team competition's event file (issue #27): its teams, bracket, orders, substitutes and places
travel without a database id; read back into an empty database it is the same competition."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.eventfile import verify
from teams.models import Team, TeamOrder
from tests.support.eventfile_helpers import (
    corrected_again,
    empty_database,
    team_competition,
    team_public_answers,
)
from tournaments.actions import publication
from tournaments.actions.eventfile import import_event, load
from tournaments.models import Event, Publication
from tournaments.output import eventfile


@pytest.fixture
def competition(db):
    return team_competition()


def test_the_file_names_teams_players_and_matches_never_ids(competition):
    data = eventfile.export(competition)
    part = data["teams"]
    assert [t["name"] for t in part["teams"]] == list(
        Team.objects.filter(event=competition).order_by("pk").values_list("name", flat=True)
    )
    order = TeamOrder.objects.get(team_match__event=competition, substitute_for__isnull=False)
    declared = next(o for m in part["matches"] for o in m["orders"] if o["substitute_for"] is not None)
    assert declared["team"] == order.team.name
    assert declared["substitute_for"] == order.substitute_for.member_number
    assert {p["key"] for p in data["players"]} >= {declared["substitute"], declared["substitute_for"]}
    record = json.loads(data["publications"][-1]["record"])
    names = set(Team.objects.filter(event=competition).values_list("name", flat=True))
    assert record["form"] == 3 and {name for _place, name in record["places"]} == names
    assert data["publications"][-1]["places"] == part["places"]
    assert publication.verify(competition) == []


@pytest.mark.slow
def test_a_team_competition_comes_back_the_same_from_an_empty_database(competition, tmp_path):
    first = tmp_path / "joukkuekisa.json"
    call_command("export_event", competition.slug, str(first), stderr=StringIO())
    done = subprocess.run([sys.executable, "-m", "scoring", "verify", str(first)], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith(f"OK: {competition.slug}: "), done.stdout
    places = publication.chain(competition)[-1].record
    for _time in range(3):  # the new teams' ids grow past a power of ten: the bracket must not change
        empty_database()
        call_command("import_event", str(first), stdout=StringIO())
        again = tmp_path / "uudelleen.json"
        call_command("export_event", competition.slug, str(again), stderr=StringIO())
        assert again.read_bytes() == first.read_bytes()
        imported = Event.objects.get(slug=competition.slug)
        assert publication.verify(imported) == []
        assert publication.chain(imported)[-1].record == places


@pytest.mark.slow
def test_the_imported_competition_s_public_pages_answer_the_same(competition, client, tmp_path):
    path = tmp_path / "joukkuekisa.json"
    call_command("export_event", competition.slug, str(path), stderr=StringIO())
    before = team_public_answers(client, competition)
    empty_database()
    call_command("import_event", str(path), stdout=StringIO())
    after = team_public_answers(client, Event.objects.get(slug=competition.slug))
    assert after.keys() == before.keys()
    for name in before:
        assert after[name] == before[name], name


def test_copies_whose_team_ids_pass_a_power_of_ten_keep_the_bracket(competition, tmp_path):
    """The bracket is replayed over the teams' ids sorted as text: ids 9 and 10 must not swap two teams."""
    data = eventfile.export(competition)
    for n in (1, 2):  # the second copy's ids would be 9–12 one by one: they are 10–13
        copy = json.loads(eventfile.text(data).replace(f'"slug": "{competition.slug}"', f'"slug": "kopio-{n}"'))
        path = tmp_path / f"kopio-{n}.json"
        path.write_text(eventfile.text(copy), encoding="utf-8")
        call_command("import_event", str(path), "--keep-registry", stdout=StringIO())
        event = Event.objects.get(slug=f"kopio-{n}")
        ids = sorted(Team.objects.filter(event=event).values_list("pk", flat=True))
        assert sorted(ids, key=str) == ids
        again = eventfile.export(event)
        assert again["teams"] == data["teams"]
        record = publication.canonical_record(event.pk, publication.places_of(event))
        published = json.loads(data["publications"][-1]["record"])
        assert (record["teams"], record["team_matches"], record["places"]) == (
            published["teams"], published["team_matches"], published["places"])  # the slug alone differs
        assert publication.places_of(event) == [[place, Team.objects.get(event=event, name=name).pk]
                                                for place, name in data["teams"]["places"]]


def test_the_verifier_names_the_team_match_s_pair_match_and_line_of_a_changed_trick(competition):
    data = eventfile.export(competition)
    assert verify(data) == []
    m, number = next(
        (m, n) for m in data["matches"] for n, line in enumerate(m["lines"], start=1)
        if line["kind"] == "deal" and 7 <= line["tricks_a"] < 13 and line["tricks_b"]
    )
    m["lines"][number - 1]["tricks_a"] += 1
    m["lines"][number - 1]["tricks_b"] -= 1
    team_match, order = next((tm, link["order"]) for tm in data["teams"]["matches"] for link in tm["pair_matches"]
                             if link["match"] == {k: m[k] for k in ("stage", "group", "round", "table")})
    problems = verify(data)
    assert problems[0].startswith(
        f"match team round {m['round']} table {m['table']} (pairs {m['pairs'][0]}–{m['pairs'][1]}, pair {order} of "
        f"{team_match['teams'][0]} – {team_match['teams'][1]}) line {number}:"
    )
    assert any("differs from the published record" in p for p in problems)


def test_the_verifier_replays_the_bracket_and_names_a_changed_team_place(competition):
    data = eventfile.export(competition)
    assert verify(data) == []
    (one, first), (two, second) = data["teams"]["places"][:2]
    data["teams"]["places"][:2] = [[one, second], [two, first]]
    assert verify(data) == [
        f"the team places: the file states {', '.join(f'{p}. {t}' for p, t in data['teams']['places'])}; "
        f"the team matches give {', '.join(f'{p}. {t}' for p, t in eventfile.export(competition)['teams']['places'])}"
    ]


def test_a_record_kept_before_teams_were_named_still_verifies(competition):
    """A team competition published before form 3 kept its places by team id (form 2): it is checked in
    its own form, by the server and in the file."""
    kept = publication.chain(competition)[-1]
    old = publication.record_text(publication.canonical_record(competition.pk, kept.places, "", form=2))
    Publication.objects.filter(pk=kept.pk).update(record=old, digest=publication.sha256(old))
    assert json.loads(old)["form"] == 2 and "teams" not in json.loads(old)
    assert publication.verify(competition) == []
    assert verify(eventfile.export(competition)) == []
    Publication.objects.filter(pk=kept.pk).update(record=old.replace('"seed":3', '"seed":4'))
    assert publication.verify(competition) != []


@pytest.mark.slow
def test_a_corrected_team_competition_file_is_applied_as_a_correction(competition, tmp_path):
    published = eventfile.export_text(competition)
    corrected_again(competition)  # a pair match's line typed again after publication, with its reason
    corrected = eventfile.export_text(competition)
    empty_database()
    done = import_event(load(published.encode()), exported_now=lambda e: json.loads(eventfile.export_text(e)))
    done = import_event(load(corrected.encode()), exported_now=lambda e: json.loads(eventfile.export_text(e)))
    assert done.corrected and not done.created
    assert eventfile.export_text(done.event) == corrected
    assert json.loads(publication.chain(done.event)[-1].record)["form"] == 3
    assert publication.verify(done.event) == [] and verify(json.loads(corrected)) == []


def test_the_published_competition_offers_its_file(competition, client):
    address = reverse("event_file", args=[competition.slug])
    answer = client.get(address)
    assert answer.status_code == 200 and answer.content.decode() == eventfile.export_text(competition)
    assert address in client.get(reverse("teams:final_places", args=[competition.slug])).content.decode()
    assert client.get(reverse("api_event", args=[competition.slug])).json()["event_file"] == address


@pytest.mark.slow
def test_a_record_kept_before_teams_were_named_verifies_in_another_database(competition, tmp_path):
    kept = publication.chain(competition)[-1]
    old = publication.record_text(publication.canonical_record(competition.pk, kept.places, "", form=2))
    Publication.objects.filter(pk=kept.pk).update(record=old, digest=publication.sha256(old))
    path = tmp_path / "vanha.json"
    path.write_text(eventfile.export_text(competition), encoding="utf-8")
    empty_database()
    copy = tmp_path / "kopio.json"  # imported first, its teams take the ids the record names
    copy.write_text(path.read_text(encoding="utf-8").replace(f'"slug": "{competition.slug}"', '"slug": "kopio"'),
                    encoding="utf-8")
    call_command("import_event", str(copy), stdout=StringIO())
    # the ids the record names are taken (a fresh SQLite database gave the copy those ids; PostgreSQL's
    # sequences had moved on in other tests): one more team of the copy's at the record's highest id
    named = {pk for _p, pk in kept.places}
    filler = Team.objects.filter(event__slug="kopio").order_by("pk").first()
    if not Team.objects.filter(pk=max(named)).exists():
        Team.objects.create(pk=max(named), event=filler.event, club=filler.club, name="Täyte", leader_name="Täyte")
    call_command("import_event", str(path), stdout=StringIO())
    imported = Event.objects.get(slug=competition.slug)
    assert not set(Team.objects.filter(event=imported).values_list("pk", flat=True)) & {pk for _p, pk in kept.places}
    assert publication.verify(imported) == []
    assert eventfile.export_text(imported) == path.read_text(encoding="utf-8")
