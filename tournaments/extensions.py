"""Where the apps that build on ``tournaments`` (``cup``, ``teams``) plug in, so that ``tournaments``
never imports them (apps depend one way: scoring ← tournaments ← cup, teams).

An app registers in its ``AppConfig.ready()``:

- ``event_payload(kind)``: the JSON API's keys for an event of that kind (the team competition's
  ``teams``, ``bracket`` and ``final_ranking``);
- ``event_links(kind)``: the public pages an event of that kind has beyond the pair event's (name, URL
  name), shown on the event page;
- ``final_places(kind)``: the final places of an event of that kind, when they are not the pair
  event's (the team competition's places are teams'), for the published record;
- ``place_points``: the cup points of each place of an event (the cup app: the event's weight and the
  season's points table), printed on the results list;
- ``forfeit_fine``: what a forfeit in an event costs the forfeiting pair's club (the cup app).
- ``event_file_part``: a part of the event file (issue #27) that another app keeps (the cup app: the
  event's cup counting and its clubs' fines), written and read back with the event;
- ``printouts(kind)``: what an organiser of an event of that kind prints, listed on the printouts page
  instead of the pair event's rounds and reports (the team competition's).

An app's ``demo`` module (``cup/demo.py``, ``teams/demo.py``) registers with ``register_demo`` what it
adds to the demo season; ``setup_demo`` finds those modules through :func:`demo_steps`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from django.urls import reverse
from django.utils.module_loading import autodiscover_modules

_payloads: dict[str, Callable] = {}
_links: dict[str, Callable] = {}


def register_event_payload(kind: str, payload: Callable) -> None:
    """``payload(event_snapshot) -> dict`` of extra API keys for events of ``kind``."""
    _payloads[kind] = payload


def event_payload(kind: str) -> Callable | None:
    return _payloads.get(kind)


def register_event_links(kind: str, links: Callable) -> None:
    """``links(slug) -> [(label, url, primary)]`` of an event of ``kind``'s own public pages."""
    _links[kind] = links


def event_links(kind: str, slug: str) -> list:
    found = _links.get(kind)
    return found(slug) if found else []


_place_points: list = []


def register_place_points(points: Callable) -> None:
    """``points(event) -> {place: points} | None`` (None: the event gives no cup points); ``event`` has
    ``pk`` and ``season_id`` (an Event or the snapshot's ``EventInfo``)."""
    _place_points[:] = [points]


def place_points(event) -> dict | None:
    return _place_points[0](event) if _place_points else None


_forfeit_fines: list = []


def register_forfeit_fine(fine: Callable) -> None:
    """``fine(event) -> amount | None``: what a forfeit in the event costs the forfeiting pair's club (the
    cup app: the season's fine in an event counted in the cup), named where a late forfeit is confirmed."""
    _forfeit_fines[:] = [fine]


def forfeit_fine(event):
    return _forfeit_fines[0](event) if _forfeit_fines else None


_final_places: dict[str, Callable] = {}


def register_final_places(kind: str, places: Callable) -> None:
    """``places(event) -> [[place, id], …] | None`` for events of ``kind`` (None until complete)."""
    _final_places[kind] = places


def final_places(kind: str) -> Callable | None:
    return _final_places.get(kind)


class FilePart(NamedTuple):
    """A part of the event file kept by another app: ``export(event, refs, numbers, keys) -> value``
    (``refs``: match id → its reference in the file, ``numbers``: pair id → number, ``keys``: player id →
    its key in the file) and ``read(event, value, match_of, pair_of, club_of, player_of)``, called inside
    the import's transaction once the event's rows exist (a part with ``first`` before the published
    records are read back, the others after); ``clubs(value) -> names`` of the clubs the part names
    (written in the file's club list); ``players(event) -> ids`` of the players it names beside the
    pairs' (written in the file's player list)."""

    export: Callable
    read: Callable
    clubs: Callable
    players: Callable | None = None
    first: bool = False


_file_parts: dict[str, FilePart] = {}


