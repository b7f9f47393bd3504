"""Helpers for the event file's tests (issue #27): a simulated event, the registry emptied as a fresh
installation's, and an event's public pages and API answer with database ids named by what they are."""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from io import StringIO

from django.core.management import call_command
from django.urls import reverse

from cup.models import ClubFine, CupEvent
from registry.models import Ban, Club, Player, SeasonClub, Transfer
from scoring import match as engine
from scoring.random_match import random_match
from tests.support.builders import add_pairs
from tests.support.results_helpers import one_group_event, rami, store
from tournaments.actions import council, draw, entries, sunday
from tournaments.actions import results as result_actions
from tournaments.actions.simulation import confirm_all, play_matches, settle_playoffs
from tournaments.models import Event, Match, PairMember
from tournaments.web.forms_results import EntryForm


def simulated(pairs: int = 16, seed: int = 1) -> Event:
    out = StringIO()
    call_command("simulate_event", "--pairs", str(pairs), "--seed", str(seed), stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


def empty_database() -> None:
    """Every event and every registry row gone (seasons stay: they hold no facts of their own), as on an
    installation that has never seen the event or its players."""
    from teams.models import TeamMatch

    TeamMatch.objects.all().delete()  # a team match protects its teams, its orders their pairs
    Match.objects.all().delete()  # a match protects its pairs
    Event.objects.all().delete()
    for model in (Ban, Transfer, SeasonClub, Player, Club):
        model.objects.all().delete()


def _ids(event: Event) -> tuple[dict, dict]:
    pairs = dict(event.pairs.values_list("pk", "number"))
    matches = {
        pk: f"{stage}/{group or '-'}/{rnd}/{table}"
        for pk, stage, group, rnd, table in Match.objects.filter(event=event).values_list(
            "pk", "stage", "group__name", "round", "table"
        )
    }
    return pairs, matches


def _named(value, pairs: dict, matches: dict, key: str = ""):
    if isinstance(value, dict):
        if key in ("totals", "match_points", "play_starts"):  # figures of pair A and B, not ids
            return value
        return {k: _named(v, pairs, matches, k if k != "id" else ("pair" if key == "pairs" else "match"))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_named(v, pairs, matches, key) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        if key in ("a", "b", "winner", "pair"):
            return f"pair {pairs[value]}"
        if key == "match":
            return f"match {matches[value]}"
    return value


def public_answers(client, event: Event) -> dict[str, str]:
    """The event's public pages (event, schedule, every group, pair and match, Sunday, final places) and its
    API answer, with match ids in links and pair and match ids in the API named by pair number and by
    stage, group, round and table, and players' ids in links (their archive pages) by their names."""
    slug = event.slug
    pairs, matches = _ids(event)
    players = {p.pk: p.full_name for p in Player.objects.filter(pair_memberships__pair__event=event)}
    urls = [reverse("event", args=[slug]), reverse("schedule", args=[slug]), reverse("sunday", args=[slug]),
            reverse("final_places", args=[slug])]
    urls += [reverse("group", args=[slug, name]) for name in event.groups.filter(stage="saturday").values_list("name", flat=True)]
    urls += [reverse("pair", args=[slug, n]) for n in sorted(pairs.values())]
    named = {reverse("match", args=[slug, pk]): f"match {ref}" for pk, ref in matches.items()}
    urls += list(named)
    out = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        html = re.sub(r'(csrfmiddlewaretoken" value|nonce)="[^"]*"', r'\1=""', html)
        html = re.sub(r"/ottelut/(\d+)/", lambda m: f"/ottelut/{matches[int(m.group(1))]}/", html)
        html = re.sub(r"/pelaajat/(\d+)/", lambda m: f"/pelaajat/{players[int(m.group(1))]}/", html)
        out[named.get(url, url)] = html
    api = client.get(reverse("api_event", args=[slug]))
    out["api"] = json.dumps(_named(api.json(), pairs, matches), indent=1, sort_keys=True)
    return out


def paper_result(match: Match, rng: random.Random) -> None:
    """A paper scoresheet's result typed in for ``match``: the totals of a random valid sheet."""
    state = engine.fold(random_match(rng, match.deals_planned), match.deals_planned)
    winner = str(state.winner)
    data = result_actions.PaperData(
        state.totals.a, state.totals.b, state.deals_played, tuppi=winner if state.tuppi else "",
        deciding_winner=winner if state.deciding_deal else "",
    )
    result_actions.save_paper(match, data, version=match.version, actor=result_actions.Actor())


def one_stage_event(make_event, organiser) -> Event:
    """A one-stage cup event of two groups: two pairs swapped after the draw, one pair withdrawn, one result
    from a paper scoresheet, one forfeit (its club's fine paid), one newcomer without a member number;
    played, published and corrected once."""
    event = make_event(format=Event.Format.ONE_STAGE, group_count=2, judges=["Aino Tuomari", "Eero Neuvos", "Iida Kolmas"])
    event.organisers.add(organiser)
    pairs = add_pairs(event, 7)
    newcomer = pairs[0].members.get(position=1).player  # a newcomer without a member number
    Player.objects.filter(pk=newcomer.pk).update(member_number=None)
    draw.draw_groups(event, organiser, seed=5)
    a, b = (g.entries.first().pair for g in event.groups.order_by("name"))
    draw.swap_pairs(event, a, b, organiser)
    entries.withdraw_pair(pairs[-1], organiser)  # its matches annulled
    CupEvent.objects.create(event=event, weight=1)  # counted for the cup: a forfeit fines the club
    rng = random.Random(2)
    scheduled = list(Match.objects.filter(event=event, status=Match.Status.SCHEDULED).order_by("round", "table")[:2])
    paper_result(scheduled[0], rng)
    forfeited = result_actions.add_entry(
        scheduled[1], result_actions.EntryData(kind="forfeit", pair="B"), version=scheduled[1].version,
        actor=result_actions.Actor(user=organiser), reason="Myöhästyi yli 15 minuuttia",
    )
    ClubFine.objects.filter(match=forfeited).update(paid_on=event.starts_on, note="Maksettu paikan päällä")
    play_matches(event.matches.all(), rng)
    settle_playoffs(event, rng)
    confirm_all(event)
    sunday.publish(event, organiser)
    first = Match.objects.filter(event=event, status=Match.Status.FINISHED, paper__isnull=True).order_by("round", "table").first()
    line = first.entries.get(position=1)
    form = EntryForm(EntryForm.initial_from(line) | {"version": first.version, "reason": "Kirjoitusvirhe"})
    assert form.is_valid(), form.errors
    result_actions.replace_entry(first, 1, form.entry_data(), version=first.version, actor=result_actions.Actor(), reason="Kirjoitusvirhe")
    assert event.publications.count() == 2 and pairs
    return event


COUNCIL = ["Aino Ahola", "Bertta Berg", "Cecilia Carlsson"]


def _ruling(decision: str, effect: str = "none", **more) -> council.RulingData:
    return council.RulingData(
        members=tuple(COUNCIL), referee_heard=True, pairs_heard=True, decision=decision,
        reasons="Merkinantoa ei voitu osoittaa.", effect=effect, **more,
    )


def council_event(make_event, organiser) -> Event:
    """A one-group event of seven pairs with the judges' council at work (issue #29), 45 minutes for appeals:
    an appeal upheld, its tuppi penalty removed (the match then forfeited); an appeal the organiser filed, rejected; a forfeit the
    council ordered without an appeal; a player excluded (his pair withdrawn); played and published."""
    event, _group, pairs = one_group_event(make_event, organiser, 7, judges=COUNCIL, appeal_minutes=45)
    first, second, third = Match.objects.filter(event=event).order_by("round", "table")[:3]
    link = result_actions.Actor(via_link=True)
    store(first, [rami("A", 8)], user=organiser)
    first = result_actions.add_entry(first, result_actions.EntryData(kind="tuppi", pair="A"), version=None, actor=link)
    appeal = council.file_appeal(first, "B", "Tuppirangaistus ilman näyttöä", line=2, actor=link)
    council.rule(first, _ruling("upheld", "penalty_remove", position=2), appeal=appeal, user=organiser)
    first.refresh_from_db()  # back to playing with one deal; pair B gives up the rest
    result_actions.add_entry(first, result_actions.EntryData(kind="forfeit", pair="B"), version=None, actor=link)
    appeal = council.file_appeal(second, "A", "Tuomari ei kuullut paria", actor=result_actions.Actor(user=organiser))
    council.rule(second, _ruling("rejected"), appeal=appeal, user=organiser)
    council.rule(third, _ruling("decided", "forfeit", side="B"), user=organiser)
    excluded = next(p for p in pairs if p.pk not in {m.pair_a_id for m in (first, second, third)}
                    and p.pk not in {m.pair_b_id for m in (first, second, third)})
    player = excluded.members.get(position=2).player
    council.exclude_player(excluded, player.pk, members=COUNCIL, reason="Häiriökäytös", user=organiser)
    rng = random.Random(3)
    play_matches(event.matches.all(), rng)
    settle_playoffs(event, rng)
    confirm_all(event)
    sunday.publish(event, organiser)
    return Event.objects.get(pk=event.pk)


def team_competition(teams: int = 4, seed: int = 3) -> Event:
    """An SM team competition played to published places (as ``simulate_teams`` plays it), where one team
    names a substitute and he plays its first match in place of one of its players."""
    from django.utils import timezone

    from registry.demo import ensure_registry
    from registry.models import Season
    from teams import results
    from teams.actions import bracket, common, places
    from teams.actions import orders as order_actions
    from teams.actions.substitutes import name_substitute
    from teams.models import Team, TeamMatch
    from teams.simulation import _build_teams, _declare_all

    ensure_registry()
    rng = random.Random(seed)
    today = timezone.localdate()
    event = Event.objects.create(
        name="Joukkuekisa", slug="joukkuekisa", season=Season.for_date(today), starts_on=today,
        ends_on=today + dt.timedelta(days=1), venue="Halli", kind=Event.Kind.SM_TEAM,
    )
    _build_teams(event, teams, rng)
    team = Team.objects.filter(event=event).order_by("name").first()
    used = set(PairMember.objects.filter(event=event).values_list("player_id", flat=True))
    name_substitute(team, Player.objects.exclude(pk__in=used).order_by("pk").first(), common.Actor())
    bracket.draw(event, None, seed=seed)
    first = TeamMatch.objects.get(event=event, round=1, team_a=team) if TeamMatch.objects.filter(
        event=event, round=1, team_a=team).exists() else TeamMatch.objects.get(event=event, round=1, team_b=team)
    pairs = list(results.load(event).teams[team.pk].pair_ids)
    sits_out = PairMember.objects.filter(pair_id=pairs[0], position=2).get().player
    order_actions.declare_order(first, Team.objects.get(pk=team.pk), pairs, common.Actor(), substitute_for=sits_out)
    for _round in range(2 * teams):
        rows = _declare_all(event, rng)
        if not rows:
            break
        for row in rows:
            order_actions.start_team_match(row, None)
        play_matches(Match.objects.filter(event=event, stage="team", status=Match.Status.SCHEDULED), rng)
        bracket.sync_bracket(event)
    confirm_all(event)
    places.publish(event, None)
    return Event.objects.get(pk=event.pk)


def team_public_answers(client, event: Event) -> dict[str, str]:
    """A team competition's public pages (the bracket, the teams, every team match, the final places) and
    its API answer, with team match ids in links named by round and slot, pair match ids by stage, round
    and table, team ids by name, pair ids by number and player ids by name."""
    from teams.models import Team, TeamMatch

    slug = event.slug
    pairs, matches = _ids(event)
    teams = dict(Team.objects.filter(event=event).values_list("pk", "name"))
    team_matches = {pk: f"{rnd}/{slot}" for pk, rnd, slot in TeamMatch.objects.filter(event=event).values_list("pk", "round", "slot")}
    players = dict((p.pk, p.full_name) for p in Player.objects.all())
    urls = {reverse(name, args=[slug]): name for name in ("teams:bracket", "teams:teams", "teams:final_places")}
    urls |= {reverse("teams:match", args=[slug, pk]): f"team match {ref}" for pk, ref in team_matches.items()}
    urls |= {reverse("match", args=[slug, pk]): f"match {ref}" for pk, ref in matches.items()}
    out = {}
    for url, name in urls.items():
        response = client.get(url)
        assert response.status_code == 200, url
        html = re.sub(r'(csrfmiddlewaretoken" value|nonce)="[^"]*"', r'\1=""', response.content.decode())
        html = re.sub(r"joukkuekisa/([^/]+)/ottelut/(\d+)/", lambda m: f"team match {team_matches[int(m.group(2))]}", html)
        html = re.sub(r"/ottelut/(\d+)/", lambda m: f"/ottelut/{matches[int(m.group(1))]}/", html)
        html = re.sub(r"/pelaajat/(\d+)/", lambda m: f"/pelaajat/{players[int(m.group(1))]}/", html)
        html = re.sub(r"joukkue-(\d+)", lambda m: f"joukkue-{teams[int(m.group(1))]}", html)  # a team's anchor
        out[name] = html
    api = client.get(reverse("api_event", args=[slug])).json()
    extra = {key: api.pop(key) for key in ("teams", "bracket", "final_ranking") if key in api}
    out["api"] = json.dumps(_named(api, pairs, matches), indent=1, sort_keys=True)
    out["api teams"] = json.dumps(_team_named(extra, teams, pairs, players), indent=1, sort_keys=True)
    return out


def _team_named(value, teams: dict, pairs: dict, players: dict, within: str = "", key: str = ""):
    if isinstance(value, dict):
        inner = "pair_matches" if key == "pair_matches" else (key if key in ("teams", "bracket", "final_ranking") else within)
        return {k: _team_named(v, teams, pairs, players, inner, k) for k, v in value.items()}
    if isinstance(value, list):
        inner = key if key in ("teams", "bracket", "final_ranking", "pair_matches") else within
        return [_team_named(v, teams, pairs, players, inner, key) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and key not in ("round", "slot", "order", "place"):
        if key == "player":
            return f"player {players[value]}"
        if within == "pair_matches" or key == "pairs":
            return f"pair {pairs[value]}"
        if key in ("id", "team", "a", "b", "winner"):
            return f"team {teams[value]}"
    return value


def corrected_again(event) -> None:
    """A second correction after publication, as the organiser makes it: line 1 of a finished match
    typed again, with its reason."""
    match = Match.objects.filter(event=event, status=Match.Status.FINISHED, paper__isnull=True).order_by("round", "table").last()
    line = match.entries.get(position=1)
    form = EntryForm(EntryForm.initial_from(line) | {"version": match.version, "reason": "Väärä tikkimäärä"})
    assert form.is_valid(), form.errors
    result_actions.replace_entry(match, 1, form.entry_data(), version=match.version, actor=result_actions.Actor(),
                                 reason="Väärä tikkimäärä")
