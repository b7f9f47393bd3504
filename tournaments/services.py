"""Multi-step operations on events: each runs in one transaction, so nothing is ever half-saved."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import draw as draw_core
from scoring import match as match_engine
from scoring import schedule as schedule_core
from scoring.errors import ScoringError
from tournaments import publication, readmodel, versions
from tournaments import timetable as day_clock
from tournaments.engine_messages import message
from tournaments.models import (
    Club,
    DrawSwap,
    Entry,
    Event,
    Group,
    GroupEntry,
    Match,
    Pair,
    PairMember,
    PaperResult,
    Player,
    Playoff,
    ResultChange,
    SeasonClub,
    Stage,
    Withdrawal,
)
from tournaments.results import fold_rows, overwhelming_rule
from tournaments.signals import result_changed
from tournaments.validators import NAME_MAX_LENGTH, reject_formula, validate_council


@transaction.atomic
def create_pair(event: Event, player1: Player, player2: Player, club: Club) -> Pair:
    """Enter two players as a pair representing ``club``.

    Refuses the same player twice, and a player already in a pair of this event (the database refuses
    it too). In a cup event a player's first cup event of the season fixes their season club
    (RULES.md §7).
    """
    if player1.pk == player2.pk:
        raise ValidationError(_("Parin pelaajien on oltava kaksi eri henkilöä."), code="same_player")
    taken = PairMember.objects.filter(event=event, player__in=[player1, player2]).select_related("player")
    if taken:
        names = ", ".join(sorted(m.player.full_name for m in taken))
        raise ValidationError(
            _("Pelaaja on jo toisessa parissa tässä kisassa: %(names)s") % {"names": names}, code="already_entered"
        )
    if event.drawn_at is not None:
        raise ValidationError(_("Lohkot on jo arvottu: uusia pareja ei voi enää lisätä."), code="drawn")
    versions.lock(event.pk)  # serialises pair numbers per event
    number = (Pair.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0) + 1
    try:
        with transaction.atomic():
            pair = Pair.objects.create(event=event, number=number, club=club)
            PairMember.objects.create(pair=pair, event=event, player=player1, position=1)
            PairMember.objects.create(pair=pair, event=event, player=player2, position=2)
    except IntegrityError as exc:  # a concurrent entry of the same player
        raise ValidationError(_("Pelaaja on jo toisessa parissa tässä kisassa."), code="already_entered") from exc
    if event.is_cup_event:
        for player in (player1, player2):
            SeasonClub.objects.get_or_create(
                season=event.season, player=player, defaults={"club": club, "first_event": event}
            )
    return pair


def set_checked_in(pair: Pair, present: bool) -> None:
    Pair.objects.filter(pk=pair.pk).update(checked_in=present)
    pair.checked_in = present


@transaction.atomic
def replace_player(pair: Pair, position: int, new_player: Player, user=None) -> Player:
    """Put ``new_player`` in ``pair`` in place of its player at ``position`` (1 or 2), before the draw.

    Refuses after the draw (the groups were drawn with these names), and a player already in a pair of
    this event (this pair included). In a cup event the season clubs follow (RULES.md §7): the new
    player's first cup event of the season may be this one, and the replaced player's season club is
    fixed again by their next entry, if any. Returns the replaced player."""
    event = versions.lock(pair.event_id)
    if event.drawn_at is not None:
        raise ValidationError(_("Lohkot on jo arvottu: parin pelaajaa ei voi enää vaihtaa."), code="drawn")
    if position not in (1, 2):
        raise ValidationError(_("Valitse vaihdettava pelaaja."), code="position")
    member = PairMember.objects.select_for_update().select_related("player").get(pair=pair, position=position)
    taken = PairMember.objects.filter(event=event, player=new_player).select_related("pair").first()
    if taken is not None:
        raise ValidationError(
            _("%(name)s on jo parissa %(number)d tässä kisassa.")
            % {"name": new_player.full_name, "number": taken.pair.number},
            code="already_entered",
        )
    old = member.player
    member.player = new_player
    try:
        with transaction.atomic():
            member.save(update_fields=["player"])
    except IntegrityError as exc:  # a concurrent entry of the same player
        raise ValidationError(_("Pelaaja on jo toisessa parissa tässä kisassa."), code="already_entered") from exc
    if event.is_cup_event:
        SeasonClub.objects.get_or_create(
            season=event.season, player=new_player, defaults={"club": pair.club, "first_event": event}
        )
        if SeasonClub.objects.filter(season=event.season, player=old, first_event=event).delete()[0]:
            later = (
                PairMember.objects.filter(
                    player=old, event__season=event.season, event__kind__in=Event.CUP_KINDS
                )
                .select_related("pair__club", "event")
                .order_by("event__starts_on", "event_id")
                .first()
            )
            if later is not None:
                SeasonClub.objects.create(
                    season=event.season, player=old, club=later.pair.club, first_event=later.event
                )
    return old


@transaction.atomic
def withdraw_pair(pair: Pair, user=None) -> int:
    """Withdraw a pair. Before it has finished its group, all its group matches are annulled: kept, shown
    struck through, counted nowhere (RULES.md §4). The withdrawal is kept (who, when, which matches it
    annulled and how they stood) so that it can be undone until Sunday starts. Returns how many matches
    were annulled."""
    event = versions.lock(pair.event_id)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.withdrawn_at is not None:
        return 0
    if event.finished_at is not None:
        raise ValidationError(
            _("Kisan lopputulokset on jo julkaistu: pari ei voi enää luopua."), code="published"
        )
    pair.withdrawn_at = timezone.now()
    pair.save(update_fields=["withdrawn_at"])
    group_matches = Match.objects.filter(stage=Stage.SATURDAY).filter(Q(pair_a=pair) | Q(pair_b=pair))
    annulled: dict[str, str] = {}
    if group_matches.exclude(status__in=[Match.Status.FINISHED, Match.Status.ANNULLED]).exists():
        counted = group_matches.exclude(status=Match.Status.ANNULLED)
        annulled = {str(pk): status for pk, status in counted.values_list("pk", "status")}
        counted.update(status=Match.Status.ANNULLED)
    Withdrawal.objects.create(pair=pair, user=_real(user), annulled=annulled)
    return len(annulled)


@transaction.atomic
def undo_withdrawal(pair: Pair, user=None) -> int:
    """Take a withdrawal back until Sunday starts: the pair is in again and the matches its withdrawal
    annulled get the status they had back (their results were never removed). Returns how many."""
    event = versions.lock(pair.event_id)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.withdrawn_at is None:
        raise ValidationError(_("Pari ei ole luopunut."), code="not_withdrawn")
    if Match.objects.filter(event=event, stage__in=[Stage.SUNDAY, Stage.PLACEMENT], status__in=STARTED).exists():
        raise ValidationError(
            _("Sunnuntai on jo alkanut: luopumista ei voi enää perua."), code="sunday_started"
        )
    withdrawal = pair.withdrawals.filter(undone_at__isnull=True).order_by("-at", "-pk").first()
    restored = 0
    if withdrawal is not None:
        for match_id, status in withdrawal.annulled.items():
            restored += Match.objects.filter(pk=int(match_id), status=Match.Status.ANNULLED).update(status=status)
        withdrawal.undone_at, withdrawal.undone_by = timezone.now(), _real(user)
        withdrawal.save(update_fields=["undone_at", "undone_by"])
    pair.withdrawn_at = None
    pair.save(update_fields=["withdrawn_at"])
    return restored


def _real(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


@transaction.atomic
def withdraw_absent(event: Event, user=None) -> int:
    """The morning check-in: every pair not marked present is withdrawn (each kept in the history).
    Only before the draw, and not in a team competition (its teams are its entries)."""
    if event.kind == Event.Kind.SM_TEAM:
        raise ValidationError(_("Joukkuekisassa ei ole aamun ilmoittautumista."), code="team_event")
    if event.drawn_at is not None:
        raise ValidationError(_("Lohkot on jo arvottu."), code="drawn")
    versions.lock(event.pk)
    absent = list(Pair.objects.filter(event=event, checked_in=False, withdrawn_at__isnull=True))
    now = timezone.now()
    Pair.objects.filter(pk__in=[p.pk for p in absent]).update(withdrawn_at=now)
    Withdrawal.objects.bulk_create(Withdrawal(pair=p, user=_real(user)) for p in absent)
    return len(absent)


# --- the Saturday draw (RULES.md §4) --------------------------------------------------------------------

# A match that has a result or part of one (the draw and the Sunday seeding lock once one exists).
STARTED = (Match.Status.PLAYING, Match.Status.FINISHED)


def draw_locked(event: Event) -> bool:
    """The draw is locked once the first result is entered (RULES.md §4, Decision on the draw)."""
    return Match.objects.filter(event=event, stage=Stage.SATURDAY, status__in=STARTED).exists()


def _scoring_error(exc: ScoringError) -> ValidationError:
    """The draw core's refusals, said in Finnish."""
    messages = {
        "too_few_pairs": _(
            "Kaksipäiväinen kisa tarvitsee vähintään %(minimum)s paria, nyt niitä on %(n_pairs)s. "
            "Vaihda kisan muodoksi yksivaiheinen kisa (muokkaa kisaa), jolloin valitset lohkojen määrän itse "
            "ja sijat ratkeavat lohkotaulukoista."
        ),
        "group_count_out_of_range": _(
            "%(n_pairs)s paria ei voi jakaa %(groups)s lohkoon: lohkoja voi olla 1–%(maximum)s "
            "(vähintään kaksi paria lohkossa)."
        ),
        "too_few_deals": _("Cupin kisassa otteluissa on oltava vähintään %(minimum)s jakoa, ei %(chosen)s."),
    }
    template = messages.get(exc.code)
    if template is None:
        return ValidationError(str(exc), code=exc.code)
    return ValidationError(template % exc.values, code=exc.code)


