"""Issue #25: teams out in the same round share a place, shown as the range they hold ("5.–8."), as the
pair events show it, on the final places, the organiser's rounds page and the team leader's page."""

from __future__ import annotations

import re

from django.urls import reverse

from teams.models import TeamMatch
from tests.teams.builders import drawn_event, play


def places_of(html: str) -> list[str]:
    return re.findall(r'<span class="place">([^<]+)</span>', html)


def test_the_four_quarterfinal_losers_share_places_5_to_8(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 8)
    losers = []
    for match in TeamMatch.objects.filter(event=event, round=1).select_related("team_a", "team_b"):
        play(match, match.team_a)
        losers.append(match.team_b)
    html = client.get(reverse("teams:final_places", args=[event.slug])).content.decode()
    assert places_of(html) == ["5.–8."] * 4 and "5.</span>" not in html
    client.force_login(organiser)
    rounds = client.get(reverse("teams_organiser:rounds", args=[event.slug])).content.decode()
    assert places_of(rounds) == ["5.–8."] * 4
    leader = client.get(reverse("teams:leader", args=[losers[0].token])).content.decode()
    assert "Joukkue on pelannut viimeisen ottelunsa. Sija: 5.–8." in leader
