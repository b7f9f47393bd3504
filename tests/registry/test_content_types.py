"""Issue #26: the models that moved from ``tournaments`` to the registry have their content types (and with
them their permissions and the admin's history) under "registry", one each: on a new database, and on an
old one whose content types were made under "tournaments" (``registry/migrations/0002_content_types.py``;
the whole move from the previous release: ``test_migration_from_previous_release.py``)."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from registry.models import Club, Player, Season, SeasonClub, Transfer

pytestmark = pytest.mark.django_db
MOVE = importlib.import_module("registry.migrations.0002_content_types")
MODELS = (Club, Player, Season, SeasonClub, Transfer)
BORN_HERE = ("ban",)  # a model the registry was given after the move (issue #29): its own permissions


def test_a_new_database_has_one_registry_content_type_for_each_moved_model():
    ContentType.objects.clear_cache()
    assert {ContentType.objects.get_for_model(m).app_label for m in MODELS} == {"registry"}
    assert not ContentType.objects.filter(app_label="tournaments", model__in=MOVE.MODELS).exists()
    assert set(Permission.objects.filter(content_type__app_label="registry").values_list("codename", flat=True)) == {
        f"{action}_{model}" for action in ("add", "change", "delete", "view") for model in (*MOVE.MODELS, *BORN_HERE)
    }


def test_an_old_databases_content_types_move_with_their_grants_and_history(django_user_model):
    """As an old database has them: the content types under "tournaments", a user granted a permission of
    one, an entry of the admin's history; and a registry content type made meanwhile (a ``migrate`` that
    stopped between the migrations makes one) gives way to the old one."""
    ContentType.objects.filter(app_label="registry").update(app_label="tournaments")
    old = ContentType.objects.get(app_label="tournaments", model="club")
    user = django_user_model.objects.create_user("kerhovastaava")
    user.user_permissions.add(Permission.objects.get(content_type=old, codename="change_club"))
    staff = django_user_model.objects.create_user("liitto", is_staff=True)
    club = Club.objects.create(name="Sodankylän Tuppikerho")
    LogEntry.objects.create(user=staff, content_type=old, object_id=str(club.pk), object_repr=str(club),
                            action_flag=CHANGE)
    meanwhile = ContentType.objects.create(app_label="registry", model="club")

    MOVE.forwards(apps, SimpleNamespace(connection=connection))

    ContentType.objects.clear_cache()
    assert list(ContentType.objects.filter(model__in=MOVE.MODELS).values_list("app_label", flat=True)) == ["registry"] * 5
    assert ContentType.objects.get_for_model(Club).pk == old.pk
    assert not ContentType.objects.filter(pk=meanwhile.pk).exists()
    user = django_user_model.objects.get(pk=user.pk)  # permissions are cached on the instance
    assert user.has_perm("registry.change_club")
    assert LogEntry.objects.get().get_edited_object() == club
