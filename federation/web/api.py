"""The federation's API for the venue laptops: the registry (public) and events in and out (a token)."""

from __future__ import annotations

import hashlib
import json

from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from federation.actions import tokens
from federation.actions.receiving import EventFileError, NotAllowed, receive
from federation.readmodel.registry import document
from tournaments.actions.eventfile import load
from tournaments.models import Event
from tournaments.output.eventfile import export, export_text

LARGEST_FILE = 20 * 1024 * 1024  # a 128-pair event's file is a few megabytes


@require_GET
def registry(request):
    """The registry (``federation.readmodel.registry``), public data only, with an ETag of its bytes."""
    body = json.dumps(document(timezone.localdate()), ensure_ascii=False, sort_keys=True, indent=1).encode() + b"\n"
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    response = get_conditional_response(request, etag=etag) or HttpResponse(body, content_type="application/json")
    response.headers["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response


def refused(status: int, *problems: str) -> JsonResponse:
    response = JsonResponse({"errors": list(problems)}, status=status)
    patch_cache_control(response, no_store=True)
    return response


@csrf_exempt  # no cookie authenticates it: the token in the header does
@require_POST
def import_event(request):
    """An event file from a venue laptop (``push_event``), with an organiser's token."""
    user = tokens.holder(request.headers.get("Authorization"))
    if user is None:
        return refused(401, "Anna voimassa oleva API-tunnus: Authorization: Token …")
    if len(request.body) > LARGEST_FILE:
        return refused(413, "Tiedosto on liian suuri.")
    try:
        data = load(request.body)
    except EventFileError as exc:
        return refused(400, *exc.problems)
    try:
        done = receive(data, user, exported_now=export)
    except EventFileError as exc:  # a conflict with what the site holds
        return refused(409, *exc.problems)
    except NotAllowed:
        return refused(403, "Tunnuksen haltija ei voi luoda kisoja tai ei järjestä tätä kisaa.")
    answer = {
        "slug": done.event.slug,
        "created": done.created,
        "corrected": done.corrected,  # a changed file of an event published here, applied as a correction
        "notes": done.notes,
        "url": request.build_absolute_uri(done.event.get_absolute_url()),
    }
    response = JsonResponse(answer, status=201 if done.created else 200)
    patch_cache_control(response, no_store=True)
    return response


@require_GET
def event_file(request, slug: str):
    """An event's file for one of its organisers (with his token), published or not: a leg created on the
    site goes to the venue laptop with ``pull_registry --event SLUG``."""
    user = tokens.holder(request.headers.get("Authorization"))
    if user is None:
        return refused(401, "Anna voimassa oleva API-tunnus: Authorization: Token …")
    event = get_object_or_404(Event, slug=slug)
    if not event.can_organise(user):
        return refused(403, "Tunnuksen haltija ei järjestä tätä kisaa.")
    response = HttpResponse(export_text(event).encode(), content_type="application/json; charset=utf-8")
    patch_cache_control(response, no_store=True, private=True)
    return response