@transaction.atomic
def draw_groups(event: Event, user, *, seed: int | None = None, changes: dict | None = None) -> None:
    """Draw the Saturday groups and make their schedule: groups, entries and matches, in one transaction.

    A redraw (a new seed) replaces the previous draw and its swaps; refused once a result exists.
    ``changes``: the format and deal counts a redraw changes with it (they are fixed by the draw).
    Not for a team competition, whose bracket is drawn by ``teams.services.draw``.
    """
    event = versions.lock(event.pk)
    if event.kind == Event.Kind.SM_TEAM:
        raise ValidationError(
            _("Joukkuekisassa ei arvota alkulohkoja: kaavio arvotaan joukkuekisan sivulla."), code="team_event"
        )
    if draw_locked(event):
        raise ValidationError(_("Ensimmäinen tulos on jo kirjattu: arvonta on lukittu."), code="locked")
    if changes:
        for name, value in changes.items():
            setattr(event, name, value)
        event.save(update_fields=list(changes))
    pairs = list(Pair.objects.filter(event=event, withdrawn_at__isnull=True).only("pk", "club_id"))
    try:
        if event.format == Event.Format.ONE_STAGE:
            count = draw_core.group_count(len(pairs), one_stage_groups=event.group_count or 1)
        else:
            count = draw_core.group_count(len(pairs))
        seed = draw_core.new_seed() if seed is None else seed
        groups = draw_core.draw_groups([p.pk for p in pairs], seed, count)
        _store_groups(event, groups, {p.pk: p.club_id for p in pairs})
    except ScoringError as exc:
        raise _scoring_error(exc) from exc
    DrawSwap.objects.filter(event=event).delete()
    event.draw_seed = seed
    event.drawn_at = timezone.now()
    event.drawn_by = user if user is not None and user.is_authenticated else None
    event.save(update_fields=["draw_seed", "drawn_at", "drawn_by"])


