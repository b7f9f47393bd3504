"""Run inside one release's tree (``python site_snapshot.py MODE ...`` with that tree as the working folder
and on ``PYTHONPATH``), against the database ``DATABASE_URL`` names; used by
``test_migration_from_previous_release.py`` for the previous release and for today's code alike, so it
uses only what both have (Django's test client, the admin, ``tournaments.models.Event``).

- ``fill``: what the simulations leave out: a staff member's change of a club in the admin (an entry of
  the admin's history) and a user granted the permission to change players.
- ``pages OUT``: every public page and API answer, found by following the links (``href``, ``hx-get``)
  from the home page, the cup, the API's lists and each event's first page, fetched as a visitor at one
  fixed moment; written to ``OUT`` as JSON {url: [status, content type, redirect, body without CSRF tokens]}.
  PDFs and workbooks are left out (their files carry the moment they were made).
- ``check``: after the move, the club's history and the granted permission as the registry sees them.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import re
import sys
from pathlib import Path

MOMENT = dt.datetime(2027, 3, 1, 10, 0, tzinfo=dt.UTC)  # the crawl's "now", in both trees
STAFF = ("liitto-siirto", "siirto-salasana-1")
GRANTED = "kerho-vastaava"
CHANGED_TOWN = " (muutettu ylläpidossa)"
PUBLIC_SKIP = ("/admin/", "/jarjestaja/", "/kirjaudu", "/i18n/", "/static/", "/tulos/", "/joukkue/", "/terveys/")
OUTPUTS = (".pdf", ".xlsx")
LINK = re.compile(r'(?:href|hx-get)="([/?][^"]*)"')
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"')


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tuppiliitto.settings_test")
    import django

    django.setup()
    import tournaments

    tree = Path.cwd().resolve()
    assert Path(tournaments.__file__).resolve().is_relative_to(tree), (tournaments.__file__, tree)


def club_model():
    """The Club model, wherever this tree keeps it."""
    from django.apps import apps

    return next(m for m in apps.get_models() if m.__name__ == "Club")


def fill() -> dict:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.test import Client
    from django.urls import reverse

    users = get_user_model().objects
    staff = users.create_superuser(STAFF[0], password=STAFF[1], email="")
    users.create_user(GRANTED, password="kerho-salasana-1").user_permissions.add(
        Permission.objects.get(codename="change_player")
    )
    club_type = club_model()
    club = club_type.objects.order_by("pk").first()
    client = Client()
    client.force_login(staff)
    url = reverse(f"admin:{club_type._meta.app_label}_club_change", args=[club.pk])
    response = client.post(url, {"name": club.name, "short_name": club.short_name, "town": club.town + CHANGED_TOWN})
    assert response.status_code == 302, response.content[:2000]
    return {"club": club.pk}


def normalised(body: bytes) -> str:
    return CSRF.sub(r'\1-"', body.decode())


def starts() -> list[str]:
    from django.apps import apps

    from tournaments.models import Event

    seasons = apps.get_model("cup", "SeasonCupSettings")._meta.get_field("season").related_model
    urls = ["/", "/cup/", "/api/events/", "/api/seasons/"]
    for slug, kind in Event.objects.order_by("pk").values_list("slug", "kind"):
        urls += [f"/kisat/{slug}/", f"/api/events/{slug}/"] + ([f"/joukkuekisa/{slug}/"] if kind == "sm_team" else [])
    for pk in seasons.objects.order_by("pk").values_list("pk", flat=True):
        urls += [f"/cup/{pk}/", f"/api/seasons/{pk}/cup/"]
    return urls


def pages() -> dict[str, list]:
    from django.test import Client
    from django.utils import timezone

    timezone.now = lambda: MOMENT  # one fixed moment for every page, in both trees
    client = Client(raise_request_exception=False)
    queue, found = starts(), {}
    while queue:
        url = queue.pop(0)
        if url in found:
            continue
        response = client.get(url)
        kind = response.get("Content-Type", "")
        body = normalised(response.content)
        found[url] = [response.status_code, kind, response.get("Location", ""), body]
        if "html" in kind:
            for link in LINK.findall(body):
                link = html.unescape(link).split("#")[0]
                link = url.split("?")[0] + link if link.startswith("?") else link
                path = link.split("?")[0]
                if link and link not in found and not path.startswith(PUBLIC_SKIP) and not path.endswith(OUTPUTS):
                    queue.append(link)
    return found


def check(club_pk: int) -> dict:
    """The admin's history of the club changed in ``fill`` (its entry, and the page showing who made it),
    the club list at its new address, and the permission granted in ``fill`` under the registry's name."""
    from django.contrib.admin.models import LogEntry
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(get_user_model().objects.get(username=STAFF[0]))
    history = client.get(reverse("admin:registry_club_history", args=[club_pk]))
    entries = LogEntry.objects.filter(content_type__app_label="registry", content_type__model="club")
    return {
        "history": [history.status_code, STAFF[0] in history.content.decode()],
        "entries": list(entries.values_list("object_id", flat=True)),
        "changelist": client.get(reverse("admin:registry_club_changelist")).status_code,
        "granted": get_user_model().objects.get(username=GRANTED).has_perm("registry.change_player"),
    }


if __name__ == "__main__":
    setup()
    mode = sys.argv[1]
    if mode == "fill":
        print(json.dumps(fill()))
    elif mode == "pages":
        Path(sys.argv[2]).write_text(json.dumps(pages(), ensure_ascii=False), encoding="utf-8")
    elif mode == "check":
        print(json.dumps(check(int(sys.argv[2]))))
    else:
        raise SystemExit(f"unknown mode {mode!r}")
