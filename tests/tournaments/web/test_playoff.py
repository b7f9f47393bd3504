"""Play-offs (RULES.md §4 step 5): pairs level after every tie-break are marked, the organiser records the
play-off's order on the results page, and the standings follow it. Never broken silently."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.results_helpers import one_group_event, page_messages, standings_table, tie_group, won
from tournaments.models import Playoff
from tournaments.readmodel import build
from tournaments.readmodel import snapshot as readmodel


def playoff_url(event, group):
    return reverse("organiser:playoff", args=[event.slug, group.pk])


def results_url(event):
    return reverse("organiser:results", args=[event.slug])


def playoff_forms(html: str) -> list[list[tuple[list[str], str]]]:
    """Each play-off form: its selects, each as (option values, the selected value)."""
    forms = []
    for form in re.findall(r'<form[^>]*class="stacked playoff-form"[^>]*>(.*?)</form>', html, re.S):
        selects = []
        for select in re.findall(r'<select name="order">(.*?)</select>', form, re.S):
            values = re.findall(r'<option value="(\d+)"', select)
            chosen = re.findall(r'<option value="(\d+)" selected', select)
            selects.append((values, chosen[0] if chosen else values[0]))
        forms.append(selects)
    return forms


@pytest.fixture
def tied(make_event, organiser, outsider):
    make_event(name="Toinen kisa").organisers.add(outsider)
    return tie_group(make_event, organiser)


def test_permissions(client, tied, organiser, outsider):
    event, group, (p1, p2, p3, p4, p5) = tied
    order = {"order": [p2.pk, p3.pk, p1.pk]}
    response = client.post(playoff_url(event, group), order)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(outsider)
    assert client.post(playoff_url(event, group), order).status_code == 403
    assert client.get(results_url(event)).status_code == 403
    assert not Playoff.objects.exists()
    client.force_login(organiser)
    assert client.get(playoff_url(event, group)).status_code == 405  # POST only
    response = client.post(playoff_url(event, group), order, follow=True)
    assert "Uusinnan tulos kirjattu." in page_messages(response.content.decode())
    assert Playoff.objects.get().order == [p2.pk, p3.pk, p1.pk]


def test_results_page_offers_the_playoff_and_the_order_is_recorded(client, tied, organiser):
    event, group, (p1, p2, p3, p4, p5) = tied
    client.force_login(organiser)
    html = client.get(results_url(event)).content.decode()
    forms = playoff_forms(html)
    # one play-off (P1, P2, P3 level on rank 1); three places to fill, each offering the three pairs,
    # preselected so that the form as it stands is a valid order
    assert len(forms) == 1 and len(forms[0]) == 3
    tied_ids = sorted(str(p.pk) for p in (p1, p2, p3))
    assert all(sorted(values) == tied_ids for values, _chosen in forms[0])
    assert sorted(chosen for _values, chosen in forms[0]) == tied_ids
    # the organiser orders them P3, P1, P2
    response = client.post(playoff_url(event, group), {"order": [p3.pk, p1.pk, p2.pk]}, follow=True)
    html = response.content.decode()
    assert playoff_forms(html) == []
    rows = standings_table(html)
    assert [(r[0], r[1].split(" TK")[0], r[5]) for r in rows][:3] == [
        ("1.", p3.name, "uusinta"),
        ("2.", p1.name, "uusinta"),
        ("3.", p2.name, "uusinta"),
    ]
    assert [s.playoff_required for s in (r.standing for r in build.build(group.event_id).table(group.pk).rows)] == [False] * 5


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (lambda p: [p[3].pk, p[4].pk], "Valitse järjestys vain uusintaa tarvitseville pareille."),
        (lambda p: [p[0].pk, p[0].pk, p[1].pk], "Valitse järjestys vain uusintaa tarvitseville pareille."),
        (lambda p: [p[0].pk], "Valitse järjestys vain uusintaa tarvitseville pareille."),
        (lambda p: [p[0].pk, p[1].pk], "Uusinnassa ovat kaikki samalla sijalla tasan olevat parit."),
        (lambda p: [p[0].pk, "x", p[1].pk], "Valitse järjestys."),
    ],
)
def test_wrong_orders_are_refused(client, tied, organiser, order, message):
    event, group, pairs = tied
    client.force_login(organiser)
    response = client.post(playoff_url(event, group), {"order": order(pairs)}, follow=True)
    assert message in page_messages(response.content.decode())
    assert not Playoff.objects.exists()


def test_group_of_another_event_is_404(client, tied, organiser, make_event):
    event, group, (p1, p2, p3, p4, p5) = tied
    other, other_group, _pairs = one_group_event(make_event, organiser, 4, seed=9)
    client.force_login(organiser)
    url = reverse("organiser:playoff", args=[event.slug, other_group.pk])
    assert client.post(url, {"order": [p1.pk, p2.pk, p3.pk]}).status_code == 404
    assert not Playoff.objects.exists()


def test_two_playoffs_in_one_group(client, make_event, organiser):
    """Two sets of three level pairs in one group of six: each play-off has its own form."""
    event, group, (x1, x2, x3, y1, y2, y3) = one_group_event(make_event, organiser, 6)  # 12 deals
    # X cycle and Y cycle, each 40–20 (3–2); every X pair beats every Y pair 40–20 (3–2):
    # X pairs 5 + 9 = 14 match points, totals 60 + 120 = 180; Y pairs 5 + 6 = 11, totals 60 + 60 = 120
    for a, b in ((x1, x2), (x2, x3), (x3, x1), (y1, y2), (y2, y3), (y3, y1)):
        won(a, b, 40, 20)
    for x in (x1, x2, x3):
        for y in (y1, y2, y3):
            won(x, y, 40, 20)
    client.force_login(organiser)
    forms = playoff_forms(client.get(results_url(event)).content.decode())
    assert len(forms) == 2
    x_ids, y_ids = sorted(str(p.pk) for p in (x1, x2, x3)), sorted(str(p.pk) for p in (y1, y2, y3))
    assert sorted(sorted(form[0][0]) for form in forms) == sorted([x_ids, y_ids])
    # each form, submitted as it stands, records its own play-off
    for form in forms:
        response = client.post(
            playoff_url(event, group), {"order": [chosen for _v, chosen in form]}, follow=True
        )
        assert "Uusinnan tulos kirjattu." in page_messages(response.content.decode())
    assert Playoff.objects.count() == 2
    ranks = [(r.standing.rank, r.standing.playoff_required) for r in build.build(group.event_id).table(group.pk).rows]
    assert ranks == [(1, False), (2, False), (3, False), (4, False), (5, False), (6, False)]


def test_no_playoff_is_asked_before_the_group_is_finished(client, make_event, organiser):
    """Before the first match every pair is level 0–0, and a group half played may still break its ties:
    only a finished group asks for a play-off (Decision in ``tournaments.readmodel.results.group_table``)."""
    event, group, (p1, p2, p3, p4, p5) = one_group_event(make_event, organiser, 5)
    client.force_login(organiser)
    public = reverse("group", args=[event.slug, group.name])
    for url in (results_url(event), public):
        html = client.get(url).content.decode()
        assert "uusinta tarvitaan" not in html.lower(), url
    assert not any(r.standing.playoff_required for r in readmodel.snapshot(event).table(group.pk).rows)
    won(p1, p2, 40, 20)  # P3, P4, P5 still level at 0, their matches to come
    assert "uusinta tarvitaan" not in client.get(public).content.decode().lower()
    big = [(p1, p4), (p2, p5), (p3, p4)]  # the results of ``tie_group``, all but the last
    for x, y in [(p2, p3), (p3, p1), (p1, p4), (p1, p5), (p2, p4), (p2, p5), (p3, p4), (p3, p5)]:
        won(x, y, *((60, 8) if (x, y) in big else (40, 20)))
    assert "uusinta tarvitaan" not in client.get(public).content.decode().lower()  # P4–P5 still to play
    won(p4, p5, 40, 20)  # the group is finished: the three-way tie of ``tie_group`` asks for its play-off
    assert "uusinta tarvitaan" in client.get(public).content.decode().lower()
