"""The judges' council at work (issue #29): a pair's appeal against a referee's decision, and the council's
ruling applied to the result in one transaction through the result services.

The federation's general rules (TUOMARITOIMINTA): "Pelaajilla on kuitenkin oikeus valittaa tuomarin
ratkaisuista tuomarineuvostolle, joka kuulee sekä ottelun tuomaria että molempia pareja.
Tuomarineuvoston päätös on lopullinen." A ruling is never changed: undoing one takes a new ruling; a
match whose appeal was ruled takes no further appeal. Filing and ruling change what the public pages show
(the match "valitus käsittelyssä", its group provisional), so both bump the event's results version."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.actions import entries, results, versions
from tournaments.actions.event_day import LATE_REASON
from tournaments.actions.results import Actor, EntryData, ResultRefused
from tournaments.models import Appeal, Entry, Event, Exclusion, Match, Pair, ResultChange, Ruling, Stage

MIN_MEMBERS = 3  # the council decides with at least three of its members (3–5 named for the event)


class CouncilRefused(ResultRefused):
    """An appeal or a ruling that was not recorded; the message says why."""


@dataclass(frozen=True)
class RulingData:
    """A ruling as the council gives it: who decided, whether the referee and both pairs were heard, the
    decision, its reasons and its effect. ``position`` names the line an effect concerns (a corrected line,
    a removed penalty); ``line`` is the corrected line or the added penalty; ``side`` the forfeiting pair."""

    members: tuple[str, ...]
    referee_heard: bool
    pairs_heard: bool
    decision: str
    reasons: str
    effect: str = Ruling.Effect.NONE
    position: int | None = None
    line: EntryData | None = None
    side: str = ""
    detail: dict = field(default_factory=dict)


def appeal_deadline(match: Match, event: Event) -> dt.datetime | None:
    """Until when a pair may appeal: None while the match is open (scheduled or playing), else the time
    its result came in plus the event's appeal minutes."""
    if match.status != Match.Status.FINISHED:
        return None
    finished = match.finished_at or timezone.now()
    return finished + dt.timedelta(minutes=event.appeal_minutes)


@transaction.atomic
def file_appeal(match: Match, side: str, subject: str, *, line: int | None = None, actor: Actor) -> Appeal:
    """Pair ``side`` appeals a referee's decision in ``match``: on the match's secret link, or an organiser
    for the pair. Allowed while the match is open or within the event's appeal time after it ended."""
    subject = (subject or "").strip()
    if side not in ("A", "B"):
        raise CouncilRefused(_("Valitse pari A tai B."), code="bad_side")
    if not subject:
        raise CouncilRefused(_("Kerro, mistä tuomarin ratkaisusta valitetaan."), code="no_subject")
    event = versions.lock(match.event_id)
    match = Match.objects.select_for_update().get(pk=match.pk)
    _check_appealable(match, event, line)
    if Appeal.objects.filter(match=match, side=side, status=Appeal.Status.OPEN).exists():
        raise CouncilRefused(_("Parin valitus tästä ottelusta on jo käsittelyssä."), code="already_open")
    appeal = Appeal.objects.create(
        match=match, side=side, subject=subject, line=line, filed_by_organiser=actor.is_organiser,
        filed_by=results._user(actor),
    )
    text = _("valitus (pari %(side)s): %(subject)s") % {"side": side, "subject": subject}
    _note(match, "appeal", actor, text)
    return appeal


