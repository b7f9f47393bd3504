"""The digital scoresheet (*pöytäkirja*): deals entered one by one, what the sheet shows after each, the end
of the match, corrections recomputed through the engine, invalid deals refused. Every test runs twice: at
the organiser's URL (logged in) and through the match's secret link (logged out).

Expected figures are worked out by hand from RULES.md §1–3 in the comments; a rami "A 10" is called by
pair A (seat 1) and A took 10 tricks of 13.
"""

from __future__ import annotations

import pytest

from tests.support.results_helpers import (
    early,
    enter,
    input_value,
    link_url,
    nolo,
    one_group_event,
    organiser_url,
    page_messages,
    post_line,
    rami,
    sheet_lines,
    sheet_totals,
    status_text,
)
from tournaments.models import Entry, Match, ResultChange

# A 12-deal match that ends on points (RULES.md §3), thirteen deals in all:
#  1 rami A 10: A wins 4 × (10 − 6) = 16, A up 16      2 rami A 10: A up 16 + 16 = 32
#  3 rami B 7: B wins 4, A falls at 32 (table)          4 rami B 7: B up 4
#  5 rami A 7: B falls at 4                              6 rami A 7: A up 4
#  7 rami B 7: A falls at 4                              8 rami B 7: B up 4
#  9 rami A 7: B falls at 4                             10 rami A 7: A up 4
# 11 rami B 7: A falls at 4                             12 rami B 7: B up 4, twelve deals played but a
# rise is running, so play goes on (*kesken oleva nousu pelataan loppuun*)
# 13 rami A 7: B falls at 4; at the table after 12+ deals: totals A 32 + 4 + 4 = 40, B 4 + 4 + 4 = 12.
# A wins; 40 is not over the 12-deal threshold 48, so a points win 3–2.
POINTS_WIN = [
    rami("A", 10),
    rami("A", 10),
    rami("B", 7),
    rami("B", 7),
    rami("A", 7),
    rami("A", 7),
    rami("B", 7),
    rami("B", 7),
    rami("A", 7),
    rami("A", 7),
    rami("B", 7),
    rami("B", 7),
    rami("A", 7),
]


@pytest.fixture(params=["organiser", "link"])
def setup(request, make_event, organiser, client):
    event, group, pairs = one_group_event(make_event, organiser, 5)  # a group of 5: 12 deals a match
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    assert match.deals_planned == 12
    if request.param == "link":
        return event, match, link_url(match)
    client.force_login(organiser)
    return event, match, organiser_url(match)


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_each_deal_shows_points_and_both_rise_columns(client, setup):
    event, match, url = setup
    enter(client, url, match, [rami("A", 10)])
    html = page(client, url)
    # rami made by A with 10 tricks: 4 × (10 − 6) = 16 to A, who is up 16
    assert sheet_lines(html) == [["1", "R", "1", "10–3", "16 A", "16", ""]]
    assert match.pair_a.name + " nousulla 16" in status_text(html)

    enter(client, url, match, [nolo(9)])
    html = page(client, url)
    # nolo, A took 9 tricks: B (fewer tricks) wins 4 × (9 − 6) = 12; A was up, so A falls at 16 and B
    # scores nothing (RULES.md §2): both rise columns empty, the table
    assert sheet_lines(html)[1] == ["2", "N", "", "9–4", "12 B", "", ""]
    assert sheet_totals(html) == ("16", "0")
    assert "pöytäpeli" in status_text(html)

    enter(client, url, match, [rami("B", 8, seat=4)])
    html = page(client, url)
    # rami called from seat 4 (pair B), B took 8: 4 × 2 = 8, B up 8 from the table
    assert sheet_lines(html)[2] == ["3", "R", "4", "5–8", "8 B", "", "8"]
    assert sheet_totals(html) == ("16", "8")
    assert match.pair_b.name + " nousulla 8" in status_text(html)
    assert list(Entry.objects.filter(match=match).values_list("position", "tricks_a", "tricks_b")) == [
        (1, 10, 3),
        (2, 9, 4),
        (3, 5, 8),
    ]
    match.refresh_from_db()
    assert match.status == "playing" and match.version == 3


