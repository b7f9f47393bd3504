"""Sunday services (RULES.md §5): advancing to the Sunday groups, correcting the seeding, creating the
placement matches as soon as their pairs are known, the final places, publishing the results.

The rules themselves (the seeding chart, the placement bracket, places 17 and on, one-stage places) are
pure functions in ``scoring.sunday``; this module loads the facts, calls them and stores what the
organiser decided (groups, matches, corrections). Every operation runs in one transaction.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import schedule as schedule_core
from scoring import sunday as sunday_core
from scoring.errors import ScoringError
from tournaments.actions import council, draw, publication, versions
from tournaments.actions import results as result_actions
from tournaments.models import Event, Group, GroupEntry, Match, Pair, SeedingCorrection, Stage
from tournaments.readmodel import build, values
from tournaments.signals import result_changed

SATURDAY, SUNDAY, PLACEMENT = Stage.SATURDAY, Stage.SUNDAY, Stage.PLACEMENT
SUNDAY_NAMES = ("1", "2", "3", "4")


def saturday_blockers(snap: values.EventSnapshot) -> list[str]:
    """Why the event cannot advance yet, one Finnish sentence per reason (empty when it can).

    A tie that needs a play-off blocks only when it touches the advancing places; ties further down
    share their place (RULES.md §5, places 17 and on) and need no play-off.
    """
    tables = snap.stage_tables(SATURDAY)
    if len(tables) not in (8, 16):
        return [_("Sunnuntaihin edetään vain kahdeksasta tai kuudestatoista alkulohkosta.")]
    per_group = sunday_core.advancing(len(tables))
    unfinished = [t.group.name for t in tables if not t.finished]
    playoffs = [
        t.group.name
        for t in tables
        if any(r.standing.playoff_required and r.standing.rank <= per_group for r in t.rows)
    ]
    reasons = []
    if unfinished:
        reasons.append(_("Kesken olevat lohkot: %(groups)s.") % {"groups": ", ".join(unfinished)})
    if playoffs:
        reasons.append(_("Uusinta kirjaamatta lohkoissa: %(groups)s.") % {"groups": ", ".join(playoffs)})
    return reasons


def sunday_started(event: Event) -> bool:
    return Match.objects.filter(event=event, stage__in=[SUNDAY, PLACEMENT], status__in=draw.STARTED).exists()


@transaction.atomic
def advance(event: Event, user) -> None:
    """Form the four Sunday groups from the Saturday tables by the seeding chart and schedule them."""
    event = versions.lock(event.pk)
    if event.kind == Event.Kind.SM_TEAM:
        raise ValidationError(_("Joukkuekisassa ei ole sunnuntain lohkoja."), code="team_event")
    if event.format != Event.Format.STANDARD:
        raise ValidationError(_("Yksivaiheisessa kisassa ei ole sunnuntain lohkoja."), code="one_stage")
    if Group.objects.filter(event=event, stage=SUNDAY).exists():
        raise ValidationError(_("Sunnuntain lohkot on jo muodostettu."), code="done")
    snap = build.build(event.pk, stages=(SATURDAY,))
    reasons = saturday_blockers(snap)
    if reasons:
        raise ValidationError(" ".join(reasons), code="not_ready")
    tables = snap.stage_tables(SATURDAY)
    standings = {t.group.name: [r.pair.pk for r in t.rows] for t in tables}
    try:
        groups = sunday_core.sunday_groups(standings, len(tables))
    except ScoringError as exc:
        raise ValidationError(exc.message, code=exc.code) from exc
    _store_sunday(event, groups)


@transaction.atomic
def correct_seeding(event: Event, groups: list[list[int]], user) -> None:
    """Replace the Sunday seeding with the organiser's correction, until Sunday's first result."""
    event = versions.lock(event.pk)
    before = current_seeding(event)
    if not before:
        raise ValidationError(_("Sunnuntain lohkoja ei ole vielä muodostettu."), code="not_advanced")
    if sunday_started(event):
        raise ValidationError(_("Sunnuntain ensimmäinen tulos on jo kirjattu: sijoitusta ei voi enää muuttaa."), code="locked")
    try:
        seeding = sunday_core.validate_seeding(groups, [p for g in before for p in g])
    except ScoringError as exc:
        messages = {
            "seeding_pair_twice": _("Pari on kahdessa sunnuntain lohkossa."),
            "seeding_pair_missing": _("Jokin jatkoon päässyt pari puuttuu sunnuntain lohkoista."),
            "seeding_pair_unknown": _("Sunnuntain lohkoissa on pari, joka ei päässyt jatkoon."),
            "seeding_group_size": _("Jokaisessa sunnuntain lohkossa on neljä paria."),
            "seeding_group_count": _("Sunnuntain lohkoja on neljä."),
        }
        raise ValidationError(messages.get(exc.code, exc.message), code=exc.code) from exc
    if [list(g) for g in seeding] == before:
        return
    _store_sunday(event, seeding)
    SeedingCorrection.objects.create(event=event, user=user, before=before, after=[list(g) for g in seeding])


def current_seeding(event: Event) -> list[list[int]]:
    entries = GroupEntry.objects.filter(group__event=event, stage=SUNDAY).order_by("group__name", "slot")
    seeding: dict[str, list[int]] = {}
    for name, pair_id in entries.values_list("group__name", "pair_id"):
        seeding.setdefault(name, []).append(pair_id)
    return [seeding[name] for name in sorted(seeding)]


def _store_sunday(event: Event, groups) -> None:
    Match.objects.filter(event=event, stage__in=[SUNDAY, PLACEMENT]).delete()
    Group.objects.filter(event=event, stage=SUNDAY).delete()
    rows = {
        name: Group.objects.create(event=event, stage=SUNDAY, name=name, deals_planned=event.deals_sunday)
        for name in SUNDAY_NAMES
    }
    GroupEntry.objects.bulk_create(
        GroupEntry(group=rows[name], pair_id=pair_id, stage=SUNDAY, slot=slot)
        for name, members in zip(SUNDAY_NAMES, groups, strict=True)
        for slot, pair_id in enumerate(members, start=1)
    )
    # RULES.md §5: each Sunday group plays a round robin "ordered as in §4": same-club pairs meet first.
    clubs = dict(Pair.objects.filter(event=event).values_list("pk", "club_id"))
    schedule = schedule_core.event_schedule(dict(zip(SUNDAY_NAMES, groups, strict=True)), clubs)
    Match.objects.bulk_create(
        Match(
            event=event, stage=SUNDAY, group=rows[m.group], round=m.round, table=m.table,
            pair_a_id=m.a, pair_b_id=m.b, deals_planned=event.deals_sunday,
        )
        for m in schedule
    )
    council.forfeit_excluded(event)  # an excluded pair's Sunday matches are walkovers (issue #29)


# --- placement matches ------------------------------------------------------------------------------


@transaction.atomic
def create_placements(event: Event) -> int:
    """Keep the placement bracket in step with the results (RULES.md §5); returns how many matches it
    created or re-placed.

    Semifinals once all four Sunday groups are finished with their play-offs recorded; a tier's final and
    third-place match once both of its semifinals have winners. Called after every Sunday or placement
    result and play-off, so the bracket fills itself, and follows corrections: a later match that has no
    result yet gets its new pairs (or goes, when its pairs are no longer known); a correction that would
    change a later match that already has a result is refused, naming the matches to clear first (the
    caller's transaction, the correction with it, is undone)."""
    versions.lock(event.pk)
    snap = build.build(event.pk, stages=(SUNDAY, PLACEMENT))
    existing = {(m.tier, m.placement_round, m.slot): m for m in snap.placements}
    wanted: dict[tuple[int, str, int], tuple[int, int]] = {}
    tables = snap.stage_tables(SUNDAY)
    if len(tables) == 4 and all(t.finished and not t.playoff_needed for t in tables):
        semis = sunday_core.placement_semis([[r.pair.pk for r in t.rows] for t in tables])
        wanted.update({(m.tier, m.round, m.slot): (m.a, m.b) for m in semis})
        # a semifinal that keeps its pairs keeps its winner; one re-placed has none yet
        played = [
            sunday_core.PlacementMatch(
                m.tier, m.round, m.slot, m.a, m.b,
                _winner(existing.get((m.tier, m.round, m.slot)), (m.a, m.b)),
            )
            for m in semis
        ]
        wanted.update({(m.tier, m.round, m.slot): (m.a, m.b) for m in sunday_core.placement_finals(played)})
    clash = [
        m for key, m in existing.items()
        if wanted.get(key) != (m.pair_a.pk, m.pair_b.pk) and m.outcome.status != Match.Status.SCHEDULED
    ]
    if clash:
        raise result_actions.ResultRefused(
            _(
                "Korjaus muuttaisi sijoitusottelujen pareja, mutta näissä otteluissa on jo tulos: %(matches)s. "
                "Poista ensin niiden tulokset."
            ) % {"matches": ", ".join(_placement_name(m) for m in clash)},
            code="later_match_played",
        )
    changed = 0
    for key, m in existing.items():
        if key not in wanted:
            Match.objects.filter(pk=m.pk).delete()
            changed += 1
        elif wanted[key] != (m.pair_a.pk, m.pair_b.pk):
            a, b = wanted[key]
            Match.objects.filter(pk=m.pk).update(pair_a_id=a, pair_b_id=b, version=F("version") + 1)
            changed += 1
    new = [(key, pairs) for key, pairs in wanted.items() if key not in existing]
    Match.objects.bulk_create(
        Match(
            event=event, stage=PLACEMENT, round=1 if round_ == "semi" else 2,
            table=2 * (tier - 1) + (slot if round_ == "semi" else (1 if round_ == "final" else 2)),
            tier=tier, placement_round=round_, slot=slot, pair_a_id=a, pair_b_id=b,
            deals_planned=event.deals_placement,
        )
        for (tier, round_, slot), (a, b) in new
    )
    if new:
        council.forfeit_excluded(event)  # an excluded pair's later placement matches are walkovers (issue #29)
    return changed + len(new)


def _winner(match, pairs: tuple[int, int]) -> int | None:
    """The winner of a stored placement match, if it is still between ``pairs`` and decided."""
    if match is None or (match.pair_a.pk, match.pair_b.pk) != pairs or not match.outcome.finished:
        return None
    return match.outcome.winner


def _placement_name(m) -> str:
    names = {"semi": _("välierä"), "final": _("loppuottelu"), "third": _("pronssiottelu")}
    return _("sijat %(places)s %(round)s %(a)s – %(b)s") % {
        "places": values.TIER_PLACES[m.tier], "round": names[m.placement_round], "a": m.pair_a, "b": m.pair_b,
    }


@transaction.atomic
def publish(event: Event, user, *, confirm: dict[int, int] | None = None) -> None:
    """Publish the final places: every result confirmed (``confirm``: those the organiser confirms in this
    step, match id → the version seen), the event marked finished (every secret link now only shows
    its result), and the published record kept with its digest (``tournaments.actions.publication``)."""
    event = versions.lock(event.pk)
    if event.finished_at is not None:
        raise ValidationError(_("Lopputulokset on jo julkaistu."), code="published")
    if build.build(event.pk).final_places is None:
        raise ValidationError(_("Kaikkia sijoja ei ole vielä ratkaistu."), code="incomplete")
    result_actions.confirm_for_publication(event, confirm or {}, user)
    event.finished_at = timezone.now()
    event.save(update_fields=["finished_at"])
    publication.record_publication(event, user if getattr(user, "is_authenticated", False) else None)


def follow_saturday(event: Event) -> bool:
    """After a Saturday correction once the Sunday groups exist: if the Saturday tables now give other
    Sunday groups by the chart, and Sunday has not started, form them again (True); once a Sunday result
    exists such a correction is refused. An organiser's seeding correction stands: the chart is theirs
    to correct again. While a Saturday group is unfinished again (a result being corrected), nothing moves."""
    if not Group.objects.filter(event=event, stage=SUNDAY).exists() or event.seeding_corrections.exists():
        return False
    snap = build.build(event.pk, stages=(SATURDAY,))
    if saturday_blockers(snap):
        return False
    tables = snap.stage_tables(SATURDAY)
    groups = sunday_core.sunday_groups({t.group.name: [r.pair.pk for r in t.rows] for t in tables}, len(tables))
    if [list(g) for g in groups] == current_seeding(event):
        return False
    if sunday_started(event):
        raise result_actions.ResultRefused(
            _(
                "Korjaus muuttaisi sunnuntain lohkoja, mutta sunnuntain otteluissa on jo tuloksia. Poista ensin "
                "sunnuntain tulokset tai korjaa sunnuntain sijoitus käsin."
            ),
            code="sunday_started",
        )
    _store_sunday(event, groups)
    return True


@receiver(result_changed)
def _later_stages_follow(sender, match=None, group=None, **kwargs) -> None:
    """After a result or a play-off: the Sunday groups follow a Saturday correction, the placement bracket
    fills itself and follows a Sunday or placement correction."""
    stage = match.stage if match is not None else group.stage
    event = (match or group).event
    if stage == SATURDAY and event.format == Event.Format.STANDARD:
        follow_saturday(event)
    elif stage in (SUNDAY, PLACEMENT):
        create_placements(event)
