"""The judges' council (issue #29): a pair's appeal on the match's secret link or filed by the organiser
on the match's page (one view for both audiences, as the scoresheet's actions), and the council's page
(``/jarjestaja/kisat/<slug>/tuomarineuvosto/``): the open appeals, the late forfeits it may waive, its
rulings. The services decide; the views load, call and render."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from lib.http import int_param
from tournaments.actions import council as council_actions
from tournaments.actions.event_day import LATE_REASON
from tournaments.actions.results import ResultRefused
from tournaments.models import Appeal, Entry, Exclusion, Match, Pair, Ruling
from tournaments.readmodel.prefetch import pair_members_prefetch
from tournaments.web.forms_council import APPEAL_FIELDS, RULING_FIELDS, AppealForm, ExclusionForm, RulingForm
from tournaments.web.permissions import organiser_required


def appeal(request, sheet):
    """``…/valitus/``: the form (which pair, what about, optionally the line), and filing it."""
    form = AppealForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            council_actions.file_appeal(
                sheet.match, form.cleaned_data["side"], form.cleaned_data["subject"], line=form.cleaned_data["line"],
                actor=sheet.actor,
            )
        except ResultRefused as exc:
            form.add_error(APPEAL_FIELDS.get(exc.code), " ".join(exc.messages))
        else:
            messages.success(request, _("Valitus jätetty tuomarineuvostolle. Tulosta ei vahvisteta ennen päätöstä."))
            return redirect(sheet.url())
    match = sheet.match
    context = {
        "sheet": sheet, "match": match, "event": sheet.event, "form": form,
        "deadline": council_actions.appeal_deadline(match, sheet.event), "appeals": list(match.appeals.all()),
        "action": sheet.url("appeal"),
    }
    return render(request, "tournaments/council/appeal.html", context)


def _late_forfeits(event) -> list[Match]:
    """The matches ended by a late forfeit that the council may still waive (the forfeit is their last line)."""
    found = (
        Match.objects.filter(event=event, changes__action="add", changes__reason=LATE_REASON)
        .select_related("pair_a", "pair_b", "group").prefetch_related("entries").distinct()
    )
    out = []
    for match in found:
        lines = sorted(match.entries.all(), key=lambda e: e.position)
        if lines and lines[-1].kind == Entry.Kind.FORFEIT:
            out.append(match)
    return sorted(out, key=lambda m: (m.stage, m.round, m.table))


def _active_pairs(event) -> list[Pair]:
    """The pairs still in the event, with their players (two queries)."""
    pairs = Pair.objects.filter(event=event, withdrawn_at__isnull=True).prefetch_related(pair_members_prefetch())
    return list(pairs.order_by("number"))


def _page(request, event, bound: dict | None = None):
    judges = list(event.judges or [])
    bound = bound or {}
    active = _active_pairs(event)
    appeals = list(council_actions.open_appeals(event))
    for item in appeals:
        item.form = bound.get(f"a{item.pk}") or RulingForm(judges=judges, prefix=f"a{item.pk}")
    waivable = _late_forfeits(event)
    for match in waivable:
        match.form = bound.get(f"m{match.pk}") or RulingForm(
            judges=judges, appeal=False, prefix=f"m{match.pk}", initial={"effect": Ruling.Effect.WAIVE_LATE}
        )
    rulings = Ruling.objects.filter(event=event).select_related("match", "match__pair_a", "match__pair_b", "appeal")
    context = {
        "event": event, "section": "council", "judges": judges, "appeals": appeals, "waivable": waivable,
        "rulings": list(rulings.order_by("-ruled_at", "-pk")),
        "exclusion_form": bound.get("exclusion") or ExclusionForm(judges=judges, pairs=active, prefix="exclusion"),
        "order_form": bound.get("order") or RulingForm(
            judges=judges, appeal=False, prefix="order", initial={"effect": Ruling.Effect.FORFEIT}
        ),
        "open_matches": list(
            Match.objects.filter(event=event, status__in=[Match.Status.SCHEDULED, Match.Status.PLAYING])
            .select_related("pair_a", "pair_b").order_by("stage", "round", "table")
        ),
        "exclusions": list(Exclusion.objects.filter(event=event).select_related("pair", "player").order_by("-at")),
    }
    return render(request, "tournaments/council/council.html", context)


@organiser_required
def council(request, event):
    return _page(request, event)


@organiser_required
@require_POST
def rule(request, event):
    """A ruling on an open appeal (``appeal``) or on a match by itself (``match``: a late forfeit waived)."""
    appeal_id, match_id = int_param(request.POST.get("appeal")), int_param(request.POST.get("match"))
    if appeal_id is not None:
        found = get_object_or_404(Appeal.objects.select_related("match"), pk=appeal_id, match__event=event)
        return _rule(request, event, found.match, found, f"a{found.pk}")
    if match_id is not None:
        return _rule(request, event, get_object_or_404(Match, pk=match_id, event=event), None, f"m{match_id}")
    raise Http404


@organiser_required
@require_POST
def order(request, event):
    """A ruling on a match the council takes up by itself (§5.4: players ordered to forfeit for talking),
    the match chosen from those not finished."""
    match = Match.objects.filter(event=event, pk=int_param(request.POST.get("match")) or 0).first()
    form = RulingForm(request.POST, judges=list(event.judges or []), appeal=False, prefix="order")
    if match is None:
        form.is_valid()
        form.add_error(None, _("Valitse ottelu."))
        return _page(request, event, {"order": form})
    return _rule(request, event, match, None, "order", form)


def _rule(request, event, match, appeal, key: str, form=None):
    form = form or RulingForm(request.POST, judges=list(event.judges or []), appeal=appeal is not None, prefix=key)
    if form.is_valid():
        try:
            council_actions.rule(match, form.ruling_data(), appeal=appeal, user=request.user)
        except ResultRefused as exc:
            form.add_error(RULING_FIELDS.get(exc.code), " ".join(exc.messages))
        else:
            messages.success(request, _("Tuomarineuvoston päätös kirjattu."))
            return redirect(reverse("organiser:council", args=[event.slug]))
    return _page(request, event, {key: form})

@organiser_required
@require_POST
def exclude(request, event):
    """The council excludes a player: the pair's match in progress forfeited, the pair withdrawn."""
    active = _active_pairs(event)
    form = ExclusionForm(request.POST, judges=list(event.judges or []), pairs=active, prefix="exclusion")
    if form.is_valid():
        pair_id, player_id = form.chosen()
        pair = next(p for p in active if p.pk == pair_id)
        try:
            council_actions.exclude_player(
                pair, player_id, members=form.cleaned_data["members"], reason=form.cleaned_data["reason"],
                user=request.user,
            )
        except ResultRefused as exc:
            form.add_error(RULING_FIELDS.get(exc.code), " ".join(exc.messages))
        else:
            messages.success(request, _("Pelaaja suljettu kisasta: parin käynnissä ollut ottelu kirjattiin luovutukseksi ja pari luopui kisasta."))
            return redirect(reverse("organiser:council", args=[event.slug]))
    return _page(request, event, {"exclusion": form})
