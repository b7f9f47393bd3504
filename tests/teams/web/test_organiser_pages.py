"""Organiser pages of the team competition: who may open them, adding teams (new pairs, entered pairs,
reinforcements), the draw, the rounds desk (days, starting), a team match with its three scoresheets
and their PDF, the substitute, undoing a start, publishing."""

from __future__ import annotations

import io
import re
import subprocess
import tempfile
from html import unescape as html_unescape
from pathlib import Path

import pytest
import zxingcpp
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader
from weasyprint import HTML

from teams.models import Team, TeamMatch, TeamOrder, TeamRound
from tests.support.builders import add_pairs
from tests.support.results_helpers import page_messages
from tests.teams.builders import (
    add_team,
    club,
    declare,
    drawn_event,
    pair_matches,
    play,
    players,
    row,
    start,
    team_event,
)


@pytest.fixture
def drawn(make_event, organiser):
    event, teams = drawn_event(make_event, organiser, 5, name="SM-joukkuekisa", slug="sm-joukkue")
    return event, teams


def organiser_urls(event, team, match) -> list[str]:
    slug = event.slug
    return [
        reverse("teams_organiser:overview", args=[slug]),
        reverse("teams_organiser:leader_links", args=[slug]),
        reverse("teams_organiser:rounds", args=[slug]),
        reverse("teams_organiser:team", args=[slug, team.pk]),
        reverse("teams_organiser:match", args=[slug, match.pk]),
    ]


def post_urls(event, team, match) -> list[str]:
    slug = event.slug
    return [
        reverse("teams_organiser:draw", args=[slug]),
        reverse("teams_organiser:substitute", args=[slug, team.pk]),
        reverse("teams_organiser:team_delete", args=[slug, team.pk]),
        reverse("teams_organiser:round_day", args=[slug, 1]),
        reverse("teams_organiser:start_round", args=[slug, 1]),
        reverse("teams_organiser:start_match", args=[slug, match.pk]),
        reverse("teams_organiser:cancel_start", args=[slug, match.pk]),
        reverse("teams_organiser:reopen_orders", args=[slug, match.pk]),
        reverse("teams_organiser:team_edit", args=[slug, team.pk]),
        reverse("teams_organiser:publish", args=[slug]),
    ]


def real_match(event) -> TeamMatch:
    return TeamMatch.objects.filter(event=event, team_b__isnull=False).order_by("round", "slot").first()


def test_the_events_organiser_may_open_every_page(client, drawn, organiser):
    event, teams = drawn
    client.force_login(organiser)
    for url in organiser_urls(event, teams[0], real_match(event)):
        assert client.get(url).status_code == 200, url


def test_an_organiser_of_another_event_is_forbidden(client, drawn, outsider, make_event):
    event, teams = drawn
    make_event().organisers.add(outsider)
    client.force_login(outsider)
    match = real_match(event)
    for url in organiser_urls(event, teams[0], match):
        assert client.get(url).status_code == 403, url
    for url in post_urls(event, teams[0], match):
        assert client.post(url).status_code == 403, url
    assert TeamMatch.objects.get(pk=match.pk).started_at is None


def test_logged_out_goes_to_login(client, drawn):
    event, teams = drawn
    for url in organiser_urls(event, teams[0], real_match(event)):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url


