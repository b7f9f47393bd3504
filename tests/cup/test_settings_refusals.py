"""The cup's settings and their refusals (issue #8, bad input): an event counted twice, a weight other
than 1 or ½, a best N below 1, a points table that is not a table; each refused with a reason, in the
database and in the admin form the federation's staff use. Weights are suggested from the event's kind."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation

from cup import services
from cup.admin import CupEventForm, SeasonCupSettingsForm
from cup.models import CupEvent, SeasonCupSettings
from registry.models import Season
from scoring.cup import DEFAULT_POINTS
from scoring.errors import ScoringError
from tournaments.models import Event


@pytest.fixture(autouse=True)
def finnish():
    with translation.override("fi"):
        yield


@pytest.fixture
def staff(db, django_user_model):
    return django_user_model.objects.create_superuser("liitto", password="salasana-3")


def test_event_counted_twice_refused_by_the_database(make_event):
    event = make_event()
    CupEvent.objects.create(event=event, weight=Decimal(1))
    with pytest.raises(IntegrityError), transaction.atomic():
        CupEvent.objects.create(event=event, weight=Decimal("0.5"))
    assert CupEvent.objects.filter(event=event).count() == 1


def test_event_counted_twice_refused_by_the_form_with_a_reason(make_event):
    event = make_event()
    CupEvent.objects.create(event=event, weight=Decimal(1))
    form = CupEventForm(data={"event": event.pk, "weight": "1"})
    assert not form.is_valid()
    assert form.errors["event"] == ["Tämä kisa on jo cupissa: sama kisa ei voi laskea kahdesti."]


@pytest.mark.parametrize("weight", ["0.7", "2", "0"])
def test_weight_other_than_one_or_half_refused(make_event, weight):
    event = make_event()
    row = CupEvent(event=event, weight=Decimal(weight))
    with pytest.raises(ValidationError) as info:
        row.full_clean()
    assert "Painon on oltava 1 tai ½" in str(info.value.message_dict["weight"])
    with pytest.raises(IntegrityError), transaction.atomic():  # the check constraint, if the form is bypassed
        row.save()
    form = CupEventForm(data={"event": event.pk, "weight": weight})
    assert not form.is_valid() and "weight" in form.errors


def test_full_and_half_weights_accepted(make_event):
    for weight in ("1", "0.5", "1.0"):
        event = make_event()
        row = CupEvent(event=event, weight=Decimal(weight))
        row.full_clean()
        row.save()
        row.refresh_from_db()
        assert row.weight in (Decimal(1), Decimal("0.5"))
    assert {r.weight_label for r in CupEvent.objects.all()} == {"1", "½"}


@pytest.mark.parametrize(
    ("kind", "weight"),
    [(Event.Kind.CUP, Decimal(1)), (Event.Kind.SM_PAIRS, Decimal(1)), (Event.Kind.SUMMER, Decimal("0.5"))],
)
def test_admin_form_suggests_the_weight_from_the_kind(make_event, kind, weight):
    event = make_event(kind=kind)
    form = CupEventForm(data={"event": event.pk, "weight": ""})
    assert form.is_valid(), form.errors
    assert form.save().weight == weight


def test_kind_without_default_needs_a_weight(make_event):
    event = make_event(kind=Event.Kind.OTHER)
    form = CupEventForm(data={"event": event.pk, "weight": ""})
    assert not form.is_valid()
    assert "Valitse paino" in form.errors["weight"][0]
    assert CupEventForm(data={"event": event.pk, "weight": "1"}).is_valid()


def test_sm_team_competition_is_not_a_cup_event(make_event):
    team = make_event(kind=Event.Kind.SM_TEAM)
    form = CupEventForm(data={"event": team.pk, "weight": "1"})
    assert not form.is_valid() and "event" in form.errors  # not even offered
    with pytest.raises(ValidationError) as info:
        CupEvent(event=team, weight=Decimal(1)).full_clean()
    assert "SM-joukkuekisa ei ole parikisa" in str(info.value)


def test_best_n_below_one_refused(db):
    season = Season.objects.create(start=dt.date(2025, 8, 1))
    form = SeasonCupSettingsForm(data={"season": season.pk, "best_n": "0", "points": "25, 22"})
    assert not form.is_valid()
    assert form.errors["best_n"] == ["Laskettavia kisoja on oltava vähintään 1 (tyhjä = kaikki)."]
    season.best_n = 0
    with pytest.raises(IntegrityError), transaction.atomic():  # tournaments' own check constraint
        season.save()
    with pytest.raises(ScoringError, match="best_n"):  # and the cup core refuses it too
        services.rank([], 0)


def test_settings_form_saves_best_n_and_the_table(db):
    season = Season.objects.create(start=dt.date(2025, 8, 1))
    form = SeasonCupSettingsForm(data={"season": season.pk, "best_n": "5", "points": "30, 25; 20 ,10,"})
    assert form.is_valid(), form.errors
    settings = form.save()
    season.refresh_from_db()
    assert season.best_n == 5 and settings.points == [30, 25, 20, 10]
    assert services.cup_settings(season) == (30, 25, 20, 10)
    form = SeasonCupSettingsForm(data={"season": season.pk, "best_n": "", "points": "25"}, instance=settings)
    assert form.is_valid(), form.errors
    form.save()
    season.refresh_from_db()
    assert season.best_n is None  # empty = every event counts (RULES.md §8, Decision)


@pytest.mark.parametrize(
    ("points", "reason"),
    [
        ("", "Tämä kenttä vaaditaan."),
        ("25, kaksi", "”kaksi” ei ole kokonaisluku."),
        ("25, -1", "Sijan 2 pisteiden on oltava kokonaisluku, vähintään 0."),
        ("20, 22, 18", "Sija 2 ei voi saada enemmän pisteitä kuin sija 1."),
    ],
)
def test_bad_points_table_refused(db, points, reason):
    season = Season.objects.create(start=dt.date(2025, 8, 1))
    form = SeasonCupSettingsForm(data={"season": season.pk, "best_n": "", "points": points})
    assert not form.is_valid()
    assert form.errors["points"] == [reason]


def test_default_points_table_is_rules_section_8(db):
    season = Season.objects.create(start=dt.date(2025, 8, 1))
    assert services.cup_settings(season) == DEFAULT_POINTS  # no settings row: RULES.md §8
    settings = SeasonCupSettings.objects.create(season=season)
    assert settings.points == [25, 22, 20, 18, 16, 14, 12, 10, 9, 7, 6, 5, 4, 3, 2, 1]


def test_admin_pages_for_staff(client, staff, make_event):
    event = make_event(kind=Event.Kind.SUMMER)
    client.force_login(staff)
    for name in (
        "admin:cup_cupevent_changelist",
        "admin:cup_cupevent_add",
        "admin:cup_seasoncupsettings_add",
    ):
        assert client.get(reverse(name)).status_code == 200, name
    response = client.post(reverse("admin:cup_cupevent_add"), {"event": event.pk, "weight": ""})
    assert response.status_code == 302
    assert CupEvent.objects.get(event=event).weight == Decimal("0.5")
    # the same event again: the form is shown again with the reason
    html = client.post(reverse("admin:cup_cupevent_add"), {"event": event.pk, "weight": "1"}).content.decode()
    assert "Tämä kisa on jo cupissa: sama kisa ei voi laskea kahdesti." in html
    assert CupEvent.objects.filter(event=event).count() == 1
    assert client.get(reverse("admin:cup_cupevent_changelist")).content.decode().count("½") >= 1


def test_admin_change_page_shows_the_stored_weight(client, staff, make_event):
    row = CupEvent.objects.create(event=make_event(kind=Event.Kind.OTHER), weight=Decimal("1"))
    client.force_login(staff)
    html = client.get(reverse("admin:cup_cupevent_change", args=[row.pk])).content.decode()
    weight_select = html[html.index('<select name="weight"') :].split("</select>")[0]
    # PostgreSQL gives the stored weight as 1.0: the option "1" must still be the selected one, so that
    # saving the page unchanged keeps the weight (an event of kind "other" has no default to fall to).
    assert '<option value="1" selected>' in weight_select
    response = client.post(
        reverse("admin:cup_cupevent_change", args=[row.pk]), {"event": row.event_id, "weight": "0.5"}
    )
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.weight == Decimal("0.5")


def test_admin_action_counts_the_season_events(client, staff, make_event):
    cup_event, summer = make_event(kind=Event.Kind.CUP), make_event(kind=Event.Kind.SUMMER)
    settings = SeasonCupSettings.objects.create(season=cup_event.season)
    client.force_login(staff)
    response = client.post(
        reverse("admin:cup_seasoncupsettings_changelist"),
        {"action": "count_default_events", "_selected_action": [settings.pk]},
        follow=True,
    )
    assert "Cupiin lisättiin 2 kisaa." in response.content.decode()
    assert dict(CupEvent.objects.values_list("event_id", "weight")) == {
        cup_event.pk: 1,
        summer.pk: Decimal("0.5"),
    }
    html = client.get(reverse("admin:cup_seasoncupsettings_change", args=[settings.pk])).content.decode()
    assert reverse("cup:players", args=[cup_event.season.pk]) in html
