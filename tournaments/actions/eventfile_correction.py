"""A changed event file of an event already published here (issue #27): applied as a correction, never a
silent overwrite.

The file is taken as a correction when its chain of published records extends this site's: the same
records first, then one or more records of kind "correction", each with its reason, and the chain whole
(each record's text gives its digest and names the one before it; the file's facts give the last one).
Only results may change: scoresheet lines, paper results, a match's workflow (status, acceptances,
confirmation, correction and finish moments, closed link), the play-offs, and what follows from them
(tables, places). Anything else that differs (a pair, a player, a group, the draw, a team's order, a fine)
refuses the file, saying so in Finnish.

The changes are written, the records between this site's last and the file's last are kept as the file
has them, and the last one is made by the same service an organiser's correction goes through
(``results.republish``: the reason, places still complete, a new link of the chain). Its digest must be
the file's, and the event must then export as the file is: otherwise nothing is changed.
"""

from __future__ import annotations

import datetime as dt

from scoring.eventfile_record import check_chain
from tournaments import extensions
from tournaments.actions import results, versions
from tournaments.models import Entry, Event, Match, PaperResult, Playoff, Publication

RESULT_KEYS = {  # a match's parts a correction may change
    "lines", "paper", "status", "accepted", "confirmed_at", "corrected_at", "finished_at", "link_closed", "result",
}
RESULT_PARTS = {"matches", "groups", "playoffs", "places", "publications"}  # checked one by one
LINE_KEYS = ("kind", "game", "caller_seat", "tricks_a", "tricks_b", "penalised", "pair", "points")
PART_NAMES = {
    "event": "kisan tiedot", "officials": "toimitsijat", "clubs": "kerhot", "players": "pelaajat", "pairs": "parit",
    "withdrawals": "luopumiset", "draw": "arvonta", "seeding_corrections": "sunnuntain lohkojen korjaukset",
    "teams": "joukkueet, järjestykset tai kaavio", "cup": "cup-tiedot tai sakot", "exclusions": "pelikiellot",
    "rules": "sääntöasetukset",
}


class Refused(Exception):
    """The file cannot be taken as a correction; ``problems`` say why (in Finnish)."""

    def __init__(self, *problems: str):
        super().__init__("\n".join(problems))
        self.problems = list(problems)


