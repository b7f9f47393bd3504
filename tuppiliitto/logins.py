"""Login throttling with django-axes (settings.py sets the limits: 5 failures for one user name from one
address within 15 minutes lock that pair out for 15 minutes).

``locked_out`` is axes' lockout response: the login page again (``/kirjaudu/`` or the admin's), with a
Finnish message, status 429. The right password does not get in meanwhile: axes' backend refuses the
attempt before any password is checked. ``client_address`` is the address axes counts by: the
connection's, or behind ``DJANGO_TRUSTED_PROXIES`` proxies the one the outermost of them saw.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from tuppiliitto.forms import LoginForm


def lockout_message() -> str:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return _(
        "Liian monta epäonnistunutta kirjautumista. Tunnus on lukittu tästä osoitteesta %(minutes)d "
        "minuutiksi: yritä myöhemmin uudelleen."
    ) % {"minutes": minutes}


def locked_out(request, original_response=None, credentials=None):
    status = settings.AXES_HTTP_RESPONSE_CODE
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    if request.path.startswith(reverse("admin:index")):
        messages.error(request, lockout_message())
        context = {
            **admin.site.each_context(request),
            "title": _("Kirjaudu"),
            "app_path": request.get_full_path(),
            "form": admin.site.login_form(request) if admin.site.login_form else LoginForm(request),
            "username": username,
            REDIRECT_FIELD_NAME: request.GET.get(REDIRECT_FIELD_NAME) or reverse("admin:index"),
        }
        return render(request, "admin/login.html", context, status=status)
    form = LoginForm(request, initial={"username": username})
    context = {
        "form": form,
        "lockout_message": lockout_message(),
        "next": request.POST.get(REDIRECT_FIELD_NAME, ""),
    }
    return render(request, "registration/login.html", context, status=status)


def client_address(request) -> str | None:
    """The client's address: ``REMOTE_ADDR``, or behind N trusted proxies (``DJANGO_TRUSTED_PROXIES``,
    each appending to ``X-Forwarded-For``) the N-th entry from the right."""
    proxies = settings.TRUSTED_PROXIES
    if proxies:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [part for part in forwarded if part]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")


def attempt_username(request, credentials=None) -> str | None:
    """The user name axes records and locks by: as typed, cut to 150 characters (no user name is longer;
    axes keeps it in a 255-character column, and PostgreSQL refuses longer values)."""
    field = settings.AXES_USERNAME_FORM_FIELD
    value = (credentials or {}).get(field) if credentials else None
    if value is None:
        value = request.POST.get(field)
    return str(value)[:150] if value is not None else None
