"""Hardening, point by point: login throttling on both login pages, the security headers on every page,
the secret-link pages' privacy headers, NUL bytes answering 400, non-numeric ids as form errors, an
invalid event edit showing its errors, and refused requests logged in one line."""

from __future__ import annotations

import datetime as dt
import logging

import pytest
from django.urls import reverse

from registry.models import Player
from tests.support.builders import add_pairs
from tests.teams.builders import add_team, team_event
from tournaments.actions import draw
from tournaments.models import Match

# Login throttling ----------------------------------------------------------------------------------

LOCKED = "Liian monta epäonnistunutta kirjautumista. Tunnus on lukittu tästä osoitteesta 15 minuutiksi"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("staff", password="oikea-salasana-7", is_staff=True)


@pytest.mark.parametrize("url_name", ["login", "admin:login"])
def test_five_failures_lock_the_user_out_from_that_address(client, staff, url_name, clock, monkeypatch):
    # django-axes took its own reference to timezone.now: let it read the test's clock too
    monkeypatch.setattr("axes.handlers.proxy.now", clock.now)
    monkeypatch.setattr("axes.attempts.now", clock.now)
    url = reverse(url_name)
    for _ in range(4):
        response = client.post(url, {"username": "staff", "password": "väärä"})
        assert response.status_code == 200
        assert LOCKED not in response.content.decode()
    response = client.post(url, {"username": "staff", "password": "väärä"})  # the fifth
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    # the right password does not get in meanwhile, on either login page
    for page in ("login", "admin:login"):
        response = client.post(reverse(page), {"username": "staff", "password": "oikea-salasana-7"})
        assert response.status_code == 429, page
        assert LOCKED in response.content.decode()
        assert "_auth_user_id" not in client.session
    # the same user from another address, and another user from this one, still log in
    other = client.__class__(REMOTE_ADDR="10.9.8.7")
    assert other.post(reverse("login"), {"username": "staff", "password": "oikea-salasana-7"}).status_code == 302
    # after the cool-off (15 minutes) the right password works again
    clock.set(clock.now() + dt.timedelta(minutes=16))
    response = client.post(reverse("login"), {"username": "staff", "password": "oikea-salasana-7"})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


def test_the_lockout_page_is_the_finnish_login_page(client, staff):
    for _ in range(5):
        response = client.post(reverse("login"), {"username": "staff", "password": "väärä"})
    html = response.content.decode()
    assert 'role="alert"' in html and LOCKED in html
    assert "Käyttäjätunnus" in html and 'value="staff"' in html


@pytest.mark.parametrize("url_name", ["login", "admin:login"])
def test_a_5000_character_user_name_is_just_a_failed_login(client, staff, url_name):
    for _ in range(6):
        response = client.post(reverse(url_name), {"username": "x" * 5000, "password": "väärä"})
        assert response.status_code in (200, 429)
    assert client.post(reverse(url_name), {"username": "staff", "password": "oikea-salasana-7"}).status_code == 302


def test_failures_spread_over_users_lock_no_one(client, django_user_model):
    django_user_model.objects.create_user("aino", password="aino-salasana-1")
    for name in ("a", "b", "c", "d", "e", "f"):
        client.post(reverse("login"), {"username": name, "password": "väärä"})
    assert client.post(reverse("login"), {"username": "aino", "password": "aino-salasana-1"}).status_code == 302


def test_behind_a_proxy_the_forwarded_address_counts(client, staff, settings):
    settings.TRUSTED_PROXIES = 1
    for _ in range(5):
        client.post(reverse("login"), {"username": "staff", "password": "väärä"}, HTTP_X_FORWARDED_FOR="203.0.113.5")
    locked = client.post(
        reverse("login"), {"username": "staff", "password": "oikea-salasana-7"}, HTTP_X_FORWARDED_FOR="203.0.113.5"
    )
    assert locked.status_code == 429
    other = client.post(
        reverse("login"), {"username": "staff", "password": "oikea-salasana-7"}, HTTP_X_FORWARDED_FOR="198.51.100.1"
    )
    assert other.status_code == 302


