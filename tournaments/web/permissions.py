"""Who may open an organiser page: a logged-in user who organises that event (or a superuser)."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from tournaments import extensions
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


def pair_event_only(view):
    """Wrap an organiser URL of a step only pair events have (import, check-in, the group draw, Sunday):
    for another kind of event (the team competition) it leads to that kind's own pages instead; the view
    itself (with ``organiser_required``) answers anyone who may not organise the event, as always."""

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        event = Event.objects.filter(slug=slug).only("pk", "slug", "kind").first()
        if event is not None and extensions.has_organiser_home(event.kind) and event.can_organise(request.user):
            messages.info(request, _("Tätä vaihetta ei ole tämän lajin kisassa: sen vaiheet ovat sen omilla sivuilla."))
            return redirect(extensions.organiser_home(event))
        return view(request, slug, *args, **kwargs)

    return wrapper
