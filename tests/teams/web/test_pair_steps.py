"""A team competition has none of a pair event's own steps (import, morning check-in, the group draw,
Sunday): the organiser's navigation leads to the team pages, the pair-event addresses lead there too
(and stay forbidden for an outsider), and the services refuse them whichever way they are called."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.support.results_helpers import page_messages
from tests.teams.builders import add_teams, team_event
from tournaments.actions import draw as draw_actions
from tournaments.actions import entries, sunday
from tournaments.actions.imports import save_rows

PAIR_STEPS = ["import", "checkin", "draw", "swap", "sunday", "advance", "seeding", "publish"]


@pytest.fixture
def event(make_event, organiser):
    event = team_event(make_event, organiser, name="SM-joukkuekisa", slug="sm-joukkue")
    add_teams(event, 4)
    return event


def test_the_dashboard_and_navigation_lead_to_the_team_pages(client, event, organiser):
    client.force_login(organiser)
    html = client.get(reverse("organiser:event", args=[event.slug])).content.decode()
    home = reverse("teams_organiser:overview", args=[event.slug])
    assert f'href="{home}"' in html
    for name in ("import", "checkin", "draw", "sunday"):
        assert reverse(f"organiser:{name}", args=[event.slug]) not in html, name


@pytest.mark.parametrize("name", PAIR_STEPS)
def test_a_pair_step_leads_the_organiser_to_the_team_pages(client, event, organiser, name):
    client.force_login(organiser)
    url = reverse(f"organiser:{name}", args=[event.slug])
    for method in (client.get, client.post):
        response = method(url)
        assert response.status_code == 302
        assert response["Location"] == reverse("teams_organiser:overview", args=[event.slug])
    assert "Tätä vaihetta ei ole" in " ".join(page_messages(client.get(response["Location"]).content.decode()))


@pytest.mark.parametrize("name", ["draw", "checkin"])
def test_an_outsider_is_still_refused_there(client, event, outsider, name):
    client.force_login(outsider)
    response = client.get(reverse(f"organiser:{name}", args=[event.slug]))
    assert response.status_code == 403


def test_the_same_steps_of_a_pair_event_are_open(client, make_event, organiser):
    pair_event = make_event()
    pair_event.organisers.add(organiser)
    client.force_login(organiser)
    for name in ("import", "checkin", "draw", "sunday"):
        assert client.get(reverse(f"organiser:{name}", args=[pair_event.slug])).status_code == 200, name


def test_the_services_refuse_the_pair_steps(event, organiser):
    for step in (
        lambda: entries.withdraw_absent(event, organiser),
        lambda: draw_actions.draw_groups(event, organiser, seed=5),
        lambda: sunday.advance(event, organiser),
        lambda: save_rows(event, []),
    ):
        with pytest.raises(ValidationError) as refused:
            step()
        assert refused.value.code == "team_event"
