"""Entry from a paper scoresheet: both rise totals, tuppi or not, deals played; the match points follow
from the engine's rules (RULES.md §3). Paper entry and deal-by-deal entry exclude each other."""

from __future__ import annotations

import pytest

from tests.support.results_helpers import (
    input_value,
    link_url,
    one_group_event,
    organiser_url,
    page_messages,
    post_line,
    rami,
    status_text,
    store,
)
from tournaments.models import Event, Match, PaperResult, ResultChange
from tournaments.readmodel import build


def match_of(make_event, organiser, n_pairs):
    event, group, pairs = one_group_event(make_event, organiser, n_pairs)
    return Match.objects.filter(event=event).order_by("round", "table").first()


@pytest.fixture
def match12(make_event, organiser, client):
    client.force_login(organiser)
    match = match_of(make_event, organiser, 5)  # groups of 5: 12 deals, overwhelming over 48
    assert match.deals_planned == 12
    return match


def post_paper(client, url, match, total_a, total_b, deals_played, tuppi="", deciding_winner=""):
    match.refresh_from_db()
    return client.post(
        url + "paperi/",
        {
            "version": match.version,
            "total_a": total_a,
            "total_b": total_b,
            "deals_played": deals_played,
            "tuppi": tuppi,
            "deciding_winner": deciding_winner,
        },
    )


def outcome_of(match):
    match.refresh_from_db()
    return build.build(match.event_id).match(match.pk).outcome


@pytest.mark.parametrize(
    ("total_a", "total_b", "deals", "tuppi", "deciding", "points"),
    [
        (60, 20, 12, "", "", (4, 1)),  # 60 > 48, the 12-deal threshold: overwhelming, 4–1
        (48, 20, 12, "", "", (3, 2)),  # 48 is not over 48: a points win, 3–2
        (40, 20, 12, "", "", (3, 2)),
        (20, 40, 13, "", "", (2, 3)),  # B wins on points after a rise played past deal 12
        (12, 56, 5, "B", "", (0, 5)),  # tuppi after 5 deals: 5–0 to B whatever the totals
        (44, 40, 13, "", "A", (3, 2)),  # level 40–40 after 12, A won the deciding deal for 4: 44–40
    ],
)
def test_match_points_follow_from_the_engine(
    client, match12, total_a, total_b, deals, tuppi, deciding, points
):
    url = organiser_url(match12)
    response = post_paper(client, url, match12, total_a, total_b, deals, tuppi, deciding)
    assert response.status_code == 302
    outcome = outcome_of(match12)
    assert outcome.finished and outcome.paper
    assert outcome.totals == (total_a, total_b) and outcome.match_points == points
    assert outcome.winner == (match12.pair_a_id if points[0] > points[1] else match12.pair_b_id)
    assert outcome.tuppi == bool(tuppi)
    assert match12.status == "finished"
    status = status_text(client.get(url).content.decode())
    assert f"ottelupisteet {points[0]}–{points[1]}" in status and "paperipöytäkirjasta" in status


def test_sixteen_deal_threshold(client, make_event, organiser):
    client.force_login(organiser)
    match = match_of(make_event, organiser, 4)  # groups of 4: 16 deals, overwhelming over 64
    assert match.deals_planned == 16
    url = organiser_url(match)
    post_paper(client, url, match, 64, 20, 16)
    assert outcome_of(match).match_points == (3, 2)  # 64 is not over 64
    post_paper(client, url, match, 68, 20, 16)  # the paper result may be corrected
    assert outcome_of(match).match_points == (4, 1)
    assert PaperResult.objects.filter(match=match).count() == 1


@pytest.mark.parametrize(
    ("total_a", "total_b", "deals", "tuppi", "deciding", "reason"),
    [
        (40, 40, 12, "", "", "Pisteet ovat tasan (40–40), joten ottelu ratkesi voitosta pelatulla jaolla"),
        (40, 20, 10, "", "", "Ottelu ilman tuppia pelataan vähintään 12 jakoa, nyt pelattu 10."),
        (
            41,
            20,
            12,
            "",
            "",
            "Nousupisteet 41 eivät ole mahdolliset: pisteet kertyvät neljän pisteen välein.",
        ),
        # the deciding deal's winner must be ahead, its points added to their total
        (40, 40, 13, "", "A", "Voitosta pelatun jaon pisteet lisätään sen voittajalle"),
        (40, 44, 13, "", "A", "Voitosta pelattu jako ei täsmää"),
        (56, 12, 5, "A", "B", "Tuppi ja voitosta pelatun jaon voittaja ovat eri pareja."),
    ],
)
def test_impossible_paper_results_are_refused_in_finnish(
    client, match12, total_a, total_b, deals, tuppi, deciding, reason
):
    response = post_paper(client, organiser_url(match12), match12, total_a, total_b, deals, tuppi, deciding)
    assert response.status_code == 200
    html = response.content.decode()
    assert any(m.startswith(reason) for m in page_messages(html)), page_messages(html)
    # what was typed is still in the form
    assert input_value(html, "total_a") == str(total_a) and input_value(html, "total_b") == str(total_b)
    assert input_value(html, "deals_played") == str(deals)
    assert not PaperResult.objects.filter(match=match12).exists() and ResultChange.objects.count() == 0
    match12.refresh_from_db()
    assert match12.status == "scheduled" and match12.version == 0


