"""The judges' council at work (issue #29): appeals hold a result, rulings change it through the result
services in one transaction (and the standings and the results version with it), at least three of the
council's named members decide, and a ruling is final.

One group of five pairs (12 deals a match) on Saturday 12 December 2026; the council is three members."""

from __future__ import annotations

import datetime as dt
import random
import subprocess
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import Q

from tests.clock import HELSINKI
from tests.support.results_helpers import one_group_event, rami, store
from tournaments.actions import council, event_day, publication, versions
from tournaments.actions import results as result_actions
from tournaments.actions import sunday as sunday_actions
from tournaments.actions.results import Actor, EntryData, ResultRefused
from tournaments.actions.simulation import play_matches, settle_playoffs
from tournaments.models import Appeal, Entry, Event, Match, ResultChange, Ruling, Stage
from tournaments.output.printing import results_pdf
from tournaments.readmodel import build, snapshot

COUNCIL = ["Aino Ahola", "Bertta Berg", "Cecilia Carlsson", "Daavid Dahl"]
LINK = Actor(via_link=True)


@pytest.fixture
def event(make_event, organiser):
    event, _group, _pairs = one_group_event(make_event, organiser, 5, name="Valituskisa", slug="valituskisa")
    event_day.set_council(event, COUNCIL)
    return Event.objects.get(pk=event.pk)


def first_match(event) -> Match:
    return Match.objects.filter(event=event).order_by("round", "table").first()


def penalised(event, organiser) -> Match:
    """Pair A leads after a deal; then the referee puts pair B in the tuppi for signalling (A wins 5–0)."""
    match = store(first_match(event), [rami("A", 8)], user=organiser)
    return result_actions.add_entry(
        match, EntryData(kind=Entry.Kind.TUPPI, pair="A"), version=None, actor=LINK
    )


def ruling(decision=Ruling.Decision.UPHELD, effect=Ruling.Effect.NONE, members=COUNCIL[:3], **more):
    return council.RulingData(
        members=tuple(members), referee_heard=True, pairs_heard=True, decision=decision,
        reasons="Merkinantoa ei voitu osoittaa.", effect=effect, **more,
    )


def points_of(event, match: Match) -> dict[int, int]:
    snap = build.build(event.pk)
    table = snap.table(match.group_id)
    return {row.pair.pk: row.standing.match_points for row in table.rows}


def test_an_open_appeal_holds_the_result_until_the_council_rules(event, organiser):
    match = penalised(event, organiser)
    assert match.status == Match.Status.FINISHED
    appeal = council.file_appeal(match, "B", "Tuppirangaistus ilman näyttöä", line=2, actor=LINK)
    assert (appeal.status, appeal.line, appeal.filed_by_organiser) == ("open", 2, False)
    match.refresh_from_db()
    with pytest.raises(ResultRefused) as refused:
        result_actions.set_confirmed(match, True, version=match.version, user=organiser)
    assert refused.value.code == "appealed" and "valitus käsittelyssä" in refused.value.messages[0]
    with pytest.raises(ResultRefused, match="valitus käsittelyssä"):  # nor in the publishing step
        result_actions.confirm_for_publication(event, {match.pk: match.version}, organiser)
    snap = build.build(event.pk)
    assert snap.match(match.pk).under_appeal and snap.table(match.group_id).under_appeal
    council.rule(match, ruling(Ruling.Decision.REJECTED), appeal=appeal, user=organiser)
    match.refresh_from_db()
    result_actions.set_confirmed(match, True, version=match.version, user=organiser)
    assert Match.objects.get(pk=match.pk).confirmed_at is not None
    assert not build.build(event.pk).table(match.group_id).under_appeal


