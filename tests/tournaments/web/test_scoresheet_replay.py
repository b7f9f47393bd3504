"""Issue #24, finding 1: a deleted line came back from the referee's offline queue.

The phone sends a line; the answer is lost; the organiser deletes that line; the phone's retry gets 409,
reloads and sends its queue again with the new version: the deleted deal was stored again, because
duplicate detection looked only at the lines stored now. A line's client id, once the match has handled
it, is answered "already handled" (200, nothing stored) for that match from then on.

The phone is played by :func:`send_queue`, which does what ``static/js/scoresheet.js`` does with its queue.
"""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.test import Client

from tests.support.results_helpers import link_url, nolo, one_group_event, organiser_url, rami
from tournaments.models import Entry, HandledLine, Match, ResultChange

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def sheet(make_event, organiser, client):
    """A drawn group's first match, the organiser logged in on ``client``."""
    event, _group, _pairs = one_group_event(make_event, organiser, 5)
    client.force_login(organiser)
    return Match.objects.filter(event=event).order_by("round", "table").first()


def page_version(phone: Client, match: Match) -> int:
    """The version the sheet page gives the queue after a reload (``data-version`` of the entry form)."""
    html = phone.get(link_url(match)).content.decode()
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def send_queue(phone: Client, match: Match, queue: list[tuple[str, dict]], version: int) -> list[dict]:
    """Send the queued lines in order as the referee's phone does: each with the version the phone has;
    an answer ``ok`` takes the line off the queue and gives the next version; ``stale`` (409) reloads the
    page and sends the queue again from there. Returns every answer."""
    answers, queue = [], list(queue)
    while queue:
        client_id, fields = queue[0]
        response = phone.post(link_url(match) + "rivi/", {**fields, "client_id": client_id, "version": version}, **JSON)
        answer = response.json()
        answers.append({"status": response.status_code, **answer})
        if answer.get("ok"):
            queue.pop(0)
            version = answer["version"]
        elif answer.get("code") == "stale":
            version = page_version(phone, match)  # location.reload()
        else:
            raise AssertionError(f"line refused: {answer}")
    return answers


def lines(match: Match) -> list[tuple]:
    return list(match.entries.order_by("position").values_list("game", "tricks_a", "client_id"))


def test_a_deleted_line_is_not_stored_again_when_the_queue_replays_it(sheet, client):
    phone = Client()
    first = phone.post(link_url(sheet) + "rivi/", {**rami("A", 9), "client_id": "jono-1", "version": 0}, **JSON)
    assert first.json() == {"ok": True, "version": 1}  # stored; the phone never hears it
    deleted = client.post(organiser_url(sheet) + "poista-viimeinen/", {"version": 1})
    assert deleted.status_code == 302 and lines(sheet) == []

    # the phone's retry, still at version 0, and its queue: the lost line, then the next one typed
    answers = send_queue(phone, sheet, [("jono-1", rami("A", 9)), ("jono-2", nolo(4))], version=0)

    assert all(a["status"] == 200 and a["ok"] for a in answers[-2:])
    assert lines(sheet) == [("nolo", 4, "jono-2")]  # the deleted deal did not come back
    sheet.refresh_from_db()
    assert answers[-1]["version"] == sheet.version
    assert list(ResultChange.objects.filter(match=sheet).order_by("at", "pk").values_list("action", flat=True)) == [
        "add", "delete", "add",
    ]
    assert set(HandledLine.objects.filter(match=sheet).values_list("client_id", flat=True)) == {"jono-1", "jono-2"}


def test_the_handled_answer_is_the_one_the_queue_takes_as_success(sheet, client):
    """``static/js/scoresheet.js`` takes a line off its queue on ``ok`` and goes on from ``version``."""
    phone = Client()
    phone.post(link_url(sheet) + "rivi/", {**rami("A", 9), "client_id": "jono-1", "version": 0}, **JSON)
    client.post(organiser_url(sheet) + "poista-viimeinen/", {"version": 1})
    again = phone.post(link_url(sheet) + "rivi/", {**rami("A", 9), "client_id": "jono-1", "version": 2}, **JSON)
    assert again.status_code == 200 and again.json() == {"ok": True, "version": 2}
    plain = phone.post(link_url(sheet) + "rivi/", {**rami("A", 9), "client_id": "jono-1", "version": 2})
    assert plain.status_code == 302  # without JavaScript: back to the sheet, nothing stored
    assert lines(sheet) == []


def test_lines_replaced_by_the_organiser_do_not_come_back(sheet, client):
    """The organiser deletes the phone's last line and types the right one in its place; the phone's
    queue, replayed after a reload, stores neither of its lines again."""
    phone = Client()
    send_queue(phone, sheet, [("jono-1", rami("A", 9)), ("jono-2", rami("B", 8))], version=0)
    client.post(organiser_url(sheet) + "poista-viimeinen/", {"version": 2})
    client.post(organiser_url(sheet) + "rivi/", {**nolo(6), "client_id": "pc-1", "version": 3})
    assert [g for g, _t, _c in lines(sheet)] == ["rami", "nolo"]

    answers = send_queue(phone, sheet, [("jono-1", rami("A", 9)), ("jono-2", rami("B", 8))], version=2)

    assert answers[-1]["ok"] and lines(sheet) == [("rami", 9, "jono-1"), ("nolo", 6, "pc-1")]


def test_a_handled_id_belongs_to_its_match_only(sheet):
    """The same id on another match's sheet is a line of its own."""
    other = Match.objects.filter(event=sheet.event).exclude(pk=sheet.pk).order_by("round", "table").first()
    phone = Client()
    send_queue(phone, sheet, [("jono-1", rami("A", 9))], version=0)
    send_queue(phone, other, [("jono-1", rami("A", 9))], version=0)
    assert lines(sheet) == lines(other) == [("rami", 9, "jono-1")]


def test_the_migration_keeps_every_stored_lines_id_as_handled(sheet):
    """Lines stored before the migration: their ids are handled from the start."""
    Entry.objects.create(match=sheet, position=1, kind="deal", game="rami", caller_seat=1, tricks_a=9, tricks_b=4,
                         client_id="vanha-1")
    migration = importlib.import_module("tournaments.migrations.0008_handled_lines")
    migration.handle_stored_lines(apps, None)
    assert list(HandledLine.objects.filter(match=sheet).values_list("client_id", flat=True)) == ["vanha-1"]
