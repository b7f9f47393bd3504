"""Every page answers (issue #30): each kind of event (a pair event with 8 and with 16 Saturday groups, a
one-stage event, an SM team competition) is taken through the states that change what its pages show,
and in each state the site is crawled (``tests/support/crawler.py``) as an anonymous visitor, a referee (a
match's secret link), a team leader (a team's secret link) and an organiser of the event: every link,
live part and GET form reached, PDFs and workbooks included, in Finnish and, after the footer's language
switch, in English. No answer may be a server error, and every HTML page must parse. The three visitors
without a login share what they fetched in a state: a public page the anonymous visitor fetched is not
fetched again from the referee's or the team leader's link (its answer is the same for all three).

The states are built with the project's simulation helpers (random but valid scoresheets through the
rules engine) and its services, on the test events' weekend (Saturday 12 and Sunday 13 December 2026);
the clock moves with them."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

from cup.models import CupEvent
from registry.demo import ensure_registry
from registry.models import Season
from teams.actions import bracket as bracket_actions
from teams.actions import orders as orders_actions
from teams.actions import places as places_actions
from teams.models import Team, TeamMatch
from teams.simulation import _build_teams, _declare_all
from tests.clock import HELSINKI
from tests.support.crawler import Crawl
from tests.support.results_helpers import entry_data, nolo, rami
from tournaments.actions import draw as draw_actions
from tournaments.actions import entries, event_day, results, sunday
from tournaments.actions.simulation import (
    confirm_all,
    enter_random_pairs,
    play_matches,
    settle_playoffs,
)
from tournaments.models import Event, Match, Pair, PairMember, Publication, Stage, unique_event_slug

pytestmark = pytest.mark.slow  # make test-fast leaves it out

SATURDAY = dt.date(2026, 12, 12)
ORGANISER = results.Actor(user=None)
CAP = 400  # requests per crawl (event kind, state, role, both languages)


def at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=HELSINKI)


SUNDAY = SATURDAY + dt.timedelta(days=1)
BEFORE = at(SATURDAY - dt.timedelta(days=4), 12)


# --- the states -----------------------------------------------------------------------------------------


def new_event(name: str, **fields) -> Event:
    ensure_registry()
    event = Event.objects.create(
        name=name, slug=unique_event_slug(name), season=Season.for_date(SATURDAY), starts_on=SATURDAY,
        ends_on=SUNDAY, venue="Kemin kulttuurikeskus", **fields,
    )
    if event.kind != Event.Kind.SM_TEAM:
        CupEvent.objects.create(event=event, weight=1)
    return event


def entered(event: Event, pairs: int, rng: random.Random) -> None:
    """``pairs`` pairs checked in, a few of them paid, one more withdrawn; the judges' council named."""
    enter_random_pairs(event, pairs + 1, rng)
    entries.withdraw_pair(event.pairs.order_by("pk").last())
    for pair, method in zip(event.pairs.order_by("pk"), Pair.FeeMethod.values, strict=False):
        event_day.record_fee(pair, method)
    event_day.set_council(event, ["Aino Tuomari", "Eero Tuomari", "Kalle Tuomari"])


def drawn(event: Event, seed: int) -> None:
    """The groups drawn, and the first match's referee named."""
    draw_actions.draw_groups(event, None, seed=seed)
    event_day.set_referee(event.matches.order_by("round", "table").first(), "Reijo Erotuomari")


def lines_in(match: Match) -> None:
    """Two deals on the sheet: the match is under way."""
    for line in (rami("A", 10), nolo(4)):
        match = results.add_entry(match, entry_data(line), version=None, actor=ORGANISER)


def clear_open(event: Event) -> None:
    """The matches under way go back to no result, for the simulation to play them whole."""
    for match in event.matches.filter(status=Match.Status.PLAYING):
        while match.entries.exists():
            match = results.delete_last_entry(match, version=None, actor=ORGANISER)


def half_then_one_open(matches, rng: random.Random) -> None:
    """The first half (by round and table) played, the next one under way."""
    matches = list(matches.order_by("round", "table", "pk"))
    half = len(matches) // 2
    play_matches(matches[:half], rng)
    lines_in(matches[half])


