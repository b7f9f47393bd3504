"""Two checks for a load balancer or a monitor.

``/terveys/``: the process is alive (healthchecks style), and the benchmarks' reference: the cheapest
answer the application gives through its whole middleware. It touches no database, so a slow database
shows in the pages, not here.

``/terveys/valmis/``: the process is ready to serve. JSON ``{"database": "ok" | "down", "cache": "ok" |
"down"}``, 200 while the database answers (a cache that is down makes pages slower, not wrong: they are
computed without it, ``lib.cache``), 503 when the database does not. Both are never cached.
"""

from __future__ import annotations

from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from lib.cache import healthy


@require_GET
@never_cache
def health(request):
    return HttpResponse("ok\n", content_type="text/plain; charset=utf-8")


@require_GET
@never_cache
def ready(request):
    database = database_answers()
    cache = healthy(caches["default"])
    return JsonResponse(
        {"database": "ok" if database else "down", "cache": "ok" if cache else "down"},
        status=200 if database else 503,
    )


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        return False
