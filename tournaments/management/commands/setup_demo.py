"""Prepare a demo season on an empty database; leave an existing one alone.

Loads the demo clubs and players (fixtures/demo_registry.json) when there are no clubs yet, creates the
demo accounts when they are missing, and creates the demo events when there are no events yet, with
what the other apps add to them (``tournaments.extensions.register_demo``: the cup counts the finished
events, the team app plays an SM team competition). Run it twice and nothing changes the second time.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from registry.demo import ensure_registry
from tournaments import extensions
from tournaments.actions.demo import create_demo_events
from tournaments.models import Event

DEMO_ORGANISER = ("jarjestaja", "tuppi-demo-2026")
DEMO_STAFF = ("liitto", "tuppi-liitto-2026")


class Command(BaseCommand):
    help = "Load the demo season into an empty database (idempotent)."

    def handle(self, *args, **options):
        with transaction.atomic():
            if ensure_registry():
                self.stdout.write("Loaded the demo clubs and players from fixtures/demo_registry.json.")
            organiser = self._user(*DEMO_ORGANISER, staff=False)
            self._user(*DEMO_STAFF, staff=True)
            if not Event.objects.exists():
                self._events(organiser)
        self.stdout.write(
            f"Demo organiser: {DEMO_ORGANISER[0]} / {DEMO_ORGANISER[1]}; federation staff: "
            f"{DEMO_STAFF[0]} / {DEMO_STAFF[1]}"
        )

    def _user(self, username: str, password: str, *, staff: bool):
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(username=username, password=password)
            user.is_staff = staff
            user.is_superuser = staff
            user.save()
            user.user_permissions.add(Permission.objects.get(codename="add_event", content_type__app_label="tournaments"))
            self.stdout.write(f"Created the demo account {username}.")
        return user

    def _events(self, organiser) -> None:
        today = timezone.localdate()
        for event in create_demo_events(organiser, today=today):
            self.stdout.write(f"Created the demo event {event.name} ({event.slug}).")
        # what the apps built on tournaments add (tournaments.extensions): the cup, a team competition
        for step in extensions.demo_steps():
            for line in step(organiser, today):
                self.stdout.write(line)


