"""No 500 from any input: every URL pattern of the project, found through the URL resolver (so a new URL
is covered without touching this file), is requested with GET and POST as anonymous, as an organiser
of the events and as an outsider (logged in, organiser of nothing here).

Path parameters are filled with real objects of a played simulated pair event and a played team
competition, then one at a time with odd values; every request also goes once with odd values in the
query string and in a form body carrying every field name the templates and forms use. Odd values:
empty, zero, negative, huge, non-digits, NUL, unicode, superscript digits, 5,000 characters.

Any status below 500 is an answer; a 500 (or an exception) is a failure, listed with its request.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

pytestmark = pytest.mark.slow  # make test-fast leaves it out

ROOT = Path(__file__).resolve().parents[2]

ODD = ["", "0", "-1", "9" * 30, "abc", "a\x00b", "ä€𝄞", "x" * 5000, "1.5", "²"]
ADMIN_ODD = ["abc", "9" * 30, "a\x00b", "x" * 5000]


def all_patterns(resolver=None, prefix="", namespace=""):
    """(route text with <converter:name> markers, full URL name, pattern) for every URL of the project."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            ns = namespace
            if entry.namespace:
                ns = f"{namespace}{entry.namespace}:"
            yield from all_patterns(entry, prefix + _route(entry.pattern), ns)
        elif isinstance(entry, URLPattern):
            yield prefix + _route(entry.pattern), f"{namespace}{entry.name or ''}", entry


def _route(pattern) -> str:
    if isinstance(pattern, RoutePattern):
        return str(pattern._route)
    if isinstance(pattern, RegexPattern):
        return str(pattern._regex)
    return str(pattern)


def field_names() -> list[str]:
    """Every form field name the templates and the project's forms use (new fields come in by themselves)."""
    names = set()
    for template in (ROOT / "templates").rglob("*.html"):
        names |= set(re.findall(r'name="([A-Za-z0-9_\-]+)"', template.read_text(encoding="utf-8")))
    from django import forms

    import teams.forms
    import tournaments.web.forms
    import tournaments.web.forms_entries
    import tournaments.web.forms_results

    for module in (tournaments.web.forms, tournaments.web.forms_entries, tournaments.web.forms_results, teams.forms):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, forms.BaseForm):
                names |= set(getattr(value, "base_fields", {}))
    for prefix in ("p1", "p2"):
        names |= {f"{prefix}-{n}" for n in ("q", "player", "first_name", "last_name", "member_number", "namesake_ok")}
    for k in (1, 2, 3):
        names |= {f"pair{k}", f"pair{k}_player1", f"pair{k}_player2", f"pair{k}_club", f"order{k}"}
    names |= {f"group{n}" for n in "1234"}
    return sorted(names)


QUERY_KEYS = ["kierros", "haku", "q", "slot", "kisa", "muokkaa", "vahvista", "next", "pari", "p1-q", "p2-q",
              "club", "p1-player", "page", "sort", "o", "e", "_changelist_filters", "sivu", "jarjestys"]


def _real_values(pair_event, team_event) -> dict[str, dict[str, str]]:
    """Real values for each path parameter: ``pair`` for the pair event's URLs, ``team`` for the team
    competition's (the namespaces ``teams`` and ``teams_organiser``)."""
    from cup.views import season_years
    from teams.models import Team, TeamMatch
    from tournaments.models import Group, Match, Pair, PairMember

    match = Match.objects.filter(event=pair_event, stage="saturday").order_by("pk").first()
    team = Team.objects.filter(event=team_event).order_by("pk").first()
    team_match = TeamMatch.objects.filter(event=team_event, team_a__isnull=False, team_b__isnull=False).order_by("pk").first()
    season = pair_event.season
    pair = {
        "slug": pair_event.slug,
        "name": "A",
        "match_id": str(match.pk),
        "number": "1",
        "group_id": str(Group.objects.filter(event=pair_event).order_by("pk").first().pk),
        "pair_id": str(Pair.objects.filter(event=pair_event).order_by("pk").first().pk),
        "token": match.token,
        "stage": "saturday",
        "round": "1",
        "season_id": str(season.pk),
        "player_id": str(PairMember.objects.filter(event=pair_event).first().player_id),
        "years": season_years(season),
        "team_id": str(team.pk),
    }
    team_values = {**pair, "slug": team_event.slug, "match_id": str(team_match.pk), "token": team.token}
    return {"pair": pair, "team": team_values}