def test_an_upheld_appeal_removes_the_penalty_changes_the_standings_and_bumps_the_version(event, organiser):
    match = penalised(event, organiser)
    a, b = match.pair_a_id, match.pair_b_id
    assert points_of(event, match)[a] == 5
    appeal = council.file_appeal(match, "B", "Tuppirangaistus ilman näyttöä", actor=Actor(user=organiser))
    assert appeal.filed_by_organiser
    before = versions.current(event.pk)
    council.rule(match, ruling(effect=Ruling.Effect.PENALTY_REMOVE, position=2), appeal=appeal, user=organiser)
    assert versions.current(event.pk) > before
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and [e.kind for e in match.entries.all()] == ["deal"]
    assert points_of(event, match)[a] == 0 and points_of(event, match)[b] == 0
    appeal.refresh_from_db()
    assert appeal.status == "upheld" and appeal.ruled_at is not None
    # the ruling is in the match's history, and in the snapshot the public pages read
    assert list(ResultChange.objects.filter(match=match).values_list("action", flat=True)[:2]) == ["ruling", "delete_line"]
    view = build.build(event.pk).match(match.pk)
    assert view.appeal.status == "upheld" and "rangaistus poistetaan" in view.ruling_of(view.appeal).summary


def test_a_ruling_adds_a_penalty_corrects_a_line_or_orders_a_forfeit(event, organiser):
    match = store(first_match(event), [rami("A", 8)], user=organiser)
    appeal = council.file_appeal(match, "A", "Jako kirjattiin väärin", line=1, actor=LINK)
    deal = EntryData(kind="deal", game="rami", caller_seat=1, tricks_a=10, tricks_b=3)
    council.rule(match, ruling(effect=Ruling.Effect.LINE, position=1, line=deal), appeal=appeal, user=organiser)
    assert Entry.objects.get(match=match, position=1).tricks_a == 10
    council.rule(match, ruling(Ruling.Decision.DECIDED, effect=Ruling.Effect.FORFEIT, side="B"), user=organiser)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.entries.last().kind == Entry.Kind.FORFEIT
    assert points_of(event, match)[match.pair_a_id] == 5
    other = Match.objects.filter(event=event, round=1).order_by("table").last()
    council.rule(other, ruling(Ruling.Decision.DECIDED, effect=Ruling.Effect.PENALTY_ADD,
                               line=EntryData(kind=Entry.Kind.POINTS, pair="B", points=28)), user=organiser)
    assert other.entries.get().kind == Entry.Kind.POINTS


def test_the_council_waives_a_late_forfeit(event, organiser, clock):
    match = first_match(event)
    clock.set(dt.datetime(2026, 12, 12, 11, 40, tzinfo=HELSINKI))
    event_day.late_forfeit(match, "A", user=organiser)
    council.rule(match, ruling(Ruling.Decision.DECIDED, effect=Ruling.Effect.WAIVE_LATE), user=organiser)
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and not match.entries.exists()
    with pytest.raises(council.CouncilRefused) as refused:  # nothing left to waive
        council.rule(match, ruling(Ruling.Decision.DECIDED, effect=Ruling.Effect.WAIVE_LATE), user=organiser)
    assert refused.value.code == "no_late_forfeit"


@pytest.mark.parametrize(
    ("members", "code"),
    [(COUNCIL[:2], "too_few_members"), ([*COUNCIL[:2], COUNCIL[1]], "too_few_members"),
     ([*COUNCIL[:2], "Eero Erkkilä"], "not_member")],
)
def test_fewer_than_three_named_members_are_refused_and_nothing_changes(event, organiser, members, code):
    match = penalised(event, organiser)
    appeal = council.file_appeal(match, "B", "Rangaistus", actor=LINK)
    version = versions.current(event.pk)
    with pytest.raises(council.CouncilRefused) as refused:
        council.rule(match, ruling(effect=Ruling.Effect.PENALTY_REMOVE, position=2, members=members),
                     appeal=appeal, user=organiser)
    assert refused.value.code == code
    assert Appeal.objects.get(pk=appeal.pk).status == "open" and not Ruling.objects.exists()
    assert match.entries.count() == 2 and versions.current(event.pk) == version


