"""The Saturday draw (RULES.md §4): the groups drawn and stored, two pairs swapped, the draw's lock."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import draw as draw_core
from scoring import schedule as schedule_core
from scoring.errors import ScoringError
from tournaments.actions import versions
from tournaments.models import (
    DrawSwap,
    Event,
    Group,
    GroupEntry,
    Match,
    Pair,
    Stage,
)

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
    Not for a team competition, whose bracket is drawn by ``teams.actions.bracket.draw``.
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

