"""The public group page: standings by RULES.md §4 from the pure core, the tie-break that separated tied
pairs, the play-off mark, the cross table, the matches, withdrawn pairs, and live updating."""

from __future__ import annotations

from django.urls import reverse

from tests.support.results_helpers import (
    finish,
    one_group_event,
    paper,
    standings_table,
    table_row_classes,
    table_rows,
    tie_group,
    won,
)
from tournaments.actions import draw, entries, results
from tournaments.models import Match, Playoff


def group_url(event, name="A"):
    return reverse("group", args=[event.slug, name])


def get(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_tie_breaks_are_named_next_to_the_tied_pairs(client, make_event, organiser):
    event, group, (p1, p2, p3, p4, p5) = tie_group(make_event, organiser)
    rows = standings_table(get(client, group_url(event)))
    # P1, P2, P3 share rank 1 (12 match points, 3 wins, 160 each) and need a play-off, listed by pair id;
    # P4 and P5 have 7 each, P4 ahead by their mutual match
    assert [(r[0], r[1].split(" TK")[0], r[2], r[3], r[4], r[5]) for r in rows] == [
        ("1.", p1.name, "12", "3", "160", "uusinta tarvitaan"),
        ("1.", p2.name, "12", "3", "160", "uusinta tarvitaan"),
        ("1.", p3.name, "12", "3", "160", "uusinta tarvitaan"),
        ("4.", p4.name, "7", "1", "76", "keskinäinen ottelu"),
        ("5.", p5.name, "7", "0", "68", "keskinäinen ottelu"),
    ]
    html = get(client, group_url(event))
    assert "Tasan olevat parit pelaavat uusinnan (4 jakoa)." in html
    assert table_row_classes(html, "standings")[1:4] == ["playoff"] * 3


def test_a_recorded_playoff_orders_the_pairs_and_the_mark_disappears(client, make_event, organiser):
    event, group, (p1, p2, p3, p4, p5) = tie_group(make_event, organiser)
    results.record_playoff(group, [p2.pk, p3.pk, p1.pk], user=organiser)
    html = get(client, group_url(event))
    rows = standings_table(html)
    assert [(r[0], r[1].split(" TK")[0], r[5]) for r in rows] == [
        ("1.", p2.name, "uusinta"),
        ("2.", p3.name, "uusinta"),
        ("3.", p1.name, "uusinta"),
        ("4.", p4.name, "keskinäinen ottelu"),
        ("5.", p5.name, "keskinäinen ottelu"),
    ]
    assert "uusinta tarvitaan" not in html and "Tasan olevat parit pelaavat uusinnan" not in html


def test_no_tie_names_no_tie_break(client, make_event, organiser):
    event, group, (p1, p2, p3, p4) = one_group_event(make_event, organiser, 4)  # 16 deals: over 64 is 4–1
    won(p1, p2, 68, 20)  # 68 > 64: 4–1
    won(p2, p3, 40, 20)
    won(p3, p1, 40, 20)
    for p in (p1, p2, p3):
        won(p, p4, 40, 20)
    # match points: P1 4 + 2 + 3 = 9, P3 3 + 2 + 3 = 8, P2 1 + 3 + 3 = 7, P4 2 + 2 + 2 = 6: nobody level
    rows = standings_table(get(client, group_url(event)))
    assert [(r[0], r[1].split(" TK")[0], r[2], r[5]) for r in rows] == [
        ("1.", p1.name, "9", ""),
        ("2.", p3.name, "8", ""),
        ("3.", p2.name, "7", ""),
        ("4.", p4.name, "6", ""),
    ]


def test_totals_then_the_mutual_match_again(client, make_event, organiser):
    event, group, (p1, p2, p3, p4, p5) = one_group_event(make_event, organiser, 5)
    # as tie_group, but P1 beat P4 64–8 instead of 60–8 (still 4–1): P1, P2, P3 level on 12 match points and
    # on their mini table (5 each); totals P1 164, P2 160, P3 160 put P1 first (step 4); P2 and P3 are still
    # level and go back to step 2: P2 beat P3 (Decision, step 4 recursion)
    won(p1, p2, 40, 20)
    won(p2, p3, 40, 20)
    won(p3, p1, 40, 20)
    won(p1, p4, 64, 8)
    won(p1, p5, 40, 20)
    won(p2, p4, 40, 20)
    won(p2, p5, 60, 8)
    won(p3, p4, 60, 8)
    won(p3, p5, 40, 20)
    won(p4, p5, 40, 20)
    rows = standings_table(get(client, group_url(event)))
    assert [(r[0], r[1].split(" TK")[0], r[4], r[5]) for r in rows][:3] == [
        ("1.", p1.name, "164", "nousupisteet"),
        ("2.", p2.name, "160", "keskinäinen ottelu"),
        ("3.", p3.name, "160", "keskinäinen ottelu"),
    ]


def test_three_way_tie_split_by_the_mini_table(client, make_event, organiser):
    event, group, (p1, p2, p3, p4, p5) = one_group_event(make_event, organiser, 5)  # 12 deals: over 48 is 4–1
    # cycle P1 > P2 4–1 (60–20), P2 > P3 3–2, P3 > P1 3–2: mini table P1 4 + 2 = 6, P2 1 + 3 = 4, P3 2 + 3 = 5.
    won(p1, p2, 60, 20)
    won(p2, p3, 40, 20)
    won(p3, p1, 40, 20)
    # against P4 and P5 they make all three level overall: P1 3 + 3, P2 4 + 4, P3 4 + 3 ... = 12, 12, 12
    won(p1, p4, 40, 20)  # 3
    won(p1, p5, 40, 20)  # 3 -> P1 6 + 6 = 12
    won(p2, p4, 60, 8)  # 4
    won(p2, p5, 60, 8)  # 4 -> P2 4 + 8 = 12
    won(p3, p4, 60, 8)  # 4
    won(p3, p5, 40, 20)  # 3 -> P3 5 + 7 = 12
    # P4 beat P5 3–2: P4 2 + 1 + 1 + 3 = 7, P5 2 + 1 + 2 + 2 = 7, P4 ahead on the mutual match
    won(p4, p5, 40, 20)
    rows = standings_table(get(client, group_url(event)))
    # the mini table separates all three: P1 6, P3 5, P2 4 (keskinäiset pelit)
    assert [(r[0], r[1].split(" TK")[0], r[2], r[5]) for r in rows] == [
        ("1.", p1.name, "12", "keskinäiset pelit"),
        ("2.", p3.name, "12", "keskinäiset pelit"),
        ("3.", p2.name, "12", "keskinäiset pelit"),
        ("4.", p4.name, "7", "keskinäinen ottelu"),
        ("5.", p5.name, "7", "keskinäinen ottelu"),
    ]


def test_cross_table_and_matches(client, make_event, organiser):
    event, group, (p1, p2, p3, p4, p5) = tie_group(make_event, organiser)
    html = get(client, group_url(event))
    cross = table_rows(html, "cross")
    # rows in standings order P1..P5; P1 against P2 (column 2): won 3–2 with 40–20; against P3 lost 2–3, 20–40
    header, first = cross[0], cross[1]
    assert header[1:] == ["1", "2", "3", "4", "5"]
    assert first[0] == f"1. {p1.name}"
    assert first[1:] == ["", "3 40–20", "2 20–40", "4 60–8", "3 40–20"]
    # the fixtures: every match with its result
    match = Match.objects.get(pair_a__in=[p4, p5], pair_b__in=[p4, p5])
    expected = "3–2 (40–20)" if match.pair_a_id == p4.pk else "2–3 (20–40)"
    assert expected in html
    assert reverse("match", args=[event.slug, match.pk]) in html


def test_withdrawn_pair_is_not_ranked_and_its_matches_are_struck_through(client, make_event, organiser):
    event, group, (p1, p2, p3, p4, p5) = one_group_event(make_event, organiser, 5)
    won(p1, p2, 40, 20)
    entries.withdraw_pair(p5)  # before finishing its group: all its matches annulled
    html = get(client, group_url(event))
    rows = standings_table(html)
    ranked = [r[1].split(" TK")[0] for r in rows if r[0]]
    assert p5.name not in ranked and len(ranked) == 4
    assert [p5.name, "luopunut, ottelut mitätöity"] in [r[1:3] for r in rows if not r[0]]
    # its four matches are shown, struck through (class annulled), and marked annulled
    assert html.count('class="fixture annulled"') == 4
    assert html.count("mitätöity") >= 4
    # nor is it in the cross table
    assert p5.name not in " ".join(" ".join(r) for r in table_rows(html, "cross"))


def test_pair_withdrawn_after_finishing_its_group_keeps_its_results(client, make_event, organiser):
    event, group, pairs = one_group_event(make_event, organiser, 4)
    for match in Match.objects.filter(event=event):
        paper(match, 40, 20)  # pair A wins every match 3–2
    assert entries.withdraw_pair(pairs[0]) == 0  # nothing annulled (RULES.md §4)
    html = get(client, group_url(event))
    rows = standings_table(html)
    assert len([r for r in rows if r[0]]) == 4 and pairs[0].name in " ".join(r[1] for r in rows)
    assert 'class="fixture annulled"' not in html


def test_polling_while_live_only(client, make_event, organiser):
    event, group, pairs = tie_group(make_event, organiser)
    assert event.status == "live"
    html = get(client, group_url(event))
    assert (
        'hx-trigger="every 5s"' in html
        and f'hx-get="{group_url(event)}"' in html
        and 'hx-select="#live"' in html
    )
    finish(event)
    html = get(client, group_url(event))
    assert "hx-trigger" not in html and "hx-get" not in html


def test_unknown_group_is_404(client, make_event, organiser):
    event, group, pairs = one_group_event(make_event, organiser, 4)
    assert client.get(group_url(event, "Q")).status_code == 404
    assert client.get(reverse("group", args=["ei-ole", "A"])).status_code == 404


def test_playoff_no_longer_fitting_after_a_correction_is_asked_again(client, make_event, organiser):
    event, group, (p1, p2, p3, p4, p5) = tie_group(make_event, organiser)
    Playoff.objects.create(group=group, order=[p2.pk, p3.pk, p1.pk])
    # P4–P5 corrected, P5 now wins 3–2: the P1–P3 play-off still fits, and P5 is ahead of P4 (mutual match)
    match = Match.objects.get(pair_a__in=[p4, p5], pair_b__in=[p4, p5])
    results.clear_paper(match, version=None, actor=results.Actor(user=organiser))
    won(p5, p4, 40, 20)
    rows = standings_table(get(client, group_url(event)))
    assert [r[1].split(" TK")[0] for r in rows] == [p2.name, p3.name, p1.name, p5.name, p4.name]
    # P1–P2 corrected so that P1 wins 4–1 (60–20): P1 13, P3 12, P2 11 match points, nobody level; the
    # recorded play-off no longer fits a tie and is set aside rather than breaking the page
    match = Match.objects.get(pair_a__in=[p1, p2], pair_b__in=[p1, p2])
    results.clear_paper(match, version=None, actor=results.Actor(user=organiser))
    won(p1, p2, 60, 20)
    rows = standings_table(get(client, group_url(event)))
    assert [(r[1].split(" TK")[0], r[2], r[5]) for r in rows][:3] == [
        (p1.name, "13", ""),
        (p3.name, "12", ""),
        (p2.name, "11", ""),
    ]


# --- who is through (issue #20), provisional tables, forfeits, scrolling (issue #18) ------------------


def test_a_table_in_play_is_provisional_until_its_last_match(client, make_event, organiser):
    event, group, pairs = one_group_event(make_event, organiser, 4)
    html = get(client, group_url(event))
    assert "alustava" in html and "Taulukko on alustava" in html
    for match in Match.objects.filter(event=event):
        paper(match, 40, 20)
    assert "alustava" not in get(client, group_url(event))


def test_the_outlook_marks_every_pair_of_a_two_day_event(client, make_event, organiser):
    """16 pairs: 8 Saturday groups of two, and the first two of each go on (RULES.md §4): both pairs of a
    group are through before a card is dealt. A one-stage event has no Sunday: no marks."""
    from tests.support.builders import add_pairs

    event = make_event()
    add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=2)
    html = get(client, group_url(event))
    rows = standings_table(html)
    assert len(rows) == 2 and all(r[1].endswith("jatkoon varmasti") for r in rows)
    assert "lohkon 2 parasta jatkavat" in html  # the legend says what the marks mean
    event, group, pairs = one_group_event(make_event, organiser, 4)
    html = get(client, group_url(event))
    assert not any(s in html for s in ("jatkoon varmasti", "putosi", "vielä auki"))


