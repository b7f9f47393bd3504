"""Every fact a page shows is versioned (issue #23): a name changed in the admin, by a command or on an
organiser page, a referee named, an event's address changed, an event created or deleted, a season's cup
settings: every page, API answer, PDF and workbook that shows it gives a new ETag and the new content to a
phone polling with its previous ETag, never ``304 Not Modified`` with the old one. A change that many
events show bumps them in a number of queries that does not grow with them."""

from __future__ import annotations

import datetime as dt
import functools
import re
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cup.models import SeasonCupSettings
from lib import caching
from registry.models import Club, Player, Season, SeasonClub, Transfer
from teams.actions import bracket as bracket_actions
from teams.models import Team
from tests.cup.builders import one_group_event
from tests.support.builders import add_pairs
from tests.teams.builders import add_team, team_event
from tournaments.actions import draw as draw_actions
from tournaments.actions import entries, versions
from tournaments.models import Event, Match, Pair
from tournaments.readmodel import heads

FINISHED_ON = dt.date(2026, 11, 7)  # a Saturday of season 2026–2027, before the tests' clock (8.12.2026)


# --- reading pages as a phone does ------------------------------------------------------------------


def watched(client, urls: list[str]) -> dict[str, tuple[str, str]]:
    """Each page's ETag and content as a phone has them: 200 first, then 304 while nothing changes."""
    seen = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        seen[url] = (response["ETag"], "" if url.endswith((".pdf", ".xlsx")) else text(url, response))
        assert client.get(url, HTTP_IF_NONE_MATCH=seen[url][0]).status_code == 304, url
    return seen


def text(url: str, response) -> str:
    """What a page says; a calendar file's lines unfolded (iCalendar folds them at 75 octets)."""
    content = response.content.decode()
    return content.replace("\r\n ", "") if url.endswith(".ics") else content


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def assert_shown(client, seen: dict[str, tuple[str, str]], replaced: dict[str, str]) -> None:
    """Polled with its previous ETag, a page that showed an old text (a key of ``replaced``) answers 200
    with a new ETag and shows the new one (its value) instead; a page answering 304 is exactly what it
    would be with every cache emptied (it showed nothing that changed). A PDF or a workbook: the new
    ETag (it stands for the whole event's version)."""
    showing = 0
    for url, (tag, before) in seen.items():
        response = client.get(url, HTTP_IF_NONE_MATCH=tag)
        if response.status_code == 304 and not url.endswith((".pdf", ".xlsx")):
            cache.clear()
            caching.clear_local()
            assert CSRF.sub("", text(url, client.get(url))) == CSRF.sub("", before), (url, "304, changed")
            assert not any(old in before for old in replaced), (url, "304 for a page showing the old text")
            continue
        assert response.status_code == 200, (url, response.status_code)
        assert response["ETag"] != tag, url
        for old, new in replaced.items():
            if old in before:
                showing += 1
                assert new in text(url, response), (url, new)
    assert showing, "no page showed the old text"


# --- the admin as federation staff use it -------------------------------------------------------------


class _Form(HTMLParser):
    """The fields of the admin's change form as the browser would send them."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str | list[str]] = {}
        self._select: tuple[str, bool, list[str], list[str]] | None = None  # name, multiple, options, chosen
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") not in ("checkbox", "radio"):
                self.data[name] = a.get("value") or ""
            elif "checked" in a:
                self.data[name] = a.get("value") or "on"
        elif tag == "select" and name:
            self._select = (name, "multiple" in a, [], [])
        elif tag == "option" and self._select:
            self._select[2].append(a.get("value") or "")
            if "selected" in a:
                self._select[3].append(a.get("value") or "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            name, multiple, options, chosen = self._select
            self.data[name] = chosen if multiple else (chosen or options[:1] or [""])[0]
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea] += data.lstrip("\n")


def errors(html: str) -> list[str]:
    return re.findall(r'class="errorlist[^"]*"[^>]*>(.*?)</ul>', html, re.S)


def admin_url(obj, action: str = "change") -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_{action}", args=[obj.pk])


def admin_save(staff, obj, **changes) -> None:
    """Change ``obj`` in the admin as staff do: open its change form, edit the fields, save. The
    transaction commits (its commit hooks run), as in production."""
    url = admin_url(obj)
    form = _Form()
    form.feed(staff.get(url).content.decode())
    data = {**form.data, **{k: str(v) for k, v in changes.items()}, "_save": "Tallenna"}
    response = committed(lambda: staff.post(url, data))
    assert response.status_code == 302, (url, errors(response.content.decode()))


def committed(change):
    """Run ``change`` and its commit hooks, as its transaction's commit does in production."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return change()


