"""Issue #8, done when: after a simulated season of several events and a summer event, the federation
downloads the workbook, opens it, and the totals, counted events and ties agree with the rules.

The expectation is computed here independently of cup.services and scoring.cup, straight from RULES.md
§8 and the tournaments' own final places (the event's read model, tournaments.readmodel.snapshot) and match results: each
place 1–16 earns 25, 22, 20, … 1 (half in the summer event), a player's best N events count (most
points, then the better place, then more match wins, then the earlier event), and level players are
ordered by counted first places, second places, … sixteenth places, then match wins, else share.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from cup.models import CupEvent
from registry.models import Player, Season, SeasonClub, Transfer
from tests.cup.builders import sheet_rows, workbook
from tournaments.models import Event, PairMember
from tournaments.readmodel import build

pytestmark = pytest.mark.slow  # make test-fast leaves it out

TABLE = [25, 22, 20, 18, 16, 14, 12, 10, 9, 7, 6, 5, 4, 3, 2, 1]  # RULES.md §8
BEST_N = 4


def expected_season(season: Season):
    """player id -> (points, chosen event ids, key) by the rules, from the tournaments' facts."""
    results = defaultdict(list)  # player id -> [(points, place, wins, order, event id)]
    counted = CupEvent.objects.filter(event__season=season).select_related("event")
    for order, ce in enumerate(sorted(counted, key=lambda c: (c.event.starts_on, c.event.name, c.event.pk))):
        snap = build.build(ce.event.pk)
        places = snap.final_places
        wins = Counter(m.outcome.winner for m in snap.matches if m.outcome.finished and m.outcome.winner is not None)
        members = defaultdict(list)
        for pair_id, player_id in PairMember.objects.filter(event=ce.event).values_list(
            "pair_id", "player_id"
        ):
            members[pair_id].append(player_id)
        for place, pair_id in places:
            points = Decimal(TABLE[place - 1]) * ce.weight if place <= len(TABLE) else Decimal(0)
            for player_id in members[pair_id]:
                results[player_id].append((points, place, wins[pair_id], order, ce.event.pk))
    expected = {}
    for player_id, rows in results.items():
        chosen = sorted(rows, key=lambda r: (-r[0], r[1], -r[2], r[3]))[:BEST_N]
        counts = tuple(sum(1 for r in chosen if r[1] == k) for k in range(1, 17))
        points = sum(r[0] for r in chosen)
        key = (-points, tuple(-n for n in counts), -sum(r[2] for r in chosen))
        expected[player_id] = (points, {r[4] for r in chosen}, key)
    return expected


@pytest.fixture
def simulated(db):
    out = StringIO()
    call_command(
        "simulate_season",
        "--pairs",
        "16",
        "--cup-events",
        "4",
        "--best-n",
        str(BEST_N),
        "--seed",
        "8",
        "--season",
        "2024",
        stdout=out,
    )
    return Season.objects.get(pk=int(out.getvalue().split()[-1]))


def test_simulated_season_events(simulated):
    counted = (
        CupEvent.objects.filter(event__season=simulated).select_related("event").order_by("event__starts_on")
    )
    assert [(c.event.kind, c.weight) for c in counted] == [("cup", 1)] * 4 + [
        ("summer", Decimal("0.5")),
        ("sm_pairs", 1),
    ]
    assert all(c.event.finished_at is not None for c in counted)
    assert simulated.best_n == BEST_N
    transfer = Transfer.objects.get(season=simulated)
    assert SeasonClub.objects.get(season=simulated, player=transfer.player).club == transfer.from_club


def test_downloaded_workbook_agrees_with_the_rules(client, simulated):
    expected = expected_season(simulated)
    people = Player.objects.in_bulk(list(expected))
    names = {people[pid].full_name: pid for pid in expected}
    assert len(names) == len(expected), "the simulated players' names must be unique for this test"
    columns = [
        c.event.pk for c in CupEvent.objects.filter(event__season=simulated).order_by("event__starts_on")
    ]

    wb = workbook(client.get(reverse("cup:season_xlsx", args=[simulated.pk, "2024-2025"])))
    rows = sheet_rows(wb["Pelaajat"])
    assert len(rows) == len(expected)
    dropped = halves = 0
    keys = []
    for row in rows:
        pid = names[row[1].value]
        points, chosen, key = expected[pid]
        cells = row[4 : 4 + len(columns)]
        assert Decimal(str(row[3].value)) == points, row[1].value  # the total
        bold = {columns[i] for i, c in enumerate(cells) if c.value is not None and c.font.b}
        assert bold == chosen, row[1].value  # the counted events, best N by the rules
        for c in cells:
            if c.value is not None and not c.font.b:
                assert c.font.i and c.number_format.startswith("(")  # uncounted: italic in brackets
                dropped += 1
            if c.value is not None and c.value != int(c.value):
                assert c.number_format in ("0.0", "(0.0)")  # halves kept: 12,5 in a Finnish Excel
                halves += 1
        keys.append((key, row[0].value))
    assert dropped > 0 and halves > 0  # the season really exercises best N and the summer event's halves
    # Ties: the order follows the rules' key; a shared label ("5.–6.") exactly where the keys are equal.
    for (key_a, label_a), (key_b, label_b) in zip(keys, keys[1:], strict=False):
        assert key_a <= key_b
        assert (label_a == label_b) == (key_a == key_b)
    for label, n in Counter(label for _key, label in keys).items():
        first, _, last = label.rstrip(".").partition(".–")
        assert int(last or first) - int(first) + 1 == n, label

    # Clubs: the sum of each player's counted points by their season club (RULES.md §7–8).
    season_club = dict(SeasonClub.objects.filter(season=simulated).values_list("player_id", "club__name"))
    totals = defaultdict(Decimal)
    for pid, (points, _chosen, _key) in expected.items():
        totals[season_club.get(pid, "?")] += points
    club_rows = sheet_rows(wb["Kerhot"])
    assert {r[1].value: Decimal(str(r[2].value)) for r in club_rows} == {
        k: v for k, v in totals.items() if k != "?"
    }
    assert [r[2].value for r in club_rows] == sorted((r[2].value for r in club_rows), reverse=True)


def test_events_and_pages_of_the_simulated_season(client, simulated):
    ws = workbook(client.get(reverse("cup:season_xlsx", args=[simulated.pk, "2024-2025"])))["Kisat"]
    kinds = [r[3].value for r in sheet_rows(ws)]
    assert kinds == ["cupin osakilpailu"] * 4 + ["kesäkisa", "SM-parikisa"]
    for name in ("cup:players", "cup:pairs", "cup:clubs"):
        assert client.get(reverse(name, args=[simulated.pk])).status_code == 200
    assert Event.objects.filter(season=simulated).count() == 6


def test_bad_options_refused(db):
    with pytest.raises(CommandError, match="at least 16"):
        call_command("simulate_season", "--pairs", "8")
    with pytest.raises(CommandError, match="best-n"):
        call_command("simulate_season", "--best-n", "0")
