"""Public pages of the team competition: the bracket (byes, results, medals, live refresh), the teams
with the "title only" mark, a team match, the final places with next season's marks, the bracket PDF."""

from __future__ import annotations

import io
import re
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse
from pypdf import PdfReader

from teams.actions import bracket as bracket_actions
from teams.models import TeamMatch
from tests.teams.builders import add_team, club, declare, drawn_event, play, row, start, team_event


def get(client, name, event, *args):
    return client.get(reverse(f"teams:{name}", args=[event.slug, *args]))


def test_other_events_are_not_found(client, make_event):
    event = make_event()
    for name in ("bracket", "teams", "final_places", "bracket_pdf"):
        assert get(client, name, event).status_code == 404
    assert client.get(reverse("teams:bracket", args=["ei-ole"])).status_code == 404


def test_bracket_before_the_draw(client, make_event):
    event = team_event(make_event)
    add_team(event, "Kasat")
    html = get(client, "bracket", event).content.decode()
    assert "Kaaviota ei ole vielä arvottu" in html


def test_bracket_after_the_draw(client, make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 5)
    html = get(client, "bracket", event).content.decode()
    for team in teams:
        assert team.name in html
    assert html.count("ohitusvuoro: jatkaa suoraan") == 3  # 8 places, 5 teams
    assert "Välierät" in html and "Loppuottelu" in html and "Pronssiottelu" in html
    assert 'hx-trigger="every 5s"' in html  # live: refreshes itself
    assert f"siemen {event.draw_seed}" in html
    r = TeamMatch.objects.get(event=event, round=1, slot=2)
    assert reverse("teams:match", args=[event.slug, r.pk]) in html
    # the scoresheets' secret links are never on public pages
    start(r)
    html = get(client, "bracket", event).content.decode()
    assert "/tulos/" not in html


def test_finished_bracket_has_medals_and_no_refresh(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 4)
    s1, s2 = row(event, 1, 1), row(event, 1, 2)
    play(s1, s1.team_a, score=(2, 1))
    play(s2, s2.team_b, score=(2, 0))
    html = get(client, "bracket", event).content.decode()
    assert re.search(r'<span class="wins">2</span>', html)
    play(row(event, 2, 1), s1.team_a)
    play(row(event, 2, 2), s2.team_a)
    html = get(client, "bracket", event).content.decode()
    assert 'hx-trigger="every 5s"' not in html
    medals = re.findall(
        r'<li value="(\d)"><span class="place">\d\.</span><span><span class="team-name">([^<]+)', html
    )
    assert medals == [
        ("1", s1.team_a.name),
        ("2", s2.team_b.name),
        ("3", s2.team_a.name),
        ("4", s1.team_b.name),
    ]


def test_title_only_mark_wherever_the_team_appears(client, make_event, organiser):
    event = team_event(make_event, organiser)
    add_team(event, "Vahvistettu", outside=2)
    add_team(event, "Oma", outside=1)
    teams_html = get(client, "teams", event).content.decode()
    assert teams_html.count('class="mark-title-only"') == 2  # the team and the legend
    assert "vahvistus" in teams_html

    bracket_actions.draw(event, organiser, seed=1)
    final = row(event, 1, 1)
    for html in (
        get(client, "bracket", event).content.decode(),
        get(client, "match", event, final.pk).content.decode(),
        get(client, "final_places", event).content.decode(),
    ):
        assert "vain mestaruus" in html


def test_team_match_page_hides_orders_until_both_declared(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 2)
    final = row(event, 1, 1)
    declare(final, final.team_a)
    html = get(client, "match", event, final.pk).content.decode()
    assert "ilmoitettu" in html and "ei ilmoitettu" in html
    assert not any(tp.pair.full_name in html for tp in final.team_a.team_pairs.all())
    start(final)
    html = get(client, "match", event, final.pk).content.decode()
    assert all(tp.pair.full_name in html for tp in final.team_a.team_pairs.all())
    for link in final.pair_links.all():
        assert reverse("match", args=[event.slug, link.match_id]) in html  # the public scoresheet
    bye_event, _ = drawn_event(make_event, organiser, 3)
    bye = TeamMatch.objects.get(event=bye_event, team_b__isnull=True)
    assert get(client, "match", bye_event, bye.pk).status_code == 404


