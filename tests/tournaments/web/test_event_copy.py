"""The next leg in three clicks (issue #27.5): "Kopioi kisa" on an event's organiser page makes a new event
with its settings, times, fee, venue and officials, without pairs or results."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.urls import reverse

from tournaments.models import Event, Match, Pair


@pytest.fixture
def creator(organiser):
    organiser.user_permissions.add(Permission.objects.get(codename="add_event"))
    return organiser


@pytest.fixture
def played(creator):
    """A whole 16-pair event played to its final places, organised by ``creator``, with settings of its own."""
    out = StringIO()
    call_command("simulate_event", "--pairs", "16", "--seed", "3", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    Event.objects.filter(pk=event.pk).update(
        venue="Levin kylätalo", entry_fee=Decimal("30.00"), play_time=dt.time(12, 0), minutes_per_deal=7,
        deals_sunday=12, judges=["Aino Aalto", "Eero Erkkilä", "Kalle Koski"],
    )
    event.organisers.add(creator)
    event.refresh_from_db()
    return event


def copy_url(event) -> str:
    return reverse("organiser:event_copy", args=[event.slug])


@pytest.mark.slow
def test_three_users(client, played, creator, outsider, django_user_model):
    """Anonymous: to the login page; an organiser of another event: 403; one who organises it but may
    not create events: 403; the event's organiser who may create events: the form."""
    url = copy_url(played)
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "X", "starts_on": "2027-02-06"}).status_code == 403
    helper = django_user_model.objects.create_user("apulainen", password="salasana-3")
    played.organisers.add(helper)
    client.force_login(helper)
    assert client.post(url, {"name": "X", "starts_on": "2027-02-06"}).status_code == 403
    dashboard = client.get(reverse("organiser:event", args=[played.slug])).content.decode()
    assert url not in dashboard  # the link is offered only to those who may use it
    client.force_login(creator)
    assert client.get(url).status_code == 200
    assert url in client.get(reverse("organiser:event", args=[played.slug])).content.decode()
    assert Event.objects.count() == 1


@pytest.mark.slow
def test_the_copy_has_the_settings_and_no_pairs(client, played, creator):
    client.force_login(creator)
    page = client.get(copy_url(played)).content.decode()
    assert f'value="{played.name}"' in page  # the name is offered as it was
    response = client.post(copy_url(played), {"name": "Levi-tuppi 2", "starts_on": "2027-02-06"})
    leg = Event.objects.get(name="Levi-tuppi 2")
    assert response.headers["Location"] == reverse("organiser:event", args=[leg.slug])
    assert (leg.starts_on, leg.ends_on) == (dt.date(2027, 2, 6), dt.date(2027, 2, 6) + (played.ends_on - played.starts_on))
    for field in ("venue", "entry_fee", "fee_basis", "play_time", "draw_time", "sunday_play_time",
                  "minutes_per_deal", "deals_sunday", "deals_placement", "deals_saturday", "kind", "format",
                  "organising_club_id", "judges", "require_acceptance", "link_paper_allowed"):
        assert getattr(leg, field) == getattr(played, field), field
    assert leg.can_organise(creator)
    assert set(leg.organisers.all()) == set(played.organisers.all())
    assert (leg.drawn_at, leg.finished_at, leg.draw_seed) == (None, None, None)
    assert not Pair.objects.filter(event=leg).exists() and not Match.objects.filter(event=leg).exists()
    assert str(leg.season) == "2026–2027"
    # the original is untouched
    assert Pair.objects.filter(event=played).count() == 16 and Event.objects.get(pk=played.pk).finished_at


def test_bad_input_is_named_and_kept(client, make_event, creator):
    event = make_event()
    event.organisers.add(creator)
    client.force_login(creator)
    response = client.post(copy_url(event), {"name": "Kevättuppi", "starts_on": "6.2.20x7"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="Kevättuppi"' in html and "field-error" in html
    response = client.post(copy_url(event), {"name": "=HYPERLINK(1)", "starts_on": "2027-02-06"})
    assert response.status_code == 200 and "field-error" in response.content.decode()
    assert Event.objects.count() == 1


def test_the_same_name_twice_gets_its_own_address(client, make_event, creator):
    event = make_event(name="Kaamostuppi", slug="kaamostuppi")
    event.organisers.add(creator)
    client.force_login(creator)
    client.post(copy_url(event), {"name": "Kaamostuppi", "starts_on": "2027-12-11"})
    client.post(copy_url(event), {"name": "Kaamostuppi", "starts_on": "2028-12-09"})
    assert sorted(Event.objects.values_list("slug", flat=True)) == ["kaamostuppi", "kaamostuppi-2", "kaamostuppi-3"]
