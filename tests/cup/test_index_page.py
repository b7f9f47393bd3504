"""``/cup/`` (cup:index): the current season's cup, else the latest season that has one."""

from __future__ import annotations

from decimal import Decimal

from django.urls import reverse
from django.utils import timezone

from cup.models import CupEvent


def test_no_cup_yet(client, db):
    response = client.get(reverse("cup:index"))
    assert response.status_code == 200
    assert "Yhdenkään kauden cup-kisoja ei ole vielä valittu." in response.content.decode()


def test_latest_season_when_the_current_has_no_cup(client, hand_season):
    response = client.get(reverse("cup:index"))
    assert response.status_code == 302
    assert response["Location"] == reverse("cup:players", args=[hand_season.season.pk])


def test_current_season_first(client, hand_season, make_event):
    today = timezone.localdate()
    current = make_event(starts_on=today)
    CupEvent.objects.create(event=current, weight=Decimal(1))
    response = client.get(reverse("cup:index"))
    assert response["Location"] == reverse("cup:players", args=[current.season.pk])
    # both seasons are offered on the season pages
    html = client.get(response["Location"]).content.decode()
    assert reverse("cup:players", args=[hand_season.season.pk]) in html
