"""Organiser login and logout."""

from __future__ import annotations

import logging

from django.urls import reverse


def test_login_page_in_finnish(client, db):
    html = client.get(reverse("login")).content.decode()
    assert "Käyttäjätunnus" in html and "Salasana" in html


def test_wrong_password_says_so_and_logs_nothing_sensitive(client, organiser, caplog):
    with caplog.at_level(logging.DEBUG):
        response = client.post(reverse("login"), {"username": "organiser", "password": "arvattu-salasana-9"})
    assert response.status_code == 200
    assert "Väärä käyttäjätunnus tai salasana" in response.content.decode()
    assert "arvattu-salasana-9" not in caplog.text
    assert "_auth_user_id" not in client.session
    # what was typed in the user name is kept, the password is not echoed back
    assert 'value="organiser"' in response.content.decode()
    assert "arvattu-salasana-9" not in response.content.decode()


def test_login_and_logout(client, organiser):
    response = client.post(reverse("login"), {"username": "organiser", "password": "salasana-1"})
    assert response.status_code == 302
    assert response.headers["Location"] == reverse("organiser:home")
    assert client.get(reverse("organiser:home")).status_code == 200
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    response = client.get(reverse("organiser:home"))
    assert response.status_code == 302
    assert response.headers["Location"].startswith(reverse("login"))


def test_organiser_home_requires_login(client, db):
    response = client.get(reverse("organiser:home"))
    assert response.status_code == 302
    assert reverse("login") in response.headers["Location"]


def test_admin_for_staff_only(client, organiser, django_user_model):
    client.force_login(organiser)
    assert client.get(reverse("admin:index")).status_code == 302  # not staff: sent to the admin login
    staff = django_user_model.objects.create_user("staff", password="x-salasana-3", is_staff=True, is_superuser=True)
    client.force_login(staff)
    assert client.get(reverse("admin:registry_player_changelist")).status_code == 200
