"""PDF printouts: what each holds (read back with pdftotext), page counts, embedded fonts, the QR code
that opens the match's scoresheet, and who may print what."""

from __future__ import annotations

import io
import re
import subprocess
import tempfile
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
import zxingcpp
from django.core.management import call_command
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from cup.models import CupEvent, SeasonCupSettings
from tests.support.builders import add_pairs
from tests.support.results_helpers import rami, store
from tournaments.actions import draw
from tournaments.actions import results as result_actions
from tournaments.models import Event, Match
from tournaments.readmodel import build


# Printouts carry dates ("1.12.2026 · …"): every test here runs on the 1st, the 10th and the 31st of a
# month, so nothing may find a place, a round or a page by a prefix that a date can share.
@pytest.fixture(autouse=True, params=["2026-12-01 09:00", "2027-03-10 12:00", "2026-12-31 18:00"])
def on_day(request, clock):
    clock.set(request.param)
    return request.param


def text_of(pdf: bytes) -> str:
    result = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True)
    return result.stdout.decode()


def pages_of(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def first_page_png(pdf: bytes) -> Image.Image:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.pdf"
        src.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", "110", "-f", "1", "-l", "1", "-png", str(src), str(Path(tmp) / "p")], check=True)
        png = next(Path(tmp).glob("p*.png"))
        return Image.open(png).copy()


@pytest.fixture
def drawn(make_event, organiser):
    event = make_event(name="Kemin Kevättuppi", slug="kevattuppi", venue="Pursiseuran maja")
    event.organisers.add(organiser)
    add_pairs(event, 20)
    draw.draw_groups(event, organiser, seed=3)
    event.refresh_from_db()
    return event


def round_url(event, stage="alkulohkot", number=1):
    return reverse("organiser:round_sheets", args=[event.slug, stage, number])


@pytest.mark.slow
def test_round_scoresheets_only_for_organisers(client, drawn, organiser, outsider):
    assert client.get(round_url(drawn)).status_code == 302
    client.force_login(outsider)
    assert client.get(round_url(drawn)).status_code == 403
    client.force_login(organiser)
    response = client.get(round_url(drawn))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


@pytest.mark.slow
def test_round_scoresheets_one_page_a_match(client, drawn, organiser):
    client.force_login(organiser)
    pdf = client.get(round_url(drawn)).content
    matches = Match.objects.filter(event=drawn, round=1).order_by("table")
    assert pages_of(pdf) == matches.count()  # 4 groups of 3 and 4 of 2: 4 + 4 matches in round 1
    text = text_of(pdf)
    assert "Pöytäkirja" in text and "Kemin Kevättuppi" in text
    for match in matches:
        for player in match.pair_a.players + match.pair_b.players:
            assert player.full_name in text
    assert "Tuomari" in text and "Nousupisteet yhteensä" in text
    assert f"sivu 1 / {matches.count()}" in text


@pytest.mark.slow
def test_a_played_sheet_marks_a_robbery_and_explains_its_marks(client, drawn, organiser):
    """Issue #18.1: the printed sheet carries the marks the screen shows (a robbed rami: "ry") and a legend
    of every letter and mark, not only R and N."""
    match = Match.objects.filter(event=drawn, round=1).order_by("table").first()
    store(match, [rami("B", 0)])  # pair A robs B's rami: a nälsytuppi, 56 to A
    client.force_login(organiser)
    lines = text_of(client.get(round_url(drawn)).content).splitlines()
    deal = next(line for line in lines if re.match(r"\s*1\s+R\s", line))
    assert re.search(r"\b56 A ry\b", deal), deal
    text = " ".join(" ".join(lines).split())
    for words in ("R rami", "N nolo", "ry ryöstö: puolustajat voittivat ramin", "k jako lopetettiin kesken",
                  "r yksi jako voitosta"):
        assert words in text, words


def test_fonts_are_embedded(client, drawn, organiser):
    client.force_login(organiser)
    reader = PdfReader(io.BytesIO(client.get(round_url(drawn)).content))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    for ref in fonts.values():
        descriptor = ref.get_object()["/FontDescriptor"] if "/FontDescriptor" in ref.get_object() else None
        if descriptor is None:  # a composite font keeps it in its descendant
            descriptor = ref.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        descriptor = descriptor.get_object()
        assert any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def test_qr_code_opens_the_match(client, drawn, organiser):
    client.force_login(organiser)
    match = Match.objects.filter(event=drawn, round=1).order_by("table").first()
    pdf = client.get(reverse("organiser:match_sheet", args=[drawn.slug, match.pk])).content
    assert pages_of(pdf) == 1
    codes = [r.text for r in zxingcpp.read_barcodes(first_page_png(pdf))]
    assert codes == ["http://testserver" + reverse("link:sheet", args=[match.token])]


def test_played_match_prints_filled_in(client, drawn, organiser):
    match = Match.objects.filter(event=drawn, round=1).first()
    actor = result_actions.Actor(user=organiser)
    # B's caller (seat 2) makes rami 9–4: 12 to B; then A's caller takes no trick: 56 more, tuppi at 68.
    result_actions.add_entry(match, result_actions.EntryData(kind="deal", game="rami", caller_seat=2, tricks_a=4, tricks_b=9), version=0, actor=actor)
    result_actions.add_entry(match, result_actions.EntryData(kind="deal", game="rami", caller_seat=1, tricks_a=0, tricks_b=13), version=1, actor=actor)
    client.force_login(organiser)
    text = text_of(client.get(reverse("organiser:match_sheet", args=[drawn.slug, match.pk])).content)
    assert "12 B" in text and "56 B" in text and "68" in text
    assert "Ottelupisteet (tuppi)" in text


def test_unknown_stage_or_round_is_404(client, drawn, organiser):
    client.force_login(organiser)
    assert client.get(round_url(drawn, "keskiviikko", 1)).status_code == 404
    assert client.get(round_url(drawn, "alkulohkot", 9)).status_code == 404


def test_draw_chart_is_public(client, drawn):
    pdf = client.get(reverse("draw_chart_pdf", args=[drawn.slug])).content
    text = text_of(pdf)
    assert "arvontakaavio" in text and str(drawn.draw_seed) in text
    for name in "ABCDEFGH":
        assert f"Lohko {name}" in text
    for pair in drawn.pairs.all():
        assert pair.players[0].full_name in text


@pytest.fixture
def weekend(db):
    out = StringIO()
    call_command("simulate_event", "--pairs", "40", "--seed", "12", stdout=out)
    return Event.objects.get(slug=out.getvalue().split()[-1])


def results_rows(text: str) -> list[list[str]]:
    """The results table of the results list, a list of cells per row: the lines after the table's
    header ("Sija  Pelaajat  Kerho  Cup-pisteet / pelaaja") that open with a place ("1.", "17.–20."), cut into
    the place and the other columns (at two or more spaces)."""
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["Sija", "Pelaajat"])
    rows = []
    for line in lines[header + 1 :]:
        found = re.match(r"\s*(\d+\.(?:–\d+\.)?)\s+(\S.*)$", line)
        if found:
            rows.append([found[1], *re.split(r"\s{2,}", found[2].strip())])
    return rows


