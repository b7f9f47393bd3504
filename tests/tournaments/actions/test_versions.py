"""The results version (tournaments/actions/versions.py): every service that changes a fact anything derived
depends on bumps it in its own transaction; a refused change leaves it as it was."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError

from teams.actions import bracket, common, orders, rosters, substitutes
from tests.support.builders import add_pairs, clubs
from tests.support.results_helpers import entry_data, paper, rami, tie_group
from tests.teams.builders import declare, drawn_event, players, row, start
from tournaments.actions import draw, entries, sunday, versions
from tournaments.actions import results as result_actions
from tournaments.actions.simulation import confirm_all, play_matches, settle_playoffs
from tournaments.models import Event, Match

ORGANISER = result_actions.Actor(user=None)


def version(event) -> int:
    return versions.current(event.pk)


def bumps(event, change) -> None:
    before = version(event)
    change()
    assert version(event) > before


@pytest.fixture
def drawn(make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    pairs = add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=5)
    return event, pairs


def first_match(event) -> Match:
    return Match.objects.filter(event=event, stage="saturday").order_by("round", "table").first()


def test_entries(make_event):
    event = make_event()
    pairs = add_pairs(event, 3, checked_in=False)
    fresh = players(2)
    bumps(event, lambda: entries.create_pair(event, fresh[0], fresh[1], clubs(1)[0]))
    bumps(event, lambda: entries.withdraw_pair(pairs[0]))
    bumps(event, lambda: entries.withdraw_absent(event))


def test_draw_redraw_swap_and_event_edits(drawn, organiser):
    event, pairs = drawn
    bumps(event, lambda: draw.draw_groups(event, organiser, seed=6))
    groups = draw.current_groups(event)
    x, y = groups[0][0], groups[1][0]
    bumps(event, lambda: draw.swap_pairs(event, event.pairs.get(pk=x), event.pairs.get(pk=y), organiser))
    fresh = Event.objects.get(pk=event.pk)
    fresh.name = "Uusi nimi"
    bumps(event, fresh.save)


def test_every_result_change(drawn, organiser):
    event, _pairs = drawn
    match = first_match(event)
    bumps(event, lambda: result_actions.add_entry(match, entry_data(rami("A", 9)), version=None, actor=ORGANISER))
    bumps(event, lambda: result_actions.replace_entry(match, 1, entry_data(rami("A", 10)), version=None, actor=ORGANISER))
    bumps(event, lambda: result_actions.delete_last_entry(match, version=None, actor=ORGANISER))
    bumps(event, lambda: paper(match, 40, 20))
    bumps(event, lambda: result_actions.set_confirmed(match, True, version=None, user=organiser))
    bumps(event, lambda: result_actions.set_confirmed(match, False, version=None, user=organiser))
    bumps(event, lambda: result_actions.clear_paper(match, version=None, actor=ORGANISER))


def test_a_refused_change_keeps_the_version(drawn):
    event, _pairs = drawn
    match = first_match(event)
    before = version(event)
    with pytest.raises(result_actions.ResultRefused):
        result_actions.add_entry(match, entry_data(rami("A", 9)), version=match.version + 5, actor=ORGANISER)
    with pytest.raises(result_actions.ResultRefused):
        result_actions.delete_last_entry(match, version=None, actor=ORGANISER)  # nothing to delete
    assert version(event) == before


def test_play_off(make_event, organiser):
    event, group, pairs = tie_group(make_event, organiser)
    bumps(event, lambda: result_actions.record_playoff(group, [pairs[2].pk, pairs[0].pk, pairs[1].pk], user=organiser))


def test_sunday_advance_seeding_placements_and_publication(make_event):
    event = make_event()
    rng = random.Random(3)
    add_pairs(event, 16)
    draw.draw_groups(event, None, seed=3)
    play_matches(event.matches.filter(stage="saturday"), rng)
    settle_playoffs(event, rng)
    bumps(event, lambda: sunday.advance(event, None))
    seeding = sunday.current_seeding(event)
    seeding[0][0], seeding[1][0] = seeding[1][0], seeding[0][0]
    bumps(event, lambda: sunday.correct_seeding(event, seeding, None))
    play_matches(event.matches.filter(stage="sunday"), rng)
    settle_playoffs(event, rng, "sunday")
    bumps(event, lambda: sunday.create_placements(event))
    for _round in ("semi", "final"):
        play_matches(event.matches.filter(stage="placement"), rng)
        sunday.create_placements(event)
    bumps(event, lambda: (confirm_all(event), sunday.publish(event, None)))


def test_simulated_results_bump(drawn):
    event, _pairs = drawn
    bumps(event, lambda: play_matches(event.matches.filter(stage="saturday", round=1), random.Random(1)))


def test_team_competition(make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 4)
    first = row(event, 1, 1)
    team = first.team_a
    bumps(event, lambda: declare(first, team))
    substitute = players(1)[0]
    other = row(event, 1, 2).team_a
    bumps(event, lambda: substitutes.name_substitute(other, substitute, common.Actor(user=organiser)))
    bumps(event, lambda: start(first, organiser))
    bumps(event, lambda: orders.cancel_start(first))
    bumps(event, lambda: bracket.set_round_day(event, 2, event.starts_on))


def test_team_entries(make_event, organiser):
    from tests.teams.builders import add_team, team_event

    event = team_event(make_event, organiser)
    bumps(event, lambda: add_team(event, "Kemin Kasa"))
    add_team(event, "Oulun Tuppiseura")
    victim = add_team(event, "Poistettava")
    bumps(event, lambda: rosters.delete_team(victim))
    bumps(event, lambda: bracket.draw(event, organiser, seed=2))
    with pytest.raises(ValidationError):
        bracket.draw(event, organiser, seed=3)  # drawn once