# --- the world: a live event, a finished counted one, and the season's cup ---------------------------


def people(n: int, home: Club) -> list[Player]:
    start = Player.objects.count()
    return [
        Player.objects.create(first_name=f"Etu{start + i}", last_name=f"Suku{start + i}", club=home)
        for i in range(n)
    ]


@pytest.fixture
def world(make_event, organiser):
    """Kemin Kasa's and Oulun Tuppiseura's players in a live two-day event (16 pairs, drawn) and, before
    it, a finished one-stage cup event (4 pairs) counted for the season's cup."""
    kasa = Club.objects.create(name="Kemin Kasa", short_name="KeKa")
    oulu = Club.objects.create(name="Oulun Tuppiseura", short_name="OTS")
    players = people(16, kasa) + people(16, oulu)
    done, _pairs = one_group_event(
        "Marraskisa", FINISHED_ON,
        [(players[0], players[1], kasa), (players[16], players[17], oulu),
         (players[2], players[3], kasa), (players[18], players[19], oulu)],
        weight=Decimal(1),
    )
    live = make_event(name="Joulukisa", slug="joulukisa")
    live.organisers.add(organiser)
    for i in range(16):
        first = 2 * i if i < 8 else 16 + 2 * (i - 8)
        pair = entries.create_pair(live, players[first], players[first + 1], kasa if i < 8 else oulu)
        entries.set_checked_in(pair, True)
    draw_actions.draw_groups(live, organiser, seed=5)
    return {"kasa": kasa, "oulu": oulu, "players": players, "done": done, "live": live}


def event_urls(event: Event, *, finished: bool) -> list[str]:
    slug = event.slug
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    group = event.groups.order_by("name").first()
    urls = [
        reverse("event", args=[slug]),
        reverse("group", args=[slug, group.name]),
        reverse("pair", args=[slug, 1]),
        reverse("pair_calendar", args=[slug, 1]),
        reverse("match", args=[slug, match.pk]),
        reverse("api_event", args=[slug]),
        reverse("results_pdf", args=[slug]),
    ]
    if finished:
        urls.append(reverse("final_places", args=[slug]))
    else:
        urls += [reverse("schedule", args=[slug]), reverse("sunday", args=[slug])]
    return urls


def cup_urls(season: Season, player: Player | None = None) -> list[str]:
    urls = [reverse(f"cup:{name}", args=[season.pk]) for name in ("players", "pairs", "clubs")]
    if player is not None:
        urls.append(reverse("cup:player", args=[season.pk, player.pk]))
    return urls


def every_url(world, player: Player | None = None) -> list[str]:
    return [
        *event_urls(world["live"], finished=False),
        *event_urls(world["done"], finished=True),
        *cup_urls(world["done"].season, player),
        reverse("events_calendar"),
    ]


# --- names changed in the admin -------------------------------------------------------------------------


@pytest.mark.slow
def test_a_club_renamed_in_the_admin_shows_on_every_page(client, admin_client, world):
    tags = watched(client, every_url(world))
    admin_save(admin_client, world["kasa"], name="Kemin Uusi Kasa", short_name="KUK")
    assert_shown(client, tags, {"Kemin Kasa": "Kemin Uusi Kasa", "KeKa": "KUK"})


@pytest.mark.slow
def test_a_player_renamed_in_the_admin_shows_on_every_page(client, admin_client, world):
    player = world["players"][0]  # in both events, and in the cup
    tags = watched(client, every_url(world, player))
    admin_save(admin_client, player, last_name="Uusinimi")
    assert_shown(client, tags, {"Suku0": "Uusinimi"})


