"""Who may open an organiser page: a logged-in user who organises that event (or a superuser)."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from tournaments.models import Event


def organiser_required(view):
    """Decorate ``view(request, event, ...)``: the URL's ``slug`` becomes the event, and anyone but the
    event's organisers gets 403 (a logged-out visitor is sent to the login page)."""

    @login_required
    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        event = get_object_or_404(Event.objects.select_related("season", "organising_club"), slug=slug)
        if not event.can_organise(request.user):
            raise PermissionDenied
        return view(request, event, *args, **kwargs)

    return wrapper
