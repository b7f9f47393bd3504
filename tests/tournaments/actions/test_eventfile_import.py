"""The event file read back (issue #27): ``manage.py import_event`` into an empty database gives the same
event: the same file exported again, the same public pages and API answer, and ``verify_event`` passes."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from registry.models import Club, Player, SeasonClub
from tests.support.eventfile_helpers import (
    corrected_again,
    council_event,
    empty_database,
    one_stage_event,
    public_answers,
    simulated,
)
from tournaments.actions.publication import verify as verify_published
from tournaments.models import Appeal, Entry, Event, Exclusion, Match, Publication, Ruling
from tournaments.output import eventfile


def _import(path, *args) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("import_event", str(path), *args, stdout=out, stderr=err)
    except SystemExit as exc:
        return exc.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.slow
def test_a_published_event_comes_back_the_same_from_an_empty_database(db, client, tmp_path):
    event = simulated(16, seed=1)
    path = tmp_path / "tapahtuma.json"
    call_command("export_event", event.slug, str(path), stderr=StringIO())
    before = public_answers(client, event)
    empty_database()

    code, out, err = _import(path)
    assert code == 0, err
    assert out.splitlines()[-1] == event.slug
    copy = Event.objects.get(slug=event.slug)
    assert eventfile.export_text(copy) == path.read_text(encoding="utf-8")
    after = public_answers(client, copy)
    assert after.keys() == before.keys()
    for url in before:
        assert after[url] == before[url], url
    verified = StringIO()
    problems = StringIO()
    try:
        call_command("verify_event", copy.slug, stdout=verified, stderr=problems)
    except SystemExit:
        raise AssertionError(problems.getvalue()) from None
    assert verified.getvalue().startswith("OK")

    # the same file again: recognised, nothing changes
    counts = (Event.objects.count(), Player.objects.count(), Club.objects.count(), Entry.objects.count())
    code, out, _err = _import(path)
    assert code == 0 and "on jo tuotu" in out and out.splitlines()[-1] == event.slug
    assert (Event.objects.count(), Player.objects.count(), Club.objects.count(), Entry.objects.count()) == counts


@pytest.mark.slow  # about a second: every public page twice
def test_a_one_stage_event_comes_back_the_same(db, client, tmp_path, make_event, organiser):
    event = one_stage_event(make_event, organiser)
    path = tmp_path / "kisa.json"
    path.write_text(eventfile.export_text(event), encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["draw"]["swaps"]) == 1 and len(data["publications"]) == 2
    assert len(data["withdrawals"]) == 1 and data["withdrawals"][0]["annulled"]
    assert any(m["paper"] for m in data["matches"]) and any(m["status"] == "annulled" for m in data["matches"])
    assert data["officials"]["judges"] and data["places"]
    assert data["cup"]["weight"] == "1.0" and len(data["cup"]["fines"]) == 1
    fine = data["cup"]["fines"][0]
    assert fine["reason"] == "Myöhästyi yli 15 minuuttia" and fine["paid_on"] and fine["amount"] == "50.00"
    assert any(line["kind"] == "forfeit" for m in data["matches"] for line in m["lines"])
    before = public_answers(client, event)
    empty_database()

    code, out, err = _import(path)
    assert code == 0, err
    copy = Event.objects.get(slug=out.splitlines()[-1])
    assert eventfile.export_text(copy) == path.read_text(encoding="utf-8")
    assert public_answers(client, copy) == before
    call_command("verify_event", copy.slug, stdout=StringIO())


@pytest.mark.slow  # about a second: every public page twice
def test_the_judges_council_s_appeals_rulings_and_exclusions_come_back_the_same(db, client, tmp_path, make_event, organiser):
    event = council_event(make_event, organiser)
    path = tmp_path / "valituskisa.json"
    path.write_text(eventfile.export_text(event), encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["event"]["appeal_minutes"] == 45
    appealed = [m for m in data["matches"] if "appeals" in m]
    assert [(m["appeals"][0]["side"], m["appeals"][0]["status"], m["appeals"][0]["by_organiser"]) for m in appealed] == [
        ("B", "upheld", False), ("A", "rejected", True)
    ]
    rulings = [r for m in data["matches"] for r in m.get("rulings", [])]
    assert [(r["appeal"], r["decision"], r["effect"]) for r in rulings] == [
        (1, "upheld", "penalty_remove"), (1, "rejected", "none"), (None, "decided", "forfeit")
    ]
    assert rulings[0]["detail"] == {"kind": "tuppi", "pair": "A", "position": 2}
    (excluded,) = data["exclusions"]
    assert excluded["reason"] == "Häiriökäytös" and excluded["player"] in {p["key"] for p in data["players"]}
    assert any(w["pair"] == excluded["pair"] for w in data["withdrawals"])
    record = json.loads(data["publications"][-1]["record"])
    assert len(record["rulings"]) == 3 and len(record["exclusions"]) == 1
    lines = Entry.objects.filter(match__event=event).count()
    before = public_answers(client, event)
    empty_database()

    code, out, err = _import(path)
    assert code == 0, err
    copy = Event.objects.get(slug=out.splitlines()[-1])
    assert eventfile.export_text(copy) == path.read_text(encoding="utf-8")  # the same bytes again
    assert copy.appeal_minutes == 45
    assert Entry.objects.filter(match__event=copy).count() == lines  # no effect applied a second time
    assert (Appeal.objects.filter(match__event=copy).count(), Ruling.objects.filter(event=copy).count(),
            Exclusion.objects.filter(event=copy).count()) == (2, 3, 1)
    assert public_answers(client, copy) == before
    verified, problems = StringIO(), StringIO()
    try:
        call_command("verify_event", copy.slug, stdout=verified, stderr=problems)
    except SystemExit:
        raise AssertionError(problems.getvalue()) from None
    assert verified.getvalue().startswith("OK")


def test_an_invalid_file_changes_nothing_and_says_where(db, tmp_path):
    path = tmp_path / "rikki.json"
    path.write_text('{"format": "tuppi-event", "version": 2}', encoding="utf-8")
    code, _out, err = _import(path)
    assert code == 1
    assert "ei ole kelvollinen kisatiedosto" in err and "$.version" in err
    path.write_bytes(b"\xff\xfe nonsense")
    assert _import(path)[0] == 1
    assert _import(tmp_path / "puuttuu.json")[0] == 2
    assert not Event.objects.exists()


def test_a_conflict_with_the_registry_is_reported_and_nothing_is_imported(db, tmp_path, make_event, organiser):
    event = one_stage_event(make_event, organiser)
    path = tmp_path / "kisa.json"
    path.write_text(eventfile.export_text(event), encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    empty_database()
    numbered = next(p for p in data["players"] if p["member_number"])
    Player.objects.create(first_name="Toinen", last_name="Nimi", member_number=numbered["member_number"])
    club = data["clubs"][0]
    Club.objects.create(name=club["name"], short_name=club["short_name"] + "X", town=club["town"])

    code, _out, err = _import(path)
    assert code == 1
    assert f"Jäsennumero {numbered['member_number']}: tiedostossa {numbered['first_name']} {numbered['last_name']}, rekisterissä Toinen Nimi" in err
    assert f"Kerho {club['name']}: rekisterissä lyhenne" in err
    assert not Event.objects.exists() and Player.objects.count() == 1 and Club.objects.count() == 1

    code, out, _err = _import(path, "--keep-registry")
    assert code == 0 and "Jäsennumero" in out
    assert Player.objects.get(member_number=numbered["member_number"]).first_name == "Toinen"  # not overwritten


def test_a_changed_file_of_an_existing_event_is_refused(db, tmp_path, make_event, organiser):
    event = one_stage_event(make_event, organiser)
    data = json.loads(eventfile.export_text(event))
    data["event"]["venue"] = "Toinen paikka"
    path = tmp_path / "kisa.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _out, err = _import(path)
    assert code == 1 and "muuttaa muutakin kuin tuloksia (kisan tiedot)" in err  # published: only results correct
    assert Event.objects.get(slug=event.slug).venue == event.venue


def test_players_already_registered_are_used_not_created(db, tmp_path, make_event, organiser):
    """The registry kept (the event alone deleted): every player is found, the newcomer by name and club."""
    event = one_stage_event(make_event, organiser)
    path = tmp_path / "kisa.json"
    path.write_text(eventfile.export_text(event), encoding="utf-8")
    newcomer = next(p for p in json.loads(path.read_text(encoding="utf-8"))["players"] if p["member_number"] is None)
    assert newcomer["key"] == "uusi-1"
    Match.objects.filter(event=event).delete()
    event.delete()
    players, clubs = Player.objects.count(), Club.objects.count()
    code, out, err = _import(path)
    assert code == 0, err
    assert (Player.objects.count(), Club.objects.count()) == (players, clubs) and "Uusi pelaaja" not in out
    copy = Event.objects.get(slug=out.splitlines()[-1])
    assert eventfile.export_text(copy) == path.read_text(encoding="utf-8")


def test_a_newcomer_two_registered_players_could_be_is_a_conflict(db, tmp_path, make_event, organiser):
    event = one_stage_event(make_event, organiser)
    path = tmp_path / "kisa.json"
    path.write_text(eventfile.export_text(event), encoding="utf-8")
    newcomer = Player.objects.get(member_number__isnull=True)
    Match.objects.filter(event=event).delete()
    event.delete()
    Player.objects.create(first_name=newcomer.first_name, last_name=newcomer.last_name, club=newcomer.club)
    code, _out, err = _import(path)
    assert code == 1 and f"Pelaaja {newcomer.full_name}" in err and "heitä on 2" in err
    assert not Event.objects.exists()


def test_a_season_club_the_registry_has_as_another_is_a_conflict(db, tmp_path, make_event, organiser):
    event = one_stage_event(make_event, organiser)
    path = tmp_path / "kisa.json"
    path.write_text(eventfile.export_text(event), encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    row = next(p for p in data["players"] if p["member_number"] and p["season_club"])
    player = Player.objects.get(member_number=row["member_number"])
    other = Club.objects.create(name="Muu Kerho", short_name="MK")
    Match.objects.filter(event=event).delete()
    event.delete()
    SeasonClub.objects.filter(player=player).update(club=other)
    code, _out, err = _import(path)
    assert code == 1
    assert f"Pelaaja {player.full_name}: kauden {event.season} kerho on rekisterissä Muu Kerho, tiedostossa {row['season_club']['club']}." in err
    assert not Event.objects.filter(slug=event.slug).exists()
    assert SeasonClub.objects.get(player=player).club == other  # not overwritten


def test_a_file_whose_facts_do_not_fit_together_is_refused(db, tmp_path, make_event, organiser):
    """Valid against the schema, but two pairs with one number and a match naming a pair not in the file."""
    data = json.loads(eventfile.export_text(one_stage_event(make_event, organiser)))
    empty_database()
    path = tmp_path / "kisa.json"
    twice = json.loads(json.dumps(data))
    twice["pairs"][1]["number"] = twice["pairs"][0]["number"]
    path.write_text(json.dumps(twice), encoding="utf-8")
    code, _out, err = _import(path)
    assert code == 1 and "Tiedoston tiedot eivät sovi yhteen" in err
    unknown = json.loads(json.dumps(data))
    unknown["matches"][0]["pairs"][0] = 99
    path.write_text(json.dumps(unknown), encoding="utf-8")
    code, _out, err = _import(path)
    assert code == 1 and "Paria 99 ei ole" in err
    assert not Event.objects.exists() and not Player.objects.exists()


@pytest.mark.slow
def test_a_changed_file_extending_the_published_chain_is_applied_as_a_correction(db, tmp_path, make_event, organiser):
    event = one_stage_event(make_event, organiser)
    site = tmp_path / "sivusto.json"
    site.write_text(eventfile.export_text(event), encoding="utf-8")
    corrected_again(event)
    venue = tmp_path / "kisapaikka.json"
    venue.write_text(eventfile.export_text(event), encoding="utf-8")
    empty_database()
    assert _import(site)[0] == 0
    code, out, err = _import(venue)
    assert code == 0, err
    assert "syy: Väärä tikkimäärä" in out
    imported = Event.objects.get(slug=event.slug)
    assert eventfile.export_text(imported) == venue.read_text(encoding="utf-8")
    chain = list(imported.publications.order_by("pk").values_list("kind", "reason"))
    assert chain[-1] == (Publication.Kind.CORRECTION, "Väärä tikkimäärä") and len(chain) == 3
    assert verify_published(imported) == []
    assert _import(venue)[:2] == (0, f"Kisa {event.slug} on jo tuotu: mitään ei muutettu.\n{event.slug}\n")
    code, _out, err = _import(site)  # the older file: its chain stops before the site's
    assert code == 1 and "vanhempi" in err
    assert imported.publications.count() == 3


def test_a_changed_file_whose_chain_does_not_extend_the_site_s_is_refused(db, tmp_path, make_event, organiser):
    event = one_stage_event(make_event, organiser)
    data = json.loads(eventfile.export_text(event))
    m = next(m for m in data["matches"] if m["lines"] and m["lines"][0]["kind"] == "deal" and m["lines"][0]["tricks_b"])
    m["lines"][0]["tricks_a"] += 1  # a result changed without a correction record
    m["lines"][0]["tricks_b"] -= 1
    path = tmp_path / "muutettu.json"
    path.write_text(eventfile.text(data), encoding="utf-8")
    code, _out, err = _import(path)
    assert code == 1 and "ei ole uutta korjausta" in err
    data["publications"][-1]["digest"] = "0" * 64  # another chain
    path.write_text(eventfile.text(data), encoding="utf-8")
    code, _out, err = _import(path)
    assert code == 1 and "tietueesta 2 alkaen" in err
    assert eventfile.export_text(Event.objects.get(pk=event.pk)) != eventfile.text(data)
    assert event.publications.count() == 2