def current_groups(event: Event) -> tuple[tuple[int, ...], ...]:
    entries = GroupEntry.objects.filter(group__event=event, stage=Stage.SATURDAY).order_by("group__name", "slot")
    by_group: dict[str, list[int]] = {}
    for group_name, pair_id in entries.values_list("group__name", "pair_id"):
        by_group.setdefault(group_name, []).append(pair_id)
    return tuple(tuple(by_group[name]) for name in sorted(by_group, key=draw_core.group_name_key))


@transaction.atomic
def swap_pairs(event: Event, pair_x: Pair, pair_y: Pair, user) -> None:
    """Exchange two pairs of different groups and remake the schedule; refused once a result exists."""
    event = versions.lock(event.pk)
    if event.drawn_at is None:
        raise ValidationError(_("Lohkoja ei ole vielä arvottu."), code="not_drawn")
    if draw_locked(event):
        raise ValidationError(_("Ensimmäinen tulos on jo kirjattu: arvonta on lukittu."), code="locked")
    try:
        groups = draw_core.swap(current_groups(event), pair_x.pk, pair_y.pk)
    except ScoringError as exc:
        messages = {
            "same_pair": _("Valitse kaksi eri paria."),
            "same_group": _("Parit ovat samassa lohkossa: vaihto ei muuttaisi mitään."),
        }
        raise ValidationError(messages.get(exc.code, _("Paria ei löydy arvonnasta.")), code=exc.code) from exc
    clubs = dict(Pair.objects.filter(event=event).values_list("pk", "club_id"))
    _store_groups(event, groups, clubs)
    DrawSwap.objects.create(event=event, pair_x=pair_x, pair_y=pair_y, swapped_by=user)


