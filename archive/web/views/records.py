"""The records page (issue #28 point 3, ``/tilastot/``): the federation's records, each linking to the
players and to the event, match or season it comes from. The rendered records are kept under the records'
own key and the language (``lib.caching``): a warm page costs two light queries and no template loop."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from archive.readmodel import records as read
from archive.web.views import cached_body


@require_GET
def index(request):
    key, cups = read.current_key()
    body = cached_body(key, "archive/_records_body.html", lambda: {"records": read.of_key(key, cups)})
    return render(request, "archive/records.html", {"body": body})
