"""Finnish first: the page language is Finnish unless the visitor chose English with the language switch.

Django's LocaleMiddleware would follow the browser's Accept-Language header, so a phone set to English
would get English pages; the federation wants Finnish by default, with English one tap away. This
middleware runs just before LocaleMiddleware and hides that header, so only the language cookie (set by
the switch) or LANGUAGE_CODE decides.
"""


class FinnishFirstMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)
