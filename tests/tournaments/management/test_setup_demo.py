"""`manage.py setup_demo` fills an empty database once and keeps what is there on the second run."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from registry.models import Club, Player, Season
from tournaments.management.commands.setup_demo import DEMO_ORGANISER
from tournaments.models import Event

pytestmark = pytest.mark.slow  # the demo data: seconds a test (make test-fast leaves it out)


def test_demo_twice_keeps_the_data(db, client):
    call_command("setup_demo", verbosity=0)
    assert Club.objects.count() >= 12
    assert Player.objects.count() >= 300
    assert Event.objects.count() >= 3
    event = Event.objects.order_by("pk").first()
    event.name = "Muutettu nimi"
    event.save()
    counts = (Club.objects.count(), Player.objects.count(), Event.objects.count())

    call_command("setup_demo", verbosity=0)
    assert (Club.objects.count(), Player.objects.count(), Event.objects.count()) == counts
    assert Event.objects.get(pk=event.pk).name == "Muutettu nimi"


def test_demo_organiser_can_log_in_and_sees_demo_events(db, client):
    call_command("setup_demo", verbosity=0)
    response = client.post(reverse("login"), {"username": DEMO_ORGANISER[0], "password": DEMO_ORGANISER[1]})
    assert response.status_code == 302
    html = client.get(reverse("organiser:home")).content.decode()
    assert Event.objects.first().name in html


def test_demo_home_shows_every_status(db, client):
    call_command("setup_demo", verbosity=0)
    statuses = {event.status for event in Event.objects.all()}
    assert statuses == {"upcoming", "live", "finished"}


def test_demo_cup_shows_a_ranking(db, client):
    """On a fresh machine /cup/ shows a season's ranking: the finished demo events count for the cup."""
    from cup.models import CupEvent

    call_command("setup_demo", verbosity=0)
    counted = CupEvent.objects.select_related("event")
    assert counted.count() >= 2
    assert all(c.event.finished_at is not None for c in counted)
    response = client.get(reverse("cup:index"))
    assert response.status_code == 302
    season = Season.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
    html = client.get(response["Location"]).content.decode()
    assert "Cup-pisteitä ei ole vielä jaettu." not in html
    assert html.count(f'href="/cup/{season.pk}/pelaajat/') >= 40  # a ranked player a row
    assert 'class="num total"' in html


def test_demo_holds_a_team_competition(db, client):
    call_command("setup_demo", verbosity=0)
    team_event = Event.objects.get(kind=Event.Kind.SM_TEAM)
    assert team_event.finished_at is not None and team_event.status == "finished"
    assert team_event.organisers.filter(username=DEMO_ORGANISER[0]).exists()
    assert client.get(reverse("teams:bracket", args=[team_event.slug])).status_code == 200
    places = client.get(reverse("teams:final_places", args=[team_event.slug])).content.decode()
    assert team_event.name in places
    assert team_event.name in client.get(reverse("home")).content.decode()
