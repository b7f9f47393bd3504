"""The event file read back (issue #27): ``manage.py import_event FILE`` creates the event a file holds
(``tournaments.output.eventfile`` writes it; ``docs/tuppi-event.schema.json`` is its schema), in one
transaction.

The file is first checked against the schema: an invalid file changes nothing and is refused saying
where and what is wrong. Clubs are matched by name, players by member number (a newcomer without one by
name and home club, refused when several registered players fit); what the registry lacks is created.
Nothing is overwritten: every conflict (a member number held by a player of another name, a club whose
short name or town differs, a club known under another name by its short name, a player's season club
already another one) is reported and the import refused, unless the caller keeps the registry's rows as
they are (``keep_registry``), in which case each conflict is still reported.

The judges' council's appeals, rulings and exclusions are stored as rows only: their effects on the
results are already in the file's lines and withdrawals.

The event is recognised by its slug: a file whose event exists already, with the same facts (the file the
existing event gives now is the same text), changes nothing and says so; one with other facts is refused.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from pathlib import Path

import jsonschema
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from registry.matching import Registered
from registry.models import Club, Player, Season, SeasonClub
from tournaments import extensions
from tournaments.actions import eventfile_correction as correction
from tournaments.actions import results, versions
from tournaments.models import (
    Appeal,
    DrawSwap,
    Entry,
    Event,
    Exclusion,
    Group,
    GroupEntry,
    Match,
    MatchSubstitute,
    Pair,
    PairMember,
    PaperResult,
    Playoff,
    Publication,
    Ruling,
    SeedingCorrection,
    Withdrawal,
)

SCHEMA_PATH = Path(settings.BASE_DIR) / "docs" / "tuppi-event.schema.json"
LINE_KEYS = ("kind", "game", "caller_seat", "tricks_a", "tricks_b", "penalised", "pair", "points")


class EventFileError(Exception):
    """The file cannot be imported; ``problems`` say why, one sentence each (in Finnish)."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class Imported:
    event: Event
    created: bool
    corrected: bool = False  # a changed file of an event published here, applied as a correction
    notes: list[str] = field(default_factory=list)  # conflicts kept as the registry has them, what was created