def _store_groups(event: Event, groups, clubs: dict[int, int]) -> None:
    """Replace the Saturday groups, entries and matches with ``groups`` (names A, B, …) and their schedule."""
    Match.objects.filter(event=event, stage=Stage.SATURDAY).delete()
    Group.objects.filter(event=event, stage=Stage.SATURDAY).delete()
    names = draw_core.group_names(len(groups))
    cup = event.is_cup_event
    group_rows = {
        name: Group.objects.create(
            event=event,
            stage=Stage.SATURDAY,
            name=name,
            deals_planned=schedule_core.planned_deals(len(members), cup_event=cup, chosen=event.deals_saturday),
        )
        for name, members in zip(names, groups, strict=True)
    }
    GroupEntry.objects.bulk_create(
        GroupEntry(group=group_rows[name], pair_id=pair_id, stage=Stage.SATURDAY, slot=slot)
        for name, members in zip(names, groups, strict=True)
        for slot, pair_id in enumerate(members, start=1)
    )
    schedule = schedule_core.event_schedule(dict(zip(names, groups, strict=True)), clubs)
    Match.objects.bulk_create(
        Match(
            event=event,
            stage=Stage.SATURDAY,
            group=group_rows[m.group],
            round=m.round,
            table=m.table,
            pair_a_id=m.a,
            pair_b_id=m.b,
            deals_planned=group_rows[m.group].deals_planned,
        )
        for m in schedule
    )
    # A pair withdrawn after an earlier draw keeps its place, and its matches stay annulled (RULES.md §4).
    Match.objects.filter(event=event, stage=Stage.SATURDAY).filter(
        Q(pair_a__withdrawn_at__isnull=False) | Q(pair_b__withdrawn_at__isnull=False)
    ).update(status=Match.Status.ANNULLED)


# --- results: the scoresheet line by line, the paper result, confirmation (RULES.md §2–3) ---------------


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
    if match.event.finished_at is not None:
        publication.record_correction(match.event, match, _user(actor), reason)
    return match


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

    ``client_id`` names the line as the referee's phone sent it: a line already stored under that id (a
    retry, a double tap, a second tab) is not stored again, and the call answers as if it had been."""
    match = _locked_match(match, None, actor, reason=reason)
    if client_id and Entry.objects.filter(match=match, client_id=client_id).exists():
        return match  # stored already: looked up under the lock, so two copies sent at once store one
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
        match_engine.paper_result(
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
def record_playoff(group: Group, order: list[int], *, user) -> Playoff:
    """The organiser records a play-off's order for pairs level after every tie-break (RULES.md §4 step 5)."""
    versions.lock(group.event_id)
    table = readmodel.build(group.event_id, stages=(group.stage,)).table(group.pk)
    level = {row.standing.pair for row in table.rows if row.standing.playoff_required}
    if len(order) < 2 or len(set(order)) != len(order) or not set(order) <= level:
        raise ResultRefused(_("Valitse järjestys vain uusintaa tarvitseville pareille."), code="bad_playoff")
    ranks = {row.standing.pair: row.standing.rank for row in table.rows}
    if len({ranks[p] for p in order}) != 1 or sum(1 for p in level if ranks[p] == ranks[order[0]]) != len(order):
        raise ResultRefused(_("Uusinnassa ovat kaikki samalla sijalla tasan olevat parit."), code="bad_playoff")
    playoff = Playoff.objects.create(group=group, order=order, recorded_by=user)
    result_changed.send(sender=Group, group=group)
    return playoff


