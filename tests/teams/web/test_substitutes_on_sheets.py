"""Issue #14: a declared substitute reaches every sheet. When his team match starts, the substitute's
name takes the replaced player's place, marked "(varamies)", on the scoresheet PDF, the digital sheet (the
organiser's and the secret link's), the team match page, the results desk and the API; the pair's other
matches and the pair's own pages keep the pair's players. The sheets also call a pair match by its round's
name ("Loppuottelu · pari 1"), not the bracket round's number."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from teams.actions import common, orders
from teams.actions import substitutes as substitutes_actions
from teams.models import TeamMatch
from tests.teams.builders import declare, drawn_event, pair_matches, players, start
from tournaments.models import MatchSubstitute
from tournaments.readmodel import snapshot as readmodel


@pytest.fixture
def played(make_event, organiser):
    """A 2-team competition (the final only) whose team A plays its substitute in pair 2's first seat."""
    event, teams = drawn_event(make_event, organiser, 2, name="SM-joukkuekisa", slug="sm-joukkue")
    final = TeamMatch.objects.get(event=event)
    team = final.team_a
    (sub,) = players(1, team.club)
    substitutes_actions.name_substitute(team, sub, common.Actor(user=organiser))
    team.refresh_from_db()
    pair2 = team.team_pairs.get(number=2).pair
    out = pair2.players[0]
    declare(final, team, (1, 2, 3), substitute_for=out)
    start(final, organiser)
    return event, final, sub, out


def sheet_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def test_the_start_records_who_sat_at_the_table(played):
    event, final, sub, out = played
    first, second, third = pair_matches(final)
    assert list(MatchSubstitute.objects.values_list("match_id", "player_id", "substitute_id")) == [
        (second.pk, out.pk, sub.pk)
    ]
    view = readmodel.snapshot(event).match(second.pk)
    assert [p.full_name for p in view.pair_a.players][0] == f"{sub.full_name} (varamies)"
    assert view.pair_a.players[0].replaces == out.full_name
    # the pair itself is still the pair: its other appearances keep its players
    assert out.full_name in readmodel.snapshot(event).pairs[view.pair_a.pk].full_name


def test_the_printed_sheets(client, played, organiser):
    event, final, sub, out = played
    client.force_login(organiser)
    pdf = client.get(reverse("teams_organiser:match_sheets", args=[event.slug, final.pk])).content
    pages = sheet_text(pdf)
    assert len(pages) == 3
    assert f"{sub.full_name} (varamies)" in pages[1] and out.full_name not in pages[1]
    assert sub.full_name not in pages[0] + pages[2]
    assert all("Loppuottelu · pari" in page and "kierros 1" not in page for page in pages)


def test_the_digital_sheet_for_the_organiser_and_the_link(client, played, organiser):
    event, final, sub, out = played
    second = pair_matches(final)[1]
    client.force_login(organiser)
    for url in (reverse("organiser:match", args=[event.slug, second.pk]), reverse("link:sheet", args=[second.token])):
        html = client.get(url).content.decode()
        assert f"{sub.full_name} (varamies)" in html, url
        assert "Loppuottelu · pari 2" in html and "kierros 1 ·" not in html, url


def test_the_team_match_page_the_desk_and_the_api(client, played, organiser):
    event, final, sub, out = played
    html = client.get(reverse("teams:match", args=[event.slug, final.pk])).content.decode()
    assert f"{sub.full_name} (varamies)" in html
    client.force_login(organiser)
    desk = client.get(reverse("organiser:results", args=[event.slug])).content.decode()
    assert f"{sub.last_name} (varamies)" in desk
    data = client.get(reverse("api_event", args=[event.slug])).json()
    pair_matches_ = data["bracket"][0]["pair_matches"]
    assert pair_matches_[1]["substitutes"] == [
        {"player": sub.pk, "name": sub.full_name, "replaces": out.full_name}
    ]
    assert pair_matches_[0]["substitutes"] == [] and pair_matches_[2]["substitutes"] == []


def test_an_undone_start_takes_the_substitute_off_the_sheets(played, organiser):
    event, final, sub, out = played
    orders.cancel_start(final, organiser)
    assert not MatchSubstitute.objects.exists()