def test_final_places_with_host_and_cup_eligibility(client, make_event, organiser):
    event = team_event(make_event, organiser)
    kemi, oulu, tornio = club("Kemi"), club("Oulu"), club("Tornio")
    champion = add_team(event, "Kemi", home=kemi)
    add_team(event, "Oulu", home=oulu, outside=2)
    add_team(event, "Tornio", home=tornio)

    bracket_actions.draw(event, organiser, seed=3)
    html = get(client, "final_places", event).content.decode()
    assert "Sijoja ei ole vielä ratkaistu." in html
    for _ in range(3):
        for r in TeamMatch.objects.filter(event=event, team_b__isnull=False):
            from teams import results

            current = results.load(event).row(r.round, r.slot)
            if current.winner_id is None:
                play(r, champion if champion.pk in (r.team_a_id, r.team_b_id) else r.team_a)
    html = get(client, "final_places", event).content.decode()
    assert "ensi kauden joukkuekisan järjestäjä" in html
    assert "Mestari Kemi (Kemi) järjestää ensi kauden SM-joukkuekisan." in html
    eligible = html.split("Oikeus järjestää cupin osakilpailu ensi kaudella")[1]
    assert "<li>Kemi</li>" in eligible and "<li>Tornio</li>" in eligible and "<li>Oulu</li>" not in eligible


def test_bracket_pdf(client, make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 10)
    response = get(client, "bracket_pdf", event)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    text = "".join(page.extract_text() for page in reader.pages)
    assert all(team.name in text for team in teams)


@pytest.mark.parametrize("name", ["bracket", "teams", "final_places"])
def test_pages_fit_a_phone(client, make_event, organiser, name):
    """No fixed widths: the pages use the site's classes and a column layout only from 60rem up."""
    event, _teams = drawn_event(make_event, organiser, 10)
    html = get(client, name, event).content.decode()
    assert 'name="viewport"' in html
    assert not re.search(r'style="[^"]*width:\s*\d{3,}px', html)


def test_bracket_pdf_keeps_long_names_apart_from_the_scores(client, make_event, organiser):
    """Issue #14: a long team name wraps in its own column; the pair wins stand in theirs, never under or
    next to a name's last word ("Kasanpitäjät 2" with a score of 0 read as "Kasanpitäjät 20")."""
    event = team_event(make_event, organiser)
    long_names = ["Rovaniemen Rami- ja Nolokerhon Kasanpitäjät Pohjoisen Joukkue", "Sodankylän Tuppiseuran Nousujohtoiset"]
    for name in [*long_names, "Kemi", "Oulu"]:
        add_team(event, name)
    bracket_actions.draw(event, organiser, seed=3)
    for r in TeamMatch.objects.filter(event=event, round=1):
        play(start(r, organiser), r.team_a)
    response = get(client, "bracket_pdf", event)

    class Words(HTMLParser):
        words: list = []

        def handle_starttag(self, tag, attrs):
            if tag == "word":
                self.current = {k: float(v) for k, v in attrs}  # the parser lowercases xMin …

        def handle_data(self, data):
            if getattr(self, "current", None) is not None:
                self.words.append((data.strip(), self.current))
                self.current = None

    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "kaavio.pdf"
        pdf.write_bytes(response.content)
        out = subprocess.run(["pdftotext", "-f", "1", "-l", "1", "-bbox", str(pdf), "-"], check=True, capture_output=True)
    parser = Words()
    parser.words = []
    parser.feed(out.stdout.decode())
    top = next(box["ymax"] for text, box in parser.words if text == "Välierät")
    note = next(box["ymin"] for text, box in parser.words if text == "*")
    column = [(t, b) for t, b in parser.words if top < b["ymin"] < note and b["xmin"] < 595 / 3]
    scores = [b for t, b in column if t.isdigit()]
    names = [b for t, b in column if not t.isdigit()]
    assert len(scores) == 4 and names
    assert max(b["xmax"] for b in names) < min(b["xmin"] for b in scores)  # a column of their own
    # each score stands on the first line of its team's name, not after the wrapped name's last word
    firsts = [b["ymin"] for t, b in column if t in ("Rovaniemen", "Sodankylän", "Oulu", "Kemi")]
    assert sorted(round(b["ymin"]) for b in scores) == sorted(round(y) for y in firsts)
