"""Issue #26: the registry's models were moved by hand-written migrations that change Django's record only
(``SeparateDatabaseAndState``); the record they leave must be the models as written, or the next
``makemigrations`` would write a migration that alters or recreates the moved tables."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_the_migrations_leave_the_models_as_written():
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # exits with 1 on a change
    assert "No changes detected" in out.getvalue()
