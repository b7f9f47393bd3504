"""The demo registry: clubs and invented players (``fixtures/demo_registry.json``, written by
``fixtures/make_demo_registry.py``), for the demo site and the simulations."""

from __future__ import annotations

from django.conf import settings
from django.core.management import call_command

from registry.models import Club

DEMO_REGISTRY = settings.BASE_DIR / "fixtures" / "demo_registry.json"


def ensure_registry() -> bool:
    """Load the demo clubs and players (fixtures/demo_registry.json) into an empty registry; True if loaded."""
    if Club.objects.exists():
        return False
    call_command("loaddata", str(DEMO_REGISTRY), verbosity=0)
    return True