def assert_changed(client, seen: dict[str, tuple[str, str]], *texts: str) -> None:
    """Polled with its previous ETag, every page answers 200 with a new ETag (and shows one of ``texts``);
    without ``texts``, a page may answer 304 only when it is exactly what it would be with every cache
    emptied (nothing it shows changed: a pair moved away before the draw leaves the API's groups as
    they were)."""
    for url, (tag, before) in seen.items():
        response = client.get(url, HTTP_IF_NONE_MATCH=tag)
        if response.status_code == 304 and not texts and not url.endswith((".pdf", ".xlsx")):
            cache.clear()
            caching.clear_local()
            assert CSRF.sub("", text(url, client.get(url))) == CSRF.sub("", before), (url, "304, changed")
            continue
        assert response.status_code == 200, (url, response.status_code)
        assert response["ETag"] != tag, url
        if texts and not url.endswith((".pdf", ".xlsx")):
            assert any(shown in text(url, response) for shown in texts), (url, texts)


def pair_urls(pair: Pair) -> list[str]:
    slug = pair.event.slug
    match = Match.objects.filter(pair_a=pair).first() or Match.objects.filter(pair_b=pair).first()
    group = pair.group_entries.get().group
    return [
        reverse("pair", args=[slug, pair.number]),
        reverse("group", args=[slug, group.name]),
        reverse("match", args=[slug, match.pk]),
        reverse("api_event", args=[slug]),
        reverse("results_pdf", args=[slug]),
    ]


def test_a_pairs_club_changed_in_the_admin_shows_on_its_pages(client, admin_client, world):
    pair = world["live"].pairs.get(number=1)
    ruutu = Club.objects.create(name="Rovaniemen Ruutu", short_name="RoRu")
    seen = watched(client, pair_urls(pair))
    admin_save(admin_client, pair, club=ruutu.pk)
    assert_changed(client, seen, "Rovaniemen Ruutu", "RoRu")


def test_a_pairs_player_changed_in_the_admin_shows_on_its_pages(client, admin_client, world):
    pair = world["live"].pairs.get(number=1)
    newcomer = Player.objects.create(first_name="Veikko", last_name="Vaihtaja")
    seen = watched(client, pair_urls(pair))
    member = pair.members.get(position=2)
    index = [m.pk for m in pair.members.order_by("position")].index(member.pk)
    admin_save(admin_client, pair, **{f"members-{index}-player": newcomer.pk})
    assert_changed(client, seen, "Vaihtaja")


def test_a_pair_moved_to_another_event_in_the_admin_leaves_the_first(client, admin_client, make_event):
    first, second = make_event(name="Eka", slug="eka"), make_event(name="Toka", slug="toka")
    pair = add_pairs(first, 2)[1]
    seen = watched(client, [reverse("api_event", args=["eka"]), reverse("api_event", args=["toka"])])
    admin_save(admin_client, pair, event=second.pk, number=1)
    assert_changed(client, seen)


def test_a_club_renamed_by_a_plain_save_outside_a_transaction(client, world):
    """A command's ``save()`` outside a transaction: the versions follow once the row is written."""
    tags = watched(client, every_url(world))
    kasa = Club.objects.get(pk=world["kasa"].pk)
    kasa.name = "Kemin Komentokasa"
    committed(kasa.save)
    assert_shown(client, tags, {"Kemin Kasa": "Kemin Komentokasa"})


def test_the_user_who_drew_renamed_shows_on_the_event_page(client, world, organiser):
    url = reverse("event", args=[world["live"].slug])
    seen = watched(client, [url])
    organiser.first_name, organiser.last_name = "Arpa", "Jumala"
    committed(organiser.save)
    assert_changed(client, seen, "Arpa Jumala")


def test_a_login_bumps_nothing(client, world, organiser):
    before = versions.current(world["live"].pk)
    committed(lambda: Client().force_login(organiser))  # saves the user's last login time
    assert versions.current(world["live"].pk) == before


# --- the team competition --------------------------------------------------------------------------------


@pytest.fixture
def teams_world(make_event, organiser):
    """A drawn team competition; team "Ulkokerho" is of a club none of whose players plays in it."""
    event = team_event(make_event, organiser)
    others = [add_team(event, f"Joukkue {i}") for i in range(1, 4)]
    outside = add_team(event, "Ulkokerho", home=Club.objects.create(name="Tyhjä Kerho"), outside=3)
    bracket_actions.draw(event, organiser, seed=7)
    return event, outside, others


def team_urls(event: Event) -> list[str]:
    slug = event.slug
    return [
        reverse("teams:bracket", args=[slug]),
        reverse("teams:teams", args=[slug]),
        reverse("api_event", args=[slug]),
        reverse("teams:bracket_pdf", args=[slug]),
    ]