def test_points_win_3_2_after_the_running_rise_ends(client, setup):
    event, match, url = setup
    enter(client, url, match, POINTS_WIN[:12])
    html = page(client, url)
    # twelve deals played, B up 4: not over yet, the form is still there
    assert "Jakoja pelattu 12/12" in status_text(html) and 'name="tricks_a"' in html
    enter(client, url, match, POINTS_WIN[12:])
    html = page(client, url)
    assert sheet_totals(html) == ("40", "12")
    status = status_text(html)
    assert f"{match.pair_a.name} voitti" in status and "tupilla" not in status
    assert "ottelupisteet 3–2" in status and "nousupisteet 40–12" in status
    # finished: no form for a next deal
    assert "Kirjaa seuraava jako" not in html and 'name="tricks_a"' not in html
    match.refresh_from_db()
    assert match.status == "finished"


def test_overwhelming_win_4_1_over_the_threshold(client, setup):
    event, match, url = setup
    lines = list(POINTS_WIN)
    # deal 2 a rami made with all 13 tricks: 4 × 7 = 28, A up 16 + 28 = 44 (under 52), falls at 44;
    # A's total 44 + 4 + 4 = 52 > 48 (12 deals): an overwhelming points win, 4–1
    lines[1] = rami("A", 13)
    enter(client, url, match, lines)
    status = status_text(page(client, url))
    assert "ottelupisteet 4–1" in status and "nousupisteet 52–12" in status


def test_nalsytuppi_from_the_table_ends_the_match_5_0(client, setup):
    event, match, url = setup
    # 1 rami A 9: A up 4 × 3 = 12;   2 rami B 8: B wins 8, A falls at 12, the table
    # 3 rami called by A from seat 3, A took no trick: nälsytuppi, 8 × (13 − 6) = 56 to B from the table,
    #   56 ≥ 52: tuppi at once, B wins 5–0, totals A 12, B 56
    enter(client, url, match, [rami("A", 9), rami("B", 8), rami("A", 0, seat=3)])
    html = page(client, url)
    assert sheet_lines(html)[2] == ["3", "R ry", "3", "0–13", "56 B", "", "56"]
    assert 'class="ended-tuppi"' in html
    status = status_text(html)
    assert f"{match.pair_b.name} voitti tupilla" in status
    assert "ottelupisteet 0–5" in status and "nousupisteet 12–56" in status
    assert 'name="tricks_a"' not in html
    match.refresh_from_db()
    assert match.status == "finished"
    # nothing may follow the end: a further line is refused with the engine's reason, and not stored
    response = post_line(client, url, nolo(3), match=match)
    assert response.status_code == 200
    assert "Ottelu päättyi jo jakoon 3: sen jälkeen ei voi kirjata mitään." in page_messages(
        response.content.decode()
    )
    assert match.entries.count() == 3


def test_nalsytuppi_on_the_first_deal(client, setup):
    event, match, url = setup
    # B calls rami (seat 2) and takes nothing: 56 to A from the table, tuppi after one deal, 5–0
    enter(client, url, match, [rami("B", 0)])
    status = status_text(page(client, url))
    assert f"{match.pair_a.name} voitti tupilla" in status and "ottelupisteet 5–0" in status


def test_early_stop_that_makes_the_up_pair_fall_is_accepted(client, setup):
    event, match, url = setup
    # A up 12 (rami A 9); then B's rami from seat 4 stopped at 0–7: B wins 4 × 1 = 4 and A falls (rule 6.5)
    enter(client, url, match, [rami("A", 9), early("rami", 0, 7, seat=4)])
    html = page(client, url)
    assert sheet_lines(html)[1] == ["2", "R k", "4", "0–7", "4 B", "", ""]
    assert sheet_totals(html) == ("12", "0")