def weekend_labels(places: list[int]) -> list[str]:
    """Places as the list prints them: a place n pairs share as "17.–20." (RULES.md §5), a lone one "5."."""
    return [f"{p}." if places.count(p) == 1 else f"{p}.–{p + places.count(p) - 1}." for p in places]


@pytest.mark.slow
def test_results_list_and_tables(client, weekend, on_day):
    CupEvent.objects.create(event=weekend, weight=1)  # a counted cup event (RULES.md §8)
    places = build.build(weekend.pk).final_places
    text = text_of(client.get(reverse("results_pdf", args=[weekend.slug])).content)
    assert weekend.starts_on.strftime("%-d.%-m.%Y") in text  # the date line is there, above the table
    rows = results_rows(text)
    assert [row[0] for row in rows] == weekend_labels([place for place, _pair in places])
    first = weekend.pairs.get(pk=places[0][1])
    assert "tulosluettelo" in text
    assert rows[0][1:3] == [first.full_name, first.club.name]
    # RULES.md §8: 1st place 25 cup points, 16th 1, the 17th none
    assert rows[0][-1] == "25" and rows[15][0] == "16." and rows[15][-1] == "1"
    assert len(rows[16]) == 3  # place, players, club: no points column value
    tables = text_of(client.get(reverse("group_tables_pdf", args=[weekend.slug])).content)
    assert "Lohko A" in tables and "Lohko 1" in tables and "Ratkaisi" in tables
    bracket = text_of(client.get(reverse("bracket_pdf", args=[weekend.slug])).content)
    assert "Sijat 1.–4." in bracket and "Sijat 13.–16." in bracket and "Loppuottelu" in bracket


@pytest.mark.slow
def test_results_list_takes_its_cup_points_from_the_cup(client, weekend):
    """The printed results list gives the points the cup gives: none for an event the cup does not count,
    halves for a summer event (weight ½), and the season's own points table."""
    def cells():
        return results_rows(text_of(client.get(reverse("results_pdf", args=[weekend.slug])).content))

    not_counted = cells()
    assert all(len(row) == 3 for row in not_counted)  # place, players, club: no points at all
    assert "Kisaa ei lasketa kauden cupiin" in text_of(client.get(reverse("results_pdf", args=[weekend.slug])).content)
    counted = CupEvent.objects.create(event=weekend, weight=Decimal("0.5"))
    assert [row[-1] for row in cells()[:3]] == ["12,5", "11", "10"]  # 25, 22, 20 halved
    SeasonCupSettings.objects.create(season=weekend.season, points=[30, 20, 10])
    counted.weight = 1
    counted.save()
    rows = cells()
    assert [row[-1] for row in rows[:3]] == ["30", "20", "10"] and len(rows[3]) == 3


def test_printouts_page_lists_every_round(client, drawn, organiser, outsider):
    url = reverse("organiser:printouts", args=[drawn.slug])
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    html = client.get(url).content.decode()
    for number in (1, 2, 3):
        assert round_url(drawn, "alkulohkot", number) in html
    assert reverse("results_pdf", args=[drawn.slug]) in html


@pytest.mark.slow
def test_page_footer_keeps_the_title_as_written(client, drawn, organiser):
    # the footer is a CSS string: a hyphen or a quote in the event's name must print as typed
    Event.objects.filter(pk=drawn.pk).update(name='SM-parikisa "Kemi"')
    client.force_login(organiser)
    text = text_of(client.get(round_url(drawn)).content)
    assert 'SM-parikisa "Kemi": kierros 1' in text
    assert "u002D" not in text