MARKER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def fill(route: str, values: dict[str, str], odd: tuple[str, str] | None = None) -> str | None:
    """The route with its parameters filled (``odd`` = (name, value) replaces one); None if not a route."""
    if route.startswith("^") or "(?P" in route:
        return None

    def replace(m):
        name = m.group("name")
        value = odd[1] if odd and odd[0] == name else values.get(name, "1")
        return quote(value, safe="")

    return "/" + MARKER.sub(replace, route)


def regex_urls(route: str) -> list[str]:
    """Admin's regex routes (the app index, the catch-all): a few literal tries."""
    if "app_label" in route:
        return ["/admin/registry/", "/admin/tournaments/", "/admin/teams/", "/admin/cup/", "/admin/auth/", "/admin/axes/", "/admin/x%00/"]
    return ["/admin/ei-ole/", "/admin/" + quote("ä" * 100) + "/"]


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """A played 16-pair event and a played four-team competition, built once for the module inside a
    transaction that is rolled back at its end; each test runs inside it and is rolled back too."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            from django.contrib.auth import get_user_model

            from tournaments.models import Event

            out = io.StringIO()
            call_command("simulate_event", "--pairs", "16", "--seed", "1", stdout=out)
            pair_event = Event.objects.get(slug=out.getvalue().split()[-1])
            out = io.StringIO()
            call_command("simulate_teams", "--teams", "4", "--seed", "2", stdout=out)
            team_event = Event.objects.get(slug=out.getvalue().split()[-1])
            users = get_user_model().objects
            organiser = users.create_user("drive-organiser", password="x-salasana-1")
            outsider = users.create_user("drive-outsider", password="x-salasana-2")
            pair_event.organisers.add(organiser)
            team_event.organisers.add(organiser)
            other = Event.objects.create(
                name="Muu kisa", slug="muu-kisa", season=pair_event.season, starts_on=pair_event.starts_on,
                ends_on=pair_event.ends_on,
            )
            other.organisers.add(outsider)
            yield {
                "values": _real_values(pair_event, team_event),
                "users": {"anonymous": None, "organiser": organiser, "outsider": outsider},
            }
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def requests_for(route: str, name: str, values: dict[str, str], fields: list[str]):
    """(method, url, data, extra headers) to send for one pattern."""
    url = fill(route, values)
    urls = regex_urls(route) if url is None else [url]
    slow = route.endswith((".pdf", ".xlsx"))
    admin = name.startswith("admin:")  # Django's own: the basic requests and odd ids only
    for u in urls:
        yield "get", u, None, {}
        yield "post", u, {}, {}
        if admin:
            continue
        yield "get", u, None, {"HTTP_HX_REQUEST": "true"}
        if slow:
            continue
        for value in ODD:
            yield "get", u + "?" + urlencode({k: value for k in QUERY_KEYS}), None, {}
            yield "post", u, {f: value for f in fields}, {}
        # the usual actions with odd companions
        for action in ("add", "delete_last", "paper", "toggle", "withdraw_absent", "substitute", "declare",
                       "clear_substitute", "cancel", "accept", "upload", "search"):
            value = "abc" if len(action) % 2 else "9" * 30
            yield "post", u, {**{f: value for f in fields}, "action": action}, {}
    if url is not None:
        for param in MARKER.finditer(route):
            for value in ADMIN_ODD if admin else ODD:
                odd_url = fill(route, values, (param.group("name"), value))
                yield "get", odd_url, None, {}
                if not slow and not admin:
                    yield "post", odd_url, {"action": "add", "player": value}, {}


@pytest.mark.parametrize("role", ["anonymous", "organiser", "outsider"])
def test_no_url_answers_500(world, role, django_db_blocker, db):
    client = Client(raise_request_exception=False)
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    fields = field_names()
    failures = []
    count = 0
    patterns = list(all_patterns())
    assert len(patterns) > 50  # the resolver walk found the project's URLs
    for route, name, _pattern in patterns:
        values = world["values"]["team" if name.startswith(("teams:", "teams_organiser:")) else "pair"]
        for method, url, data, headers in requests_for(route, name, values, fields):
            count += 1
            if method == "get":
                response = client.get(url, **headers)
            else:
                response = client.post(url, data, **headers)
            if response.status_code >= 500:
                exc = getattr(response, "exc_info", None)
                reason = repr(exc[1])[:300] if exc else response.status_code
                shown = {k: (v[:20] + "…" if len(v) > 20 else v) for k, v in (data or {}).items()} if data else None
                failures.append(f"{method.upper()} {url[:200]} {shown if shown and len(shown) < 6 else ''} → {reason}")
            if user is not None and "_auth_user_id" not in client.session:
                client.force_login(user)  # a logout URL was among them
    assert count > 1000
    assert not failures, f"{len(failures)} of {count} requests answered 500:\n" + "\n".join(failures[:40])
