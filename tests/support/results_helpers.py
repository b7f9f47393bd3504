"""Builders for the results tests: a drawn event, scoresheet lines and paper results, and small HTML readers.

Deals are written the way the referee types them: ``rami("A", 10)`` is a rami called by pair A (seat 1)
in which A took 10 tricks (B the other 3); ``nolo(4)`` a nolo in which pair A took 4 tricks;
``early(...)`` a deal stopped after seven tricks, with both counts.
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

from django.urls import reverse

from tests.support.builders import add_pairs
from tournaments.actions import draw
from tournaments.actions import results as result_actions
from tournaments.models import Event, Match

# --- events -----------------------------------------------------------------------------------------


def one_group_event(
    make_event, organiser, n_pairs: int = 5, *, deals: int | None = None, seed: int = 3, **fields
):
    """A one-stage event with one group of ``n_pairs`` pairs, drawn; ``organiser`` organises it.

    Groups of 5 or more pairs play 12 deals a match, smaller ones 16 (RULES.md §4), unless ``deals``.
    """
    event = make_event(format=Event.Format.ONE_STAGE, group_count=1, deals_saturday=deals, **fields)
    event.organisers.add(organiser)
    pairs = add_pairs(event, n_pairs)
    draw.draw_groups(event, organiser, seed=seed)
    event.refresh_from_db()
    return event, event.groups.get(), pairs


def match_between(x, y) -> Match:
    """The group match of pairs ``x`` and ``y``, whichever sits as pair A."""
    return Match.objects.get(pair_a__in=[x, y], pair_b__in=[x, y])


def side(match: Match, pair) -> str:
    return "A" if match.pair_a_id == pair.pk else "B"


# --- scoresheet lines as form posts -----------------------------------------------------------------


def rami(caller: str, caller_tricks: int, *, seat: int | None = None) -> dict:
    """A full rami called by ``caller`` ("A" or "B"), whose pair took ``caller_tricks`` of 13."""
    seat = seat or (1 if caller == "A" else 2)
    tricks_a = caller_tricks if caller == "A" else 13 - caller_tricks
    return {"kind": "deal", "game": "rami", "caller_seat": seat, "tricks_a": tricks_a}


def nolo(tricks_a: int) -> dict:
    return {"kind": "deal", "game": "nolo", "tricks_a": tricks_a}


def early(game: str, tricks_a: int, tricks_b: int, *, seat: int | None = None) -> dict:
    data = {"kind": "deal", "game": game, "tricks_a": tricks_a, "tricks_b": tricks_b, "early": "on"}
    if seat is not None:
        data["caller_seat"] = seat
    return data


def organiser_url(match: Match) -> str:
    return reverse("organiser:match", args=[match.event.slug, match.pk])


def link_url(match: Match) -> str:
    return reverse("link:sheet", args=[match.token])


def post_line(
    client, url: str, line: dict, *, version: int | None = None, position: int | None = None, match=None
):
    """Post one scoresheet line at the match's current version (or ``version``): a new line to the sheet's
    ``rivi/``, a correction to ``rivi/<position>/``."""
    if version is None:
        match.refresh_from_db()
        version = match.version
    data = {**line, "version": version}
    target = url + (f"rivi/{position}/" if position is not None else "rivi/")
    return client.post(target, data)


def enter(client, url: str, match: Match, lines: list[dict]) -> None:
    """Post every line in order; each must be accepted (a redirect back to the sheet)."""
    for number, line in enumerate(lines, start=1):
        response = post_line(client, url, line, match=match)
        assert response.status_code == 302, (
            f"line {number} refused: {page_messages(response.content.decode())}"
        )


def entry_data(line: dict) -> result_actions.EntryData:
    """A form line as the service's EntryData (for building results without the pages)."""
    tricks_a = int(line["tricks_a"])
    tricks_b = int(line["tricks_b"]) if line.get("early") else 13 - tricks_a
    return result_actions.EntryData(
        kind="deal",
        game=line["game"],
        caller_seat=line.get("caller_seat") if line["game"] == "rami" else None,
        tricks_a=tricks_a,
        tricks_b=tricks_b,
    )


def store(match: Match, lines: list[dict], *, user=None) -> Match:
    for line in lines:
        match = result_actions.add_entry(match, entry_data(line), version=None, actor=result_actions.Actor(user=user))
    return match


def paper(
    match: Match, total_a: int, total_b: int, *, deals: int | None = None, tuppi: str = "", deciding: str = ""
):
    return result_actions.save_paper(
        match,
        result_actions.PaperData(total_a, total_b, deals or match.deals_planned, tuppi, deciding),
        version=None,
        actor=result_actions.Actor(user=None),
    )


def won(winner, loser, winner_total: int, loser_total: int, *, tuppi: bool = False) -> Match:
    """Record from paper that ``winner`` beat ``loser`` with these rise totals."""
    match = match_between(winner, loser)
    a, b = (winner_total, loser_total) if side(match, winner) == "A" else (loser_total, winner_total)
    return paper(match, a, b, tuppi=side(match, winner) if tuppi else "")


# --- reading pages ----------------------------------------------------------------------------------