def test_a_team_renamed_in_the_admin_shows_on_the_team_pages(client, admin_client, teams_world):
    event, team, _others = teams_world
    seen = watched(client, team_urls(event))
    admin_save(admin_client, team, name="Uudet Ulkoilijat")
    assert_changed(client, seen, "Uudet Ulkoilijat")


def test_a_teams_club_and_substitute_changed_in_the_admin(client, admin_client, teams_world):
    event, team, _others = teams_world
    urls = [reverse("teams:teams", args=[event.slug])]
    seen = watched(client, urls)
    ruutu = Club.objects.create(name="Rovaniemen Ruutu")
    admin_save(admin_client, team, club=ruutu.pk)
    assert_changed(client, seen, "Rovaniemen Ruutu")
    seen = watched(client, urls)
    sub = Player.objects.create(first_name="Varma", last_name="Varamies")
    admin_save(admin_client, Team.objects.get(pk=team.pk), substitute=sub.pk)
    assert_changed(client, seen, "Varma Varamies")


def test_a_club_renamed_shows_on_the_team_pages_of_its_team(client, admin_client, teams_world):
    """The team's club has no pair in the competition: only the team names it."""
    event, team, _others = teams_world
    seen = watched(client, team_urls(event))
    admin_save(admin_client, team.club, name="Täysi Kerho")
    assert_changed(client, seen)
    assert "Täysi Kerho" in client.get(reverse("teams:teams", args=[event.slug])).content.decode()


# --- a referee ----------------------------------------------------------------------------------------------


def test_a_referee_named_shows_on_the_match_page(client, world, organiser):
    event = world["live"]
    match = Match.objects.filter(event=event).order_by("round", "table").first()
    url = reverse("match", args=[event.slug, match.pk])
    seen = watched(client, [url, reverse("api_event", args=[event.slug])])
    poll = client.get(url, HTTP_HX_REQUEST="true")
    desk = Client()
    desk.force_login(organiser)
    response = committed(
        lambda: desk.post(reverse("organiser:match_referee", args=[event.slug, match.pk]), {"referee": "Reijo Tuomari"})
    )
    assert response.status_code == 302
    assert_changed(client, seen, "Reijo Tuomari")
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=poll["ETag"])
    assert again.status_code == 200 and again["ETag"] != poll["ETag"]


# --- an event's address: created, deleted, changed -----------------------------------------------------------


def test_an_event_created_after_its_address_was_asked_answers_at_once(client, make_event):
    url = reverse("event", args=["uusi-kisa"])
    assert client.get(url).status_code == 404
    assert cache.get(heads.key("uusi-kisa")) is None  # an unknown address writes nothing to the shared cache
    committed(lambda: make_event(name="Uusi kisa", slug="uusi-kisa"))
    assert client.get(url).status_code == 200


def test_a_deleted_event_stops_answering(client, admin_client, make_event):
    """(The admin deletes an event before its draw: a match protects its pairs.)"""
    event = make_event(name="Peruttu kisa", slug="peruttu-kisa")
    add_pairs(event, 4)
    urls = [reverse("event", args=[event.slug]), reverse("api_event", args=[event.slug])]
    watched(client, urls)
    assert cache.get(heads.key(event.slug)) is not None  # the shared cache has its head
    response = committed(lambda: admin_client.post(admin_url(event, "delete"), {"post": "yes"}))
    assert response.status_code == 302, errors(response.content.decode())
    assert not Event.objects.filter(pk=event.pk).exists()
    for url in urls:
        assert client.get(url).status_code == 404, url


def test_a_changed_address_answers_at_once_and_the_old_one_no_more(client, admin_client, world):
    event = world["live"]
    old = [reverse("event", args=[event.slug]), reverse("api_event", args=[event.slug])]
    watched(client, old)
    admin_save(admin_client, event, slug="joulukisa-2026")
    for url in old:
        assert client.get(url).status_code == 404, url
    assert client.get(reverse("event", args=["joulukisa-2026"])).status_code == 200


# --- the season's cup ----------------------------------------------------------------------------------------


def _season(world) -> Season:
    return world["done"].season


def _settings(world) -> SeasonCupSettings:
    return SeasonCupSettings.objects.get_or_create(season=_season(world))[0]