def test_penalty_lines(client, setup):
    event, match, url = setup
    # A up 12; 28 penalty points to B (deal errors): as a deal won by B, A falls at 12 (RULES.md §3);
    # the penalty has no deal number, so the next deal is deal 2
    enter(client, url, match, [rami("A", 9), {"kind": "points", "pair": "B", "points": 28}, nolo(4)])
    lines = sheet_lines(page(client, url))
    assert lines[1] == ["–", "P", "", "", "28 B", "", ""]
    # nolo, A took 4: A wins 4 × (9 − 6) = 12 from the table
    assert lines[2] == ["2", "N", "", "4–9", "12 A", "12", ""]
    # a nolo in which the referee gave B the remaining tricks (rules 4.6–4.8): marked *, scored as recorded,
    # 3–10: A (fewer tricks) wins 4 × (10 − 6) = 16 and was up 12, so A is up 28
    enter(client, url, match, [{**nolo(3), "penalised": "on"}])
    assert sheet_lines(page(client, url))[3] == ["3", "N *", "", "3–10", "16 A", "28", ""]
    # signalling: B is put in the tuppi, A wins 5–0 with the totals as they stand (A 12 + 28 = 40)
    enter(client, url, match, [{"kind": "tuppi", "pair": "A"}])
    status = status_text(page(client, url))
    assert "ottelupisteet 5–0" in status and "nousupisteet 40–0" in status
    assert Entry.objects.get(match=match, position=4).penalised


def test_forfeit_line(client, setup):
    event, match, url = setup
    # B up 8 (rami B 8), then A forfeits: B wins by tuppi 5–0, totals as they stood, 0–8 (Decision, §3)
    enter(client, url, match, [rami("B", 8), {"kind": "forfeit", "pair": "A"}])
    html = page(client, url)
    assert sheet_lines(html)[1][:2] == ["–", "L"]
    status = status_text(html)
    assert f"{match.pair_b.name} voitti tupilla" in status and "ottelupisteet 0–5" in status
    assert "nousupisteet 0–8" in status


def test_level_totals_call_for_a_deciding_deal(client, setup):
    event, match, url = setup
    # six rises of 4 that each fall at once: A 4 (deals 1–2), B 4 (3–4), A, B, A, B: after deal 12 the
    # game is at the table and the totals are level, 12–12, so one more deal decides (RULES.md §3)
    level = [rami("A", 7), rami("B", 7), rami("B", 7), rami("A", 7)] * 3
    enter(client, url, match, level)
    html = page(client, url)
    assert sheet_totals(html) == ("12", "12")
    assert "seuraava jako ratkaisee" in status_text(html) and 'name="tricks_a"' in html
    # deal 13: B's rami with 8 tricks, 8 points: B wins the match; Decision: its points count, 12–20, 3–2
    enter(client, url, match, [rami("B", 8)])
    html = page(client, url)
    status = status_text(html)
    assert (
        f"{match.pair_b.name} voitti" in status
        and "ottelupisteet 2–3" in status
        and "nousupisteet 12–20" in status
    )
    assert "seuraava jako ratkaisee" not in status and 'name="tricks_a"' not in html


def test_correction_recomputes_the_lines_after_it(client, setup, organiser):
    event, match, url = setup
    enter(client, url, match, POINTS_WIN)
    assert "ottelupisteet 3–2" in status_text(page(client, url))
    html = page(client, url + "?muokkaa=2")
    # the correction form holds line 2 as stored
    assert '<h2 id="lomake-otsikko">Korjaa rivi 2</h2>' in html and f'action="{url}rivi/2/"' in html
    assert input_value(html, "game") == "rami" and input_value(html, "tricks_a") == "10"
    # line 2 becomes a rami made with 13 tricks: A up 16 + 28 = 44, falls at 44 on line 3; totals 52–12, 4–1
    response = post_line(client, url, rami("A", 13), match=match, position=2)
    assert response.status_code == 302
    html = page(client, url)
    lines = sheet_lines(html)
    assert lines[1] == ["2", "R", "1", "13–0", "28 A", "44", ""]
    assert lines[2] == ["3", "R", "2", "6–7", "4 B", "", ""]
    assert "ottelupisteet 4–1" in status_text(html) and "nousupisteet 52–12" in status_text(html)
    assert match.entries.count() == 13
    change = ResultChange.objects.filter(match=match).first()  # the newest
    assert change.action == "edit"
    assert (change.user, change.via_link) == ((None, True) if "/tulos/" in url else (organiser, False))
    assert change.before["entries"][1]["tricks_a"] == 10 and change.after["entries"][1]["tricks_a"] == 13


