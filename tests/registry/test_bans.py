"""Bans (*pelikielto*, issue #29): the model, the query helper (a ban applies when its days meet the
event's) and the admin where federation staff record them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from registry.bans import ban_on, bans_for, check_not_banned, refusal
from registry.models import Ban, Player

pytestmark = pytest.mark.django_db

D = dt.date


def player(first: str = "Kalle", last: str = "Kieltonen") -> Player:
    return Player.objects.create(first_name=first, last_name=last)


def ban(who: Player, starts_on=dt.date(2027, 1, 1), ends_on=dt.date(2027, 12, 31), **fields) -> Ban:
    defaults = {"reason": "Häiriköinti", "decision": "Hallituksen päätös 12.3.2027 §4", "decided_on": starts_on}
    return Ban.objects.create(player=who, starts_on=starts_on, ends_on=ends_on, **{**defaults, **fields})


def test_the_end_cannot_come_before_the_start():
    with pytest.raises(IntegrityError), transaction.atomic():
        ban(player(), D(2027, 5, 1), D(2027, 4, 30))
    assert ban(player("Ville", "Yksipäivä"), D(2027, 5, 1), D(2027, 5, 1)).pk  # one day is a ban


@pytest.mark.parametrize(
    ("starts_on", "ends_on", "applies"),
    [
        (D(2026, 12, 30), D(2026, 12, 31), False),  # the weekend before the ban
        (D(2026, 12, 31), D(2027, 1, 1), True),  # the ban's first day is the event's second
        (D(2027, 6, 5), D(2027, 6, 6), True),
        (D(2027, 12, 31), D(2028, 1, 1), True),  # the ban's last day is the event's first
        (D(2028, 1, 1), D(2028, 1, 2), False),  # the day after the ban
    ],
)
def test_a_ban_applies_when_its_days_meet_the_events(starts_on, ends_on, applies):
    who = player()
    given = ban(who)
    assert (ban_on(who, starts_on, ends_on) == given) is applies
    assert (who.pk in bans_for([who], starts_on, ends_on)) is applies


def test_of_several_bans_the_one_ending_last_is_named_in_one_query(django_assert_num_queries):
    who, other, free = player(), player("Olli", "Toinen"), player("Vapaa", "Pelaaja")
    ban(who, D(2027, 1, 1), D(2027, 3, 31))
    longest = ban(who, D(2027, 2, 1), D(2027, 12, 31))
    ban(other, D(2027, 1, 1), D(2027, 6, 30))
    with django_assert_num_queries(1):
        found = bans_for([who, other, free], D(2027, 2, 6), D(2027, 2, 7))
    assert found[who.pk] == longest and set(found) == {who.pk, other.pk}


def test_the_refusal_names_the_bans_end():
    who = player()
    given = ban(who)
    assert refusal(given) == "Pelaajalla on pelikielto 31.12.2027 asti."
    assert refusal(given, who.full_name) == "Pelaajalla Kalle Kieltonen on pelikielto 31.12.2027 asti."
    with pytest.raises(ValidationError) as refused:
        check_not_banned([player("Vapaa", "Pelaaja"), who], D(2027, 3, 6), D(2027, 3, 7))
    assert refused.value.code == "banned"
    assert refused.value.messages == ["Pelaajalla Kalle Kieltonen on pelikielto 31.12.2027 asti."]
    check_not_banned([who], D(2028, 3, 4), D(2028, 3, 5))  # after the ban: nothing raised


def test_staff_record_a_ban_in_the_admin_and_find_it_by_the_players_name(client, django_user_model):
    staff = django_user_model.objects.create_superuser("liitto", password="salasana-3")
    who, other = player(), player("Olli", "Toinen")
    ban(other)
    client.force_login(staff)
    add = client.get(reverse("admin:registry_ban_add"))
    assert add.status_code == 200 and "Hallituksen päätös 12.3.2027 §4" in add.content.decode()  # the hint
    response = client.post(
        reverse("admin:registry_ban_add"),
        {
            "player": who.pk, "starts_on": "2027-01-01", "ends_on": "2027-12-31", "reason": "Häiriköinti",
            "decision": "Hallituksen päätös 12.3.2027 §4", "decided_on": "2027-03-12",
        },
    )
    assert response.status_code == 302
    recorded = Ban.objects.get(player=who)
    assert recorded.created_by == staff and recorded.ends_on == D(2027, 12, 31)
    found = client.get(reverse("admin:registry_ban_changelist"), {"q": "Kieltonen"}).content.decode()
    assert "Kalle Kieltonen" in found and "Olli Toinen" not in found
    assert client.get(reverse("admin:registry_ban_changelist"), {"ends_on__gte": "2027-01-01"}).status_code == 200


def test_the_admin_refuses_an_end_before_the_start(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("liitto", password="salasana-3"))
    response = client.post(
        reverse("admin:registry_ban_add"),
        {
            "player": player().pk, "starts_on": "2027-05-01", "ends_on": "2027-04-30", "reason": "x",
            "decision": "Hallituksen päätös", "decided_on": "2027-03-12",
        },
    )
    assert response.status_code == 200 and not Ban.objects.exists()
