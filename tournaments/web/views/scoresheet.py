"""The digital scoresheet, one view per action (healthchecks style), for two audiences: the organiser
(``/jarjestaja/kisat/<slug>/ottelut/<id>/…``) and whoever holds the match's secret link (``/tulos/<token>/…``,
the QR code on the printed sheet). The URL modules wrap each view in the access helper of its audience,
which finds the match and says who acts; the services decide what that actor may change.

Every changing request carries the version of the sheet it was made on; a refused one shows the sheet
again with the reason next to the field it concerns and what was typed kept. A request from the referee
phone's queue (``static/js/scoresheet.js``, sent while the page tracks lines typed offline) asks for JSON.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import wraps

from django.contrib import messages
from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from lib.http import int_param, public_url
from tournaments import extensions
from tournaments.actions import results as result_actions
from tournaments.models import Match, PaperResult
from tournaments.readmodel import build
from tournaments.readmodel.prefetch import with_pairs
from tournaments.readmodel.results import sheet_and_outcome
from tournaments.web.forms_results import EntryForm, PaperForm, VersionForm, field_of
from tournaments.web.permissions import organiser_required


@dataclass
class Sheet:
    """One match's scoresheet as one audience reaches it."""

    match: Match
    actor: result_actions.Actor
    token: str | None = None  # the secret link's token; None for the organiser

    @property
    def event(self):
        return self.match.event

    @property
    def organiser(self) -> bool:
        return self.actor.is_organiser

    def url(self, action: str = "", *args) -> str:
        if self.organiser:
            name = f"organiser:sheet_{action}" if action else "organiser:match"
            return reverse(name, args=[self.event.slug, self.match.pk, *args])
        return reverse("link:" + (action or "sheet"), args=[self.token, *args])

    def urls(self, edit: int | None = None) -> dict[str, str]:
        """The address of each action the sheet page posts to."""
        names = ("add", "delete_last", "paper", "clear_paper")
        out = {name: self.url(name) for name in names}
        out["sheet"], out["appeal"] = self.url(), self.url("appeal")
        if edit:
            out["correct"] = self.url("correct", edit)
        if self.organiser:
            out["confirm"] = self.url("confirm")
        else:
            out["accept_a"], out["accept_b"] = self.url("accept", "A"), self.url("accept", "B")
        return out

    @property
    def published(self) -> bool:
        return self.event.finished_at is not None

    @property
    def read_only(self) -> bool:
        """Nothing to change here: an annulled match, or, through the link, a result that is accepted by
        both pairs, confirmed or published (issue #16)."""
        if self.match.status == Match.Status.ANNULLED:
            return True
        return not self.organiser and (self.published or self.match.link_closed or self.match.confirmed_at is not None)

    @property
    def accepting(self) -> bool:
        """The link asks both pairs to accept the finished result."""
        return (
            not self.organiser and not self.read_only and self.event.require_acceptance
            and self.match.status == Match.Status.FINISHED
        )

    @property
    def paper_allowed(self) -> bool:
        return self.organiser or self.event.link_paper_allowed


def organiser_sheet(view):
    """The organiser's access: a login, a permission for the event, a match of that event."""

    @organiser_required
    @wraps(view)
    def wrapper(request, event, match_id, **kwargs):
        match = get_object_or_404(with_pairs(Match.objects.filter(event=event)), pk=match_id)
        return view(request, Sheet(match, result_actions.Actor(user=request.user)), **kwargs)

    return wrapper


def link_sheet(view):
    """The secret link's access: this match only, whoever holds the link."""

    @wraps(view)
    def wrapper(request, token, **kwargs):
        match = get_object_or_404(with_pairs(Match.objects.all()), token=token)
        return view(request, Sheet(match, result_actions.Actor(via_link=True), token), **kwargs)

    return wrapper


def wants_json(request) -> bool:
    return request.headers.get("Accept", "").startswith("application/json")


# --- reading ------------------------------------------------------------------------------------------


def show(request, sheet: Sheet):
    return render_sheet(request, sheet)


