"""`manage.py setup_demo` fills an empty database once and keeps what is there on the second run."""

from __future__ import annotations

from django.core.management import call_command
from django.urls import reverse

from tournaments.management.commands.setup_demo import DEMO_ORGANISER
from tournaments.models import Club, Event, Player


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
