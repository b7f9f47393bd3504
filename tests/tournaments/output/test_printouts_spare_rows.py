"""Issue #25: the printed scoresheet numbers the planned deals only; its spare rows after them (for a rise
played to its end and a deciding deal, RULES.md §3) are unnumbered and its legend says what they are for."""

from __future__ import annotations

import re
import subprocess

from django.urls import reverse

from tests.support.results_helpers import one_group_event, rami, store
from tournaments.models import Match
from tournaments.output.printing import SPARE_ROWS


def text_of(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()


def numbered_rows(text: str) -> list[int]:
    """The deal numbers the sheet prints on rows of their own (the blank rows of deals to come)."""
    return [int(line) for line in (line.strip() for line in text.splitlines()) if re.fullmatch(r"\d{1,2}", line)]


def test_spare_rows_are_not_numbered_like_deals(client, make_event, organiser):
    event, _group, _pairs = one_group_event(make_event, organiser, 5)  # 12 deals a match
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    assert match.deals_planned == 12 and SPARE_ROWS == 6
    store(match, [rami("A", 9), rami("B", 9)])  # two deals played: rows 1 and 2 filled in
    client.force_login(organiser)
    text = text_of(client.get(reverse("organiser:match_sheet", args=[event.slug, match.pk])).content)
    assert numbered_rows(text) == list(range(3, 13))  # deals 3–12 to come; nothing numbered 13–18
    flat = " ".join(text.split())
    assert "Numeroimattomat rivit jaon 12 jälkeen ovat varalla: kesken olevan nousun loppuun pelaamiseen (+)" in flat