def _when(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


def _ref(m: dict) -> tuple:
    return (m["stage"], m["group"], m["round"], m["table"])


def new_links(here: list[dict], file: list[dict]) -> list[dict]:
    """The file's records after this site's, once the file's chain is seen to extend this one."""
    for n, (mine, theirs) in enumerate(zip(here, file, strict=False), start=1):
        if mine["digest"] != theirs["digest"]:
            raise Refused(
                f"Tiedoston julkaistut tulokset eroavat tämän sivuston julkaisemista tietueesta {n} alkaen "
                f"(sivustolla {mine['digest'][:12]}…, tiedostossa {theirs['digest'][:12]}…): tiedosto ei jatka "
                "sivuston julkaisuketjua, joten sitä ei voi ottaa korjauksena. Mitään ei muutettu."
            )
    if len(file) <= len(here):
        raise Refused(
            f"Tiedoston tulokset eroavat tämän sivuston julkaisemista, mutta sen julkaisuketjussa ei ole uutta "
            f"korjausta (sivustolla {len(here)} julkaistua tietuetta, tiedostossa {len(file)}): tiedosto on "
            "vanhempi kuin sivuston tulokset, tai sen tuloksia on muutettu kirjaamatta korjausta ja sen syytä. "
            "Mitään ei muutettu."
        )
    added = file[len(here):]
    for link in added:
        if link["kind"] != Publication.Kind.CORRECTION or not link["reason"].strip():
            raise Refused("Tiedoston uusi julkaistu tietue ei ole korjaus syineen: mitään ei muutettu.")
    return added


def _same_apart_from_results(now: dict, data: dict) -> None:
    """Refused when the file differs from the event here in anything but its results."""
    for key in sorted((now.keys() | data.keys()) - RESULT_PARTS):
        if now.get(key) != data.get(key):
            raise Refused(
                f"Tiedosto muuttaa muutakin kuin tuloksia ({PART_NAMES.get(key, key)}): julkaistuun kisaan "
                "voi tuoda vain tulosten korjauksen. Mitään ei muutettu."
            )
    here, there = {_ref(m): m for m in now["matches"]}, {_ref(m): m for m in data["matches"]}
    if here.keys() != there.keys():
        raise Refused("Tiedoston ottelut eivät ole samat kuin sivuston: korjaus ei lisää eikä poista otteluita. "
                      "Mitään ei muutettu.")
    for ref, m in here.items():
        if {k: v for k, v in m.items() if k not in RESULT_KEYS} != {
            k: v for k, v in there[ref].items() if k not in RESULT_KEYS
        }:
            raise Refused(f"Tiedosto muuttaa ottelussa {'/'.join(map(str, ref))} muutakin kuin tuloksen: "
                          "mitään ei muutettu.")
    if [{k: v for k, v in g.items() if k != "table"} for g in now["groups"]] != [
        {k: v for k, v in g.items() if k != "table"} for g in data["groups"]
    ]:
        raise Refused("Tiedoston lohkot eroavat sivuston lohkoista: mitään ei muutettu.")


def apply(event: Event, data: dict, now: dict, user=None) -> str:
    """Apply the file ``data`` (loaded and checked) of the published ``event`` (``now``: the file the event
    exports as here) as a correction; the reason of its last record is returned. :class:`Refused` when it
    cannot be one (the caller's transaction is then undone)."""
    _same_apart_from_results(now, data)
    added = new_links(now["publications"], data["publications"])
    broken = check_chain(data)
    if broken:
        raise Refused("Tiedoston julkaisuketju ei ole eheä, joten korjausta ei tehty:", *broken[:5])
    matches = {
        (stage, group or "", rnd, table): m
        for m, stage, group, rnd, table in (
            (m, m.stage, m.group.name if m.group else "", m.round, m.table)
            for m in Match.objects.filter(event=event).select_related("group")
        )
    }
    here = {_ref(m): m for m in now["matches"]}
    for row in data["matches"]:
        if row != here[_ref(row)]:
            _match(matches[_ref(row)], row)
    if data["playoffs"] != now["playoffs"]:
        _playoffs(event, data["playoffs"])
    for link in added[:-1]:  # corrections made one after another at the venue: kept as the file has them
        _keep(event, link, matches)
    versions.bump(event.pk)
    last = added[-1]
    event = Event.objects.get(pk=event.pk)
    results.republish(
        event, match=matches[_ref(last["match"])] if last["match"] else None, user=user, reason=last["reason"]
    )
    made = Publication.objects.filter(event=event).order_by("-pk").first()
    if made.digest != last["digest"]:
        raise Refused("Tiedoston tuloksista laskettu julkaistu tietue ei ole tiedoston viimeisin: mitään ei muutettu.")
    Publication.objects.filter(pk=made.pk).update(at=_when(last["at"]))
    return last["reason"]


def _match(match: Match, row: dict) -> None:
    Entry.objects.filter(match=match).delete()
    Entry.objects.bulk_create(
        Entry(match=match, position=n, **{k: line[k] for k in LINE_KEYS}) for n, line in enumerate(row["lines"], start=1)
    )
    PaperResult.objects.filter(match=match).delete()
    if row["paper"] is not None:
        PaperResult.objects.create(match=match, **row["paper"])
    accepted_a, accepted_b = (_when(v) for v in row["accepted"])
    Match.objects.filter(pk=match.pk).update(
        status=row["status"], accepted_a_at=accepted_a, accepted_b_at=accepted_b,
        confirmed_at=_when(row["confirmed_at"]), corrected_at=_when(row["corrected_at"]),
        finished_at=_when(row["finished_at"]), link_closed=row["link_closed"],
        version=match.version + 1,  # a form opened before the correction is stale
    )


def _playoffs(event: Event, rows: list[dict]) -> None:
    numbers = dict(event.pairs.values_list("number", "pk"))
    groups = {(g.stage, g.name): g for g in event.groups.all()}
    Playoff.objects.filter(group__event=event).delete()
    for row in rows:
        p = Playoff.objects.create(group=groups[row["stage"], row["group"]], order=[numbers[n] for n in row["order"]])
        Playoff.objects.filter(pk=p.pk).update(recorded_at=_when(row["at"]))


def _keep(event: Event, link: dict, matches: dict) -> None:
    places, naming = link["places"], extensions.places_naming(event.kind)
    if places is not None:
        numbers = dict(event.pairs.values_list("number", "pk"))
        places = naming.stored(event.pk, places) if naming else [[place, numbers[n]] for place, n in places]
    p = Publication.objects.create(
        event=event, kind=link["kind"], reason=link["reason"],
        match=matches[_ref(link["match"])] if link["match"] else None, places=places,
        digest=link["digest"], previous_digest=link["previous_digest"], record=link["record"],
    )
    Publication.objects.filter(pk=p.pk).update(at=_when(link["at"]))
