"""Issue #20, done when: a simulated event stopped in the middle of the last Saturday round shows on every
group page who is through ("jatkoon varmasti"), who is out ("putosi") and who still depends on the last
match ("vielä auki"), and two groups agree with a hand check under RULES.md §4's tie-breaks (below). The
same marks are on the pair pages, the hall screen and the Sunday chart's preview, and the API's
standings carry ``best`` and ``worst``."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from lib import caching
from tests.support.results_helpers import standings_table, won
from tournaments.actions.simulation import play_matches
from tournaments.models import Event, Match
from tournaments.readmodel import build, outlook

STATES = ("jatkoon varmasti", "putosi", "vielä auki")


def roles(event, name) -> dict[str, object]:
    """The pairs of a Saturday group of five by their part in its last round (5): R rests, X–Y and Z–W play."""
    group = event.groups.get(stage="saturday", name=name)
    last = list(Match.objects.filter(group=group, round=5).order_by("table"))
    assert len(last) == 2 and group.entries.count() == 5
    playing = {p for m in last for p in (m.pair_a, m.pair_b)}
    (rest,) = [e.pair for e in group.entries.select_related("pair") if e.pair not in playing]
    return {"R": rest, "X": last[0].pair_a, "Y": last[0].pair_b, "Z": last[1].pair_a, "W": last[1].pair_b}


def group_a(p) -> None:
    """Group A, every match from paper at 12 deals (over 48 is overwhelming), all 3–2 at 40–20:

    R beat X and Y, lost to Z and W: R 3 + 3 + 2 + 2 = 10, done (it rests in round 5).
    X beat Y (round 5, in), lost to R, Z, W: X 2 + 3 + 2 + 2 = 9, done.
    Y lost all four: Y 2 × 4 = 8, done.
    Z beat R, X, Y: 9; W beat R, X, Y: 9; Z–W is the open match of round 5.

    Hand check: the Z–W winner gets 3–5 more (12–14): first, nobody else can pass 11. Its loser gets 0–2
    (9–11): at 11 (a 2–3 loss) second ahead of R 10; at 10 (1–4) level with R, ahead on their mutual match
    (Z and W both beat R); at 9 (a tuppi loss) R is second and the loser, level with X at 9, is third on
    their mutual match (Z and W both beat X). So Z and W can finish 1st–3rd, R 2nd–3rd: all three still
    open. X (9) is always fourth: the loser always has 9 or more and beat X; Y (8) is always fifth. With 8
    Saturday groups the first two go on, so X and Y are out, and nobody is through yet.
    """
    for loser in (p["X"], p["Y"]):
        won(p["R"], loser, 40, 20)
    for winner in (p["Z"], p["W"]):
        won(winner, p["R"], 40, 20)
        won(winner, p["X"], 40, 20)
        won(winner, p["Y"], 40, 20)
    won(p["X"], p["Y"], 40, 20)


def group_b(p) -> None:
    """Group B, from paper at 12 deals, all 3–2 at 40–20:

    R beat X, Y, Z, W: 12, done. X beat Y, Z, W (lost to R): 2 + 3 × 3 = 11, done.
    Y beat Z, lost to R, X, W: 2 + 2 + 3 + 2 = 9, done; rise totals 20 + 20 + 40 + 20 = 100.
    W beat Y, lost to R, X: 2 + 2 + 3 = 7 (totals 80); Z lost to R, X, Y: 6 (totals 60); Z–W is open.

    Hand check: W can reach at most 7 + 5 = 12, level with R but behind it on their mutual match, so R is
    first whatever happens: through. X (11) is second unless W wins by tuppi (12, then W second and X
    third); a 4–1 win gives W 11, level with X, who beat W: X stays second. X: open (2nd–3rd). W: second with
    a tuppi win, third with a 4–1 or 3–2 win (11 or 10, behind X, ahead of Y 9); losing 2–3 it has 9 like Y
    and Z (9 with its 3–2 win): three level, their mini table is a cycle (Y beat Z, Z beat W, W beat Y, all
    3–2: 5 points each), so rise totals decide (step 4) and they are not played yet: each of the three can
    end 3rd, 4th or 5th (with totals Y 100 > W 80 > Z 60 + the winner's more, every order stays possible).
    So W is open (2nd–5th); Z (3rd with a 4–1 or tuppi win, 5th on losing) and Y (never above the three-way
    tie's top, 3rd) can no longer be second: out.
    """
    for loser in (p["X"], p["Y"], p["Z"], p["W"]):
        won(p["R"], loser, 40, 20)
    for loser in (p["Y"], p["Z"], p["W"]):
        won(p["X"], loser, 40, 20)
    won(p["Y"], p["Z"], 40, 20)
    won(p["W"], p["Y"], 40, 20)


EXPECTED = {
    "A": {"R": ("vielä auki", 2, 3), "X": ("putosi", 4, 4), "Y": ("putosi", 5, 5), "Z": ("vielä auki", 1, 3),
          "W": ("vielä auki", 1, 3)},
    "B": {"R": ("jatkoon varmasti", 1, 1), "X": ("vielä auki", 2, 3), "W": ("vielä auki", 2, 5),
          "Z": ("putosi", 3, 5), "Y": ("putosi", 3, 5)},
}


@pytest.fixture
def last_round(db):
    """40 pairs (8 groups of 5, five rounds), drawn; groups A and B as above; every other group has played
    rounds 1–4 and the first table of round 5 at random: the middle of the last Saturday round."""
    out = StringIO()
    call_command("simulate_event", "--pairs", "40", "--seed", "12", "--until", "draw", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    parts = {name: roles(event, name) for name in ("A", "B")}
    group_a(parts["A"])
    group_b(parts["B"])
    rng = random.Random(12)
    others = Match.objects.filter(event=event, stage="saturday").exclude(group__name__in=["A", "B"])
    play_matches(others.filter(round__lt=5), rng)
    for group in event.groups.filter(stage="saturday").exclude(name__in=["A", "B"]):
        play_matches(others.filter(group=group, round=5).order_by("table")[:1], rng)
    return event, parts


def states(html: str) -> dict[str, str]:
    """Pair name → the state its standings row shows."""
    out = {}
    for row in standings_table(html):
        found = [s for s in STATES if row[1].endswith(s)]
        assert len(found) == 1, row
        out[row[1].split(" TK")[0].split(" " + found[0])[0]] = found[0]
    return out


def test_every_group_in_the_last_round_says_who_is_through(client, last_round):
    event, parts = last_round
    snap = build.build(event.pk)
    seen = set()
    for table in snap.stage_tables("saturday"):
        html = client.get(reverse("group", args=[event.slug, table.group.name])).content.decode()
        assert "alustava" in html  # the last match of every group is still to come
        rows = standings_table(html)
        assert len(rows) == 5
        for row in rows:
            shown = [s for s in STATES if s in row[1]]
            assert len(shown) == 1, (table.group.name, row)
            seen.add(shown[0])
    assert "vielä auki" in seen and "putosi" in seen
    # the two groups of the hand check: each pair's state, and its best and worst position in the API
    api = {g["name"]: g for g in client.get(reverse("api_event", args=[event.slug])).json()["groups"]}
    for name in ("A", "B"):
        html = client.get(reverse("group", args=[event.slug, name])).content.decode()
        rows = {r[1]: r for r in standings_table(html)}
        reach = {s["pair"]: (s["best"], s["worst"]) for s in api[name]["standings"]}
        for role, (state, best, worst) in EXPECTED[name].items():
            pair = parts[name][role]
            (row,) = [r for text, r in rows.items() if text.startswith(pair.name + " ")]
            assert state in row[1], (name, role, row)
            assert reach[pair.pk] == (best, worst), (name, role)


def test_the_same_marks_on_the_pair_page_and_the_hall_screen(client, last_round):
    event, parts = last_round
    b = parts["B"]
    html = client.get(reverse("pair", args=[event.slug, b["R"].number])).content.decode()
    assert "Lohko B</a>: sija 1" in html and "jatkoon varmasti" in html and "alustava" in html
    html = client.get(reverse("pair", args=[event.slug, b["Y"].number])).content.decode()
    assert "putosi" in html
    hall = client.get(reverse("hall", args=[event.slug])).content.decode()
    panel = hall.split('aria-label="Lohko B"')[1].split("</section>")[0]
    for role, (state, _best, _worst) in EXPECTED["B"].items():
        row = panel.split(b[role].name)[1].split("</tr>")[0]
        assert state in row, role


def test_the_sunday_chart_before_saturday_ends(client, last_round):
    """RULES.md §5 with 8 groups: Sunday group 1 = A1 B1 G2 H2, 4 = G1 H1 B2 A2. B1 is certain (R of group
    B), nobody else's place is: everyone else shows as "X1 (auki)"."""
    event, parts = last_round
    html = client.get(reverse("sunday", args=[event.slug])).content.decode()
    assert "Sunnuntain lohkot (ennakko)" in html
    chart = html.split("chart-preview")[1]
    first, rest = chart.split("Sunnuntain lohko 2")[0], chart.split("Sunnuntain lohko 4")[1]
    assert "A1 (auki)" in first and parts["B"]["R"].name in first and "B1 (auki)" not in first
    assert "B2 (auki)" in rest and "A2 (auki)" in rest
    snap = build.build(event.pk)
    preview = outlook.sunday_preview(snap)
    certain = {slot.code for _name, slots in preview for slot in slots if slot.pair is not None}
    for code in certain:  # every filled place is one the group's table can no longer change
        table = snap.table(snap.group_named(code[0]).pk)
        reach = outlook.group_outlook(snap, table)
        assert reach.holder(int(code[1])) is not None


def test_an_outlook_is_computed_once_per_change_of_its_group(client, last_round):
    """The positions are cached under the group's fingerprint: a result in group C leaves group A's as it
    was (no new computation), and changes group C's."""
    event, parts = last_round
    snap = build.build(event.pk)
    table_a = snap.table(snap.group_named("A").pk)
    table_c = snap.table(snap.group_named("C").pk)
    first_a, first_c = outlook.group_outlook(snap, table_a), outlook.group_outlook(snap, table_c)
    computed = caching.stats["computed"]
    assert outlook.group_outlook(snap, table_a) == first_a and caching.stats["computed"] == computed
    open_c = Match.objects.filter(group__event=event, group__name="C", status="scheduled").first()
    play_matches([open_c], random.Random(1))
    after = build.build(event.pk)
    assert outlook.group_outlook(after, after.table(table_a.group.pk)) == first_a
    assert caching.stats["computed"] == computed  # group A: nothing new to compute
    now_c = outlook.group_outlook(after, after.table(table_c.group.pk))
    assert caching.stats["computed"] == computed + 1 and now_c.finished and not first_c.finished
    assert all(o.decided for o in now_c.rows.values()) or any(
        r.standing.playoff_required for r in after.table(table_c.group.pk).rows
    )