def test_missing_totals_are_refused_by_the_form(client, match12):
    response = client.post(organiser_url(match12) + "paperi/", {"version": 0, "total_a": 40, "deals_played": 12}
    )
    assert response.status_code == 200 and input_value(response.content.decode(), "total_a") == "40"
    assert not PaperResult.objects.filter(match=match12).exists()


def test_paper_result_through_the_link_only_where_allowed(client, match12):
    """Issue #16: a whole result typed from paper through the anonymous link only if the organiser allows
    it for the event; otherwise the link offers only deal-by-deal entry."""
    client.logout()
    html = client.get(link_url(match12)).content.decode()
    assert 'name="total_a"' not in html  # no paper form on the link by default
    refused = post_paper(client, link_url(match12), match12, 40, 20, 12)
    assert refused.status_code == 200 and not ResultChange.objects.exists()
    assert "Kokonaisen tuloksen paperipöytäkirjasta kirjaa järjestäjä." in " ".join(
        page_messages(refused.content.decode())
    )
    Event.objects.filter(pk=match12.event_id).update(link_paper_allowed=True)
    assert 'name="total_a"' in client.get(link_url(match12)).content.decode()
    assert post_paper(client, link_url(match12), match12, 40, 20, 12).status_code == 302
    change = ResultChange.objects.get()
    assert change.via_link and change.action == "paper"
    assert change.before["paper"] is None and change.after["paper"]["total_a"] == 40


def test_paper_and_deals_exclude_each_other(client, match12):
    url = organiser_url(match12)
    post_paper(client, url, match12, 40, 20, 12)
    html = client.get(url).content.decode()
    assert 'name="tricks_a"' not in html  # no deal form while a paper result stands
    response = post_line(client, url, rami("A", 9), match=match12)
    assert (
        "Ottelulle on kirjattu tulos paperipöytäkirjasta. Poista se ennen jakojen kirjaamista."
        in page_messages(response.content.decode())
    )
    assert match12.entries.count() == 0
    # clearing the paper result opens the scoresheet again
    match12.refresh_from_db()
    assert client.post(url + "poista-paperi/", {"version": match12.version}).status_code == 302
    assert not PaperResult.objects.filter(match=match12).exists()
    assert outcome_of(match12).status == "scheduled" and match12.status == "scheduled"
    store(match12, [rami("A", 9)])
    html = client.get(url).content.decode()
    assert 'name="total_a"' not in html  # no paper form while the sheet has lines
    response = post_paper(client, url, match12, 40, 20, 12)
    assert "Ottelulle on kirjattu jakoja: korjaa ne pöytäkirjaan tai poista ne ensin." in page_messages(
        response.content.decode()
    )
    assert not PaperResult.objects.filter(match=match12).exists() and match12.entries.count() == 1


def test_clearing_a_paper_result_that_is_not_there_is_refused(client, match12):
    url = organiser_url(match12)
    match12 = store(match12, [rami("A", 9)])  # a scoresheet under way, no paper result
    response = client.post(url + "poista-paperi/", {"version": match12.version}, follow=True)
    assert "Ottelulle ei ole kirjattu tulosta paperipöytäkirjasta." in page_messages(
        response.content.decode()
    )
    match12.refresh_from_db()
    assert match12.status == "playing" and match12.entries.count() == 1
    assert ResultChange.objects.filter(action="paper_delete").count() == 0


def test_the_deciding_deal_messages_agree(client, match12):
    """Issue #14: level totals without a winner and level totals with one get the same advice (the deal's
    points go into the winner's total), and following it is accepted."""
    url = organiser_url(match12)
    without = page_messages(post_paper(client, url, match12, 40, 40, 13).content.decode())
    with_winner = page_messages(post_paper(client, url, match12, 40, 40, 13, "", "A").content.decode())
    example = "(esimerkiksi tasan 40–40 ja jaosta 8 pistettä: 48–40)"
    assert any(example in m for m in without) and any(example in m for m in with_winner)
    post_paper(client, url, match12, 48, 40, 13, "", "A")
    assert outcome_of(match12).winner == match12.pair_a_id
