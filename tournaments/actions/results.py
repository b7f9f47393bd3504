"""Results: the scoresheet line by line, the paper result, confirmation, a playoff (RULES.md §2–3), and
the published record kept in step. Each change runs in one transaction."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import plausibility
from scoring.errors import ScoringError
from tournaments.actions import publication, versions
from tournaments.actions.engine_messages import message
from tournaments.actions.entries import _real
from tournaments.models import (
    Appeal,
    Entry,
    Event,
    Group,
    HandledLine,
    Match,
    PaperResult,
    Playoff,
    ResultChange,
)
from tournaments.readmodel import build
from tournaments.readmodel.results import fold_rows, overwhelming_rule
from tournaments.signals import result_changed


@dataclass(frozen=True)
class Actor:
    """Who changes a fact: an organiser (``user``), or whoever holds a secret link (a match's result
    entry, a team leader's page: ``via_link``). The one actor of every service."""

    user: object | None = None
    via_link: bool = False

    @property
    def is_organiser(self) -> bool:
        """Not through a secret link: an organiser, or the system itself (a simulation, an import)."""
        return not self.via_link


@dataclass(frozen=True)
class EntryData:
    """One scoresheet line as typed: a deal (game, caller seat, tricks) or a penalty/forfeit (pair, points)."""

    kind: str
    game: str = ""
    caller_seat: int | None = None
    tricks_a: int | None = None
    tricks_b: int | None = None
    penalised: bool = False
    pair: str = ""
    points: int | None = None


@dataclass(frozen=True)
class PaperData:
    total_a: int
    total_b: int
    deals_played: int
    tuppi: str = ""
    deciding_winner: str = ""


class ResultRefused(ValidationError):
    """A result change that was not saved; the message says why, in the user's language."""


def _entry_json(row: Entry) -> dict:
    return {
        "kind": row.kind, "game": row.game, "caller_seat": row.caller_seat, "tricks_a": row.tricks_a,
        "tricks_b": row.tricks_b, "penalised": row.penalised, "pair": row.pair, "points": row.points,
    }


def _snapshot(match: Match) -> dict:
    paper = PaperResult.objects.filter(match=match).first()
    return {
        "entries": [_entry_json(r) for r in match.entries.order_by("position")],
        "paper": None
        if paper is None
        else {
            "total_a": paper.total_a, "total_b": paper.total_b, "deals_played": paper.deals_played,
            "tuppi": paper.tuppi, "deciding_winner": paper.deciding_winner,
        },
        "confirmed": match.confirmed_at is not None,
        "accepted": [side for side in ("A", "B") if getattr(match, f"accepted_{side.lower()}_at") is not None],
    }


def _user(actor: Actor):
    return actor.user if actor.user is not None and actor.user.is_authenticated else None


def _locked_match(match: Match, version: int | None, actor: Actor, *, reason: str | None = "") -> Match:
    """The match, locked for this transaction, after the checks every result change shares.

    The event is locked first (and its results version bumped), then the match: every writer takes its
    locks in this order, so a result saved while the organiser redraws waits for the redraw instead of
    deadlocking with it, and then finds out that its match is gone.

    ``version`` is the version the change was made on (None only for callers without a page: the
    simulation, tests' builders). Through a secret link nothing changes once the result is accepted by
    both pairs, confirmed, or published (issue #16); after publication an organiser's change of the
    sheet needs a ``reason`` (None: not a change of the sheet), kept in the history and on the public
    final results."""
    event = versions.lock(match.event_id)
    try:
        match = Match.objects.select_for_update().select_related("event").get(pk=match.pk)
    except Match.DoesNotExist:
        raise ResultRefused(
            _("Ottelua ei enää ole: lohkot on arvottu uudelleen. Avaa ottelu uudelleen otteluohjelmasta."),
            code="gone",
        ) from None
    if match.status == Match.Status.ANNULLED:
        raise ResultRefused(_("Ottelu on mitätöity: sille ei kirjata tulosta."), code="annulled")
    if not actor.is_organiser:
        if event.finished_at is not None:
            raise ResultRefused(
                _("Kisan tulokset on julkaistu: linkillä voi vain katsoa tulosta."), code="published"
            )
        if match.confirmed_at is not None or match.link_closed:
            raise ResultRefused(
                _("Tulos on hyväksytty tai vahvistettu: vain järjestäjä voi enää muuttaa sitä."), code="closed"
            )
    elif event.finished_at is not None and reason is not None and not reason.strip():
        raise ResultRefused(
            _("Tulokset on jo julkaistu: kirjoita muutoksen syy. Se näkyy julkisissa lopputuloksissa."),
            code="reason_required",
        )
    _check_version(match, version)
    return match


def _check_version(match: Match, version: int | None) -> None:
    if version is not None and version != match.version:
        raise ResultRefused(
            _(
                "Joku muu tallensi tähän otteluun muutoksen sillä välin. Tarkista pöytäkirja alta ja "
                "kirjaa rivisi uudelleen, jos se puuttuu."
            ),
            code="stale",
        )


def _fold_or_refuse(match: Match, rows: list[Entry]):
    try:
        return fold_rows(match, rows)
    except ScoringError as exc:
        raise ResultRefused(message(exc), code=exc.code) from exc


REVIEW_FIELDS = [
    "version", "status", "confirmed_at", "confirmed_by", "accepted_a_at", "accepted_b_at", "link_closed",
    "corrected_at", "finished_at",
]


def _commit(match: Match, before: dict, action: str, actor: Actor, status: str, *, reason: str = "") -> Match:
    """Store a change of the sheet: a new version and status, the review state the change leaves, the
    history, the later stages, and after publication a new published record."""
    match.version += 1
    # Decision (issue #19): the result's time for the timetable. Set when the change finishes the sheet,
    # kept by a correction that leaves it finished, cleared by one that reopens it.
    if status != Match.Status.FINISHED:
        match.finished_at = None
    elif match.status != Match.Status.FINISHED or match.finished_at is None:
        match.finished_at = timezone.now()
    match.status = status
    # The pairs accepted, and the organiser confirmed, the result as it was: a change needs both again.
    match.accepted_a_at = match.accepted_b_at = None
    if match.confirmed_at is not None or match.link_closed:
        # An organiser's correction of a closed result: the link stays read-only, and the result waits for
        # the organiser's confirmation as "corrected" (issue #16).
        match.corrected_at = timezone.now()
    match.confirmed_at, match.confirmed_by = None, None
    if actor.is_organiser and status == Match.Status.FINISHED:
        # Decision (issue #16): the pairs accept a sheet finished on its link; a result the organiser
        # finished (from paper, or by correcting it) goes straight to confirmation, the link read-only.
        match.link_closed = True
    match.save(update_fields=REVIEW_FIELDS)
    _history(match, before, action, actor, reason)
    # later stages move on by themselves; the cup records a forfeit's club fine (with the change's reason)
    result_changed.send(sender=Match, match=match, reason=reason.strip())
    republish(match.event, match=match, user=_user(actor), reason=reason)
    return match


def republish(event: Event, *, match: Match | None = None, user=None, reason: str) -> None:
    """The one guard of a change to a published event's results (issues #16 and #24), called last in the
    transaction of every service that can make one (the scoresheet's changes through ``_commit``, a
    play-off): the change needs a reason, and it must leave every final place decided; then the places
    are computed again and a new published record holds them with the reason (``publication``).
    Otherwise it is refused, and the whole transaction with it: the event stays as it was published.
    Before publication it does nothing. (A withdrawal, its undoing, the draw and the Sunday seeding are
    refused outright once published or once Sunday has started.)"""
    if event.finished_at is None:
        return
    if not reason.strip():
        raise ResultRefused(
            _("Tulokset on jo julkaistu: kirjoita muutoksen syy. Se näkyy julkisissa lopputuloksissa."),
            code="reason_required",
        )
    places = publication.places_of(event)
    if places is None:
        raise ResultRefused(
            _(
                "Tulokset on jo julkaistu, eikä korjaus saa jättää yhtään lopputulosten sijaa ratkaisematta: "
                "tämän muutoksen jälkeen kaikkia sijoja ei voisi laskea. Korjaa tulos niin, että ottelulla on "
                "yhä lopputulos (korjaa rivi tai kirjaa tulos paperipöytäkirjasta), äläkä poista sitä."
            ),
            code="places_incomplete",
        )
    publication.record_correction(event, match, user, reason, places=places)


def _history(match: Match, before: dict, action: str, actor: Actor, reason: str = "") -> None:
    ResultChange.objects.create(
        match=match, user=_user(actor), via_link=actor.via_link, action=action, before=before,
        after=_snapshot(match), reason=reason.strip(),
    )


def _status(state) -> str:
    return Match.Status.FINISHED if state.finished else Match.Status.PLAYING


@transaction.atomic
def add_entry(
    match: Match, data: EntryData, *, version: int | None, actor: Actor, client_id: str = "", reason: str = ""
) -> Match:
    """Append one line to the scoresheet; the engine checks it against everything before it.

    ``client_id`` names the line as the referee's phone sent it: a line the match has already handled
    under that id (a retry, a double tap, a second tab; or a line stored and since deleted or corrected
    away, sent again by the phone's queue after a reload) is not stored again, and the call answers as
    if it had been (issue #24: ``HandledLine`` keeps every id the match has handled)."""
    match = _locked_match(match, None, actor, reason=reason)
    if client_id and HandledLine.objects.filter(match=match, client_id=client_id).exists():
        return match  # handled already: looked up under the lock, so two copies sent at once store one
    _check_version(match, version)
    if PaperResult.objects.filter(match=match).exists():
        raise ResultRefused(
            _("Ottelulle on kirjattu tulos paperipöytäkirjasta. Poista se ennen jakojen kirjaamista."), code="paper"
        )
    before = _snapshot(match)
    rows = list(match.entries.order_by("position"))
    row = Entry(match=match, position=len(rows) + 1, client_id=client_id, **asdict(data))
    state = _fold_or_refuse(match, [*rows, row])
    row.save()
    if client_id:
        HandledLine.objects.create(match=match, client_id=client_id)
    return _commit(match, before, "add", actor, _status(state), reason=reason)


@transaction.atomic
def replace_entry(
    match: Match, position: int, data: EntryData, *, version: int | None, actor: Actor, reason: str = ""
) -> Match:
    """Correct an earlier line; everything after it is recomputed, and refused if it no longer holds."""
    match = _locked_match(match, version, actor, reason=reason)
    before = _snapshot(match)
    rows = list(match.entries.order_by("position"))
    if not 1 <= position <= len(rows):
        raise ResultRefused(_("Riviä ei ole."), code="no_line")
    row = rows[position - 1]
    for field, value in asdict(data).items():
        setattr(row, field, value)
    state = _fold_or_refuse(match, rows)
    row.save()
    return _commit(match, before, "edit", actor, _status(state), reason=reason)


@transaction.atomic
def delete_last_entry(match: Match, *, version: int | None, actor: Actor, reason: str = "") -> Match:
    match = _locked_match(match, version, actor, reason=reason)
    before = _snapshot(match)
    rows = list(match.entries.order_by("position"))
    if not rows:
        raise ResultRefused(_("Pöytäkirjassa ei ole rivejä."), code="no_line")
    rows.pop().delete()
    status = _status(_fold_or_refuse(match, rows)) if rows else Match.Status.SCHEDULED
    return _commit(match, before, "delete", actor, status, reason=reason)


@transaction.atomic
def delete_entry(match: Match, position: int, *, version: int | None, actor: Actor, reason: str = "") -> Match:
    """Remove one line anywhere on the sheet (a penalty the judges' council removes, issue #29): the lines
    after it move up one and everything is folded again, refused if it no longer holds."""
    match = _locked_match(match, version, actor, reason=reason)
    before = _snapshot(match)
    rows = list(match.entries.order_by("position"))
    if not 1 <= position <= len(rows):
        raise ResultRefused(_("Riviä ei ole."), code="no_line")
    gone = rows.pop(position - 1)
    status = _status(_fold_or_refuse(match, rows)) if rows else Match.Status.SCHEDULED
    gone.delete()
    for row in rows[position - 1:]:  # in order, each into the place just freed: positions stay unique
        row.position -= 1
        row.save(update_fields=["position"])
    return _commit(match, before, "delete_line", actor, status, reason=reason)


@transaction.atomic
def save_paper(match: Match, data: PaperData, *, version: int | None, actor: Actor, reason: str = "") -> Match:
    """The result from a paper scoresheet: both totals, tuppi or not, deals played (match points follow).
    Through a secret link only where the organiser allows it for the event."""
    match = _locked_match(match, version, actor, reason=reason)
    if actor.via_link and not match.event.link_paper_allowed:
        raise ResultRefused(
            _("Kokonaisen tuloksen paperipöytäkirjasta kirjaa järjestäjä. Kirjaa jaot yksi kerrallaan."),
            code="paper_not_allowed",
        )
    if match.entries.exists():
        raise ResultRefused(
            _("Ottelulle on kirjattu jakoja: korjaa ne pöytäkirjaan tai poista ne ensin."), code="has_entries"
        )
    try:
        plausibility.paper_result(
            data.total_a, data.total_b, match.deals_planned, data.deals_played,
            tuppi=data.tuppi or None, deciding_winner=data.deciding_winner or None,
            overwhelming=overwhelming_rule(),
        )
    except ScoringError as exc:
        raise ResultRefused(message(exc), code=exc.code) from exc
    before = _snapshot(match)
    PaperResult.objects.update_or_create(match=match, defaults=asdict(data))
    return _commit(match, before, "paper", actor, Match.Status.FINISHED, reason=reason)


@transaction.atomic
def clear_paper(match: Match, *, version: int | None, actor: Actor, reason: str = "") -> Match:
    match = _locked_match(match, version, actor, reason=reason)
    if not PaperResult.objects.filter(match=match).exists():
        # nothing to clear; and a match with scoresheet lines must not be reset to "scheduled"
        raise ResultRefused(_("Ottelulle ei ole kirjattu tulosta paperipöytäkirjasta."), code="no_paper")
    before = _snapshot(match)
    PaperResult.objects.filter(match=match).delete()
    return _commit(match, before, "paper_delete", actor, Match.Status.SCHEDULED, reason=reason)


@transaction.atomic
def accept_result(match: Match, side: str, *, version: int | None, actor: Actor) -> Match:
    """One pair accepts the finished result at the table (issue #16, as a Bridgemate asks the opponents).
    Once both have, the secret link only shows it; the results desk lists it for confirmation."""
    if side not in ("A", "B"):
        raise ResultRefused(_("Valitse pari A tai B."), code="bad_side")
    match = _locked_match(match, version, actor, reason=None)
    if match.status != Match.Status.FINISHED:
        raise ResultRefused(_("Vain päättyneen ottelun tuloksen voi hyväksyä."), code="unfinished")
    field = f"accepted_{side.lower()}_at"
    if getattr(match, field) is not None:
        return match
    before = _snapshot(match)
    setattr(match, field, timezone.now())
    match.link_closed = match.accepted_a_at is not None and match.accepted_b_at is not None
    match.version += 1
    match.save(update_fields=[field, "link_closed", "version"])
    _history(match, before, f"accept_{side.lower()}", actor)
    return match


@transaction.atomic
def set_confirmed(match: Match, confirmed: bool, *, version: int | None, user) -> Match:
    """An organiser confirms the finished result they saw (``version``: a sheet changed since is refused
    and shown again), or reopens a confirmation. A confirmed result closes the secret link for good."""
    actor = Actor(user=user)
    match = _locked_match(match, version, actor, reason=None)
    if confirmed and match.status != Match.Status.FINISHED:
        raise ResultRefused(_("Vain päättyneen ottelun tuloksen voi vahvistaa."), code="unfinished")
    if confirmed and Appeal.objects.filter(match=match, status=Appeal.Status.OPEN).exists():
        raise ResultRefused(
            _("Ottelusta on valitus käsittelyssä: tulosta ei voi vahvistaa ennen tuomarineuvoston päätöstä."),
            code="appealed",
        )
    if not confirmed and match.event.finished_at is not None:
        raise ResultRefused(
            _("Tulokset on julkaistu: vahvistusta ei voi perua. Korjaa tulosta syyn kanssa."), code="published"
        )
    before = _snapshot(match)
    match.confirmed_at = timezone.now() if confirmed else None
    match.confirmed_by = user if confirmed else None
    if confirmed:
        match.link_closed, match.corrected_at = True, None
    match.version += 1
    match.save(update_fields=["confirmed_at", "confirmed_by", "link_closed", "corrected_at", "version"])
    _history(match, before, "confirm" if confirmed else "reopen", actor)
    return match


def unconfirmed(event: Event):
    """The event's finished results the organiser has not confirmed: each needs it before the final places
    are published. (A match without a result needs none: in a pair event the final places need every
    counted match finished; a team match decided 2–0 leaves its third pair match unplayed.)"""
    return Match.objects.filter(event=event, status=Match.Status.FINISHED, confirmed_at__isnull=True).order_by(
        "stage", "round", "table"
    )


@transaction.atomic
def confirm_for_publication(event: Event, confirm: dict[int, int], user) -> None:
    """Confirm, in the publishing step, the results the organiser ticked (match id → the version they
    saw), then refuse if any result is still unconfirmed (issue #16: publication locks)."""
    for match in Match.objects.filter(event=event, pk__in=list(confirm)):
        if match.confirmed_at is None:
            set_confirmed(match, True, version=confirm[match.pk], user=user)
    left = list(unconfirmed(event).select_related("pair_a", "pair_b")[:6])
    if left:
        raise ValidationError(
            _("Vahvista ensin kaikki tulokset. Vahvistamatta: %(matches)s.")
            % {"matches": ", ".join(f"{m.get_stage_display()} {m.round}/{m.table}" for m in left[:5])},
            code="unconfirmed",
        )


@transaction.atomic
def record_playoff(group: Group, order: list[int], *, user, reason: str = "") -> Playoff:
    """The organiser records a play-off's order for pairs level after every tie-break (RULES.md §4 step 5).
    After publication (a place shared for want of one) it is a correction: ``reason`` and ``republish``."""
    event = versions.lock(group.event_id)
    table = build.build(group.event_id, stages=(group.stage,)).table(group.pk)
    level = {row.standing.pair for row in table.rows if row.standing.playoff_required}
    if len(order) < 2 or len(set(order)) != len(order) or not set(order) <= level:
        raise ResultRefused(_("Valitse järjestys vain uusintaa tarvitseville pareille."), code="bad_playoff")
    ranks = {row.standing.pair: row.standing.rank for row in table.rows}
    if len({ranks[p] for p in order}) != 1 or sum(1 for p in level if ranks[p] == ranks[order[0]]) != len(order):
        raise ResultRefused(_("Uusinnassa ovat kaikki samalla sijalla tasan olevat parit."), code="bad_playoff")
    playoff = Playoff.objects.create(group=group, order=order, recorded_by=user)
    result_changed.send(sender=Group, group=group)
    republish(event, user=_real(user), reason=reason)
    return playoff

