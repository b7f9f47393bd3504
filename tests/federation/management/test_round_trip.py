"""One federation, many venues (issue #27.4), over HTTP between two installations: the federation's site
(a real gunicorn server with a database of its own) and a venue laptop (this test's database, through the
commands an organiser runs on it).

Before the day the laptop brings the registry and a leg created on the site (``pull_registry --event``);
on the day it plays an event; after it sends the event (``push_event``), twice. The site then holds the
laptop's event to the byte (its published file is the laptop's export), counts it in the season's cup,
and the registries of both are the same document."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import call_command

from cup.models import CupEvent
from federation.readmodel.registry import document
from tests.support.servers import ROOT, Server, server_env
from tournaments.models import Event
from tournaments.output.eventfile import export_text

pytestmark = pytest.mark.slow

SITE_SETUP = r"""
import datetime as dt, json
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from federation.actions import tokens
from registry.demo import ensure_registry
from registry.models import Season
from tournaments.models import Event

ensure_registry()
user = get_user_model().objects.create_user("sihteeri", password="salasana-liitto-1")
user.user_permissions.add(Permission.objects.get(codename="add_event"))
leg = Event.objects.create(name="Kevättuppi", slug="kevattuppi", season=Season.for_date(dt.date(2027, 3, 6)),
                           starts_on=dt.date(2027, 3, 6), ends_on=dt.date(2027, 3, 7), venue="Levi")
leg.organisers.add(user)
print(json.dumps({"token": tokens.make(user, "kisakone")[1]}))
"""


@pytest.fixture
def site(tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'site.sqlite3'}", f"file://{tmp_path / 'cache'}")
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=300)
    done = subprocess.run([*manage, "shell", "-c", SITE_SETUP], cwd=ROOT, env=env, check=True, timeout=300,
                          capture_output=True, text=True)
    token = json.loads(done.stdout.strip().splitlines()[-1])["token"]
    server = Server(env, tmp_path / "site.log")
    try:
        yield server, f"http://127.0.0.1:{server.port}", token
    finally:
        server.stop()


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def site_json(server, path: str):
    status, _headers, body = server.request("GET", path)
    assert status == 200, (path, status, body[:300])
    return body


def test_a_leg_from_the_site_to_the_laptop_and_back(db, site, clock):
    server, url, token = site
    # before the day: the registry and the leg created on the site
    said = run("pull_registry", url, "--event", "kevattuppi", "--token", token)
    assert "kevattuppi: brought" in said
    site_registry = json.loads(site_json(server, "/api/registry/"))
    here = document(clock.now().date())
    assert {k: v for k, v in here.items() if k != "bans"} == {k: v for k, v in site_registry.items() if k != "bans"}
    assert len(here["players"]) > 100
    status, _h, site_file = server.request("GET", "/api/events/kevattuppi/file/", {"Authorization": f"Token {token}"})
    assert status == 200 and export_text(Event.objects.get(slug="kevattuppi")).encode() == site_file
    assert "already here" in run("pull_registry", url, "--event", "kevattuppi", "--token", token)

    # the day: an event played on the laptop with the registry's players, counted for the cup
    slug = run("simulate_event", "--pairs", "16", "--seed", "2").split()[-1]
    event = Event.objects.get(slug=slug)
    CupEvent.objects.create(event=event, weight=1)
    assert event.pairs.filter(members__player__member_number__isnull=True).count() == 0

    # after it: to the site, twice
    assert f"{slug}: received" in run("push_event", slug, url, "--token", token)
    assert f"{slug}: already there, unchanged" in run("push_event", slug, url, "--token", token)
    assert site_json(server, f"/kisat/{slug}/tapahtuma.json") == export_text(Event.objects.get(slug=slug)).encode()
    api = json.loads(site_json(server, f"/api/events/{slug}/"))
    assert api["status"] == "finished" and api["event_file"]
    seasons = json.loads(site_json(server, "/api/seasons/"))["seasons"]
    cups = [json.loads(site_json(server, f"/api/seasons/{s['id']}/cup/")) for s in seasons]
    assert any(slug in json.dumps(cup) for cup in cups)  # the leg counts in the site's cup


def test_a_wrong_token_or_address_is_said_plainly(db, site):
    _server, url, _token = site
    with pytest.raises(Exception, match="401|API"):
        run("pull_registry", url, "--event", "kevattuppi", "--token", "tpt_wrong")
    with pytest.raises(Exception, match="web address"):
        run("pull_registry", "tuppiliitto.example")
