"""Issue #25 point 1 and issue #24 point 6, what the server side gives the referee's phone: the queue's words
in both plural forms, the service worker that keeps the sheet on the device, the result in view after the
last deal, and the acceptance at the table said on the screen and kept in the match history."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.support.results_helpers import entry_data, link_url, one_group_event, post_line, rami, store
from tournaments.actions import results
from tournaments.models import Match


@pytest.fixture
def match(make_event, organiser):
    event, _group, _pairs = one_group_event(make_event, organiser, 4)
    return Match.objects.filter(event=event).order_by("round", "table").first()


def at_the_table(match: Match, lines: list[dict]) -> Match:
    """The lines as the referee's phone sends them (through the link), so the pairs are asked to accept."""
    for line in lines:
        match = results.add_entry(match, entry_data(line), version=None, actor=results.Actor(via_link=True))
    return match


def in_english(client, url: str) -> str:
    client.cookies["django_language"] = "en"  # the language switch's choice
    with translation.override(translation.get_language()):  # the request's English stays in the request
        html = client.get(url).content.decode()
    del client.cookies["django_language"]
    return html


def attribute(html: str, name: str) -> str:
    found = re.search(rf'{name}="([^"]*)"', html)
    assert found, f"no {name} on the page"
    return found.group(1)


def test_the_queue_counts_one_line_in_the_singular(client, match):
    html = client.get(link_url(match)).content.decode()
    assert attribute(html, "data-waiting-one") == "%(n)s rivi odottaa lähetystä"
    assert attribute(html, "data-waiting-many") == "%(n)s riviä odottaa lähetystä"
    english = in_english(client, link_url(match))
    assert attribute(english, "data-waiting-one") == "%(n)s line waiting to be sent"
    assert attribute(english, "data-waiting-many") == "%(n)s lines waiting to be sent"


def test_the_page_gives_the_queue_the_rise_the_stored_lines_leave(client, match):
    store(match, [rami("A", 9)])  # A up 12
    html = client.get(link_url(match)).content.decode()
    assert attribute(html, "data-up") == "A" and attribute(html, "data-rise") == "12"
    assert (attribute(html, "data-total-a"), attribute(html, "data-total-b")) == ("12", "0")
    assert attribute(html, "data-played") == "1" and attribute(html, "data-planned") == str(match.deals_planned)
    assert attribute(html, "data-rise-text") == "%(pair)s nousulla %(rise)s"


def test_the_link_registers_a_service_worker_for_this_link_only(client, match, logged_in):
    html = Client().get(link_url(match)).content.decode()
    assert attribute(html, "data-service-worker") == "/tulos/sw.js"
    assert attribute(html, "data-scope") == f"/tulos/{match.token}/"  # this match's link, nothing wider
    worker = client.get("/tulos/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert b'addEventListener("fetch"' in worker.content
    organiser_html = logged_in.get(reverse("organiser:match", args=[match.event.slug, match.pk])).content.decode()
    assert "data-service-worker" not in organiser_html  # organiser pages are never kept on a device


def test_after_the_last_deal_the_page_opens_at_the_result(client, match):
    url = link_url(match)
    assert post_line(client, url, rami("A", 13), match=match)["Location"].endswith("#lomake")
    response = post_line(client, url, rami("A", 13, seat=3), match=match)  # 28 + 28: tuppi
    assert response["Location"] == url + "#tulos"
    html = client.get(url).content.decode()
    assert 'id="tulos"' in html and "Pari A hyväksyy" in html


def test_the_acceptance_screen_says_both_pairs_accept_on_this_phone(client, match):
    at_the_table(match, [rami("A", 13), rami("A", 13, seat=3)])
    html = client.get(link_url(match)).content.decode()
    assert "Molemmat parit hyväksyvät tuloksen tällä puhelimella toistensa nähden, kuten pöytäpäätteellä" in html
    assert "kumpi pari hyväksyi ja milloin" in html
    english = in_english(client, link_url(match))
    assert "Both pairs accept the result on this phone, in front of each other, as at a table terminal" in english


def test_the_history_says_which_side_accepted_and_when(client, match, logged_in, clock):
    match = at_the_table(match, [rami("A", 13), rami("A", 13, seat=3)])
    clock.set("2026-12-12 14:05:30")
    results.accept_result(match, "B", version=match.version, actor=results.Actor(via_link=True))
    html = logged_in.get(reverse("organiser:match_history", args=[match.event.slug, match.pk])).content.decode()
    section = html[html.index('id="hyvaksynnat"'):html.index("</section>")]
    text = " ".join(re.sub(r"<[^>]+>", " ", section).split())
    assert f"Pari A ({match.pair_a.name}): ei ole hyväksynyt" in text
    assert f"Pari B ({match.pair_b.name}): hyväksyi 12.12.2026 14.05." in text  # the seconds run on
    assert text.endswith("· pöytäkirjan linkin kautta")
    assert "pari B hyväksyi tuloksen pöydässä" in html
    english = in_english(logged_in, reverse("organiser:match_history", args=[match.event.slug, match.pk]))
    assert "Pairs' acceptance" in english
