"""``/terveys/``: a health check for a load balancer or a monitor (healthchecks style), and the benchmarks'
reference: the cheapest answer the application gives through its whole middleware. It touches no
database, so a slow database shows in the pages, not here."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@require_GET
@never_cache
def health(request):
    return HttpResponse("ok\n", content_type="text/plain; charset=utf-8")
