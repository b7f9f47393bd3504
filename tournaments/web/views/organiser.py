"""Organiser pages: each needs a login and a permission for its event."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from registry.models import Season
from tournaments.actions import draw as draw_actions
from tournaments.actions.event_copy import copy_event
from tournaments.models import Event
from tournaments.readmodel.prefetch import saturday_groups
from tournaments.web.forms import FORMAT_FIELDS, CopyEventForm, EventForm, RedrawForm, SwapForm
from tournaments.web.permissions import organiser_required
from tournaments.web.sure import unconfirmed
from tournaments.web.views import day


@login_required
def home(request):
    events = Event.objects.all() if request.user.is_superuser else request.user.organised_events.all()
    can_create = request.user.has_perm("tournaments.add_event")
    return render(
        request,
        "tournaments/organiser/home.html",
        {"events": events.order_by("-starts_on"), "can_create": can_create},
    )


@login_required
@permission_required("tournaments.add_event", raise_exception=True)
def event_create(request):
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = form.save(commit=False)
        event.season = Season.for_date(event.starts_on)
        event.save()
        event.organisers.add(request.user)
        messages.success(request, _("Kisa on luotu."))
        return redirect("organiser:event", event.slug)
    return render(request, "tournaments/organiser/event_form.html", {"form": form})


@organiser_required
def event_edit(request, event):
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST":
        if form.is_valid():
            event = form.save(commit=False)
            event.season = Season.for_date(event.starts_on)
            event.save()
            messages.success(request, _("Muutokset on tallennettu."))
            return redirect("organiser:event", event.slug)
        # The form has put the refused values on its instance: the page's links use the saved event.
        event = Event.objects.get(pk=event.pk)
    return render(request, "tournaments/organiser/event_form.html", {"form": form, "event": event, "section": "edit"})


@organiser_required
def event_copy(request, event):
    """The next leg in three clicks: the event's settings, times, fee, venue and officials under a new name
    and date, without pairs or results."""
    if not request.user.has_perm("tournaments.add_event"):
        raise PermissionDenied
    form = CopyEventForm(request.POST or None, initial={"name": event.name})
    if request.method == "POST" and form.is_valid():
        leg = copy_event(event, user=request.user, **form.cleaned_data)
        messages.success(request, _("Kisa on kopioitu: tarkista tiedot ja lisää parit."))
        return redirect("organiser:event", leg.slug)
    return render(request, "tournaments/organiser/event_copy.html", {"form": form, "event": event})


@organiser_required
def event_dashboard(request, event):
    counts = event.pairs.aggregate(
        total=Count("pk", filter=Q(withdrawn_at__isnull=True)),
        present=Count("pk", filter=Q(withdrawn_at__isnull=True, checked_in=True)),
        withdrawn=Count("pk", filter=Q(withdrawn_at__isnull=False)),
    )
    return render(
        request,
        "tournaments/organiser/event.html",
        {"event": event, "counts": counts, "section": "dashboard", "locked": draw_actions.draw_locked(event)},
    )


@organiser_required
def draw(request, event):
    """The first draw (one tap), or a redraw: it replaces the groups, so it asks for confirmation, and may
    change the format and deal counts with it."""
    redraw = RedrawForm(request.POST or None, instance=event) if event.drawn_at else None
    if request.method == "POST" and (redraw is None or redraw.is_valid()):
        changes = {name: redraw.cleaned_data[name] for name in FORMAT_FIELDS} if redraw is not None else None
        try:
            draw_actions.draw_groups(event, request.user, changes=changes)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _("Lohkot on arvottu ja ottelut laadittu."))
            return redirect("organiser:draw", event.slug)
    event.refresh_from_db()
    context = {
        "redraw_form": redraw or (RedrawForm(instance=event) if event.drawn_at else None),
        "event": event,
        "section": "draw",
        "groups": saturday_groups(event),
        "locked": draw_actions.draw_locked(event),
        "swap_form": SwapForm(event=event),
        "pair_count": event.pairs.filter(withdrawn_at__isnull=True).count(),
    }
    context["preview"] = day.draw_preview(event, context["pair_count"])  # groups, deals, unpaid (issue #25)
    return render(request, "tournaments/organiser/draw.html", context)


@organiser_required
@require_POST
def swap(request, event):
    if unconfirmed(request):  # the two groups' schedules are made again
        return redirect("organiser:draw", event.slug)
    form = SwapForm(request.POST, event=event)
    if form.is_valid():
        try:
            draw_actions.swap_pairs(event, form.cleaned_data["pair_x"], form.cleaned_data["pair_y"], request.user)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _("Parit on vaihdettu ja ottelut laadittu uudelleen."))
    else:
        messages.error(request, _("Valitse kaksi paria."))
    return redirect("organiser:draw", event.slug)