def service_worker(request):
    """The referee's service worker (``static/js/referee-sw.js``) from ``/tulos/sw.js``: a worker's scope
    can be no wider than the folder of its address, and this one registers for one match's link,
    ``/tulos/<token>/``, to keep that sheet on the device for a reload while the network is away."""
    with open(finders.find("js/referee-sw.js"), encoding="utf-8") as source:
        response = HttpResponse(source.read(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # the browser checks for a new version on every registration
    return response


def render_sheet(request, sheet: Sheet, *, form=None, paper_form=None, edit: int | None = None, action_form=None):
    match = sheet.match
    rows = list(match.entries.order_by("position"))
    paper = PaperResult.objects.filter(match=match).first()
    lines, state, outcome = sheet_and_outcome(match, rows, paper)
    if edit is None:
        edit = int_param(request.GET.get("muokkaa"))
    if edit is not None and not 1 <= edit <= len(rows):
        edit = None
    if form is None:
        initial = {"version": match.version, "client_id": secrets.token_urlsafe(12)}
        if edit:
            initial.update(EntryForm.initial_from(rows[edit - 1]))
        form = EntryForm(initial=initial)
    if paper_form is None:
        paper_form = PaperForm(initial={"version": match.version, **PaperForm.initial_from(paper)})
    show_entry = not sheet.read_only and paper is None and (state is None or not state.finished or bool(edit))
    show_paper = not sheet.read_only and not rows and sheet.paper_allowed
    # A refusal whose form is not on the page (the sheet is closed or finished meanwhile) is said at the top.
    loose = [] if action_form is None else [e for errors in action_form.errors.values() for e in errors]
    loose += [] if show_entry else form.non_field_errors()
    loose += [] if show_paper else paper_form.non_field_errors()
    context = {
        "show_entry": show_entry, "show_paper": show_paper, "loose_errors": loose,
        "sheet": sheet, "match": match, "event": sheet.event, "lines": lines, "state": state,
        "outcome": outcome, "paper": paper, "form": form, "paper_form": paper_form, "edit_position": edit,
        "action_form": action_form, "read_only": sheet.read_only, "actor": sheet.actor,
        "editable": not sheet.read_only and paper is None, "needs_reason": sheet.organiser and sheet.published,
        "urls": sheet.urls(edit), "accept_sides": [("A", match.accepted_a_at), ("B", match.accepted_b_at)],
        "back": extensions.match_back_link(match) if sheet.organiser else None,
        "seated": build.match_pairs([match])[match.pk],  # a substitute in the place of the player he replaces
        "last": lines[-1] if lines else None,
        "link_url": public_url(request, reverse("link:sheet", args=[match.token])) if sheet.organiser else None,
        "queue_texts": queue_texts(),
        "open_appeals": [a for a in match.appeals.all() if a.status == "open"],  # issue #29: the council
    }
    return render(request, "tournaments/results/scoresheet_entry.html", context)


def queue_texts() -> dict[str, str]:
    """What the referee's queue (``static/js/scoresheet.js``) says while lines wait, in the active language:
    "1 rivi odottaa" / "2 riviä odottaa" (Finnish and English have one plural form each), and the rise
    once the queue is sent, in the words of the match status."""
    return {
        **{n: ngettext("%(n)s rivi odottaa lähetystä", "%(n)s riviä odottaa lähetystä", count)
           for n, count in (("one", 1), ("many", 2))},
        "rise": _("%(pair)s nousulla %(rise)s"), "table": _("pöytäpeli"), "totals": _("nousupisteet %(a)s–%(b)s"),
        "wins": _("%(pair)s voittaa ottelun"), "deciding": _("pisteet tasan: seuraava jako ratkaisee (yksi jako voitosta)"),
    }



# --- the answers every changing view shares -------------------------------------------------------------


def _saved(request, sheet: Sheet, *, anchor: str = "", message: str | None = None):
    if wants_json(request):
        return JsonResponse({"ok": True, "version": Match.objects.values_list("version", flat=True).get(pk=sheet.match.pk)})
    if message:
        messages.success(request, message)
    return redirect(sheet.url() + anchor)


def _refused(request, sheet: Sheet, exc: result_actions.ResultRefused | None = None, *, edit: int | None = None, **forms):
    """The sheet again, the reason next to the field it concerns (or above the form), what was typed kept."""
    form = next((f for f in forms.values() if f is not None), None)
    if exc is not None and form is not None:
        form.add_error(field_of(exc.code, form), " ".join(exc.messages))
    if wants_json(request):
        errors = {} if form is None else {k: [str(e) for e in v] for k, v in form.errors.items()}
        stale = exc is not None and exc.code == "stale"
        return JsonResponse({"ok": False, "errors": errors, "code": getattr(exc, "code", "invalid")}, status=409 if stale else 422)
    sheet.match.refresh_from_db()
    return render_sheet(request, sheet, edit=edit, **forms)


# --- changing ---------------------------------------------------------------------------------------------


@require_POST
def add_line(request, sheet: Sheet):
    form = EntryForm(request.POST)
    if not form.is_valid():
        return _refused(request, sheet, form=form)
    try:
        match = result_actions.add_entry(
            sheet.match, form.entry_data(), version=form.cleaned_data["version"], actor=sheet.actor,
            client_id=form.cleaned_data["client_id"], reason=form.cleaned_data["reason"],
        )
    except result_actions.ResultRefused as exc:
        return _refused(request, sheet, exc, form=form)
    # the next deal's form, or, after the last deal, the result the pairs are asked to accept
    return _saved(request, sheet, anchor="#tulos" if match.status == Match.Status.FINISHED else "#lomake")


@require_POST
def correct_line(request, sheet: Sheet, position: int):
    form = EntryForm(request.POST)
    if not form.is_valid():
        return _refused(request, sheet, form=form, edit=position)
    try:
        result_actions.replace_entry(
            sheet.match, position, form.entry_data(), version=form.cleaned_data["version"], actor=sheet.actor,
            reason=form.cleaned_data["reason"],
        )
    except result_actions.ResultRefused as exc:
        return _refused(request, sheet, exc, form=form, edit=position)
    return _saved(request, sheet, anchor=f"#rivi-{position}", message=_("Rivi %(n)s korjattu.") % {"n": position})


@require_POST
def delete_last(request, sheet: Sheet):
    return _versioned(request, sheet, result_actions.delete_last_entry, _("Viimeinen rivi poistettu."))


@require_POST
def clear_paper(request, sheet: Sheet):
    return _versioned(request, sheet, result_actions.clear_paper, _("Paperipöytäkirjan tulos poistettu."))


def _versioned(request, sheet: Sheet, change, done: str):
    form = VersionForm(request.POST)
    if not form.is_valid():
        return _refused(request, sheet, action_form=form)
    try:
        change(sheet.match, version=form.cleaned_data["version"], actor=sheet.actor, reason=form.cleaned_data["reason"])
    except result_actions.ResultRefused as exc:
        return _refused(request, sheet, exc, action_form=form)
    return _saved(request, sheet, message=done)


@require_POST
def save_paper(request, sheet: Sheet):
    form = PaperForm(request.POST)
    if not form.is_valid():
        return _refused(request, sheet, paper_form=form)
    try:
        result_actions.save_paper(
            sheet.match, form.paper_data(), version=form.cleaned_data["version"], actor=sheet.actor,
            reason=form.cleaned_data["reason"],
        )
    except result_actions.ResultRefused as exc:
        return _refused(request, sheet, exc, paper_form=form)
    return _saved(request, sheet, message=_("Tulos tallennettu."))


@require_POST
def accept(request, sheet: Sheet, side: str):
    form = VersionForm(request.POST)
    if not form.is_valid():
        return _refused(request, sheet, action_form=form)
    try:
        result_actions.accept_result(sheet.match, side, version=form.cleaned_data["version"], actor=sheet.actor)
    except result_actions.ResultRefused as exc:
        return _refused(request, sheet, exc, action_form=form)
    return _saved(request, sheet, message=_("Pari %(side)s hyväksyi tuloksen.") % {"side": side})


@require_POST
def confirm(request, sheet: Sheet):
    """The organiser confirms the result as shown (its version) or, with ``confirmed=0``, reopens it."""
    form = VersionForm(request.POST)
    confirmed = request.POST.get("confirmed") != "0"
    if not form.is_valid():
        return _refused(request, sheet, action_form=form)
    try:
        result_actions.set_confirmed(sheet.match, confirmed, version=form.cleaned_data["version"], user=request.user)
    except result_actions.ResultRefused as exc:
        return _refused(request, sheet, exc, action_form=form)
    done = _("Tulos vahvistettu.") if confirmed else _("Vahvistus peruttu: tulosta voi taas muuttaa.")
    return _saved(request, sheet, message=done)