# --- the event day: late forfeits, referees, the judges' council, entry fees (issue #19) ---------------

# The general rules: a player more than 15 minutes late from the announced time has forfeited, with
# their pair. Kept with the forfeit as the change's reason (the history; the cup's club fine).
LATE_REASON = "myöhästyminen"


@transaction.atomic
def late_forfeit(match: Match, side: str, *, user) -> Match:
    """The organiser records that pair ``side`` ("A" or "B") of a match not yet started forfeits it for
    being late (RULES.md §3: the opponents win by tuppi, 5–0), once the match's 15-minute deadline has
    passed (``tournaments.timetable``); the reason "myöhästyminen" goes with it. One step: a forfeit line
    through :func:`add_entry`, the organiser as its actor."""
    if side not in ("A", "B"):
        raise ResultRefused(_("Valitse pari A tai B."), code="bad_side")
    versions.lock(match.event_id)
    current = Match.objects.filter(pk=match.pk).first()
    if current is None:
        raise ResultRefused(_("Ottelua ei enää ole."), code="gone")
    if current.status != Match.Status.SCHEDULED:
        raise ResultRefused(
            _("Ottelu on jo alkanut tai pelattu: myöhästymisluovutusta ei voi kirjata."), code="started"
        )
    found = day_clock.deadline_of(readmodel.build(current.event_id), current.pk)
    now = timezone.now()
    if found is None or now < found:
        raise ResultRefused(
            _("Myöhästymisen määräaika ei ole vielä kulunut: luovutuksen voi kirjata vasta 15 minuuttia "
              "kierroksen alkamisen jälkeen."),
            code="too_early",
        )
    return add_entry(
        current, EntryData(kind=Entry.Kind.FORFEIT, pair=side), version=current.version, actor=Actor(user=user),
        reason=LATE_REASON,
    )


@transaction.atomic
def set_referee(match: Match, name: str, *, user=None) -> Match:
    """Name the match's referee (tuomari); an empty name: the player in seat 4 keeps the scoresheet."""
    name = " ".join((name or "").split())
    if len(name) > NAME_MAX_LENGTH:
        raise ValidationError(
            _("Nimi on liian pitkä (enintään %(n)s merkkiä).") % {"n": NAME_MAX_LENGTH}, code="name_long"
        )
    reject_formula(name)
    versions.lock(match.event_id)  # the referee is in the snapshot (the JSON API, the printouts)
    Match.objects.filter(pk=match.pk).update(referee=name)
    match.referee = name
    return match


@transaction.atomic
def set_council(event: Event, names: list[str]) -> Event:
    """Record the event's judges' council: 3–5 names (or none, not named yet); anything else is refused."""
    names = [" ".join(str(n).split()) for n in names]
    validate_council(names)
    event = versions.lock(event.pk)
    event.judges = names
    event.save(update_fields=["judges"])
    return event


@transaction.atomic
def record_fee(pair: Pair, method: str, *, user=None) -> Pair:
    """The pair has paid its entry fee (the event's fee for a pair, recorded as it is now) by ``method``
    (cash, card or transfer); recorded again, the method is corrected and the time and amount kept."""
    if method not in Pair.FeeMethod.values:
        raise ValidationError(_("Valitse maksutapa: käteinen, kortti tai tilisiirto."), code="fee_method")
    event = versions.lock(pair.event_id)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.fee_paid_at is None:
        pair.fee_paid_at, pair.fee_amount = timezone.now(), event.fee_per_pair
    pair.fee_method, pair.fee_recorded_by = method, _real(user)
    pair.save(update_fields=["fee_paid_at", "fee_amount", "fee_method", "fee_recorded_by"])
    return pair


@transaction.atomic
def clear_fee(pair: Pair, *, user=None) -> Pair:
    """Take back a payment recorded by mistake: the pair has not paid."""
    versions.lock(pair.event_id)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    pair.fee_paid_at, pair.fee_amount, pair.fee_method, pair.fee_recorded_by = None, None, "", _real(user)
    pair.save(update_fields=["fee_paid_at", "fee_amount", "fee_method", "fee_recorded_by"])
    return pair