# Headers ------------------------------------------------------------------------------------------


@pytest.fixture
def played(make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    add_pairs(event, 16)
    draw.draw_groups(event, organiser, seed=3)
    return event


def test_every_kind_of_page_has_the_policy_headers(client, played, organiser):
    match = Match.objects.filter(event=played).first()
    urls = [
        "/", reverse("event", args=[played.slug]), reverse("login"), reverse("admin:login"),
        reverse("link:sheet", args=[match.token]), "/ei-ole-olemassa/", reverse("api_events"),
        reverse("cup:event_xlsx", args=[played.slug]),
    ]
    for url in urls:
        response = client.get(url)
        policy = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, url
        assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, url
        assert "camera=()" in response.headers.get("Permissions-Policy", ""), url
    client.force_login(organiser)
    response = client.get(reverse("organiser:event", args=[played.slug]))
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_the_match_link_is_private(client, played):
    match = Match.objects.filter(event=played).first()
    response = client.get(reverse("link:sheet", args=[match.token]))
    assert response.status_code == 200
    assert set(response.headers["Cache-Control"].replace(" ", "").split(",")) == {"no-store", "private"}
    assert response.headers["X-Robots-Tag"] == "noindex"
    assert '<meta name="robots" content="noindex">' in response.content.decode()
    # a POST answer (a refused line shown again) too
    response = client.post(reverse("link:add", args=[match.token]), {"version": "x"})
    assert "no-store" in response.headers["Cache-Control"]


def test_the_team_leader_link_is_private(client, make_event, organiser):
    event = team_event(make_event, organiser)
    team = add_team(event, "Kemi")
    response = client.get(reverse("teams:leader", args=[team.token]))
    assert response.status_code == 200
    assert set(response.headers["Cache-Control"].replace(" ", "").split(",")) == {"no-store", "private"}
    assert response.headers["X-Robots-Tag"] == "noindex"
    assert '<meta name="robots" content="noindex">' in response.content.decode()


def test_public_pages_stay_cacheable_and_indexable(client, played):
    response = client.get(reverse("event", args=[played.slug]))
    assert "no-store" not in response.headers.get("Cache-Control", "")
    assert "X-Robots-Tag" not in response.headers


# NUL bytes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method,url,data",
    [
        ("get", "/tulos/%00/", None),
        ("get", "/kisat/a%00b/", None),
        ("get", "/?haku=ab%00cd", None),
        ("get", "/joukkue/x/?haku=ab%00cd", None),
        ("get", "/cup/?%00=1", None),
        ("post", "/kirjaudu/", {"username": "a\x00b", "password": "x"}),
        ("post", "/tulos/abc/rivi/", {"tricks_a": "1\x00"}),
    ],
)
def test_a_nul_byte_answers_400(client, played, method, url, data):
    response = getattr(client, method)(url, data) if data else getattr(client, method)(url)
    assert response.status_code == 400
    assert "NUL" in response.content.decode()


def test_a_nul_byte_in_a_multipart_form_and_in_a_cookie(client, logged_in, played):
    from django.core.files.uploadedfile import SimpleUploadedFile

    url = reverse("organiser:import", args=[played.slug])
    assert logged_in.post(url, {"action": "upload", "x": "a\x00"}).status_code == 400
    # an .xlsx is binary: NUL bytes inside an uploaded file are its own business
    upload = SimpleUploadedFile("parit.xlsx", b"PK\x03\x04\x00\x00garbage")
    assert logged_in.post(url, {"file": upload}).status_code in (200, 302)
    # a quoted cookie value may spell a NUL as an octal escape
    assert client.get("/", HTTP_COOKIE='sessionid="\\000abc"').status_code == 400


# Odd ids and forms --------------------------------------------------------------------------------


