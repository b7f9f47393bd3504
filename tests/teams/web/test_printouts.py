"""The organiser's printouts page of a team competition (issue #30): each round's pair-match scoresheets
(the whole round, and each team match's three) with their QR codes, the leaders' links and the bracket;
every link on it gives its PDF, for the event's organisers only."""

from __future__ import annotations

import io
import re
import subprocess
from html import unescape

import pytest
from django.urls import reverse
from pypdf import PdfReader

from teams.models import TeamMatch
from tests.teams.builders import add_teams, drawn_event, pair_matches, play, row, start, team_event


def text_of(pdf: bytes) -> str:
    result = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True)
    return result.stdout.decode()


def pages_of(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def printouts(client, event) -> str:
    response = client.get(reverse("organiser:printouts", args=[event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def cards(html: str) -> dict[str, str]:
    """The printouts listed: name → address."""
    return {
        " ".join(unescape(label).split()): unescape(url)
        for url, label in re.findall(r'<li class="card"><a href="([^"]+)">(.*?)</a>', html, re.S)
    }


@pytest.fixture
def finals_started(make_event, organiser):
    """Four teams: both semifinals played, the final and the match for third place started."""
    event, teams = drawn_event(make_event, organiser, 4, name="SM-joukkuekisa", slug="sm-joukkue")
    for slot in (1, 2):
        semi = row(event, 1, slot)
        play(semi, semi.team_a)
    for slot in (1, 2):
        start(row(event, 2, slot))
    return event


@pytest.mark.slow
def test_every_round_and_team_match_prints_its_scoresheets_with_qr_codes(client, finals_started, organiser):
    event = finals_started
    client.force_login(organiser)
    listed = cards(printouts(client, event))
    final, third = row(event, 2, 1), row(event, 2, 2)
    slug = event.slug
    assert listed == {
        "Välierät: kaikki ottelut": reverse("organiser:round_sheets", args=[slug, "joukkue", 1]),
        f"Välierät: {row(event, 1, 1).team_a.name} – {row(event, 1, 1).team_b.name}":
            reverse("teams_organiser:match_sheets", args=[slug, row(event, 1, 1).pk]),
        f"Välierät: {row(event, 1, 2).team_a.name} – {row(event, 1, 2).team_b.name}":
            reverse("teams_organiser:match_sheets", args=[slug, row(event, 1, 2).pk]),
        "Loppuottelu, Pronssiottelu: kaikki ottelut": reverse("organiser:round_sheets", args=[slug, "joukkue", 2]),
        f"Loppuottelu: {final.team_a.name} – {final.team_b.name}":
            reverse("teams_organiser:match_sheets", args=[slug, final.pk]),
        f"Pronssiottelu: {third.team_a.name} – {third.team_b.name}":
            reverse("teams_organiser:match_sheets", args=[slug, third.pk]),
        "Joukkueenjohtajien linkit": reverse("teams_organiser:leader_links", args=[slug]),
        "Joukkuekisan kaavio": reverse("teams:bracket_pdf", args=[slug]),
    }
    for url in listed.values():
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf", url
    last_round = client.get(listed["Loppuottelu, Pronssiottelu: kaikki ottelut"]).content
    assert pages_of(last_round) == 6  # three pair matches a team match, one a page
    text = text_of(last_round)
    for k in (1, 2, 3):
        assert f"Loppuottelu · pari {k}" in text and f"Pronssiottelu · pari {k}" in text


@pytest.mark.slow
def test_a_rounds_sheets_carry_each_pair_matchs_secret_link(client, finals_started, organiser):
    event = finals_started
    client.force_login(organiser)
    pdf = client.get(reverse("organiser:round_sheets", args=[event.slug, "joukkue", 1])).content
    text = text_of(pdf)
    semis = TeamMatch.objects.filter(event=event, round=1)
    for semi in semis:
        for match in pair_matches(semi):
            assert reverse("link:sheet", args=[match.token]) in text.replace("\n", "")


@pytest.mark.slow
def test_before_the_draw_it_lists_the_leaders_links_and_says_what_comes_later(client, make_event, organiser):
    event = team_event(make_event, organiser)
    add_teams(event, 3)
    client.force_login(organiser)
    html = printouts(client, event)
    assert cards(html) == {"Joukkueenjohtajien linkit": reverse("teams_organiser:leader_links", args=[event.slug])}
    assert "Yhtään joukkueottelua ei ole vielä aloitettu." in html and "Kaaviota ei ole vielä arvottu." in html
    assert "alkulohkot" not in html.lower() and "Tulosluettelo" not in html  # nothing of a pair event's


def test_drawn_but_not_started_lists_the_bracket(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 5)
    client.force_login(organiser)
    listed = cards(printouts(client, event))
    assert set(listed) == {"Joukkueenjohtajien linkit", "Joukkuekisan kaavio"}


def test_in_english(client, finals_started, organiser):
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    html = printouts(client, finals_started)
    assert "Scoresheets by round" in html and "Semifinals: every match" in html and "Team leaders" in html
    assert "3 pages (PDF)" in html


def test_the_team_pages_lead_to_the_printouts(client, finals_started, organiser):
    client.force_login(organiser)
    overview = client.get(reverse("teams_organiser:overview", args=[finals_started.slug])).content.decode()
    assert f'href="{reverse("organiser:printouts", args=[finals_started.slug])}"' in overview


def test_only_the_events_organisers(client, finals_started, outsider):
    event = finals_started
    urls = [
        reverse("organiser:printouts", args=[event.slug]),
        reverse("organiser:round_sheets", args=[event.slug, "joukkue", 1]),
    ]
    for url in urls:
        assert client.get(url).status_code == 302, url  # to the login
    client.force_login(outsider)
    for url in urls:
        assert client.get(url).status_code == 403, url
