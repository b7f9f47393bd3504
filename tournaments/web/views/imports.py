"""Organiser pages for the spreadsheet import of pairs: upload → preview → accept (``importer.save_rows``, in
one transaction)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.actions import imports as importer
from tournaments.models import Event
from tournaments.web.forms_entries import ImportForm
from tournaments.web.permissions import organiser_required


def _session_key(event: Event) -> str:
    return f"entries-import-{event.pk}"


def _import_closed(request, event) -> bool:
    """After the draw no pairs are imported: the preview goes, and the organiser is told why."""
    if event.drawn_at is None:
        return False
    request.session.pop(_session_key(event), None)
    messages.error(request, _("Lohkot on jo arvottu: pareja ei voi enää tuoda."))
    return True


@organiser_required
def import_entries(request, event):
    """The import page: the upload form, or the preview of the uploaded file (kept in the session); a POST
    is an upload, which replaces any previous preview."""
    key = _session_key(event)
    stored = request.session.get(key)
    form = ImportForm()
    if request.method == "POST":
        if _import_closed(request, event):
            return redirect("organiser:import", event.slug)
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                rows = importer.read_rows(upload)
            except importer.ImportFileError as exc:
                form.add_error("file", str(exc))
            else:
                request.session[key] = {"filename": upload.name, "rows": [[line, raw] for line, raw in rows]}
                return redirect("organiser:import", event.slug)
        request.session.pop(key, None)
        stored = None
    return _import_page(request, event, form, stored)


def _import_page(request, event, form, stored):
    drawn = event.drawn_at is not None
    results = importer.check_rows(event, _stored_rows(stored)) if stored and not drawn else None
    context = {"event": event, "section": "import", "drawn": drawn, "form": form, "results": results}
    if results is not None:
        good = [r for r in results if r.ok]
        context.update(
            filename=stored.get("filename", ""),
            good_count=len(good),
            bad_count=len(results) - len(good),
            bad_results=[r for r in results if not r.ok],
            good_lines=",".join(str(r.line) for r in good),
            new_player_count=sum(1 for r in good for p in r.players if p.is_new),
        )
    context["columns"] = importer.ALL_COLUMNS
    return render(request, "tournaments/organiser/entries/import.html", context)


def _stored_rows(stored) -> list[tuple[int, dict[str, str]]]:
    return [(int(line), {str(k): str(v) for k, v in raw.items()}) for line, raw in stored.get("rows", [])]


@organiser_required
@require_POST
def import_cancel(request, event):
    request.session.pop(_session_key(event), None)
    messages.info(request, _("Esikatselu peruttiin: mitään ei tallennettu."))
    return redirect("organiser:import", event.slug)


@organiser_required
@require_POST
def import_accept(request, event):
    """Save the previewed rows that are in order, if they are still the ones the organiser saw."""
    if _import_closed(request, event):
        return redirect("organiser:import", event.slug)
    key = _session_key(event)
    stored = request.session.get(key)
    if not stored:
        messages.error(request, _("Ei esikatseltua tiedostoa: lähetä tiedosto uudelleen."))
        return redirect("organiser:import", event.slug)
    results = importer.check_rows(event, _stored_rows(stored))
    good_lines = ",".join(str(r.line) for r in results if r.ok)
    if good_lines != request.POST.get("good_lines", ""):
        # Someone entered a pair or registered a player after the preview: show the new preview first.
        messages.warning(
            request,
            _("Tilanne muuttui esikatselun jälkeen: tarkista rivit uudelleen. Mitään ei tallennettu."),
        )
        return redirect("organiser:import", event.slug)
    if not good_lines:
        messages.error(request, _("Tiedostossa ei ole yhtään kelvollista riviä: mitään ei tallennettu."))
        return redirect("organiser:import", event.slug)
    try:
        created = importer.save_rows(event, results)
    except ValidationError as exc:
        messages.error(
            request,
            _("Tuonti keskeytyi, mitään ei tallennettu: %(error)s") % {"error": " ".join(exc.messages)},
        )
        return redirect("organiser:import", event.slug)
    request.session.pop(key, None)
    skipped = len(results) - created
    text = ngettext("%(count)d pari tuotiin.", "%(count)d paria tuotiin.", created) % {"count": created}
    if skipped:
        text += " " + ngettext(
            "%(count)d virheellinen rivi ohitettiin.", "%(count)d virheellistä riviä ohitettiin.", skipped
        ) % {"count": skipped}
    messages.success(request, text)
    return redirect("organiser:pairs", event.slug)