CUP_CHANGES = {
    "best N": lambda staff, world: admin_save(staff, _settings(world), best_n=1),
    "points table": lambda staff, world: admin_save(staff, _settings(world), points="30, 20, 10"),
    "forfeit fine": lambda staff, world: admin_save(staff, _settings(world), forfeit_fine="75.00"),
    "an event no longer counted": lambda staff, world: committed(
        lambda: staff.post(admin_url(world["done"].cup, "delete"), {"post": "yes"})
    ),
    "a season club": lambda staff, world: admin_save(
        staff, SeasonClub.objects.get(season=_season(world), player=world["players"][0]), club=world["oulu"].pk
    ),
    "a transfer": lambda staff, world: committed(
        lambda: Transfer.objects.create(
            season=_season(world), player=world["players"][0], from_club=world["kasa"], to_club=world["oulu"],
            confirmed_on=dt.date(2026, 11, 20),
        )
    ),
    "a counted event renamed": lambda staff, world: admin_save(staff, world["done"], name="Marraskuun kisa"),
    "the season's years": lambda staff, world: admin_save(staff, _season(world), start="2025-08-01"),
}


@pytest.mark.parametrize("change", list(CUP_CHANGES))
@pytest.mark.slow
def test_a_change_of_the_season_shows_on_the_cup_pages(client, admin_client, world, change):
    seen = watched(client, cup_urls(_season(world), world["players"][0]))
    CUP_CHANGES[change](admin_client, world)
    assert_changed(client, seen)


def test_the_seasons_years_show_on_every_seasons_cup(client, admin_client, world):
    """Every season's cup lists the seasons; another season's changed years show there too."""
    later = one_group_event(
        "Syyskisa", dt.date(2025, 9, 6), [(*people(2, world["kasa"]), world["kasa"]),
                                            (*people(2, world["oulu"]), world["oulu"])], weight=Decimal(1),
    )[0]
    seen = watched(client, cup_urls(_season(world)))
    admin_save(admin_client, later.season, start="2024-08-01")
    assert_changed(client, seen, "2024–2025")


# --- bounded, and once per transaction --------------------------------------------------------------------------


def club_in_events(make_event, n: int) -> Club:
    club = Club.objects.create(name=f"Kerho {n}")
    players = people(2 * n, club)
    for i in range(n):
        event = make_event(name=f"Kisa {n}-{i}", slug=f"kisa-{n}-{i}")
        entries.create_pair(event, players[2 * i], players[2 * i + 1], club)
    return club


def test_a_rename_costs_the_same_queries_for_twelve_events_as_for_two(admin_client, make_event):
    counts = []
    for n in (1, 2, 12):  # the first fills the admin's caches (its log's content type)
        club = club_in_events(make_event, n)
        before = dict(Event.objects.values_list("pk", "results_version"))
        url, data = admin_url(club), {"name": f"Uusi {n}", "short_name": "", "town": "", "_save": "1"}
        with CaptureQueriesContext(connection) as ctx:
            committed(functools.partial(admin_client.post, url, data))
        counts.append(len(ctx.captured_queries))
        bumped = {pk for pk, v in Event.objects.values_list("pk", "results_version") if v > before[pk]}
        assert bumped == set(Event.objects.filter(pairs__club=club).values_list("pk", flat=True))
        assert len(bumped) == n
    assert counts[1] == counts[2], counts  # two events or twelve: the same statements


def test_a_pair_saved_in_the_admin_with_its_players_bumps_once(admin_client, world):
    pair = world["live"].pairs.get(number=1)
    before = versions.current(pair.event_id)
    admin_save(admin_client, pair, checked_in="")
    assert versions.current(pair.event_id) == before + 1


def test_a_bump_rolled_back_with_its_savepoint_is_made_again(world):
    """A transaction bumps an event once; a bump undone by a savepoint's rollback does not count."""
    event = world["live"]
    pair = event.pairs.get(number=1)
    before = versions.current(event.pk)
    with transaction.atomic():
        try:
            with transaction.atomic():
                versions.lock(event.pk)
                raise RuntimeError("refused")
        except RuntimeError:
            pass
        assert versions.current(event.pk) == before
        pair.club = world["oulu"]
        pair.save()
    assert versions.current(event.pk) == before + 1
