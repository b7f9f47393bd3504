"""The event file (issue #27): ``manage.py export_event`` writes one event as canonical JSON valid against
``docs/tuppi-event.schema.json``, without database ids, the same bytes every time."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command

from tests.support.eventfile_helpers import simulated
from tournaments.actions.eventfile import load
from tournaments.models import Match, Pair
from tournaments.output import eventfile


@pytest.fixture
def published(db):
    return simulated(16, seed=1)


@pytest.mark.slow
def test_the_file_of_a_published_event(published, tmp_path):
    path = tmp_path / "kisa.json"
    call_command("export_event", published.slug, str(path), stderr=StringIO())
    raw = path.read_bytes()
    data = load(raw)  # valid against the schema
    assert data["format"] == "tuppi-event" and data["version"] == 1
    assert raw.endswith(b"}\n") and raw.decode() == eventfile.text(json.loads(raw))  # canonical text
    out = StringIO()
    call_command("export_event", published.slug, "-", stdout=out)
    assert out.getvalue().encode() == raw  # the same bytes again, on standard output too
    assert len(data["pairs"]) == 16 and len(data["matches"]) == Match.objects.filter(event=published).count()
    assert data["places"] == [[place, number] for place, number in data["publications"][-1]["places"]]
    assert data["publications"][0]["previous_digest"] == "" and len(data["publications"][0]["digest"]) == 64
    final = next(m for m in data["matches"] if m["placement"] == {"tier": 1, "round": "final", "slot": 1})
    assert final["result"]["finished"] and final["result"]["winner"] == data["places"][0][1]
    assert all(line["after"]["totals"] for m in data["matches"] for line in m["lines"])
    # no database id: pairs by number, players by member number
    keys = {p["key"] for p in data["players"]}
    assert all(set(p["players"]) <= keys for p in data["pairs"])
    ids = set(Pair.objects.filter(event=published).values_list("pk", flat=True)) - set(range(1, 17))
    assert not re.search(r'"(id|pk|pair_id|match_id)"', raw.decode()) and not any(
        f'"pairs": [\n        {pk},' in raw.decode() for pk in ids
    )
    # no judges' council at work, the default time for appeals: none of its keys (the file as before issue #29)
    assert "exclusions" not in data and "appeal_minutes" not in data["event"]
    assert not any("appeals" in m or "rulings" in m for m in data["matches"])