def test_leader_substitute_with_a_non_numeric_player_is_a_form_error(client, make_event, organiser):
    event = team_event(make_event, organiser)
    team = add_team(event, "Kemi")
    url = reverse("teams:leader", args=[team.token])
    for value in ("abc", "-1", "9" * 30, "", "1.5", "²"):
        response = client.post(url + "varamies/", {"player": value}, follow=True)
        assert response.status_code == 200, value
        html = response.content.decode()
        assert "Pelaajaa ei löydy" in html or "Valitse varamies hakutuloksista" in html, value
    team.refresh_from_db()
    assert team.substitute_id is None


def test_organiser_substitute_with_a_non_numeric_player_is_a_form_error(logged_in, make_event, organiser):
    event = team_event(make_event, organiser)
    team = add_team(event, "Kemi")
    url = reverse("teams_organiser:substitute", args=[event.slug, team.pk])
    for value in ("abc", "-1", "9" * 30, "1.5"):
        response = logged_in.post(url, {"player": value}, follow=True)
        assert response.status_code == 200, value
        assert "Pelaajaa ei löydy" in response.content.decode(), value
    free = Player.objects.create(first_name="Vara", last_name="Mies")
    response = logged_in.post(url, {"player": str(free.pk)}, follow=True)
    team.refresh_from_db()
    assert team.substitute_id == free.pk


def test_odd_ids_on_the_entry_pages(logged_in, played):
    pairs = reverse("organiser:pairs", args=[played.slug])
    for value in ("²", "9" * 5000, "-3", "abc", "١٢"):
        assert logged_in.get(pairs, {"club": value, "p1-player": value}).status_code == 200, value
    checkin = reverse("organiser:checkin_toggle", args=[played.slug])
    for value in ("²", "9" * 5000, "abc"):
        assert logged_in.post(checkin, {"pair": value}).status_code == 404, value


def test_an_invalid_event_edit_shows_its_errors(logged_in, played):
    url = reverse("organiser:event_edit", args=[played.slug])
    response = logged_in.post(url, {"name": "", "slug": ""})
    assert response.status_code == 200
    html = response.content.decode()
    assert "field-error" in html or "errorlist" in html
    assert reverse("organiser:event", args=[played.slug]) in html  # the links still lead to the event
    played.refresh_from_db()
    assert played.slug and played.name
    # a valid new address with another field wrong: the links keep the saved address
    response = logged_in.post(url, {"name": "Uusi nimi", "slug": "uusi-osoite", "starts_on": "x"})
    assert response.status_code == 200
    assert "/jarjestaja/kisat/uusi-osoite/" not in response.content.decode()


# Logging ------------------------------------------------------------------------------------------


def test_a_403_is_logged_in_one_line_without_a_traceback(client, played, outsider, caplog):
    from tuppiliitto.logfilters import OneLineClientErrors

    client.force_login(outsider)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(reverse("organiser:event", args=[played.slug]))
    assert response.status_code == 403
    records = [r for r in caplog.records if getattr(r, "status_code", None) == 403]
    assert records
    handler = logging.StreamHandler()
    handler.addFilter(OneLineClientErrors())
    for record in records:
        assert all(f.filter(record) for f in handler.filters)
        text = logging.Formatter().format(record)
        assert "\n" not in text and "Traceback" not in text
        assert "Forbidden" in text


def test_the_settings_put_the_filter_on_the_console():
    from django.conf import settings

    console = settings.LOGGING["handlers"]["console"]
    assert "one_line_client_errors" in console["filters"]
    root = logging.getLogger()
    assert any(
        type(f).__name__ == "OneLineClientErrors" for h in root.handlers for f in h.filters
    )


def test_a_500_keeps_its_traceback():
    from tuppiliitto.logfilters import OneLineClientErrors

    try:
        raise RuntimeError("rikki")
    except RuntimeError:
        import sys

        record = logging.LogRecord("django.request", logging.ERROR, "x", 1, "Internal Server Error: /", (), sys.exc_info())
    record.status_code = 500
    OneLineClientErrors().filter(record)
    assert "Traceback" in logging.Formatter().format(record)
