"""No secret in any cache entry (issue #23): the team competition the public pages keep in the shared
cache is made of plain values, like the event's snapshot. It holds no model instance (no team leader's
token, no match token, no user row), it pickles small, and it is the same whatever language the page
that computed it was shown in."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import pickle

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import models
from django.urls import reverse
from django.utils import translation

from lib import caching
from teams import results
from teams.actions import common, substitutes
from teams.models import Team
from tests.teams.builders import declare, drawn_event, play, players, row
from tournaments.models import Match
from tournaments.readmodel import snapshot as readmodel
from tournaments.readmodel import values as readmodel_values

PLAIN = (str, bytes, int, float, bool, type(None), dt.date, dt.datetime, dt.time, dt.timedelta)


def everything(value):
    """Every object reachable from ``value``: dataclass fields, containers' items, instances' attributes."""
    seen, stack = set(), [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if isinstance(item, PLAIN) or isinstance(item, type):
            continue
        if dataclasses.is_dataclass(item):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        stack.extend(vars(item).values() if hasattr(item, "__dict__") else ())
        for name in getattr(type(item), "__slots__", ()):
            stack.append(getattr(item, name, None))


class Classes(pickle.Unpickler):
    """An unpickler that notes every class (and function) the pickle names."""

    def __init__(self, data: bytes):
        super().__init__(io.BytesIO(data))
        self.named: set[tuple[str, str]] = set()

    def find_class(self, module, name):
        self.named.add((module, name))
        return super().find_class(module, name)


@pytest.fixture
def played(client, make_event, organiser):
    """Four teams: a substitute named and playing in a declared order, one team match played to its end,
    another started, a third with one order declared (hidden)."""
    event, _teams = drawn_event(make_event, organiser, 4, seed=3)
    first, second = row(event, 1, 1), row(event, 1, 2)
    (substitute,) = players(1)
    substitutes.name_substitute(first.team_a, substitute, common.Actor(user=organiser))
    replaced = first.team_a.team_pairs.first().pair.members.first().player
    declare(first, Team.objects.get(pk=first.team_a_id), substitute_for=replaced)
    play(first, first.team_a)
    declare(second, second.team_a)
    return event


def cached_competition(client, event):
    """The competition as the public pages keep it in the shared cache (what another process unpickles)."""
    caching.clear_local()
    for name in ("bracket", "teams", "final_places"):
        assert client.get(reverse(f"teams:{name}", args=[event.slug])).status_code == 200
    key = f"teams:{readmodel_values.key(*readmodel.current(event))}"
    data = cache.get(key)
    assert data is not None, "the public pages keep the competition in the shared cache"
    return data


def test_the_cached_competition_holds_plain_values_and_no_secret(client, played):
    event = played
    comp = cached_competition(client, event)
    found = list(everything(comp))
    assert len(found) > 100  # the walk reached the teams, the matches and their pairs
    assert [x for x in found if isinstance(x, models.Model)] == []
    data = pickle.dumps(comp)
    unpickler = Classes(data)
    unpickler.load()
    assert not [c for c in unpickler.named if c[0].startswith("django.db")], unpickler.named
    secrets = list(Team.objects.filter(event=event).values_list("token", flat=True))
    secrets += list(Match.objects.filter(event=event).values_list("token", flat=True))
    secrets += list(get_user_model().objects.values_list("password", flat=True))
    assert len(secrets) >= 4 + 3 + 1
    assert [s for s in secrets if s.encode() in data] == []
    # about a kilobyte a team (four teams, twelve pairs, three pair matches): 4.5 kB, where the model rows
    # weighed 19 kB
    assert len(data) < 8_000, len(data)


def test_the_cached_competition_is_the_same_in_every_language(client, played):
    event = played
    with translation.override("en"):
        english = pickle.dumps(results.build(event))
    with translation.override("fi"):
        finnish = pickle.dumps(results.build(event))
    assert english == finnish
    assert pickle.loads(english).teams

