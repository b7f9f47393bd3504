"""The organiser's event day (issue #19): the late-forfeit deadline and its confirmed forfeit, entry fees
at check-in and the report of unpaid entries, what the draw will make, a match's referee.

The check-in page and the results desk show the deadlines (``late_context``, from the snapshot's
timetable); the forms on them post here. Every change goes through ``tournaments.actions``, each in one transaction.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig
from openpyxl import Workbook
from openpyxl.styles import Font

from lib import workbooks
from lib.http import int_param, redirect_back
from scoring import draw as draw_core
from scoring import schedule as schedule_core
from scoring.errors import ScoringError
from tournaments import extensions
from tournaments.actions import event_day
from tournaments.models import Event, Match, Pair, PairMember
from tournaments.readmodel import snapshot as readmodel
from tournaments.readmodel import timetable as day_clock
from tournaments.web.permissions import organiser_required
from tournaments.web.sure import unconfirmed
from tournaments.web.tables import UnpaidTable

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _back(request, event, default: str) -> HttpResponseRedirect:
    """Back to the organiser page the form was on (a path under /jarjestaja/), else ``default``."""
    return redirect_back(request, reverse(default, args=[event.slug]), under="/jarjestaja/")


# --- the late-forfeit deadline ------------------------------------------------------------------------


def late_context(event, snap=None, *, back: str = "") -> dict:
    """What the check-in page and the results desk show of the deadline: per match not yet started in a
    round that has begun, the minutes left until the 15-minute deadline, and after it the one-step
    forfeit for either pair."""
    snap = snap or readmodel.snapshot(event)
    late = day_clock.late_watch(snap, timezone.now())
    fine = extensions.forfeit_fine(event) if any(item.overdue for item in late) else None  # named when asked
    return {"late": late, "late_back": back, "late_event": event, "late_fine": fine}


@organiser_required
@require_POST
def late_forfeit(request, event):
    """One step: pair A or B of a match not yet started forfeits it, late (RULES.md §3, the reason kept)."""
    match = get_object_or_404(Match.objects.select_related("pair_a", "pair_b"), event=event,
                              pk=int_param(request.POST.get("match")) or 0)
    side = request.POST.get("pair", "")
    if unconfirmed(request):  # the box naming the pair, its club and the fine (issue #25: no misclick)
        return _back(request, event, "organiser:results")
    try:
        event_day.late_forfeit(match, side, user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        pair = match.pair_a if side == "A" else match.pair_b
        messages.success(
            request,
            _("Pari %(number)s luovutti ottelun %(round)s/%(table)s (myöhästyminen): vastustaja voitti tupilla. "
              "Jos luovutus kirjattiin väärälle parille, avaa ottelun pöytäkirja ja poista viimeinen rivi: "
              "ottelu palaa alkamattomaksi ja maksamaton sakko poistuu.")
            % {"number": pair.number, "round": match.round, "table": match.table},
        )
    return _back(request, event, "organiser:results")


# --- entry fees ---------------------------------------------------------------------------------------


def fee_totals(event) -> dict:
    """The check-in's money: pairs paid of those entered, the amount collected by method, what is owed."""
    pairs = list(event.pairs.only("pk", "event_id", "withdrawn_at", "fee_paid_at", "fee_method", "fee_amount"))
    active = [p for p in pairs if p.withdrawn_at is None]
    paid = [p for p in pairs if p.fee_paid_at is not None]
    by_method = []
    for method, label in Pair.FeeMethod.choices:
        amount = sum((p.fee_amount for p in paid if p.fee_method == method), Decimal(0))
        count = sum(1 for p in paid if p.fee_method == method)
        if count:
            by_method.append({"method": method, "label": label, "count": count, "amount": amount})
    unpaid = [p for p in active if p.fee_paid_at is None]
    return {
        "fee": event.fee_per_pair,
        "charged": event.entry_fee > 0,
        "paid_count": sum(1 for p in active if p.fee_paid_at is not None),
        "active_count": len(active),
        "collected": sum((p.fee_amount for p in paid), Decimal(0)),
        "by_method": by_method,
        "unpaid_count": len(unpaid),
        "owed": event.fee_per_pair * len(unpaid),
    }


