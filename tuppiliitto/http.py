"""Response headers the project adds itself: the secret-link pages' privacy headers, and the
Permissions-Policy header (Django and django-csp set the others: see settings.py)."""

from __future__ import annotations

from functools import wraps

from django.utils.cache import patch_cache_control

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
