"""Replacing a pair's player before the draw: ``entries.replace_player`` and the form on the pairs page."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from registry.models import SeasonClub
from tests.support.entries_helpers import add_pairs, club, player
from tournaments.actions import draw as draw_actions
from tournaments.actions import entries, versions
from tournaments.models import Event, PairMember


@pytest.fixture
def event(make_event, organiser):
    event = make_event(name="Kemin Kevättuppi", kind=Event.Kind.CUP)
    event.organisers.add(organiser)
    return event


def url(event) -> str:
    return reverse("organiser:pairs", args=[event.slug])


def replace_url(event) -> str:
    return reverse("organiser:pair_replace", args=[event.slug])


def names(pair) -> list[str]:
    return [m.player.full_name for m in PairMember.objects.filter(pair=pair).order_by("position")]


def draw(event):
    for pair in event.pairs.all():
        entries.set_checked_in(pair, True)
    draw_actions.draw_groups(event, None, seed=7)


def test_service_replaces_the_player_and_bumps_the_version(event):
    pair = add_pairs(event, 1)[0]
    newcomer = player("Maija", "Kivelä", "1005", club())
    before = versions.current(event.pk)
    old = entries.replace_player(pair, 2, newcomer, None)
    assert names(pair) == [pair.players[0].full_name, "Maija Kivelä"]
    assert old.full_name not in names(pair)
    assert versions.current(event.pk) > before
    assert pair.number == event.pairs.get(pk=pair.pk).number  # the pair keeps its number and club


def test_refused_after_the_draw(event):
    pairs = add_pairs(event, 16)
    draw(event)
    with pytest.raises(ValidationError) as refused:
        entries.replace_player(pairs[0], 1, player("Uusi", "Pelaaja"), None)
    assert refused.value.code == "drawn"


def test_refused_for_a_player_already_in_a_pair_of_the_event(event):
    first, second = add_pairs(event, 2)
    someone_elses = second.players[0]
    with pytest.raises(ValidationError, match="on jo parissa 2"):
        entries.replace_player(first, 1, someone_elses, None)
    with pytest.raises(ValidationError, match="on jo parissa 1"):
        entries.replace_player(first, 1, first.players[1], None)  # the partner: the same player twice
    assert names(first) == [p.full_name for p in first.players]


def test_season_clubs_follow_in_a_cup_event(event, make_event):
    home, other = club(), club("Kemin Tuppikerho", "KTK")
    pair = add_pairs(event, 1, home=home)[0]
    leaving = pair.players[0]
    later = make_event(name="Oulun Talvituppi", kind=Event.Kind.CUP, starts_on=event.starts_on.replace(day=19))
    entries.create_pair(later, leaving, player("Toinen", "Pari"), other)
    assert SeasonClub.objects.get(season=event.season, player=leaving).club == home  # fixed by the first event

    newcomer = player("Maija", "Kivelä", "1005", None)
    entries.replace_player(pair, 1, newcomer, None)
    assert SeasonClub.objects.get(season=event.season, player=newcomer).club == home
    moved = SeasonClub.objects.get(season=event.season, player=leaving)
    assert (moved.club, moved.first_event) == (other, later)  # now their first cup event is the later one


def test_form_on_the_pairs_page(client, event, organiser):
    client.force_login(organiser)
    pair = add_pairs(event, 2)[0]
    newcomer = player("Maija", "Kivelä", "1005", club())
    page = client.get(url(event) + f"?vaihda={pair.pk}:2").content.decode()
    assert 'id="vaihda"' in page and f'value="{pair.pk}:2" selected' in page

    # the search button (no script) shows the results, diacritics ignored
    found = client.post(replace_url(event), {"member": f"{pair.pk}:2", "r-q": "kivela", "search": "r"})
    html = found.content.decode()
    assert found.status_code == 200 and 'name="r-player"' in html and "Maija Kivelä" in html
    assert "Ei kukaan näistä" not in html.split('id="vaihda"')[1].split("</form>")[0]

    response = client.post(replace_url(event), {"member": f"{pair.pk}:2", "r-player": newcomer.pk})
    assert response.status_code == 302 and response["Location"].endswith(f"#pari-{pair.number}")
    assert names(pair)[1] == "Maija Kivelä"
    assert "Maija Kivelä" in client.get(response["Location"]).content.decode()


def test_form_says_what_is_missing_or_refused(client, event, organiser):
    client.force_login(organiser)
    first, second = add_pairs(event, 2)
    missing = client.post(replace_url(event), {"member": "", "r-player": ""}).content.decode()
    assert "Valitse vaihdettava pelaaja." in missing and "Valitse uusi pelaaja haun tuloksista." in missing
    taken = second.players[0]
    refused = client.post(replace_url(event), {"member": f"{first.pk}:1", "r-player": taken.pk})
    assert refused.status_code == 200
    assert f"{taken.full_name} on jo parissa 2 tässä kisassa." in refused.content.decode()
    assert names(first) == [p.full_name for p in first.players]


def test_form_refuses_another_events_pair(client, event, organiser, make_event):
    client.force_login(organiser)
    mine = add_pairs(event, 1)[0]
    theirs = add_pairs(make_event(), 1)[0]
    newcomer = player("Uusi", "Pelaaja")
    response = client.post(replace_url(event), {"member": f"{theirs.pk}:1", "r-player": newcomer.pk})
    assert "Valitse vaihdettava pelaaja." in response.content.decode()
    assert newcomer.full_name not in names(theirs) + names(mine)


def test_no_form_after_the_draw(client, event, organiser):
    client.force_login(organiser)
    pairs = add_pairs(event, 16)
    draw(event)
    assert 'id="vaihda"' not in client.get(url(event)).content.decode()
    response = client.post(replace_url(event), {"member": f"{pairs[0].pk}:1", "r-player": 1})
    assert response.status_code == 302
    assert "parin pelaajaa ei voi enää vaihtaa" in client.get(url(event)).content.decode()


def test_replacing_is_for_the_events_organisers_only(client, event, organiser, outsider, make_event):
    """The owner replaces; an organiser of another event (a member of the federation) and a stranger
    logged out do not."""
    make_event().organisers.add(outsider)
    pair = add_pairs(event, 1)[0]
    newcomer = player("Maija", "Kivelä", "1005", club())
    data = {"member": f"{pair.pk}:2", "r-player": newcomer.pk}
    assert client.post(replace_url(event), data).status_code == 302 and "Maija Kivelä" not in names(pair)
    client.force_login(outsider)
    assert client.post(replace_url(event), data).status_code == 403
    assert client.get(replace_url(event)).status_code in (403, 405)
    client.force_login(organiser)
    assert client.get(replace_url(event)).status_code == 405
    assert client.post(replace_url(event), data).status_code == 302 and names(pair)[1] == "Maija Kivelä"


def test_search_fragment_for_the_replace_form(client, event, organiser):
    client.force_login(organiser)
    player("Maija", "Kivelä", "1005", club())
    html = client.get(
        reverse("organiser:player_search"), {"slot": "r", "r-q": "KIVELA", "kisa": event.slug}
    ).content.decode()
    assert 'name="r-player"' in html and "Maija Kivelä" in html and "uusi pelaaja" not in html
