"""Organiser pages: each needs a login and a permission for its event."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from tournaments.models import Event


@login_required
def home(request):
    events = Event.objects.all() if request.user.is_superuser else request.user.organised_events.all()
    return render(request, "tournaments/organiser/home.html", {"events": events.order_by("-starts_on")})