def _check_appealable(match: Match, event: Event, line: int | None) -> None:
    if event.finished_at is not None:
        raise CouncilRefused(_("Kisan tulokset on julkaistu: valitusaika on päättynyt."), code="published")
    if match.status == Match.Status.ANNULLED:
        raise CouncilRefused(_("Ottelu on mitätöity: siitä ei voi valittaa."), code="annulled")
    if match.confirmed_at is not None:
        raise CouncilRefused(
            _("Tulos on jo vahvistettu: valitusta ei voi enää jättää. Järjestäjä voi perua vahvistuksen."),
            code="confirmed",
        )
    if Ruling.objects.filter(match=match, appeal__isnull=False).exists():
        raise CouncilRefused(
            _("Tuomarineuvosto on jo ratkaissut tämän ottelun valituksen: päätös on lopullinen."), code="final"
        )
    deadline = appeal_deadline(match, event)
    if deadline is not None and timezone.now() > deadline:
        raise CouncilRefused(
            _("Valitusaika päättyi klo %(time)s (%(n)s min ottelun päättymisestä).")
            % {"time": timezone.localtime(deadline).strftime("%H.%M"), "n": event.appeal_minutes},
            code="too_late",
        )
    if line is not None and not 1 <= line <= match.entries.count():
        raise CouncilRefused(_("Pöytäkirjassa ei ole riviä %(n)s.") % {"n": line}, code="no_line")


def _note(match: Match, action: str, actor: Actor, text: str) -> None:
    """The appeal or the ruling in the match's history (the sheet as it stands before and after)."""
    state = results._snapshot(match)
    ResultChange.objects.create(
        match=match, user=results._user(actor), via_link=actor.via_link, action=action, before=state,
        after=state, reason=text,
    )


@transaction.atomic
def rule(match: Match, data: RulingData, *, appeal: Appeal | None = None, user) -> Ruling:
    """The council's ruling on ``appeal`` (or on ``match`` by itself: a late forfeit waived, a forfeit
    ordered), recorded with its members and applied to the result in this same transaction through the
    result services (a refusal of the effect refuses the whole ruling). Final: an appeal is ruled once."""
    event = versions.lock(match.event_id)
    if event.finished_at is not None:
        raise CouncilRefused(
            _("Kisan tulokset on julkaistu: tuomarineuvoston päätöksiä ei enää kirjata."), code="published"
        )
    match = Match.objects.select_for_update().get(pk=match.pk)
    if appeal is not None:
        appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
        if appeal.match_id != match.pk:
            raise CouncilRefused(_("Valitus koskee toista ottelua."), code="other_match")
        if appeal.status != Appeal.Status.OPEN:
            raise CouncilRefused(
                _("Valitus on jo ratkaistu: tuomarineuvoston päätös on lopullinen. Muutos vaatii uuden päätöksen."),
                code="final",
            )
    members = _check_ruling(event, data, appeal)
    reasons = data.reasons.strip()
    detail = _apply(match, data, user=user, reasons=reasons)
    ruling = Ruling.objects.create(
        event=event, match=match, appeal=appeal, members=members, referee_heard=data.referee_heard,
        pairs_heard=data.pairs_heard, decision=data.decision, reasons=reasons, effect=data.effect,
        detail={**data.detail, **detail}, ruled_by=results._user(Actor(user=user)),
    )
    if appeal is not None:
        appeal.status = Appeal.Status.UPHELD if data.decision == Ruling.Decision.UPHELD else Appeal.Status.REJECTED
        appeal.ruled_at = ruling.ruled_at
        appeal.save(update_fields=["status", "ruled_at"])
    text = _("tuomarineuvoston päätös (%(members)s): %(decision)s, %(effect)s. %(reasons)s") % {
        "members": ", ".join(members), "decision": ruling.get_decision_display(),
        "effect": ruling.get_effect_display(), "reasons": reasons,
    }
    _note(Match.objects.get(pk=match.pk), "ruling", Actor(user=user), text)
    return ruling


def _check_ruling(event: Event, data: RulingData, appeal: Appeal | None) -> list[str]:
    """The members as named for the event (at least three of them), the hearing, the decision."""
    members = _members(event, data.members)
    if appeal is not None and not (data.referee_heard and data.pairs_heard):
        raise CouncilRefused(
            _("Tuomarineuvosto kuulee ennen päätöstä sekä ottelun tuomaria että molempia pareja."), code="not_heard"
        )
    decisions = (Ruling.Decision.REJECTED, Ruling.Decision.UPHELD) if appeal else (Ruling.Decision.DECIDED,)
    if data.decision not in decisions:
        raise CouncilRefused(_("Valitse päätös."), code="bad_decision")
    if data.decision == Ruling.Decision.REJECTED and data.effect != Ruling.Effect.NONE:
        raise CouncilRefused(_("Hylätty valitus ei muuta tulosta."), code="rejected_effect")
    if not data.reasons.strip():
        raise CouncilRefused(_("Kirjoita päätöksen perustelut."), code="no_reasons")
    return members


