"""A banned player (issue #29) is refused by every entry service: a new pair, a replaced player and an
import row, each naming the ban's end; nothing is saved, and a ban on other days does not refuse."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from registry.models import Ban
from tests.support.entries_helpers import HEADER, add_pairs, club, player
from tournaments.actions import entries
from tournaments.actions import imports as importer
from tournaments.models import Pair, PairMember

pytestmark = pytest.mark.django_db

REFUSAL = "Pelaajalla Kalle Kieltonen on pelikielto 31.12.2027 asti."


@pytest.fixture
def event(make_event):
    return make_event(starts_on=dt.date(2027, 3, 6))  # Saturday and Sunday 6.–7.3.2027


def banned(starts_on=dt.date(2027, 1, 1), ends_on=dt.date(2027, 12, 31)):
    who = player("Kalle", "Kieltonen", "9001", club())
    Ban.objects.create(
        player=who, starts_on=starts_on, ends_on=ends_on, reason="Häiriköinti",
        decision="Hallituksen päätös 12.3.2027 §4", decided_on=starts_on,
    )
    return who


def test_a_pair_with_a_banned_player_is_refused(event):
    who, mate = banned(), player("Maija", "Kivelä")
    with pytest.raises(ValidationError) as refused:
        entries.create_pair(event, mate, who, club())
    assert refused.value.code == "banned" and refused.value.messages == [REFUSAL]
    assert not Pair.objects.filter(event=event).exists()


def test_a_ban_on_other_days_does_not_refuse(event, make_event):
    who = banned(dt.date(2027, 3, 8), dt.date(2027, 12, 31))  # starts the Monday after the event
    assert entries.create_pair(event, who, player("Maija", "Kivelä"), club()).number == 1


def test_a_banned_player_cannot_replace_a_pairs_player(event):
    pair = add_pairs(event, 1)[0]
    before = [m.player_id for m in PairMember.objects.filter(pair=pair).order_by("position")]
    with pytest.raises(ValidationError) as refused:
        entries.replace_player(pair, 2, banned(), None)
    assert refused.value.code == "banned" and refused.value.messages == [REFUSAL]
    assert [m.player_id for m in PairMember.objects.filter(pair=pair).order_by("position")] == before


def rows(*lines: str) -> list:
    columns = HEADER.split(";")
    return [(n, dict(zip(columns, line.split(";"), strict=True))) for n, line in enumerate(lines, start=2)]


def test_an_import_row_with_a_banned_player_is_refused_with_the_bans_end(event):
    banned()
    player("Maija", "Kivelä", "1005", club())
    results = importer.check_rows(
        event,
        rows(
            "Kalle;Kieltonen;9001;Maija;Kivelä;1005;Sodankylän Tuppikerho",
            "Uusi;Pelaaja;;Toinen;Uusi;;Sodankylän Tuppikerho",
        ),
    )
    assert results[0].errors == [REFUSAL] and not results[0].ok
    assert results[1].ok
    assert importer.save_rows(event, results) == 1  # the good row only
    assert [p.full_name for p in Pair.objects.get(event=event).players] == ["Uusi Pelaaja", "Toinen Uusi"]