def test_correction_that_ends_the_match_earlier_is_refused(client, setup):
    event, match, url = setup
    lines = list(POINTS_WIN)
    lines[1] = rami("A", 13)  # deals 1–2: A up 16 + 28 = 44
    enter(client, url, match, lines)
    match.refresh_from_db()
    version, changes = match.version, ResultChange.objects.count()
    stored = list(match.entries.values_list("position", "game", "caller_seat", "tricks_a", "tricks_b"))
    # line 1 corrected to 13 tricks: 28 + 28 = 56 on deal 2, tuppi, so lines 3–13 would follow the end
    response = post_line(client, url, rami("A", 13), match=match, position=1)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ottelu päättyi jo jakoon 2: sen jälkeen ei voi kirjata mitään." in page_messages(html)
    # the typed correction is still in the form, still as a correction of line 1
    assert '<h2 id="lomake-otsikko">Korjaa rivi 1</h2>' in html and f'action="{url}rivi/1/"' in html
    assert input_value(html, "tricks_a") == "13" and input_value(html, "caller_seat") == "1"
    # nothing changed
    match.refresh_from_db()
    assert match.version == version and ResultChange.objects.count() == changes
    assert (
        list(match.entries.values_list("position", "game", "caller_seat", "tricks_a", "tricks_b")) == stored
    )
    assert "ottelupisteet 4–1" in status_text(page(client, url))


def test_delete_last_line(client, setup):
    event, match, url = setup
    enter(client, url, match, [rami("A", 9), nolo(4)])
    match.refresh_from_db()
    response = client.post(url + "poista-viimeinen/", {"version": match.version})
    assert response.status_code == 302
    assert list(match.entries.values_list("position", flat=True)) == [1]
    assert sheet_totals(page(client, url)) == ("12", "0")


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        # an early stop with both counts: 7 + 7 = 14 tricks
        (early("nolo", 7, 7), "Rivin 1 kasat ovat yhteensä 14: jaossa on vain 13 kasaa."),
        # 7–2 from the table: it makes nobody fall and 4 points reach no tuppi (RULES.md §2)
        (
            early("nolo", 7, 2),
            "Rivi 1: jako, jossa on 9 kasaa, hyväksytään vain, jos se pudottaa nousussa olevan parin tai "
            "päättyy tuppiin. Muuten jako pelataan loppuun (13 kasaa).",
        ),
        # 5–3: nobody has seven tricks
        (
            early("rami", 5, 3, seat=1),
            "Rivillä 1 on vain 8 kasaa: jaon voi lopettaa kesken vasta, kun toisella parilla on 7 kasaa.",
        ),
    ],
)
def test_invalid_deal_is_refused_with_the_reason_and_kept_in_the_form(client, setup, line, reason):
    event, match, url = setup
    response = post_line(client, url, line, match=match)
    assert response.status_code == 200
    html = response.content.decode()
    assert reason in page_messages(html)
    assert input_value(html, "game") == line["game"]
    assert input_value(html, "tricks_a") == str(line["tricks_a"])
    assert input_value(html, "tricks_b") == str(line["tricks_b"])
    assert input_value(html, "early") == "on"
    assert match.entries.count() == 0 and ResultChange.objects.count() == 0
    match.refresh_from_db()
    assert match.version == 0 and match.status == "scheduled"


def test_rami_without_caller_is_refused(client, setup):
    event, match, url = setup
    response = post_line(client, url, {"kind": "deal", "game": "rami", "tricks_a": 9}, match=match)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Valitse ramaajan paikka." in html
    assert input_value(html, "game") == "rami" and input_value(html, "tricks_a") == "9"
    assert match.entries.count() == 0


def test_tricks_out_of_range_refused_by_the_form(client, setup):
    event, match, url = setup
    response = post_line(client, url, nolo(14), match=match)
    assert response.status_code == 200 and input_value(response.content.decode(), "tricks_a") == "14"
    assert match.entries.count() == 0


def test_invalid_later_line_after_valid_ones_keeps_the_sheet(client, setup):
    event, match, url = setup
    enter(client, url, match, [rami("A", 9)])
    # A up 12; a short deal won by A (A keeps rising, 12 + 4 = 16 < 52) is not an allowed early stop
    response = post_line(client, url, early("rami", 7, 0, seat=1), match=match)
    assert "Rivi 2: jako, jossa on 7 kasaa" in " ".join(page_messages(response.content.decode()))
    assert match.entries.count() == 1
    assert sheet_lines(response.content.decode()) == [["1", "R", "1", "9–4", "12 A", "12", ""]]