def correct_after_publication(event: Event, stage: str) -> None:
    """An organiser's correction after publication, with its reason: the last deal of the event's last
    match of ``stage`` typed again (the same deal: the places stand)."""
    match = event.matches.filter(stage=stage, entries__isnull=False).order_by("-round", "-pk").first()
    last = match.entries.order_by("position").last()
    data = results.EntryData(
        kind=last.kind, game=last.game, caller_seat=last.caller_seat, tricks_a=last.tricks_a,
        tricks_b=last.tricks_b, penalised=last.penalised, pair=last.pair, points=last.points,
    )
    reason = "Tuomarineuvosto: viimeisen jaon ramaaja tarkistettiin"
    results.replace_entry(match, last.position, data, version=None, actor=ORGANISER, reason=reason)
    assert Publication.objects.filter(event=event, kind="correction").exists()


def pair_event_states(pairs: int, clock) -> Iterator[tuple[str, Event]]:
    """A two-day pair event: before the draw (fees, a withdrawal, the council), drawn, mid-Saturday,
    Saturday done, Sunday's placement matches under way, published, corrected after publication."""
    rng = random.Random(pairs)
    clock.set(BEFORE)
    event = new_event(f"Ryhmäkisa {pairs}", entry_fee=20)
    entered(event, pairs, rng)
    yield "before the draw", event
    clock.set(at(SATURDAY, 11, 5))
    drawn(event, pairs)
    yield "drawn", event
    clock.set(at(SATURDAY, 13, 30))
    half_then_one_open(event.matches.filter(stage=Stage.SATURDAY), rng)
    yield "live mid-Saturday", event
    clock.set(at(SATURDAY, 19))
    clear_open(event)
    play_matches(event.matches.filter(stage=Stage.SATURDAY), rng)
    settle_playoffs(event, rng)
    yield "Saturday done", event
    clock.set(at(SUNDAY, 12))
    sunday.advance(event, None)
    play_matches(event.matches.filter(stage=Stage.SUNDAY), rng)
    settle_playoffs(event, rng, Stage.SUNDAY)
    sunday.create_placements(event)
    half_then_one_open(event.matches.filter(stage=Stage.PLACEMENT), rng)
    yield "Sunday live", event
    clock.set(at(SUNDAY, 17))
    clear_open(event)
    while play_matches(event.matches.filter(stage=Stage.PLACEMENT), rng):
        sunday.create_placements(event)
    confirm_all(event)
    sunday.publish(event, None)
    yield "published", event
    clock.set(at(SUNDAY + dt.timedelta(days=7), 12))
    correct_after_publication(event, Stage.PLACEMENT)
    yield "corrected after publication", event


def one_stage_states(clock) -> Iterator[tuple[str, Event]]:
    """A one-stage event of two groups: before the draw, drawn, live, every group done, published,
    corrected after publication."""
    rng = random.Random(5)
    clock.set(BEFORE)
    event = new_event("Yksivaiheinen kisa", format=Event.Format.ONE_STAGE, group_count=2, entry_fee=10)
    entered(event, 10, rng)
    yield "before the draw", event
    clock.set(at(SATURDAY, 11, 5))
    drawn(event, 5)
    yield "drawn", event
    clock.set(at(SATURDAY, 14))
    half_then_one_open(event.matches.filter(stage=Stage.SATURDAY), rng)
    yield "live", event
    clock.set(at(SATURDAY, 20))
    clear_open(event)
    play_matches(event.matches.filter(stage=Stage.SATURDAY), rng)
    settle_playoffs(event, rng)
    yield "groups done", event
    confirm_all(event)
    sunday.publish(event, None)
    yield "published", event
    clock.set(at(SUNDAY + dt.timedelta(days=7), 12))
    correct_after_publication(event, Stage.SATURDAY)
    yield "corrected after publication", event