@cache
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def load(raw: bytes) -> dict:
    """The file's JSON document, checked against the schema; :class:`EventFileError` when it is not one."""
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise EventFileError([f"Tiedosto ei ole UTF-8-muotoista JSONia: {exc}"]) from exc
    validator = jsonschema.Draft202012Validator(schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        raise EventFileError([
            f"Tiedosto ei ole kelvollinen kisatiedosto (tuppi-event, versio 1): kohdassa {e.json_path}: {e.message}"
            for e in errors[:20]
        ])
    return data


def when(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


def import_event(
    data: dict, *, keep_registry: bool = False, exported_now: Callable[[Event], dict] | None = None, user=None
) -> Imported:
    """Create the event of a loaded file (:func:`load`) and the registry rows it lacks, in one transaction.

    ``exported_now(event)`` gives the file an existing event would be exported as: when the file's slug is
    taken, the import changes nothing if that file is the same; if not, a file of an event published here
    whose chain of published records extends this one is applied as a correction
    (``eventfile_correction``, made by ``user``), and any other is refused."""
    try:
        return _import(data, keep_registry, exported_now, user)
    except (IntegrityError, ValidationError, ValueError) as exc:  # facts the database refuses together
        message = "; ".join(getattr(exc, "messages", None) or [str(exc)])
        raise EventFileError([f"Tiedoston tiedot eivät sovi yhteen, mitään ei tuotu: {message}"[:500]]) from exc


def _import(data: dict, keep_registry: bool, exported_now, user=None) -> Imported:
    slug = data["event"]["slug"]
    with transaction.atomic():
        existing = Event.objects.filter(slug=slug).first()
        now = None if existing is None or exported_now is None else exported_now(existing)
        if existing is not None:
            if now == data:
                return Imported(existing, created=False, notes=[f"Kisa {slug} on jo tuotu: mitään ei muutettu."])
            if now is not None and existing.finished_at is not None and now["publications"]:
                return _correct(existing, data, now, exported_now, user)
            raise EventFileError([
                f"Kisa osoitteella {slug} on jo olemassa, ja sen tiedot eroavat tiedostosta: mitään ei tuotu."
            ])
        registry = _Registry(data, keep_registry)
        registry.match()
        registry.season_conflicts()
        if registry.conflicts and not keep_registry:
            raise EventFileError([*registry.conflicts, "Mitään ei tuotu: ristiriidat on ratkaistava ensin."])
        event = _Builder(data, registry).build()
        registry.season_clubs(event)
        versions.bump(event.pk)
    return Imported(event, created=True, notes=registry.conflicts + registry.created)


def _correct(event: Event, data: dict, now: dict, exported_now, user) -> Imported:
    """A changed file of an event published here: a correction, or refused saying why (nothing changed)."""
    try:
        reason = correction.apply(event, data, now, user)
    except correction.Refused as exc:
        raise EventFileError(exc.problems) from exc
    except results.ResultRefused as exc:  # the correction service's own refusal (places left undecided)
        raise EventFileError([f"Korjausta ei tehty: {' '.join(exc.messages)}"]) from exc
    if exported_now(event) != data:
        raise EventFileError([
            f"Kisan {event.slug} korjausta ei voitu tehdä niin, että kisa vastaisi tiedostoa: mitään ei muutettu."
        ])
    note = f"Kisa {event.slug}: tiedoston tulosten korjaus tehtiin julkaistuihin tuloksiin, syy: {reason}"
    return Imported(event, created=False, corrected=True, notes=[note])


class _Registry:
    """The file's clubs and players matched to the registry's (created when missing, never changed)."""

    def __init__(self, data: dict, keep: bool):
        self.data, self.keep = data, keep
        self.conflicts: list[str] = []
        self.created: list[str] = []
        self.clubs: dict[str, Club] = {}
        self.players: dict[str, Player] = {}
        self.season = Season.objects.get_or_create(start=dt.date.fromisoformat(data["event"]["season"]))[0]

    def match(self) -> None:
        for club in self.data["clubs"]:
            self._club(club)
        rows = self.data["players"]
        found = Registered([p["member_number"] for p in rows if p["member_number"]], [p["last_name"] for p in rows])
        for p in rows:
            self._player(p, found)

    def club(self, name: str | None) -> Club | None:
        if name is None:
            return None
        if name not in self.clubs:
            raise EventFileError([f"Kerhoa {name!r} ei ole tiedoston kerholuettelossa."])
        return self.clubs[name]

    def _club(self, row: dict) -> None:
        club = Club.objects.filter(name=row["name"]).first()
        if club is not None:
            for part, label in (("short_name", "lyhenne"), ("town", "paikkakunta")):
                if getattr(club, part) != row[part]:
                    self.conflicts.append(
                        f"Kerho {club.name}: rekisterissä {label} on {getattr(club, part)!r}, tiedostossa {row[part]!r}."
                    )
        else:
            other = Club.objects.filter(short_name=row["short_name"]).first() if row["short_name"] else None
            if other is not None:
                self.conflicts.append(
                    f"Kerho {row['name']} ({row['short_name']}): rekisterissä sama lyhenne on kerholla {other.name}."
                )
                if self.keep:
                    self.clubs[row["name"]] = other
                    return
            club = Club.objects.create(name=row["name"], short_name=row["short_name"], town=row["town"])
            self.created.append(f"Uusi kerho: {club.name}.")
        self.clubs[row["name"]] = club

    def _player(self, row: dict, found: Registered) -> None:
        name = f"{row['first_name']} {row['last_name']}"
        result = found.player(row["first_name"], row["last_name"], row["member_number"] or "")
        player = result.player
        if result.holder is not None:
            self.conflicts.append(
                f"Jäsennumero {row['member_number']}: tiedostossa {name}, rekisterissä {result.holder.full_name}."
            )
            player = result.holder
        elif row["member_number"] is None:
            player = self._newcomer(row, name)
        if player is None:
            player = Player.objects.create(
                first_name=row["first_name"], last_name=row["last_name"], member_number=row["member_number"],
                club=self.club(row["club"]),
            )
            self.created.append(f"Uusi pelaaja: {name} ({row['member_number'] or 'ei jäsennumeroa'}).")
        elif (player.club.name if player.club else None) != row["club"]:
            self.conflicts.append(
                f"Pelaaja {name}: rekisterissä kotikerho on {player.club or 'ei kerhoa'}, tiedostossa {row['club'] or 'ei kerhoa'}."
            )
        self.players[row["key"]] = player

    def _newcomer(self, row: dict, name: str) -> Player | None:
        """A player without a member number: the registered one of that name and home club without a number,
        if exactly one; several is a conflict (which of them?)."""
        same = [
            p for p in Player.objects.filter(
                first_name=row["first_name"], last_name=row["last_name"], member_number__isnull=True,
            ).select_related("club")
            if (p.club.name if p.club else None) == row["club"]
        ]
        if len(same) > 1:
            self.conflicts.append(f"Pelaaja {name} ({row['club']}) ilman jäsennumeroa: rekisterissä heitä on {len(same)}.")
        return same[0] if same else None

    def player(self, key: str) -> Player:
        if key not in self.players:
            raise EventFileError([f"Pelaajaa {key!r} ei ole tiedoston pelaajaluettelossa."])
        return self.players[key]

    def _season_clubs_now(self) -> list[tuple[Player, Club, bool, SeasonClub | None]]:
        """Each player's season club as the file says it, with the registry's row for the season (or None)."""
        out = []
        for row in self.data["players"]:
            wanted = row["season_club"]
            if wanted is not None:
                player = self.players[row["key"]]
                have = SeasonClub.objects.filter(season=self.season, player=player).select_related("club").first()
                out.append((player, self.club(wanted["club"]), wanted["first_event"], have))
        return out

    def season_conflicts(self) -> None:
        """A season club the registry has as another one: a conflict (RULES.md §7: it is fixed for the season)."""
        for player, club, _first, have in self._season_clubs_now():
            if have is not None and have.club_id != club.pk:
                self.conflicts.append(f"Pelaaja {player.full_name}: kauden {self.season} kerho on rekisterissä "
                                      f"{have.club.name}, tiedostossa {club.name}.")

    def season_clubs(self, event: Event) -> None:
        """Each player's season club as the file says, where the registry has none for the season; one
        already there is kept (a conflict reported before, or the same club)."""
        for player, club, first, have in self._season_clubs_now():
            if have is None:
                SeasonClub.objects.create(
                    season=self.season, player=player, club=club, first_event=event if first else None
                )
            elif have.club_id == club.pk and first and have.first_event_id is None:
                # the same club, with no event named as the one that fixed it (its event was deleted): named
                have.first_event = event
                have.save(update_fields=["first_event"])
            elif have.club_id == club.pk and first:
                self.created.append(f"Pelaaja {player.full_name}: kauden {self.season} kerhon vahvisti rekisterissä "
                                    f"toinen kisa; se pidetään.")


class _Builder:
    """The event's rows from the file, in the file's order (which is the order they were made in)."""

    def __init__(self, data: dict, registry: _Registry):
        self.data, self.registry = data, registry
        self.pairs: dict[int, Pair] = {}
        self.groups: dict[tuple[str, str], Group] = {}
        self.matches: dict[tuple, Match] = {}

    def build(self) -> Event:
        self.event = self._event()
        self._pairs()
        self._groups()
        self._matches()
        self._history()
        self._council()
        self._parts(first=True)  # the team competition's teams, which its published places name
        self._publications()
        self._parts(first=False)  # the cup's
        return self.event

    def _parts(self, *, first: bool) -> None:
        for key, part in extensions.event_file_parts().items():
            if key in self.data and part.first == first:
                part.read(self.event, self.data[key], self.match, self.pair, self.registry.club, self.registry.player)

    def _event(self) -> Event:
        e, times = self.data["event"], self.data["event"]["times"]
        drawn_by = self.data["officials"]["drawn_by"]
        return Event.objects.create(
            name=e["name"], slug=e["slug"], season=self.registry.season,
            starts_on=dt.date.fromisoformat(e["starts_on"]), ends_on=dt.date.fromisoformat(e["ends_on"]),
            venue=e["venue"], organising_club=self.registry.club(e["organising_club"]), kind=e["kind"],
            format=e["format"], group_count=e["group_count"], deals_saturday=e["deals"]["saturday"],
            deals_sunday=e["deals"]["sunday"], deals_placement=e["deals"]["placement"],
            require_acceptance=e["require_acceptance"], link_paper_allowed=e["link_paper_allowed"],
            draw_time=dt.time.fromisoformat(times["draw"]), play_time=dt.time.fromisoformat(times["play"]),
            sunday_play_time=dt.time.fromisoformat(times["sunday_play"]), minutes_per_deal=times["minutes_per_deal"],
            entry_fee=Decimal(e["fee"]["amount"]), fee_basis=e["fee"]["basis"],
            judges=self.data["officials"]["judges"],
            draw_seed=self.data["draw"]["seed"], drawn_at=when(self.data["draw"]["drawn_at"]),
            drawn_by=get_user_model().objects.filter(username=drawn_by).first() if drawn_by else None,
            finished_at=when(e["finished_at"]),
            **({"appeal_minutes": e["appeal_minutes"]} if "appeal_minutes" in e else {}),
        )

    def _pairs(self) -> None:
        members = []
        for row in self.data["pairs"]:
            fee = row["fee"] or {}
            pair = Pair.objects.create(
                event=self.event, number=row["number"], club=self.registry.club(row["club"]),
                checked_in=row["checked_in"], withdrawn_at=when(row["withdrawn_at"]),
                fee_paid_at=when(fee.get("paid_at")), fee_method=fee.get("method", ""),
                fee_amount=Decimal(fee["amount"]) if fee else None,
            )
            self.pairs[pair.number] = pair
            members += [
                PairMember(pair=pair, event=self.event, player=self.registry.player(key), position=n)
                for n, key in enumerate(row["players"], start=1)
            ]
        PairMember.objects.bulk_create(members)

    def pair(self, number: int) -> Pair:
        if number not in self.pairs:
            raise EventFileError([f"Paria {number} ei ole tiedoston parien luettelossa."])
        return self.pairs[number]

    def _groups(self) -> None:
        entries = []
        for row in self.data["groups"]:
            group = Group.objects.create(
                event=self.event, stage=row["stage"], name=row["name"], deals_planned=row["deals"]
            )
            self.groups[row["stage"], row["name"]] = group
            entries += [
                GroupEntry(group=group, pair=self.pair(number), stage=row["stage"], slot=slot)
                for slot, number in enumerate(row["pairs"], start=1)
            ]
        GroupEntry.objects.bulk_create(entries)

    def match(self, ref: dict) -> Match:
        key = (ref["stage"], ref["group"], ref["round"], ref["table"])
        if key not in self.matches:
            raise EventFileError([f"Ottelua {'/'.join(map(str, key))} ei ole tiedoston otteluissa."])
        return self.matches[key]

    def _matches(self) -> None:
        lines, papers, subs = [], [], []
        for row in self.data["matches"]:
            placement = row["placement"] or {}
            accepted_a, accepted_b = (when(v) for v in row["accepted"])
            m = Match.objects.create(
                event=self.event, stage=row["stage"], group=self.groups.get((row["stage"], row["group"])),
                round=row["round"], table=row["table"], pair_a=self.pair(row["pairs"][0]),
                pair_b=self.pair(row["pairs"][1]), deals_planned=row["deals"], status=row["status"],
                tier=placement.get("tier"), placement_round=placement.get("round", ""), slot=placement.get("slot"),
                confirmed_at=when(row["confirmed_at"]), accepted_a_at=accepted_a, accepted_b_at=accepted_b,
                link_closed=row["link_closed"], corrected_at=when(row["corrected_at"]),
                finished_at=when(row["finished_at"]), referee=row["referee"],
            )
            self.matches[row["stage"], row["group"], row["round"], row["table"]] = m
            lines += [
                Entry(match=m, position=n, **{k: line[k] for k in LINE_KEYS})
                for n, line in enumerate(row["lines"], start=1)
            ]
            if row["paper"] is not None:
                papers.append(PaperResult(match=m, **row["paper"]))
            subs += [
                MatchSubstitute(match=m, player=self.registry.player(s["player"]),
                                substitute=self.registry.player(s["substitute"]))
                for s in row["substitutes"]
            ]
        Entry.objects.bulk_create(lines)
        PaperResult.objects.bulk_create(papers)
        MatchSubstitute.objects.bulk_create(subs)

    def _history(self) -> None:
        """Swaps, withdrawals, play-offs and seeding corrections, with the moments the file gives them."""
        for row in self.data["draw"]["swaps"]:
            swap = DrawSwap.objects.create(event=self.event, pair_x=self.pair(row["pairs"][0]), pair_y=self.pair(row["pairs"][1]))
            DrawSwap.objects.filter(pk=swap.pk).update(swapped_at=when(row["at"]))
        for row in self.data["withdrawals"]:
            w = Withdrawal.objects.create(
                pair=self.pair(row["pair"]), undone_at=when(row["undone_at"]),
                annulled={str(self.match(a["match"]).pk): a["status"] for a in row["annulled"]},
            )
            Withdrawal.objects.filter(pk=w.pk).update(at=when(row["at"]))
        for row in self.data["playoffs"]:
            group = self.groups.get((row["stage"], row["group"]))
            if group is None:
                raise EventFileError([f"Uusinnan lohkoa {row['stage']}/{row['group']} ei ole tiedostossa."])
            p = Playoff.objects.create(group=group, order=[self.pair(n).pk for n in row["order"]])
            Playoff.objects.filter(pk=p.pk).update(recorded_at=when(row["at"]))
        for row in self.data["seeding_corrections"]:
            c = SeedingCorrection.objects.create(
                event=self.event, before=self._ids(row["before"]), after=self._ids(row["after"])
            )
            SeedingCorrection.objects.filter(pk=c.pk).update(at=when(row["at"]))

    def _council(self) -> None:
        """The judges' council's appeals, rulings and exclusions (issue #29) as rows only: their effects on
        the results are already in the file's lines and withdrawals, and are not applied again. Rulings
        are made in the order given (their moments, then the file's order), as the published record lists
        them."""
        rulings = []
        for row in self.data["matches"]:
            match, appeals = self.match(row), []
            for a in row.get("appeals", []):
                appeal = Appeal.objects.create(
                    match=match, side=a["side"], subject=a["subject"], line=a["line"],
                    filed_by_organiser=a["by_organiser"], status=a["status"], ruled_at=when(a["ruled_at"]),
                )
                Appeal.objects.filter(pk=appeal.pk).update(filed_at=when(a["filed_at"]))
                appeals.append(appeal)
            for r in row.get("rulings", []):
                if r["appeal"] is not None and not 1 <= r["appeal"] <= len(appeals):
                    raise EventFileError([f"Päätöksen valitusta {r['appeal']} ei ole ottelun valituksissa."])
                rulings.append((when(r["at"]), match, appeals[r["appeal"] - 1] if r["appeal"] else None, r))
        for at, match, appeal, r in sorted(rulings, key=lambda x: x[0]):
            ruling = Ruling.objects.create(
                event=self.event, match=match, appeal=appeal, members=r["members"], referee_heard=r["referee_heard"],
                pairs_heard=r["pairs_heard"], decision=r["decision"], reasons=r["reasons"], effect=r["effect"],
                detail=r["detail"],
            )
            Ruling.objects.filter(pk=ruling.pk).update(ruled_at=at)
        for row in self.data.get("exclusions", []):
            x = Exclusion.objects.create(
                event=self.event, pair=self.pair(row["pair"]), player=self.registry.player(row["player"]),
                members=row["members"], reason=row["reason"],
            )
            Exclusion.objects.filter(pk=x.pk).update(at=when(row["at"]))

    def _ids(self, groups: list) -> list:
        return [[self.pair(n).pk for n in g] for g in groups]

    def _publications(self) -> None:
        """The chain as it was published: each record's text and digest as kept, its places by pair id."""
        naming = extensions.places_naming(self.event.kind)  # a team competition's: by team name
        for row in self.data["publications"]:
            places = row["places"]
            if places is not None and naming is not None:
                places = naming.stored(self.event.pk, places)
            elif places is not None:
                places = [[place, self.pair(number).pk] for place, number in places]
            p = Publication.objects.create(
                event=self.event, kind=row["kind"], reason=row["reason"],
                match=self.match(row["match"]) if row["match"] else None, places=places,
                digest=row["digest"], previous_digest=row["previous_digest"], record=row["record"],
            )
            Publication.objects.filter(pk=p.pk).update(at=when(row["at"]))