def _members(event: Event, given) -> list[str]:
    """The members who decided, each one named for the event's council, at least three of them."""
    named = list(event.judges or [])
    members = list(dict.fromkeys(" ".join(m.split()) for m in given if m and m.strip()))
    if len(named) < MIN_MEMBERS:
        raise CouncilRefused(
            _("Kisan tuomarineuvostoa ei ole nimetty: kirjaa sen jäsenet kisan tietoihin ensin."), code="no_council"
        )
    if any(m not in named for m in members):
        raise CouncilRefused(_("Päättäjien tulee olla kisan tuomarineuvoston jäseniä."), code="not_member")
    if len(members) < MIN_MEMBERS:
        raise CouncilRefused(
            _("Päätökseen tarvitaan vähintään kolme tuomarineuvoston jäsentä."), code="too_few_members"
        )
    return members


@transaction.atomic
def exclude_player(pair: Pair, player_id: int, *, members, reason: str, user) -> Exclusion:
    """The council excludes a disruptive player of ``pair`` from the event: the pair's match in progress
    is forfeited (a player removed in the middle of a match has forfeited; a forfeit line through the
    result services, the club's fine following the cup's forfeit rule), and the pair withdraws with RULES.md
    §4's annulment of its unfinished group's matches (``entries.withdraw_pair``). Shown publicly as the
    council's decision with its reason."""
    event = versions.lock(pair.event_id)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    reason = (reason or "").strip()
    if event.finished_at is not None:
        raise CouncilRefused(
            _("Kisan tulokset on julkaistu: tuomarineuvoston päätöksiä ei enää kirjata."), code="published"
        )
    if pair.withdrawn_at is not None:
        raise CouncilRefused(_("Pari on jo luopunut kisasta."), code="withdrawn")
    if not pair.members.filter(player_id=player_id).exists():
        raise CouncilRefused(_("Valitse parin pelaaja."), code="not_in_pair")
    chosen = _members(event, members)
    if not reason:
        raise CouncilRefused(_("Kirjoita sulkemisen syy."), code="no_reasons")
    text = _("tuomarineuvosto sulki pelaajan kisasta: %(reason)s") % {"reason": reason}
    playing = Match.objects.filter(event=event, status=Match.Status.PLAYING).filter(
        models.Q(pair_a=pair) | models.Q(pair_b=pair)
    )
    for match in playing.order_by("pk"):
        side = "A" if match.pair_a_id == pair.pk else "B"
        results.add_entry(match, EntryData(kind=Entry.Kind.FORFEIT, pair=side), version=None,
                          actor=Actor(user=user), reason=text)
    exclusion = Exclusion.objects.create(
        event=event, pair=pair, player_id=player_id, reason=reason, members=chosen, by=results._user(Actor(user=user))
    )
    entries.withdraw_pair(pair, user)
    forfeit_excluded(event, user)
    return exclusion


