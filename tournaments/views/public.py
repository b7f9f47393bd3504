"""Public pages: read-only, no login, made for a phone."""

from django.shortcuts import get_object_or_404, render

from tournaments.models import Event


def home(request):
    events = list(Event.objects.select_related("organising_club").order_by("starts_on", "name"))
    by_status = {"live": [], "upcoming": [], "finished": []}
    for event in events:
        by_status[event.status].append(event)
    by_status["finished"].reverse()  # the most recent first
    return render(request, "tournaments/public/home.html", {"by_status": by_status})


def event(request, slug):
    event = get_object_or_404(Event.objects.select_related("organising_club", "season"), slug=slug)
    return render(request, "tournaments/public/event.html", {"event": event})