def test_a_forfeit_shows_as_a_forfeit(client, make_event, organiser):
    """RULES.md §3: a forfeit gives the opponents a tuppi win, 5–0; the pages say "luovutus" and who
    forfeited, not a plain "tuppi"."""
    event, group, (p1, p2, p3, p4) = one_group_event(make_event, organiser, 4)
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    results.add_entry(match, results.EntryData(kind="forfeit", pair="B"), version=None,
                       actor=results.Actor(user=organiser))
    for url in (group_url(event), reverse("schedule", args=[event.slug]) + "?kierros=1",
                reverse("pair", args=[event.slug, match.pair_a.number])):
        html = get(client, url)
        line = html.split(reverse("match", args=[event.slug, match.pk]))[1].split("</li>")[0]
        assert f"luovutus ({match.pair_b.name} luovutti)" in line and "tuppi" not in line, url
        assert "5–0 (0–0)" in line


def test_the_cross_table_says_it_scrolls(client, make_event, organiser):
    """The cross table scrolls sideways in its own box (a focusable region with edge shadows); a hint above it
    is shown by static/js/scrollhint.js while it does not fit."""
    event, group, pairs = one_group_event(make_event, organiser, 8)
    html = get(client, group_url(event))
    hint = html.split("data-scroll-hint")[1].split("</p>")[0]
    assert "hidden" in hint and "vieritä" in hint
    after = html.split("data-scroll-hint")[1]
    assert after.index('class="table-wrap scroll-shadow" tabindex="0" role="region"') < after.index('class="cross"')
    assert "js/scrollhint.js" in html
