"""The project's own middleware: Finnish first, refusing NUL bytes, and private pages kept by no cache.

Finnish first: the page language is Finnish unless the visitor chose English with the language switch.

Django's LocaleMiddleware would follow the browser's Accept-Language header, so a phone set to English
would get English pages; the federation wants Finnish by default, with English one tap away. This
middleware runs just before LocaleMiddleware and hides that header, so only the language cookie (set by
the switch) or LANGUAGE_CODE decides.
"""

from django.http import HttpResponseBadRequest
from django.utils.cache import patch_cache_control


class FinnishFirstMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)


class RefuseNulMiddleware:
    """A NUL byte anywhere in the path, the query string, a form field or a cookie answers 400.

    No page has a use for one, and PostgreSQL refuses NUL in text (a ``DataError``, so a 500 wherever
    such a value reached a query), while SQLite would store it. This runs first, before anything looks
    the request up in the database. Uploaded files' contents are not looked at (an .xlsx is binary);
    their names are.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if self.has_nul(request):
            return HttpResponseBadRequest(
                "Virheellinen pyyntö: NUL-merkki osoitteessa tai lomakkeessa.\n"
                "Bad request: a NUL character in the address or a form.\n",
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)

    @staticmethod
    def has_nul(request) -> bool:
        if NUL in request.path or NUL in request.path_info or "%00" in request.META.get("QUERY_STRING", ""):
            return True
        if _lists_have_nul(request.GET) or any(NUL in k or NUL in v for k, v in request.COOKIES.items()):
            return True
        if request.method in ("POST", "PUT", "PATCH") and request.content_type in FORM_TYPES:
            if _lists_have_nul(request.POST):
                return True
            return any(NUL in key or NUL in (f.name or "") for key, f in request.FILES.items())
        return False


NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _lists_have_nul(data) -> bool:
    return any(NUL in key or any(NUL in value for value in values) for key, values in data.lists())


class PrivatePagesMiddleware:
    """Every answer under an organiser's or a secret link's address says ``Cache-Control: no-store,
    private``: the organiser pages (``/jarjestaja/``, the team competition's included), a match's
    scoresheet link (``/tulos/<token>/``) and a team leader's link (``/joukkue/<token>/``), and so every
    PDF among them that prints secret links (the scoresheets' QR codes, the team leaders' links). No
    shared proxy and no browser's back cache keeps them. Keyed on the address, it covers a new page
    there, its redirects and its refusals without a word in the view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path_info.startswith(PRIVATE_PREFIXES):
            patch_cache_control(response, no_store=True, private=True)
        return response


# The addresses (tuppiliitto/urls.py, teams/urls.py) whose answers are for one person only.
PRIVATE_PREFIXES = ("/jarjestaja/", "/tulos/", "/joukkue/")
