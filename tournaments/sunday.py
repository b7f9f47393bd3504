"""Sunday services (RULES.md §5): advancing to the Sunday groups, correcting the seeding, creating the
placement matches as soon as their pairs are known, the final places, publishing the results.

The rules themselves (the seeding chart, the placement bracket, places 17 and on, one-stage places) are
pure functions in ``scoring.sunday``; this module loads the facts, calls them and stores what the
organiser decided (groups, matches, corrections). Every operation runs in one transaction.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import schedule as schedule_core
from scoring import sunday as sunday_core
from scoring.errors import ScoringError
from tournaments import publication, readmodel, services, versions
from tournaments.models import Event, Group, GroupEntry, Match, SeedingCorrection, Stage
from tournaments.signals import result_changed

SATURDAY, SUNDAY, PLACEMENT = Stage.SATURDAY, Stage.SUNDAY, Stage.PLACEMENT
SUNDAY_NAMES = ("1", "2", "3", "4")


def saturday_blockers(snap: readmodel.EventSnapshot) -> list[str]:
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
    return Match.objects.filter(event=event, stage__in=[SUNDAY, PLACEMENT], status__in=services.STARTED).exists()


@transaction.atomic
def advance(event: Event, user) -> None:
    """Form the four Sunday groups from the Saturday tables by the seeding chart and schedule them."""
    event = versions.lock(event.pk)
    if event.format != Event.Format.STANDARD:
        raise ValidationError(_("Yksivaiheisessa kisassa ei ole sunnuntain lohkoja."), code="one_stage")
    if Group.objects.filter(event=event, stage=SUNDAY).exists():
        raise ValidationError(_("Sunnuntain lohkot on jo muodostettu."), code="done")
    snap = readmodel.build(event.pk, stages=(SATURDAY,))
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
    schedule = schedule_core.event_schedule(dict(zip(SUNDAY_NAMES, groups, strict=True)))
    Match.objects.bulk_create(
        Match(
            event=event, stage=SUNDAY, group=rows[m.group], round=m.round, table=m.table,
            pair_a_id=m.a, pair_b_id=m.b, deals_planned=event.deals_sunday,
        )
        for m in schedule
    )


# --- placement matches ------------------------------------------------------------------------------


@transaction.atomic
def create_placements(event: Event) -> int:
    """Create every placement match whose pairs are known and that does not exist yet; returns how many.

    Semifinals when all four Sunday groups are finished with their play-offs recorded; a tier's final
    and third-place match when both of its semifinals have winners (RULES.md §5). Called after every
    Sunday or placement result and play-off, so the bracket fills itself.
    """
    versions.lock(event.pk)
    snap = readmodel.build(event.pk, stages=(SUNDAY, PLACEMENT))
    existing = snap.placements
    have = {(m.tier, m.placement_round, m.slot) for m in existing}
    new: list[sunday_core.PlacementMatch] = []
    if not any(m.placement_round == "semi" for m in existing):
        tables = snap.stage_tables(SUNDAY)
        if len(tables) == 4 and all(t.finished and not t.playoff_needed for t in tables):
            new.extend(sunday_core.placement_semis([[r.pair.pk for r in t.rows] for t in tables]))
    else:
        core = readmodel.placement_core(existing)
        new.extend(m for m in sunday_core.placement_finals(core) if (m.tier, m.round, m.slot) not in have)
    Match.objects.bulk_create(
        Match(
            event=event, stage=PLACEMENT, round=1 if m.round == "semi" else 2,
            table=2 * (m.tier - 1) + (m.slot if m.round == "semi" else (1 if m.round == "final" else 2)),
            tier=m.tier, placement_round=m.round, slot=m.slot, pair_a_id=m.a, pair_b_id=m.b,
            deals_planned=event.deals_placement,
        )
        for m in new
    )
    return len(new)


@transaction.atomic
def publish(event: Event, user, *, confirm: dict[int, int] | None = None) -> None:
    """Publish the final places: every result confirmed (``confirm``: those the organiser confirms in this
    step, match id → the version seen), the event marked finished (every secret link now only shows
    its result), and the published record kept with its digest (``tournaments.publication``)."""
    event = versions.lock(event.pk)
    if event.finished_at is not None:
        raise ValidationError(_("Lopputulokset on jo julkaistu."), code="published")
    if readmodel.build(event.pk).final_places is None:
        raise ValidationError(_("Kaikkia sijoja ei ole vielä ratkaistu."), code="incomplete")
    services.confirm_for_publication(event, confirm or {}, user)
    event.finished_at = timezone.now()
    event.save(update_fields=["finished_at"])
    publication.record_publication(event, user if getattr(user, "is_authenticated", False) else None)


@receiver(result_changed)
def _bracket_fills_itself(sender, match=None, group=None, **kwargs) -> None:
    """After a Sunday or placement result, or a Sunday play-off, create the placement matches now known."""
    stage = match.stage if match is not None else group.stage
    if stage in (SUNDAY, PLACEMENT):
        create_placements((match or group).event)