def team_states(clock) -> Iterator[tuple[str, Event]]:
    """An SM team competition of eight teams: entered, drawn, mid-bracket (the first round played, one
    semifinal under way and the other waiting for a leader's order), finished and published."""
    rng = random.Random(8)
    clock.set(BEFORE)
    event = new_event("Joukkuekisa", kind=Event.Kind.SM_TEAM)
    _build_teams(event, 8, rng)
    yield "entered", event
    clock.set(at(SATURDAY, 10))
    bracket_actions.draw(event, None, seed=8)
    yield "drawn", event
    clock.set(at(SATURDAY, 14))
    for row in _declare_all(event, rng):
        orders_actions.start_team_match(row, None)
    play_matches(Match.objects.filter(event=event, stage=Stage.TEAM), rng)
    bracket_actions.sync_bracket(event)
    clock.set(at(SUNDAY, 10))
    first, second = TeamMatch.objects.filter(event=event, round=2).order_by("slot")
    _declare_all(event, rng)
    orders_actions.reopen_orders(second, None)  # the other semifinal waits for both orders again
    orders_actions.start_team_match(first, None)
    matches = list(Match.objects.filter(team_link__team_match=first).order_by("team_link__order"))
    play_matches(matches[:1], rng)
    lines_in(matches[1])
    yield "mid-bracket", event
    clock.set(at(SUNDAY, 17))
    clear_open(event)
    for _round in range(4):
        for row in _declare_all(event, rng):
            orders_actions.start_team_match(row, None)
        play_matches(Match.objects.filter(event=event, stage=Stage.TEAM), rng)
        bracket_actions.sync_bracket(event)
    confirm_all(event)
    places_actions.publish(event, None)
    yield "finished and published", event


# --- who crawls from where --------------------------------------------------------------------------


def referee_links(event: Event) -> list[str]:
    """A match under way (or one not started) and a finished one: their secret links."""
    matches = event.matches.exclude(status=Match.Status.ANNULLED)
    picks = [
        matches.filter(status=Match.Status.PLAYING).first() or matches.filter(status=Match.Status.SCHEDULED).first(),
        matches.filter(status=Match.Status.FINISHED).order_by("-pk").first(),
    ]
    return [reverse("link:sheet", args=[m.token]) for m in picks if m is not None]


def leader_links(event: Event) -> list[str]:
    """A team still playing (the first by name whose match waits for its order, else the first) and the
    last team by name."""
    teams = list(Team.objects.filter(event=event).order_by("name"))
    if not teams:
        return []
    waiting = TeamMatch.objects.filter(event=event, started_at__isnull=True, team_b__isnull=False).first()
    first = next((t for t in teams if waiting and t.pk in (waiting.team_a_id, waiting.team_b_id)), teams[0])
    return [reverse("teams:leader", args=[t.token]) for t in dict.fromkeys([first, teams[-1]])]


def public_starts(event: Event) -> list[str]:
    return [reverse("home"), reverse("event", args=[event.slug])]


def organiser_starts(event: Event) -> list[str]:
    return [reverse("organiser:home"), reverse("organiser:event", args=[event.slug])]


def search_value(event: Event) -> str:
    """A typical search: the last name of a player of the event."""
    member = PairMember.objects.filter(event=event).select_related("player").order_by("pk").first()
    return member.player.last_name if member else "Mäki"


def crawl_state(label: str, event: Event, organiser, files_language: str) -> list[str]:
    """Every role's crawl of the event as it stands now (its PDFs and workbooks in ``files_language``);
    prints each crawl's count, returns the failures. Each crawl must reach its role's own page."""
    roles = [
        ("anonymous", None, public_starts(event), "event"),
        ("referee", None, referee_links(event), "link:sheet"),
        ("team leader", None, leader_links(event), "teams:leader"),
        ("organiser", organiser, organiser_starts(event), "organiser:printouts"),
    ]
    failures = []
    anonymous: set = set()  # what one anonymous visitor fetched answers the others the same: fetched once
    for role, user, starts, own_page in roles:
        if not starts:
            continue
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        crawl = Crawl(client, search=search_value(event), files_language=files_language, cap=CAP,
                      shared=anonymous if user is None else None).run(starts)
        print(f"{label} · {role}: {crawl.summary()}")
        assert crawl.views[own_page], f"{label} · {role}: the crawl never reached {own_page}"
        failures += [f"{label} · {role}: {failure}" for failure in crawl.failures]
    return failures


KINDS = {
    "pair event, 8 groups": lambda clock: pair_event_states(32, clock),
    "pair event, 16 groups": lambda clock: pair_event_states(64, clock),
    "one-stage event": one_stage_states,
    "SM team competition": team_states,
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_page_reached_answers_and_parses(kind, clock, db, django_user_model):
    organiser = django_user_model.objects.create_user("crawl-organiser", password="x-salasana-1")
    failures = []
    for n, (state, event) in enumerate(KINDS[kind](clock)):
        event.organisers.add(organiser)
        files_language = ("fi", "en")[n % 2]  # each state's files in one language, the next in the other
        failures += crawl_state(f"{kind} · {state}", event, organiser, files_language)
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:60])
