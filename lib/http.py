"""HTTP helpers that know no app: the secret-link pages' privacy headers and the Permissions-Policy header
(Django and django-csp set the others: see settings.py); the public address of a page, a PDF answer, the
one parser of an integer parameter and the one safe way back to the page a form was on."""

from __future__ import annotations

import ipaddress
from functools import wraps
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse, HttpResponseRedirect
from django.utils.cache import patch_cache_control
from django.utils.http import url_has_allowed_host_and_scheme

# Nothing here needs a camera, a microphone, the position or a payment; no other site may ask for them.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media", "fullscreen",
        "geolocation", "gyroscope", "magnetometer", "microphone", "midi", "payment", "picture-in-picture",
        "publickey-credentials-get", "screen-wake-lock", "serial", "usb", "xr-spatial-tracking",
    )
)


def private_link(view):
    """A page reached through a secret link (a match's result entry, a team leader's page): no cache on
    the way or in the browser keeps it, and no search engine indexes it (the templates also carry
    ``<meta name="robots" content="noindex">``)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        patch_cache_control(response, no_store=True, private=True)
        response.headers["X-Robots-Tag"] = "noindex"
        return response

    return wrapper


class PermissionsPolicyMiddleware:
    """Adds ``Permissions-Policy`` to every response."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


def public_url(request, path: str = "/") -> str:
    """The address a printed link or QR code gives for ``path``: ``TUPPI_PUBLIC_URL`` when set (the
    venue laptop's address on the local network, or the public site), else the host this page was
    requested from."""
    base = settings.TUPPI_PUBLIC_URL or request.build_absolute_uri("/")
    return base.rstrip("/") + path


def loopback(url: str) -> bool:
    """Does ``url`` point at this machine only (127.0.0.1, localhost, ::1)? A QR code with such an address
    opens on no phone: the printouts page warns (``make venue`` or ``TUPPI_PUBLIC_URL`` give a reachable one)."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def int_param(value, default: int | None = None) -> int | None:
    """A parameter (GET or POST) read as a non-negative integer, else ``default``: only ASCII digits, at
    most 18 of them (a larger number would overflow a database key), so "-1", " 2", "٣" and "1e3" are
    not numbers here."""
    text = str(value or "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else default


def redirect_back(request, fallback: str, *, field: str = "back", under: str = "/") -> HttpResponseRedirect:
    """Back to the page a form was on, named by the POST field ``field``: a path of this site starting with
    ``under`` (never another site, a scheme-relative ``//host`` or a view name), else ``fallback``."""
    target = request.POST.get(field, "")
    allowed = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False)
    if not allowed or not target.startswith(under) or "//" in target or "\\" in target:
        target = fallback
    return HttpResponseRedirect(target)