def test_other_kinds_of_event_are_not_found_here(client, make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    client.force_login(organiser)
    assert client.get(reverse("teams_organiser:overview", args=[event.slug])).status_code == 404


def test_wrong_ids_are_not_found(client, drawn, organiser, make_event):
    event, _teams = drawn
    other = team_event(make_event)
    stranger = add_team(other, "Muualla")
    client.force_login(organiser)
    assert client.get(reverse("teams_organiser:team", args=[event.slug, stranger.pk])).status_code == 404
    bye = TeamMatch.objects.filter(event=event, team_b__isnull=True).first()
    assert client.get(reverse("teams_organiser:match", args=[event.slug, bye.pk])).status_code == 404


def team_post(name, home, pairs, **extra) -> dict:
    """``pairs``: three items, each (player, player[, club]) or an entered Pair."""
    data = {"name": name, "club": home.pk, "leader_name": "Liisa Johtaja"}
    for k, spec in enumerate(pairs, start=1):
        if isinstance(spec, tuple):
            data[f"pair{k}_player1"], data[f"pair{k}_player2"] = spec[0].pk, spec[1].pk
            if len(spec) == 3:
                data[f"pair{k}_club"] = spec[2].pk
        else:
            data[f"pair{k}"] = spec.pk
    data.update(extra)
    return data


def test_adding_teams_through_the_page(client, make_event, organiser):
    event = team_event(make_event, organiser)
    home, other = club("Kemin Kasat"), club("Oulun Tuppi")
    p = players(6, home)
    q = players(4, other)
    client.force_login(organiser)
    overview = reverse("teams_organiser:overview", args=[event.slug])
    url = reverse("teams_organiser:team_new", args=[event.slug])
    assert f'href="{url}"' in client.get(overview).content.decode()
    response = client.post(
        url, team_post("Kasat", home, [(p[0], p[1]), (p[2], p[3]), (q[0], q[1])], substitute=p[4].pk)
    )
    assert response.status_code == 302, page_messages(response.content.decode())
    team = Team.objects.get(event=event, name="Kasat")
    assert team.reinforcements == 1 and not team.title_only and team.substitute == p[4]
    # an entered pair, and a second outside pair marked by the club select: title only
    (entered,) = add_pairs(event, 1, club_list=[other])
    data = team_post("Kasat II", home, [entered, (q[2], q[3]), (p[4], p[5], other)])
    response = client.post(url, data)
    assert response.status_code == 200  # p[4] is Kasat's substitute: refused
    assert any("varamies" in e for e in response.context["form"].non_field_errors())
    data = team_post("Kasat II", home, [entered, (q[2], q[3]), (p[5], players(1, home)[0], other)])
    assert client.post(url, data).status_code == 302
    second = Team.objects.get(name="Kasat II")
    assert second.title_only
    html = client.get(overview).content.decode()
    assert "vain mestaruus" in html


def test_adding_a_team_refuses_half_a_pair(client, make_event, organiser):
    event = team_event(make_event, organiser)
    p = players(5)
    client.force_login(organiser)
    url = reverse("teams_organiser:team_new", args=[event.slug])
    data = team_post("Vajaa", club("K"), [(p[0], p[1]), (p[2], p[3]), (p[4], p[4])])
    response = client.post(url, data)
    assert response.status_code == 200 and not Team.objects.exists()
    assert response.context["form"].errors


def test_the_draw_through_the_page(client, make_event, organiser):
    event = team_event(make_event, organiser)
    for i in range(6):
        add_team(event, f"J{i}")
    client.force_login(organiser)
    url = reverse("teams_organiser:draw", args=[event.slug])
    response = client.post(url, {"seed": "4242"}, follow=True)  # the box naming what the draw locks, unticked
    assert "Vahvista toiminto rastilla: mitään ei muutettu." in page_messages(response.content.decode())
    event.refresh_from_db()
    assert event.drawn_at is None and not TeamMatch.objects.filter(event=event).exists()
    response = client.post(url, {"seed": "4242", "sure": "1"})
    assert response.status_code == 302 and response["Location"] == reverse(
        "teams_organiser:rounds", args=[event.slug]
    )
    event.refresh_from_db()
    assert event.draw_seed == 4242 and event.drawn_by == organiser
    assert TeamMatch.objects.filter(event=event, round=1).count() == 4
    response = client.post(url, {"seed": "1", "sure": "1"}, follow=True)
    assert any("vain kerran" in m for m in page_messages(response.content.decode()))
    html = client.get(reverse("teams_organiser:overview", args=[event.slug])).content.decode()
    assert "siemen 4242" in html and "Lisää joukkue" not in html


def test_rounds_desk_start_and_match_page(client, drawn, organiser):
    event, _teams = drawn  # 5 teams: 8 places, byes in slots 1, 3, 4; (1, 2) is the only real match
    client.force_login(organiser)
    desk = reverse("teams_organiser:rounds", args=[event.slug])
    html = client.get(desk).content.decode()
    assert "Ohitusvuorot" in html and "Aloita kierros 1 (Puolivälierät)" in html
    r = real_match(event)
    declare(r, r.team_a)
    start_url = reverse("teams_organiser:start_round", args=[event.slug, 1])
    response = client.post(start_url, {"sure": "1"}, follow=True)
    assert any("Odottaa järjestyksen" in m for m in page_messages(response.content.decode()))
    match_url = reverse("teams_organiser:match", args=[event.slug, r.pk])
    html = client.get(match_url).content.decode()
    assert "järjestys ilmoitettu" in html and "järjestys ilmoittamatta" in html
    assert reverse("teams:leader", args=[r.team_a.token]) in html  # the links to hand to the leaders
    assert not any(tp.pair.full_name in html for tp in r.team_a.team_pairs.all())  # hidden until both
    declare(r, r.team_b)
    response = client.post(start_url, follow=True)  # unconfirmed: nothing starts
    assert "Vahvista toiminto rastilla: mitään ei muutettu." in page_messages(response.content.decode())
    assert TeamMatch.objects.get(pk=r.pk).started_at is None
    response = client.post(start_url, {"sure": "1"}, follow=True)
    assert "1 joukkueottelu alkoi." in page_messages(response.content.decode())
    html = client.get(match_url).content.decode()
    links = r.pair_links.order_by("order")
    assert links.count() == 3
    for link in links:
        assert reverse("organiser:match", args=[event.slug, link.match_id]) in html
    pdf = client.get(reverse("teams_organiser:match_sheets", args=[event.slug, r.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(pdf.content)).pages) == 3


def test_sheets_pdf_needs_a_started_match(client, drawn, organiser):
    event, _teams = drawn
    client.force_login(organiser)
    r = real_match(event)
    assert client.get(reverse("teams_organiser:match_sheets", args=[event.slug, r.pk])).status_code == 404


def test_start_and_cancel_one_match(client, drawn, organiser):
    event, _teams = drawn
    client.force_login(organiser)
    r = real_match(event)
    declare(r, r.team_a)
    declare(r, r.team_b)
    start_url = reverse("teams_organiser:start_match", args=[event.slug, r.pk])
    cancel_url = reverse("teams_organiser:cancel_start", args=[event.slug, r.pk])
    client.post(start_url)
    assert TeamMatch.objects.get(pk=r.pk).started_at is None  # not confirmed
    client.post(start_url, {"sure": "1"})
    assert TeamMatch.objects.get(pk=r.pk).started_at is not None
    client.post(cancel_url)
    assert TeamMatch.objects.get(pk=r.pk).started_at is not None  # not confirmed
    client.post(cancel_url, {"sure": "1"})
    assert TeamMatch.objects.get(pk=r.pk).started_at is None
    assert TeamOrder.objects.filter(team_match=r).count() == 2


def test_moving_a_round_to_another_day(client, drawn, organiser):
    event, _teams = drawn
    client.force_login(organiser)
    client.post(
        reverse("teams_organiser:round_day", args=[event.slug, 2]), {"day": event.ends_on.isoformat()}
    )
    assert TeamRound.objects.get(event=event, number=2).day == event.ends_on
    response = client.post(
        reverse("teams_organiser:round_day", args=[event.slug, 2]), {"day": "2030-01-01"}, follow=True
    )
    assert any("kisan päivä" in m for m in page_messages(response.content.decode()))


def test_substitute_from_the_team_page(client, drawn, organiser):
    event, teams = drawn
    client.force_login(organiser)
    (free,) = players(1)
    page = reverse("teams_organiser:team", args=[event.slug, teams[0].pk])
    html = client.get(page, {"haku": free.last_name}).content.decode()
    assert free.full_name in html
    client.post(reverse("teams_organiser:substitute", args=[event.slug, teams[0].pk]), {"player": free.pk})
    assert Team.objects.get(pk=teams[0].pk).substitute == free
    response = client.post(
        reverse("teams_organiser:substitute", args=[event.slug, teams[1].pk]),
        {"player": free.pk},
        follow=True,
    )
    assert any("varamies" in m for m in page_messages(response.content.decode()))
    client.post(
        reverse("teams_organiser:substitute", args=[event.slug, teams[0].pk]), {"action": "clear_substitute"}
    )
    assert Team.objects.get(pk=teams[0].pk).substitute is None


def test_deleting_a_team_before_the_draw(client, make_event, organiser):
    event = team_event(make_event, organiser)
    team = add_team(event, "Poistuva")
    pairs = [tp.pair_id for tp in team.team_pairs.all()]
    client.force_login(organiser)
    url = reverse("teams_organiser:team_delete", args=[event.slug, team.pk])
    html = client.get(reverse("teams_organiser:team", args=[event.slug, team.pk])).content.decode()
    assert "Poistan joukkueen Poistuva" in html  # the confirmation names the team
    client.post(url)
    assert Team.objects.filter(pk=team.pk).exists()  # not confirmed
    client.post(url, {"sure": "1"})
    assert not Team.objects.filter(pk=team.pk).exists()
    assert event.pairs.filter(pk__in=pairs).count() == 3  # the pairs stay entered, free for another team


def test_publishing_the_places(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 2)
    client.force_login(organiser)
    url = reverse("teams_organiser:publish", args=[event.slug])
    response = client.post(url, {"sure": "1"}, follow=True)
    assert any("pelaamatta" in m for m in page_messages(response.content.decode()))
    final = row(event, 1, 1)
    play(final, final.team_b)
    html = client.get(reverse("teams_organiser:rounds", args=[event.slug])).content.decode()
    assert "Julkaise lopputulokset" in html and "ensi kauden joukkuekisan järjestäjä" in html
    # the publish form lists the unconfirmed pair matches, ticked, to confirm in the same step
    ticked = re.findall(r'name="confirm" value="(\d+:\d+)" checked', html)
    assert len(ticked) == len(pair_matches(final)) >= 2
    client.post(url, {"confirm": ticked})  # not ticked "sure": nothing happens
    event.refresh_from_db()
    assert event.finished_at is None
    client.post(url, {"confirm": ticked, "sure": "1"})
    event.refresh_from_db()
    assert event.finished_at is not None


def test_match_page_shows_both_orders_once_declared(client, drawn, organiser):
    event, _teams = drawn
    client.force_login(organiser)
    r = real_match(event)
    start(r)
    html = client.get(reverse("teams_organiser:match", args=[event.slug, r.pk])).content.decode()
    assert all(tp.pair.full_name in html for team in (r.team_a, r.team_b) for tp in team.team_pairs.all())



def test_team_page_shows_the_leaders_link_as_a_qr_code(client, drawn, organiser):
    event, teams = drawn
    client.force_login(organiser)
    html = client.get(reverse("teams_organiser:team", args=[event.slug, teams[0].pk])).content.decode()
    link = "http://testserver" + reverse("teams:leader", args=[teams[0].token])
    assert link in html
    # the QR code is an inline SVG: render it and read it back, as a leader's phone camera would
    data_uri = html_unescape(re.search(r'class="leader-qr" src="([^"]+)"', html).group(1))
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "qr.pdf"
        HTML(string=f'<img style="width: 60mm" src="{data_uri}">').write_pdf(pdf)
        subprocess.run(["pdftoppm", "-r", "150", "-png", str(pdf), str(Path(tmp) / "p")], check=True)
        image = Image.open(next(Path(tmp).glob("p*.png")))
        assert [r.text for r in zxingcpp.read_barcodes(image)] == [link]


def test_the_team_events_overview_describes_its_own_format(client, make_event, organiser):
    """Issue #25: not the pair event's "kaksipäiväinen (alkulohkot ja sunnuntai)"."""
    event = team_event(make_event, organiser)
    client.force_login(organiser)
    html = client.get(reverse("organiser:event", args=[event.slug])).content.decode()
    assert "pudotuspelikaavio (cup-systeemi), sijat 1–4 pelataan" in html
    assert "kaksipäiväinen" not in html and "alkulohkot ja sunnuntai" not in html
