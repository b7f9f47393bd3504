"""The organiser's results: the results desk, a match's change history, play-offs. (The scoresheet
itself, for the organiser and the secret link, is ``tournaments.web.views.scoresheet``.)"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from lib.http import int_param, redirect_back
from tournaments.actions import results as result_actions
from tournaments.models import Group, Match, Stage
from tournaments.readmodel import snapshot as readmodel
from tournaments.readmodel.prefetch import with_pairs
from tournaments.readmodel.results import short_label
from tournaments.web.forms_results import confirmations
from tournaments.web.permissions import organiser_required
from tournaments.web.views import day

ACTION_LABELS = {
    "add": gettext_lazy("rivi lisätty"),
    "edit": gettext_lazy("rivi korjattu"),
    "delete": gettext_lazy("viimeinen rivi poistettu"),
    "paper": gettext_lazy("tulos paperipöytäkirjasta"),
    "paper_delete": gettext_lazy("paperipöytäkirjan tulos poistettu"),
    "confirm": gettext_lazy("tulos vahvistettu"),
    "reopen": gettext_lazy("vahvistus peruttu"),
    "accept_a": gettext_lazy("pari A hyväksyi tuloksen pöydässä"),
    "accept_b": gettext_lazy("pari B hyväksyi tuloksen pöydässä"),
    "delete_line": gettext_lazy("rivi poistettu"),
    "appeal": gettext_lazy("valitus tuomarineuvostolle"),
    "ruling": gettext_lazy("tuomarineuvoston päätös"),
}


def _snapshot_lines(snapshot: dict | None) -> list[str]:
    """A stored before/after snapshot as the scoresheet writes it: one short line per entry."""
    if not snapshot:
        return []
    out = []
    for number, e in enumerate(snapshot.get("entries") or [], start=1):
        if e["kind"] == "deal":
            game = short_label(e["kind"], e["game"])
            caller = f" ({e['caller_seat']})" if e.get("caller_seat") else ""
            out.append(f"{number}. {game}{caller} {e['tricks_a']}–{e['tricks_b']}{'*' if e.get('penalised') else ''}")
        else:
            label = short_label(e["kind"])
            points = f" {e['points']}" if e.get("points") else ""
            out.append(f"{number}. {label} {e.get('pair', '')}{points}")
    paper = snapshot.get("paper")
    if paper:
        line = _("paperipöytäkirja %(a)s–%(b)s, %(n)s jakoa") % {
            "a": paper["total_a"], "b": paper["total_b"], "n": paper["deals_played"]
        }
        if paper.get("tuppi"):
            line += ", " + _("tuppi %(pair)s") % {"pair": paper["tuppi"]}
        if paper.get("deciding_winner"):
            line += ", " + _("voitosta pelatun jaon voitti %(pair)s") % {"pair": paper["deciding_winner"]}
        out.append(line)
    if snapshot.get("accepted"):
        out.append(_("hyväksyneet: %(sides)s") % {"sides": ", ".join(snapshot["accepted"])})
    if snapshot.get("confirmed"):
        out.append(_("vahvistettu"))
    return out


@organiser_required
def history(request, event, match_id):
    match = get_object_or_404(with_pairs(Match.objects.filter(event=event)), pk=match_id)
    changes = list(match.changes.select_related("user"))
    for change in changes:
        change.label = ACTION_LABELS.get(change.action, change.action)
        change.before_lines, change.after_lines = _snapshot_lines(change.before), _snapshot_lines(change.after)
    context = {"event": event, "match": match, "changes": changes, "acceptances": _acceptances(match, changes)}
    return render(request, "tournaments/results/history.html", context)


def _acceptances(match: Match, changes) -> list[dict]:
    """Which side accepted the result at the table and when (issue #24): both pairs tap "accepts" on the
    one phone that holds the match's link, in front of each other, as at a table terminal. Per side: the
    pair, the time of its acceptance in force (None: not accepted) and the change that recorded it."""
    out = []
    for side, pair, at in (("A", match.pair_a, match.accepted_a_at), ("B", match.pair_b, match.accepted_b_at)):
        action = f"accept_{side.lower()}"
        change = next((c for c in changes if c.action == action), None) if at else None  # newest first
        out.append({"side": side, "pair": pair, "at": at, "change": change})
    return out


REVIEW_LABELS = {
    "awaiting_acceptance": gettext_lazy("odottaa parien hyväksyntää"),
    "awaiting_confirmation": gettext_lazy("odottaa vahvistusta"),
    "corrected": gettext_lazy("korjattu, odottaa vahvistusta"),
    "confirmed": gettext_lazy("vahvistettu"),
    "playing": gettext_lazy("käynnissä"),
    "scheduled": gettext_lazy("ei alkanut"),
    "annulled": gettext_lazy("mitätöity"),
}
TO_DO = ("corrected", "awaiting_confirmation", "awaiting_acceptance")


@organiser_required
def overview(request, event):
    """The results desk: what awaits the pairs' acceptance or the organiser's confirmation (confirmed
    from the list), then every group with its matches; filtered by round, group and state; its live part
    refreshes itself (by conditional GET: nothing is sent while nothing changes)."""
    snap = readmodel.snapshot(event)
    rounds, group, state = int_param(request.GET.get("kierros")), request.GET.get("lohko", ""), request.GET.get("tila", "")
    acceptance = snap.event.require_acceptance

    def shown(m) -> bool:
        return (rounds is None or m.round == rounds) and (not group or (m.group and m.group.name == group)) and (
            not state or m.review(acceptance) == state
        )

    matches = [m for m in snap.matches if shown(m)]
    reviewed = [(m, m.review(acceptance)) for m in matches]
    context = {
        "event": event, "section": "results", "snap": snap, "labels": REVIEW_LABELS,
        "to_do": [(m, r) for m, r in reviewed if r in TO_DO],
        "unaccepted": sum(1 for _m, r in reviewed if r == "awaiting_acceptance"),
        "counts": {r: sum(1 for m in snap.matches if m.review(acceptance) == r) for r in REVIEW_LABELS},
        "tables": [t for t in (*snap.stage_tables(Stage.SATURDAY), *snap.stage_tables(Stage.SUNDAY))
                   if not group or t.group.name == group],
        "others": [m for m in matches if m.group is None],  # placement and team matches
        "shown": {m.pk for m in matches},
        "review": {m.pk: REVIEW_LABELS[r] for m, r in reviewed},
        "rounds": sorted({m.round for m in snap.matches}), "groups": [g.name for g in snap.groups],
        "filters": {"kierros": rounds, "lohko": group, "tila": state},
        "live_url": request.get_full_path(),
        **day.late_context(event, snap, back=request.get_full_path()),  # issue #19: the late-forfeit deadline
    }
    template = "tournaments/results/_desk.html" if request.headers.get("HX-Request") else "tournaments/results/overview.html"
    return render(request, template, context)


@organiser_required
@require_POST
def confirm_many(request, event):
    """Confirm the results ticked on the results desk (each at the version the desk showed); with
    ``unaccepted_too``, every result the desk listed as awaiting the pairs' acceptance as well (issue #25:
    pairs who walk off without tapping "accepts"), each at its version shown, without their acceptance."""
    chosen = confirmations(request.POST)
    if request.POST.get("unaccepted_too"):
        chosen = {**confirmations(request.POST, "unaccepted"), **chosen}
    confirmed, unaccepted, refused = 0, 0, []
    for match in Match.objects.filter(event=event, pk__in=list(chosen)):
        waiting = event.require_acceptance and not match.link_closed and match.confirmed_at is None
        try:
            result_actions.set_confirmed(match, True, version=chosen[match.pk], user=request.user)
        except result_actions.ResultRefused as exc:
            refused.append(f"{match.round}/{match.table}: {' '.join(exc.messages)}")
        else:
            confirmed, unaccepted = confirmed + 1, unaccepted + waiting
    if confirmed:
        done = ngettext("%(n)s tulos vahvistettu.", "%(n)s tulosta vahvistettu.", confirmed) % {"n": confirmed}
        if unaccepted:
            done += " " + ngettext("Niistä %(n)s ilman parien hyväksyntää.", "Niistä %(n)s ilman parien hyväksyntää.",
                                   unaccepted) % {"n": unaccepted}
        messages.success(request, done)
    for text in refused:
        messages.error(request, text)
    return redirect_back(request, reverse("organiser:results", args=[event.slug]), under="/jarjestaja/")



@organiser_required
@require_POST
def playoff(request, event, group_id):
    group = get_object_or_404(Group, event=event, pk=group_id)
    order = [int_param(v) for v in request.POST.getlist("order")]
    try:
        if None in order:
            raise result_actions.ResultRefused(_("Valitse järjestys."))
        reason = request.POST.get("reason", "").replace("\x00", "")[:500]  # after publication (issue #24)
        result_actions.record_playoff(group, order, user=request.user, reason=reason)
    except result_actions.ResultRefused as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Uusinnan tulos kirjattu."))
    return redirect(reverse("organiser:results", args=[event.slug]) + f"#lohko-{group.name}")
