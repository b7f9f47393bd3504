"""Posting as the organiser's desk and federation staff do: a form read from its page, some fields
changed, posted; the admin's change forms the same way (``tests/web/test_versioned_facts.py``)."""

from __future__ import annotations

from django.urls import reverse

from tests.tournaments.actions.test_dependents import _Form, errors


def form_of(client, url: str) -> dict:
    """The fields a browser sends from the page ``url`` (every form on it, as ``_Form`` reads them)."""
    form = _Form()
    form.feed(client.get(url).content.decode())
    return dict(form.data)


def post(client, url: str, data: dict | None = None):
    """A POST; it must answer (a redirect, or the form again with what it refused), never fail."""
    response = client.post(url, data or {})
    assert response.status_code in (200, 302), (url, response.status_code)
    return response


def admin_url(obj, action: str = "change") -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_{action}", args=[obj.pk])


def admin_save(staff, obj, **changes) -> bool:
    """Change ``obj`` in the admin: its change form read, fields changed, saved; whether it was saved
    (a change the admin refuses is an operation too: it must change nothing)."""
    url = admin_url(obj)
    data = {**form_of(staff, url), **{k: str(v) for k, v in changes.items()}, "_save": "Tallenna"}
    response = staff.post(url, data)
    assert response.status_code in (200, 302), (url, response.status_code)
    return response.status_code == 302 or not errors(response.content.decode())