def test_the_referee_and_both_pairs_are_heard(event, organiser):
    match = penalised(event, organiser)
    appeal = council.file_appeal(match, "B", "Rangaistus", actor=LINK)
    data = council.RulingData(members=tuple(COUNCIL[:3]), referee_heard=True, pairs_heard=False,
                              decision="rejected", reasons="Ei perusteita.")
    with pytest.raises(council.CouncilRefused, match="molempia pareja"):
        council.rule(match, data, appeal=appeal, user=organiser)


def test_a_ruling_is_final(event, organiser):
    match = penalised(event, organiser)
    appeal = council.file_appeal(match, "B", "Rangaistus", actor=LINK)
    council.rule(match, ruling(Ruling.Decision.REJECTED), appeal=appeal, user=organiser)
    with pytest.raises(council.CouncilRefused) as ruled_again:
        council.rule(match, ruling(effect=Ruling.Effect.PENALTY_REMOVE, position=2), appeal=appeal, user=organiser)
    assert ruled_again.value.code == "final"
    with pytest.raises(council.CouncilRefused) as appealed_again:  # no appeal of a ruling
        council.file_appeal(match, "A", "Päätös on väärä", actor=LINK)
    assert appealed_again.value.code == "final"
    assert Ruling.objects.count() == 1 and match.entries.count() == 2


def test_appeals_close_after_the_event_s_appeal_time(event, organiser, clock):
    clock.set(dt.datetime(2026, 12, 12, 12, 0, tzinfo=HELSINKI))
    match = penalised(event, organiser)  # finished at 12.00
    clock.set(dt.datetime(2026, 12, 12, 12, 31, tzinfo=HELSINKI))
    with pytest.raises(council.CouncilRefused, match="Valitusaika päättyi klo 12.30"):
        council.file_appeal(match, "B", "Myöhässä", actor=LINK)
    Event.objects.filter(pk=event.pk).update(appeal_minutes=45)
    assert council.file_appeal(match, "B", "Ajoissa", actor=LINK).status == "open"
    with pytest.raises(council.CouncilRefused) as twice:
        council.file_appeal(match, "B", "Uudelleen", actor=LINK)
    assert twice.value.code == "already_open"


def test_filing_an_appeal_bumps_the_version_and_a_refused_one_leaves_it(event, organiser):
    match = penalised(event, organiser)
    version = versions.current(event.pk)
    with pytest.raises(council.CouncilRefused):
        council.file_appeal(match, "B", "  ", actor=LINK)
    assert versions.current(event.pk) == version
    council.file_appeal(match, "B", "Rangaistus", actor=LINK)
    assert versions.current(event.pk) > version


def test_the_published_record_and_the_results_list_carry_the_rulings(event, organiser):
    match = penalised(event, organiser)
    before = publication.canonical_record(event.pk, None)
    assert "rulings" not in before  # an event without rulings keeps the record it had
    appeal = council.file_appeal(match, "B", "Rangaistus", actor=LINK)
    council.rule(match, ruling(effect=Ruling.Effect.PENALTY_REMOVE, position=2), appeal=appeal, user=organiser)
    (found,) = publication.canonical_record(event.pk, None)["rulings"]
    assert found[4:6] == ["B", COUNCIL[:3]] and found[8:11] == ["upheld", "penalty_remove", "Merkinantoa ei voitu osoittaa."]
    pdf = results_pdf(snapshot.snapshot(Event.objects.get(pk=event.pk)), None)
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert "Tuomarineuvoston päätökset" in text and "rangaistus poistetaan" in text


def test_no_ruling_after_publication(event, organiser):
    match = penalised(event, organiser)
    Event.objects.filter(pk=event.pk).update(finished_at=dt.datetime(2026, 12, 13, 18, 0, tzinfo=HELSINKI))
    with pytest.raises(council.CouncilRefused) as refused:
        council.rule(match, ruling(Ruling.Decision.DECIDED, effect=Ruling.Effect.FORFEIT, side="A"), user=organiser)
    assert refused.value.code == "published"