def forfeit_excluded(event: Event, user=None) -> int:
    """The Sunday and placement matches of excluded pairs that have not started are walkovers: the excluded
    pair forfeits each (a forfeit line through the result services, with the exclusion's reason), as soon
    as the match exists. Called after an exclusion and whenever Sunday's groups or the placement bracket
    get new matches (``tournaments.actions.sunday``); returns how many matches it forfeited."""
    excluded = dict(Exclusion.objects.filter(event=event).values_list("pair_id", "reason"))
    if not excluded:
        return 0
    waiting = Match.objects.filter(
        event=event, stage__in=[Stage.SUNDAY, Stage.PLACEMENT], status=Match.Status.SCHEDULED
    ).filter(models.Q(pair_a_id__in=excluded) | models.Q(pair_b_id__in=excluded))
    count = 0
    for match in waiting.order_by("pk"):
        match.refresh_from_db()  # an earlier forfeit here may have moved the bracket on
        if match.status != Match.Status.SCHEDULED:
            continue
        side, pair_id = ("A", match.pair_a_id) if match.pair_a_id in excluded else ("B", match.pair_b_id)
        text = _("tuomarineuvosto sulki pelaajan kisasta: %(reason)s") % {"reason": excluded[pair_id]}
        results.add_entry(match, EntryData(kind=Entry.Kind.FORFEIT, pair=side), version=None,
                          actor=Actor(user=user), reason=text)
        count += 1
    return count


def _apply(match: Match, data: RulingData, *, user, reasons: str) -> dict:
    """The ruling's effect on the scoresheet, through the result services; what it changed."""
    actor, effect = Actor(user=user), data.effect
    reason = _("tuomarineuvoston päätös: %(reasons)s") % {"reasons": reasons}
    if effect == Ruling.Effect.NONE:
        return {}
    if effect == Ruling.Effect.LINE:
        if data.position is None or data.line is None:
            raise CouncilRefused(_("Anna korjattava rivi ja sen uusi sisältö."), code="no_line")
        results.replace_entry(match, data.position, data.line, version=None, actor=actor, reason=reason)
        return {"position": data.position}
    if effect == Ruling.Effect.PENALTY_ADD:
        if data.line is None or data.line.kind not in (Entry.Kind.POINTS, Entry.Kind.TUPPI):
            raise CouncilRefused(_("Valitse rangaistus ja pari, jonka hyväksi se annetaan."), code="no_penalty")
        results.add_entry(match, data.line, version=None, actor=actor, reason=reason)
        return {"kind": data.line.kind, "pair": data.line.pair}
    if effect == Ruling.Effect.PENALTY_REMOVE:
        row = match.entries.filter(position=data.position or 0).first()
        if row is None or row.kind not in (Entry.Kind.POINTS, Entry.Kind.TUPPI):
            raise CouncilRefused(_("Valitse poistettavaksi pöytäkirjan rangaistusrivi."), code="not_penalty")
        results.delete_entry(match, row.position, version=None, actor=actor, reason=reason)
        return {"position": row.position, "kind": row.kind, "pair": row.pair}
    if effect == Ruling.Effect.FORFEIT:
        if data.side not in ("A", "B"):
            raise CouncilRefused(_("Valitse luovuttava pari."), code="bad_side")
        results.add_entry(match, EntryData(kind=Entry.Kind.FORFEIT, pair=data.side), version=None, actor=actor,
                          reason=reason)
        return {"pair": data.side}
    if effect == Ruling.Effect.WAIVE_LATE:
        return _waive_late(match, actor, reason)
    raise CouncilRefused(_("Valitse päätöksen vaikutus."), code="bad_effect")


def _waive_late(match: Match, actor: Actor, reason: str) -> dict:
    """The council decides otherwise about a late forfeit ("ellei tuomarineuvosto toisin päätä"): the
    forfeit line goes, the match is back to not started, and the cup's unpaid fine goes with it."""
    last = match.entries.order_by("-position").first()
    late = ResultChange.objects.filter(match=match, action="add", reason=LATE_REASON).exists()
    if last is None or last.kind != Entry.Kind.FORFEIT or not late:
        raise CouncilRefused(_("Ottelulla ei ole myöhästymisluovutusta peruttavaksi."), code="no_late_forfeit")
    results.delete_last_entry(match, version=None, actor=actor, reason=reason)
    return {"pair": last.pair}


def open_appeals(event: Event):
    """The event's appeals awaiting the council, oldest first, with their matches and pairs."""
    return (
        Appeal.objects.filter(match__event=event, status=Appeal.Status.OPEN)
        .select_related("match", "match__pair_a", "match__pair_b", "match__group")
        .order_by("filed_at", "pk")
    )
