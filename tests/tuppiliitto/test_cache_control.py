"""Every answer's ``Cache-Control`` is well formed, and what is for one person only is kept by no cache
(issue #24, items 4 and 5).

A strict reader of the header (RFC 9110 §5.6, RFC 9111 §5.2): comma-separated directives, each a
``token`` or ``token=value`` where the value is a token or a quoted string; each directive known, at
most once, with the argument it takes (``max-age`` seconds, ``private`` and ``no-cache`` only a quoted
list of header names, the others none), never both ``public`` and ``private``, and never a Python
value (``private=False``).

Private: every organiser page (``/jarjestaja/``, the team competition's included), a match's secret link
(``/tulos/<token>/``), a team leader's link (``/joukkue/<token>/``), and the PDFs that print secret links
(the scoresheets with their QR codes, the team leaders' links) say ``no-store, private``.

Pages are asked of a played 16-pair event and a played team competition (``test_every_url``'s world):
each kind by name (public pages whole and as their polled live part, and again with their ETag), then
(in the slow suite) every URL pattern of the project, as anonymous and as the events' organiser.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tuppiliitto import test_every_url
from tests.tuppiliitto.test_every_url import all_patterns, fill, regex_urls
from tuppiliitto.middleware import PRIVATE_PREFIXES

every_url_world = test_every_url.world  # its module fixture, built once for this module too


@pytest.fixture
def played(every_url_world, db):
    """The played pair event and team competition, their organiser and the URL values that reach them
    (built before the test's own transaction begins, and rolled back after the module's last test)."""
    return every_url_world

# --- the strict reader --------------------------------------------------------------------------------

TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
QUOTED = r'"(?:[^"\\]|\\.)*"'
DIRECTIVE = re.compile(rf"[ \t]*({TOKEN})(?:=({TOKEN}|{QUOTED}))?[ \t]*(?:,|$)")
SECONDS = {"max-age", "s-maxage", "stale-while-revalidate", "stale-if-error"}
FIELD_LISTS = {"private", "no-cache"}  # a bare directive, or a quoted list of header field names
BARE = {"no-store", "no-transform", "must-revalidate", "proxy-revalidate", "must-understand", "public", "immutable"}


def parse_cache_control(value: str) -> dict[str, str | None]:
    """The directives of a Cache-Control value (names lower-cased, arguments unquoted); ValueError names
    what is wrong."""
    directives: dict[str, str | None] = {}
    position = 0
    while position < len(value):
        found = DIRECTIVE.match(value, position)
        if not found or found.end() == position:
            raise ValueError(f"not a directive at {value[position:]!r}")
        name, argument = found.group(1).lower(), found.group(2)
        if name in directives:
            raise ValueError(f"{name} twice")
        directives[name] = _argument(name, argument)
        position = found.end()
    if not directives:
        raise ValueError("empty")
    if "public" in directives and "private" in directives:
        raise ValueError("both public and private")
    return directives


def _argument(name: str, argument: str | None) -> str | None:
    if argument is not None and argument.strip('"') in ("True", "False", "None"):
        raise ValueError(f"{name}={argument}: a Python value, not a header value")
    if name in SECONDS:
        if argument is None or not argument.isdigit():
            raise ValueError(f"{name} needs seconds, not {argument!r}")
        return argument
    if name in FIELD_LISTS:
        if argument is None:
            return None
        if not (argument.startswith('"') and re.fullmatch(rf'"{TOKEN}(?:[ \t]*,[ \t]*{TOKEN})*"', argument)):
            raise ValueError(f"{name}={argument}: only a quoted list of header names")
        return argument.strip('"')
    if name in BARE:
        if argument is not None:
            raise ValueError(f"{name} takes no argument, got {argument!r}")
        return None
    raise ValueError(f"unknown directive {name!r}")


@pytest.mark.parametrize(
    "value",
    ["no-cache, private", "max-age=0, no-cache, no-store, must-revalidate, private", "no-cache",
     'private="Set-Cookie"', "public, max-age=3600", "no-store,private", "NO-STORE, Private"],
)
def test_the_reader_takes_well_formed_values(value):
    assert parse_cache_control(value)


@pytest.mark.parametrize(
    "value",
    ["no-cache, private=False", "private=True", "no-cache, private=None", "max-age=abc", "max-age", "",
     "no-cache,, private", "no-store=1", "public, private", "no-cache, no-cache", "private=Set-Cookie",
     "no cache", "no-cache; private", "nocache", 'no-cache="a', "max-age=-1"],
)
def test_the_reader_refuses_malformed_values(value):
    with pytest.raises(ValueError):
        parse_cache_control(value)


# --- the pages -----------------------------------------------------------------------------------------

PUBLIC = [
    "home", "event", "schedule", "group", "match", "pair_pick", "pair", "sunday", "final_places", "hall",
    "draw_chart_pdf", "group_tables_pdf", "bracket_pdf", "results_pdf", "event_file", "api_events", "api_event",
    "api_seasons", "api_season_cup", "cup:index", "cup:players", "cup:pairs", "cup:clubs", "cup:player",
    "cup:season_xlsx", "cup:event_xlsx", "teams:bracket", "teams:teams", "teams:match", "teams:final_places",
    "teams:bracket_pdf", "login", "health", "ready", "pair_calendar", "events_calendar",
]
LIVE_PARTS = [
    "event", "schedule", "group", "match", "pair", "sunday", "final_places", "hall", "cup:players",
    "cup:pairs", "cup:clubs", "cup:player", "teams:bracket", "teams:teams", "teams:match", "teams:final_places",
]
ORGANISER = [
    "organiser:home", "organiser:event", "organiser:event_edit", "organiser:pairs", "organiser:results",
    "organiser:match", "organiser:match_history", "organiser:sunday", "organiser:printouts",
    "organiser:match_sheet", "organiser:round_sheets",  # the scoresheet PDFs: secret links' QR codes
    "teams_organiser:overview", "teams_organiser:team", "teams_organiser:rounds", "teams_organiser:match",
    "teams_organiser:match_sheets", "teams_organiser:leader_links",  # PDFs with the leaders' links
]
SECRET_LINKS = ["link:sheet", "teams:leader"]


SPECIAL = {"organiser:round_sheets": {"stage": "alkulohkot"}}  # a value the common ones lack


def values_for(played, name: str) -> dict[str, str]:
    values = played["values"]["team" if name.startswith(("teams:", "teams_organiser:")) else "pair"]
    return {**values, **SPECIAL.get(name, {})}


def url_of(played, name: str) -> str:
    routes = {full: route for route, full, _pattern in all_patterns()}
    assert name in routes, f"no URL named {name}"
    return fill(routes[name], values_for(played, name))


def client_for(played, role: str) -> Client:
    client = Client()
    if played["users"][role] is not None:
        client.force_login(played["users"][role])
    return client


def well_formed(response, *, required: bool = True) -> dict[str, str | None]:
    """The answer's Cache-Control directives ({} when it has none and none is ``required``)."""
    value = response.get("Cache-Control")
    assert value is not None or not required, "no Cache-Control"
    return {} if value is None else parse_cache_control(value)