def register_event_file_part(key: str, part: FilePart) -> None:
    _file_parts[key] = part


def event_file_parts() -> dict[str, FilePart]:
    return dict(_file_parts)


class PlacesNaming(NamedTuple):
    """How an event kind of another app names its final places outside the database (the team
    competition's are its teams'): ``named(event_id, places) -> places`` as the event file and the
    published record write them, ``stored(event_id, places) -> places`` back as kept (by id);
    ``record(event_id) -> dict`` the facts of that app the published record holds beside the pairs'."""

    named: Callable
    stored: Callable
    record: Callable


_places_naming: dict[str, PlacesNaming] = {}


def register_places_naming(kind: str, naming: PlacesNaming) -> None:
    _places_naming[kind] = naming


def places_naming(kind: str) -> PlacesNaming | None:
    return _places_naming.get(kind)


_back_links: dict[str, Callable] = {}


def register_match_back_link(stage: str, link: Callable) -> None:
    """``link(match) -> (label, url)``: where the organiser's scoresheet of a match of that stage leads
    back to (a team match's page for the team competition's pair matches)."""
    _back_links[stage] = link


def match_back_link(match) -> tuple[str, str]:
    """The organiser's way back from a scoresheet: the results desk, or what the match's app registered."""
    found = _back_links.get(match.stage)
    if found is not None:
        return found(match)
    return match.event.name, reverse("organiser:results", args=[match.event.slug])


_organiser_homes: dict[str, Callable] = {}


def register_organiser_home(kind: str, home: Callable) -> None:
    """``home(slug) -> url``: where an organiser of an event of that kind works (the team pages)."""
    _organiser_homes[kind] = home


def organiser_home(event) -> str:
    found = _organiser_homes.get(event.kind)
    return found(event.slug) if found else reverse("organiser:event", args=[event.slug])


def has_organiser_home(kind: str) -> bool:
    return kind in _organiser_homes


_demo_steps: list[tuple[int, str, Callable]] = []


def register_demo(name: str, step: Callable, *, order: int = 100) -> None:
    """``step(organiser, today) -> [line, …]``: what an app adds to the demo season once the pair events
    are there (``setup_demo``, on an empty database); the lines say what it made. ``name`` keeps a step
    registered once however often its module is imported; lower ``order`` runs first."""
    _demo_steps[:] = [entry for entry in _demo_steps if entry[1] != name]
    _demo_steps.append((order, name, step))


def demo_steps() -> list[Callable]:
    """Every app's demo step, in order (imports each installed app's ``demo`` module first)."""
    autodiscover_modules("demo")
    return [step for _order, _name, step in sorted(_demo_steps, key=lambda entry: (entry[0], entry[1]))]


_match_labels: dict[str, Callable] = {}


def register_match_labels(stage: str, labels: Callable) -> None:
    """``labels(matches) -> {match id: label}``: what a match of that stage is called where a pair match
    says "round r" (the team competition: "Loppuottelu · pari 1" rather than "kierros 4")."""
    _match_labels[stage] = labels


def match_labels(matches) -> dict[int, str]:
    """The labels of those of ``matches`` whose stage has its own (one call per such stage)."""
    out: dict[int, str] = {}
    for stage, labels in _match_labels.items():
        mine = [m for m in matches if m.stage == stage]
        if mine:
            out.update(labels(mine))
    return out


class Printout(NamedTuple):
    """One printout on the organiser's printouts page: its name, its address and a note ("3 sivua, PDF")."""

    label: str
    url: str
    meta: str


class PrintoutSection(NamedTuple):
    """A heading of the printouts page with a note under it, its printouts, and what it says without any."""

    heading: str
    note: str
    items: list[Printout]
    empty: str = ""


_printouts: dict[str, Callable] = {}


def register_printouts(kind: str, printouts: Callable) -> None:
    """``printouts(event) -> [PrintoutSection, …]``: what an organiser of an event of that kind prints."""
    _printouts[kind] = printouts


def printouts(kind: str) -> Callable | None:
    return _printouts.get(kind)