class _Tables(HTMLParser):
    """Every <table>: its class and its rows, each row a list of cell texts (th and td)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: list[tuple[str, list[list[str]], list[str]]] = []
        self._stack: list = []
        self._cell: list[str] | None = None
        self._row_class = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._stack.append((attrs.get("class") or "", [], []))
        elif tag == "tr" and self._stack:
            self._stack[-1][1].append([])
            self._stack[-1][2].append(attrs.get("class") or "")
        elif tag in ("td", "th") and self._stack:
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag):
        if tag == "table" and self._stack:
            self.tables.append(self._stack.pop())
        elif tag in ("td", "th") and self._cell is not None and self._stack:
            self._stack[-1][1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def table_rows(html: str, css_class: str) -> list[list[str]]:
    """The rows of the first table with class ``css_class`` (header rows included)."""
    parser = _Tables()
    parser.feed(html)
    for classes, rows, _row_classes in parser.tables:
        if css_class in classes.split():
            return rows
    raise AssertionError(f"no table.{css_class} on the page")


def table_row_classes(html: str, css_class: str) -> list[str]:
    parser = _Tables()
    parser.feed(html)
    for classes, _rows, row_classes in parser.tables:
        if css_class in classes.split():
            return row_classes
    raise AssertionError(f"no table.{css_class} on the page")


def sheet_lines(html: str) -> list[list[str]]:
    """The scoresheet's lines: [#, game, caller seat, tricks, points, rise A, rise B] (no edit link)."""
    rows = table_rows(html, "sheet")
    body = [r[:7] for r in rows[2:] if len(r) >= 7]  # two header rows; the footer has fewer cells
    return body


def sheet_totals(html: str) -> tuple[str, str]:
    rows = table_rows(html, "sheet")
    foot = [r for r in rows if r and r[0] == "Nousupisteet yhteensä"]
    assert foot, "no totals line"
    return foot[0][1], foot[0][2]


def status_text(html: str) -> str:
    found = re.search(r'<div class="match-status" role="status"[^>]*>(.*?)</div>', html, re.S)
    assert found, "no match status on the page"
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def page_messages(html: str) -> list[str]:
    """What the page tells the user: its messages, then the errors of its forms (above a form, and next
    to a field), each a text."""
    out = []
    found = re.search(r'<ul class="messages">(.*?)</ul>', html, re.S)
    if found:
        out += [_text(li) for li in re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)]
    for block in re.findall(r'<div class="errors"[^>]*>(.*?)</div>', html, re.S):
        out += [_text(p) for p in re.findall(r"<p>(.*?)</p>", block, re.S)] or [_text(block)]
    out += [_text(e) for e in re.findall(r'<span class="field-error"[^>]*>(.*?)</span>', html, re.S)]
    return out


def field_errors(html: str) -> dict[str, str]:
    """Each field's error, by field name (the page shows one message a field, next to it)."""
    return {
        name: _text(text)
        for name, text in re.findall(
            r'<div class="field field-(\w+) has-error">.*?<span class="field-error"[^>]*>(.*?)</span>', html, re.S
        )
    }


def _text(fragment: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def input_value(html: str, name: str) -> str | None:
    """The value of a text/number/hidden input, or of the checked radio, named ``name`` (None if absent)."""
    for tag in re.findall(r"<input[^>]*>", html):
        if f'name="{name}"' not in tag:
            continue
        kind = re.search(r'type="([^"]+)"', tag)
        kind = kind.group(1) if kind else "text"
        value = re.search(r'value="([^"]*)"', tag)
        if kind in ("radio",):
            if " checked" in tag:
                return value.group(1) if value else ""
            continue
        if kind == "checkbox":
            return "on" if " checked" in tag else None
        return unescape(value.group(1)) if value else ""
    return None


def tie_group(make_event, organiser, **fields):
    """A group of five whose results (from paper, 12 deals, overwhelming over 48) give a three-way tie that
    needs a play-off and a two-way tie broken by the mutual match (RULES.md §4):

    - P1 beat P2 40–20, P2 beat P3 40–20, P3 beat P1 40–20 (each 3–2): a cycle, 5 match points each;
    - P1 beat P4 60–8 (4–1) and P5 40–20 (3–2); P2 beat P4 40–20 (3–2) and P5 60–8 (4–1); P3 beat P4 60–8
      (4–1) and P5 40–20 (3–2): P1, P2, P3 have 12 match points, 3 wins and 40 + 20 + 60 + 40 = 160 each;
      their mutual table is 5–5–5 and the totals are level, so a play-off is needed (step 5);
    - P4 beat P5 40–20 (3–2): P4 has 1 + 2 + 1 + 3 = 7, P5 2 + 1 + 2 + 2 = 7 match points; level, P4 is
      ahead on their mutual match (step 2). Totals P4 8 + 20 + 8 + 40 = 76, P5 20 + 8 + 20 + 20 = 68.
    """
    event, group, pairs = one_group_event(make_event, organiser, 5, **fields)
    p1, p2, p3, p4, p5 = pairs
    won(p1, p2, 40, 20)
    won(p2, p3, 40, 20)
    won(p3, p1, 40, 20)
    won(p1, p4, 60, 8)
    won(p1, p5, 40, 20)
    won(p2, p4, 40, 20)
    won(p2, p5, 60, 8)
    won(p3, p4, 60, 8)
    won(p3, p5, 40, 20)
    won(p4, p5, 40, 20)
    return event, group, pairs


def standings_table(html: str) -> list[list[str]]:
    """The standings table's body rows: [rank, pair and club, OP, V, NP, decided by]."""
    return [r for r in table_rows(html, "standings")[1:]]


def finish(event) -> None:
    """Mark the event finished as publishing does (a model save, which bumps its results version), without
    the placement checks of ``sunday.publish``."""
    from django.utils import timezone

    from tournaments.models import Event

    found = Event.objects.get(pk=event.pk)
    found.finished_at = timezone.now()
    found.save(update_fields=["finished_at"])