def assert_private(directives: dict) -> None:
    assert "no-store" in directives and "private" in directives, directives
    assert "public" not in directives and "s-maxage" not in directives
    assert directives.get("max-age") in (None, "0")


@pytest.mark.parametrize("name", PUBLIC)
def test_public_pages_send_a_well_formed_cache_control(played, db, name):
    client = client_for(played, "anonymous")
    url = url_of(played, name)
    response = client.get(url)
    assert response.status_code in (200, 302), (url, response.status_code)  # (two lead on to a page)
    well_formed(response, required=False)
    if response.has_header("ETag"):  # the answer to a phone that has it already
        again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
        assert again.status_code == 304
        well_formed(again)


@pytest.mark.parametrize("name", LIVE_PARTS)
def test_live_parts_send_a_well_formed_cache_control(played, db, name):
    client = client_for(played, "anonymous")
    url = url_of(played, name)
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, (url, response.status_code)
    well_formed(response)
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    well_formed(again)


@pytest.mark.parametrize("name", ORGANISER)
def test_organiser_pages_and_their_pdfs_are_kept_by_no_cache(played, db, name):
    url = url_of(played, name)
    response = client_for(played, "organiser").get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert_private(well_formed(response))
    refused = client_for(played, "anonymous").get(url)  # the way to the login page is private too
    assert refused.status_code == 302
    assert_private(well_formed(refused))


@pytest.mark.parametrize("name", SECRET_LINKS)
def test_secret_link_pages_are_kept_by_no_cache(played, db, name):
    url = url_of(played, name)
    response = client_for(played, "anonymous").get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert_private(well_formed(response))
    unknown = client_for(played, "anonymous").get(url.replace(url.split("/")[2], "ei-ole-tallainen-linkki"))
    assert unknown.status_code == 404
    assert_private(well_formed(unknown))


@pytest.mark.slow  # some 30 s: every URL of the project, PDFs included (make test-fast leaves it out)
@pytest.mark.parametrize("role", ["anonymous", "organiser"])
def test_every_url_sends_a_well_formed_cache_control(played, db, role):
    """Every URL pattern of the project (a new one is covered without touching this file), GET: the
    header, where there is one, reads; under an organiser's or a secret link's address it is private."""
    client = client_for(played, role)
    wrong, count = [], 0
    for route, name, _pattern in all_patterns():
        url = fill(route, values_for(played, name))
        for target in regex_urls(route) if url is None else [url]:
            count += 1
            response = client.get(target)
            try:
                directives = well_formed(response, required=False)
                if target.startswith(PRIVATE_PREFIXES):
                    assert_private(directives)
            except (ValueError, AssertionError) as error:
                wrong.append(f"{target} ({name}) {response.status_code}: {response.get('Cache-Control')!r}: {error}")
            if played["users"][role] is not None and "_auth_user_id" not in client.session:
                client.force_login(played["users"][role])
    assert count > 80
    assert not wrong, f"{len(wrong)} of {count} answers:\n" + "\n".join(wrong)
