"""The organiser's pages of the federation: his API tokens, an event file uploaded."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from federation.actions import tokens
from federation.actions.receiving import EventFileError, NotAllowed, receive
from federation.web.api import LARGEST_FILE
from federation.web.forms import EventFileForm, TokenForm
from lib.http import private_link
from tournaments.actions.eventfile import load
from tournaments.output.eventfile import export


@private_link  # the token is shown once: no cache keeps the page
@login_required
def token_list(request):
    form = TokenForm(request.POST or None)
    shown = None
    if request.method == "POST" and form.is_valid():
        _row, shown = tokens.make(request.user, form.cleaned_data["name"])
    rows = request.user.api_tokens.all()
    return render(request, "federation/tokens.html", {"form": form, "tokens": rows, "shown": shown})


@login_required
@require_POST
def token_revoke(request, pk: int):
    if tokens.revoke(request.user, pk):
        messages.success(request, _("Tunnus on peruttu: sillä ei voi enää lähettää kisoja."))
    return redirect("federation:tokens")


@login_required
def upload(request):
    """An event file uploaded by an organiser (as ``push_event`` sends it)."""
    form = EventFileForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            data = load(form.cleaned_data["file"].read(LARGEST_FILE + 1))
            done = receive(data, request.user, exported_now=export)
        except EventFileError as exc:
            for problem in exc.problems:
                form.add_error("file", problem)
        except NotAllowed:
            form.add_error("file", _("Et voi luoda kisoja etkä järjestä tiedoston kisaa."))
        else:
            for note in done.notes:
                messages.info(request, note)
            return redirect("organiser:event", done.event.slug)
    return render(request, "federation/upload.html", {"form": form})