def test_the_council_excludes_a_player_the_match_in_progress_is_forfeited_and_the_pair_withdraws(event, organiser):
    match = store(first_match(event), [rami("A", 8)], user=organiser)  # in progress
    pair = match.pair_b
    player = pair.members.order_by("position").first().player
    with pytest.raises(council.CouncilRefused) as refused:
        council.exclude_player(pair, player.pk, members=COUNCIL[:2], reason="Häiriökäytös", user=organiser)
    assert refused.value.code == "too_few_members" and Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    version = versions.current(event.pk)
    exclusion = council.exclude_player(pair, player.pk, members=COUNCIL[:3], reason="Häiriökäytös", user=organiser)
    assert versions.current(event.pk) > version and exclusion.player == player
    match.refresh_from_db()
    assert match.entries.last().kind == Entry.Kind.FORFEIT and match.entries.last().pair == "B"
    pair.refresh_from_db()
    assert pair.withdrawn_at is not None
    # RULES.md §4: the pair had not finished its group, so its group matches are annulled
    assert set(Match.objects.filter(event=event).filter(pair_b=pair).values_list("status", flat=True)) == {"annulled"}
    assert build.build(event.pk).pairs[pair.pk].excluded == "Häiriökäytös"
    with pytest.raises(council.CouncilRefused):  # once
        council.exclude_player(pair, player.pk, members=COUNCIL[:3], reason="Uudelleen", user=organiser)


def test_the_published_record_names_an_exclusion(event, organiser):
    pair = first_match(event).pair_a
    player = pair.members.order_by("position").first().player
    assert "exclusions" not in publication.canonical_record(event.pk, None)
    council.exclude_player(pair, player.pk, members=COUNCIL[1:4], reason="Häiriökäytös", user=organiser)
    (found,) = publication.canonical_record(event.pk, None)["exclusions"]
    assert found == [pair.number, [player.member_number, player.first_name, player.last_name], COUNCIL[1:4],
                     "Häiriökäytös"]


@pytest.mark.slow
def test_an_excluded_pairs_sunday_and_placement_matches_are_walkovers(organiser):
    """RULES (JÄRJESTELYT) and issue #29.3: a pair excluded on Sunday forfeits its Sunday matches that have not
    started, and every placement match it reaches later as soon as the bracket makes it."""
    out = StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", "8", "--until", "groups", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    event_day.set_council(event, COUNCIL)
    sunday_actions.advance(event, organiser)
    pair = Match.objects.filter(event=event, stage=Stage.SUNDAY).order_by("round", "table").first().pair_a
    player = pair.members.order_by("position").first().player
    council.exclude_player(pair, player.pk, members=COUNCIL[:3], reason="Häiriökäytös", user=organiser)
    theirs = Match.objects.filter(event=event, stage=Stage.SUNDAY).filter(Q(pair_a=pair) | Q(pair_b=pair))
    assert theirs.count() == 3
    for match in theirs:
        last = match.entries.order_by("position").last()
        assert (match.status, last.kind, last.pair) == (Match.Status.FINISHED, Entry.Kind.FORFEIT,
                                                        "A" if match.pair_a_id == pair.pk else "B")
    # the rest of Sunday is played; the bracket makes the excluded pair's placement matches, each a walkover
    rng = random.Random(8)
    play_matches(Match.objects.filter(event=event, stage=Stage.SUNDAY), rng)
    settle_playoffs(event, rng, Stage.SUNDAY)
    for _step in ("semi", "final"):
        sunday_actions.create_placements(event)
        play_matches(Match.objects.filter(event=event, stage=Stage.PLACEMENT), rng)
    placed = Match.objects.filter(event=event, stage=Stage.PLACEMENT).filter(Q(pair_a=pair) | Q(pair_b=pair))
    assert placed.count() == 2  # a semifinal and the match after it
    snap = build.build(event.pk)
    for match in placed:
        assert match.entries.order_by("position").last().kind == Entry.Kind.FORFEIT
        assert snap.match(match.pk).outcome.winner not in (None, pair.pk)