@organiser_required
@require_POST
def checkin_fee(request, event):
    """Record a pair's entry fee as paid by ``method`` (one tap: cash, card or transfer) or, with
    ``clear``, as not paid after all."""
    pair = get_object_or_404(Pair, event=event, pk=int_param(request.POST.get("pair")) or 0)
    try:
        if request.POST.get("clear"):
            pair = event_day.clear_fee(pair, user=request.user)
        else:
            pair = event_day.record_fee(pair, request.POST.get("method", ""), user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    if not request.htmx:
        return HttpResponseRedirect(f"{reverse('organiser:checkin', args=[event.slug])}#pari-{pair.number}")
    members = PairMember.objects.select_related("player").order_by("position")
    pair = event.pairs.select_related("club").prefetch_related(Prefetch("members", queryset=members)).get(pk=pair.pk)
    context = {"event": event, "pair": pair, "drawn": event.drawn_at is not None, "fees": fee_totals(event), "oob": True}
    html = render_to_string("tournaments/organiser/entries/_checkin_row.html", context, request=request)
    html += render_to_string("tournaments/organiser/entries/_checkin_fees.html", context, request=request)
    return HttpResponse(html)


def _unpaid(event) -> list[Pair]:
    members = PairMember.objects.select_related("player").order_by("position")
    return list(
        event.pairs.filter(withdrawn_at__isnull=True, fee_paid_at__isnull=True)
        .select_related("club").prefetch_related(Prefetch("members", queryset=members)).order_by("number")
    )


@organiser_required
def fees_report(request, event):
    """The organiser's report: every entry that has not paid, the totals, and the workbook to download."""
    unpaid, fees = _unpaid(event), fee_totals(event)
    table = UnpaidTable(unpaid, fee=fees["fee"])
    RequestConfig(request, paginate=False).configure(table)
    context = {"event": event, "section": "checkin", "unpaid": unpaid, "fees": fees, "table": table}
    return render(request, "tournaments/organiser/entries/fees.html", context)


@organiser_required
def fees_xlsx(request, event):
    """The unpaid entries as a workbook (every text cell text, never a formula: ``lib.workbooks``)."""
    book = Workbook()
    ws = book.active
    ws.title = _("Maksamatta")
    headers = [_("Nro"), _("Pelaaja 1"), _("Pelaaja 2"), _("Kerho"), _("Paikalla"), _("Maksu (€)")]
    for col, title in enumerate(headers, start=1):
        ws.cell(row=1, column=col, value=title).font = Font(bold=True)
    fee = event.fee_per_pair
    rows = _unpaid(event)
    for r, pair in enumerate(rows, start=2):
        players = pair.players
        ws.cell(row=r, column=1, value=pair.number)
        ws.cell(row=r, column=2, value=players[0].full_name if players else None)
        ws.cell(row=r, column=3, value=players[1].full_name if len(players) > 1 else None)
        ws.cell(row=r, column=4, value=pair.club.name)
        ws.cell(row=r, column=5, value=_("kyllä") if pair.checked_in else _("ei"))
        ws.cell(row=r, column=6, value=float(fee)).number_format = "0.00"
    total = len(rows) + 2
    ws.cell(row=total, column=4, value=_("Yhteensä")).font = Font(bold=True)
    cell = ws.cell(row=total, column=6, value=float(fee * len(rows)))
    cell.number_format, cell.font = "0.00", Font(bold=True)
    for letter, width in zip("ABCDEF", (6, 26, 26, 28, 10, 12), strict=True):
        ws.column_dimensions[letter].width = width
    response = HttpResponse(workbooks.to_bytes(book), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-maksamatta.xlsx"'
    return response


# --- the draw page: what the draw will make ------------------------------------------------------------


def draw_preview(event, pair_count: int) -> dict:
    """What the draw page says before the draw (issue #25): the groups it will make, their sizes and deals
    per match (RULES.md §4, as ``draw_actions.draw_groups`` decides them), and the pairs that have not paid.
    ``groups`` is empty when the draw would be refused (too few pairs: the draw says why)."""
    one_stage = (event.group_count or 1) if event.format == Event.Format.ONE_STAGE else None
    groups = []
    try:
        count = draw_core.group_count(pair_count, one_stage_groups=one_stage)
        sizes = Counter(draw_core.group_sizes(pair_count, count))
        for size in sorted(sizes):
            deals = schedule_core.planned_deals(size, cup_event=event.is_cup_event, chosen=event.deals_saturday)
            groups.append({"count": sizes[size], "size": size, "deals": deals})
    except ScoringError:
        groups = []
    fees = fee_totals(event)
    return {"group_count": sum(g["count"] for g in groups), "groups": groups,
            "unpaid": fees["unpaid_count"] if fees["charged"] else None}


# --- a match's referee --------------------------------------------------------------------------------


@organiser_required
@require_POST
def match_referee(request, event, match_id):
    """Name the match's referee (empty: the player in seat 4 keeps the scoresheet)."""
    match = get_object_or_404(Match, event=event, pk=match_id)
    try:
        event_day.set_referee(match, request.POST.get("referee", ""), user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Tuomari tallennettu."))
    return HttpResponseRedirect(reverse("organiser:match", args=[event.slug, match.pk]))



def checkin_context(request, event) -> dict:
    """What the check-in page adds for the event day: the fee totals and, once drawn, the deadlines."""
    context = {"fees": fee_totals(event), "late": []}
    if event.drawn_at is not None:
        context.update(late_context(event, back=request.get_full_path()))
    return context
