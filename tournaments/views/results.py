"""Entering results: the digital scoresheet (by an organiser, or by whoever holds the match's secret
link), the paper result, confirmation, the change history, play-offs."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import readmodel, services
from tournaments.forms_results import EntryForm, PaperForm
from tournaments.models import Group, Match, PaperResult, Stage
from tournaments.permissions import organiser_required
from tournaments.prefetch import pair_members_prefetch
from tournaments.results import sheet_and_outcome, short_label


def _match(queryset, **lookup) -> Match:
    return get_object_or_404(
        queryset.select_related("event", "group", "pair_a__club", "pair_b__club").prefetch_related(
            pair_members_prefetch("pair_a__"), pair_members_prefetch("pair_b__")
        ),
        **lookup,
    )


@organiser_required
def organiser_match(request, event, match_id):
    match = _match(Match.objects.filter(event=event), pk=match_id)
    url = reverse("organiser:match", args=[event.slug, match.pk])
    return _scoresheet(request, match, services.Actor(user=request.user), url)


def link_match(request, token):
    """The secret link printed on the scoresheet: this match only, until an organiser confirms it."""
    match = _match(Match.objects.all(), token=token)
    return _scoresheet(request, match, services.Actor(user=None, via_link=True), reverse("match_link", args=[token]))


def _scoresheet(request, match: Match, actor: services.Actor, url: str):
    read_only = match.status == Match.Status.ANNULLED or (match.confirmed_at is not None and not actor.is_organiser)
    rows = list(match.entries.order_by("position"))
    paper = PaperResult.objects.filter(match=match).first()
    edit_position = _int(request.GET.get("muokkaa"))
    form = paper_form = None

    if request.method == "POST":
        if read_only:
            raise PermissionDenied
        action = request.POST.get("action", "add")
        try:
            if action == "paper":
                paper_form = PaperForm(request.POST)
                if paper_form.is_valid():
                    services.save_paper(match, paper_form.paper_data(), version=paper_form.cleaned_data["version"], actor=actor)
                    messages.success(request, _("Tulos tallennettu."))
                    return redirect(url)
            elif action in ("delete_last", "clear_paper"):
                version = _int(request.POST.get("version"))
                if action == "delete_last":
                    services.delete_last_entry(match, version=version, actor=actor)
                    messages.success(request, _("Viimeinen rivi poistettu."))
                else:
                    services.clear_paper(match, version=version, actor=actor)
                    messages.success(request, _("Paperipöytäkirjan tulos poistettu."))
                return redirect(url)
            else:
                form = EntryForm(request.POST)
                if form.is_valid():
                    position = _int(request.POST.get("position"))
                    version = form.cleaned_data["version"]
                    if position:
                        services.replace_entry(match, position, form.entry_data(), version=version, actor=actor)
                        messages.success(request, _("Rivi %(n)s korjattu.") % {"n": position})
                    else:
                        services.add_entry(match, form.entry_data(), version=version, actor=actor)
                    return redirect(url + "#lomake")
                edit_position = _int(request.POST.get("position"))
        except services.ResultRefused as exc:
            messages.error(request, " ".join(exc.messages))
            match.refresh_from_db()
            rows = list(match.entries.order_by("position"))
            paper = PaperResult.objects.filter(match=match).first()
            if form is not None:
                form = EntryForm({**request.POST.dict(), "version": match.version})
                form.is_valid()
                # a refused correction stays a correction of the same line (not a new line)
                edit_position = _int(request.POST.get("position"))
            if paper_form is not None:
                paper_form = PaperForm({**request.POST.dict(), "version": match.version})
                paper_form.is_valid()

    if form is None:
        initial = {"version": match.version}
        if edit_position and 1 <= edit_position <= len(rows):
            initial.update(EntryForm.initial_from(rows[edit_position - 1]))
        else:
            edit_position = None
        form = EntryForm(initial=initial)
    if paper_form is None:
        initial = {"version": match.version}
        if paper:
            initial.update(total_a=paper.total_a, total_b=paper.total_b, deals_played=paper.deals_played,
                           tuppi=paper.tuppi, deciding_winner=paper.deciding_winner)
        paper_form = PaperForm(initial=initial)

    lines, state, result = sheet_and_outcome(match, rows, paper)
    context = {
        "match": match,
        "event": match.event,
        "lines": lines,
        "state": state,
        "outcome": result,
        "paper": paper,
        "form": form,
        "paper_form": paper_form,
        "edit_position": edit_position,
        "read_only": read_only,
        "actor": actor,
        "url": url,
    }
    return render(request, "tournaments/results/scoresheet_entry.html", context)


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@organiser_required
@require_POST
def confirm(request, event, match_id):
    match = get_object_or_404(Match, event=event, pk=match_id)
    confirmed = request.POST.get("confirmed") == "1"
    try:
        services.set_confirmed(match, confirmed, user=request.user)
    except services.ResultRefused as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Tulos vahvistettu.") if confirmed else _("Vahvistus peruttu: tulosta voi taas muuttaa."))
    return redirect("organiser:match", event.slug, match.pk)


ACTION_LABELS = {
    "add": gettext_lazy("rivi lisätty"),
    "edit": gettext_lazy("rivi korjattu"),
    "delete": gettext_lazy("viimeinen rivi poistettu"),
    "paper": gettext_lazy("tulos paperipöytäkirjasta"),
    "paper_delete": gettext_lazy("paperipöytäkirjan tulos poistettu"),
    "confirm": gettext_lazy("tulos vahvistettu"),
    "reopen": gettext_lazy("vahvistus peruttu"),
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
    if snapshot.get("confirmed"):
        out.append(_("vahvistettu"))
    return out


@organiser_required
def history(request, event, match_id):
    match = _match(Match.objects.filter(event=event), pk=match_id)
    changes = list(match.changes.select_related("user"))
    for change in changes:
        change.label = ACTION_LABELS.get(change.action, change.action)
        change.before_lines, change.after_lines = _snapshot_lines(change.before), _snapshot_lines(change.after)
    return render(request, "tournaments/results/history.html", {"event": event, "match": match, "changes": changes})


@organiser_required
def overview(request, event):
    """The organiser's results desk: every group with its matches, statuses and links, and play-offs."""
    tables = readmodel.snapshot(event).stage_tables(Stage.SATURDAY)
    return render(request, "tournaments/results/overview.html", {"event": event, "tables": tables, "section": "results"})


@organiser_required
@require_POST
def playoff(request, event, group_id):
    group = get_object_or_404(Group, event=event, pk=group_id)
    order = [_int(v) for v in request.POST.getlist("order")]
    try:
        if None in order:
            raise services.ResultRefused(_("Valitse järjestys."))
        services.record_playoff(group, order, user=request.user)
    except services.ResultRefused as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Uusinnan tulos kirjattu."))
    return redirect(reverse("organiser:results", args=[event.slug]) + f"#lohko-{group.name}")
