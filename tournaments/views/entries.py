"""Organiser pages for entries: the pair list with its add form, the player search, the spreadsheet
import (upload → preview → accept) and the morning check-in.

Every event page goes through ``organiser_required``; every change goes through ``services`` (or
``importer.save_rows``), each in one transaction.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Prefetch, Q
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from tournaments import importer, services
from tournaments.forms_entries import ImportForm, PairForm, PlayerPickForm
from tournaments.models import Event, Pair, PairMember, Player, Withdrawal
from tournaments.permissions import organiser_required
from tournaments.search import SEARCH_MIN_LENGTH, fold, search_players
from tournaments.views import day

PLAYER_FIELDS = ("q", "player", "first_name", "last_name", "member_number", "namesake_ok")


def _pairs_with_players(event: Event):
    """The event's pairs with club, players and withdrawals: a fixed number of queries, however many pairs."""
    members = PairMember.objects.select_related("player").order_by("position")
    withdrawals = Withdrawal.objects.select_related("user", "undone_by")
    return (
        event.pairs.select_related("club")
        .prefetch_related(Prefetch("members", queryset=members), Prefetch("withdrawals", queryset=withdrawals))
        .order_by("number")
    )


def _entered(event: Event) -> dict[int, int]:
    """player id → the number of the event's pair they are in."""
    return dict(PairMember.objects.filter(event=event).values_list("player_id", "pair__number"))


def _id(value) -> int | None:
    """An id typed in a URL or form: ASCII digits that fit a database key, else None."""
    text = str(value or "")
    if text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    return None


def _mark_entered(players: list[Player], entered: dict[int, int]) -> None:
    for player in players:
        player.entered_pair = entered.get(player.pk)


# The pair list and adding a pair ---------------------------------------------------------------------


@organiser_required
def pairs(request, event):
    """The pairs: the list, the add-a-pair form (a POST adds, or with ``search`` only searches) and the
    replace-a-player form (``pair_replace``)."""
    searching = request.method == "POST" and "search" in request.POST
    if request.method != "POST" or searching:
        # The search buttons (for a browser without JavaScript, and the Enter key) post the form with
        # ``search``: show the results and keep what was typed, without complaining about missing fields.
        player_forms, pair_form = _initial_forms(request.POST if searching else request.GET)
        return _pairs_page(request, event, player_forms, pair_form)
    if event.drawn_at is not None:
        messages.error(request, _("Lohkot on jo arvottu: uusia pareja ei voi enää lisätä."))
        return redirect("organiser:pairs", event.slug)
    player_forms = [PlayerPickForm(request.POST, position=n) for n in (1, 2)]
    pair_form = PairForm(request.POST)
    if all([f.is_valid() for f in player_forms]) and pair_form.is_valid():
        pair = _add_pair(event, player_forms, pair_form)
        if pair is not None:
            text = _("Pari %(number)d lisätty: %(names)s (%(club)s).")
            messages.success(request, text % {"number": pair.number, "names": pair.full_name, "club": pair.club.name})
            return redirect("organiser:pairs", event.slug)
    return _pairs_page(request, event, player_forms, pair_form)


@organiser_required
@require_POST
def pair_replace(request, event):
    """Replace a pair's player before the draw (or, with ``search``, only search for the new one)."""
    replace = _replace(request, event, event.drawn_at is not None)
    if isinstance(replace, HttpResponse):
        return replace
    player_forms, pair_form = _initial_forms(request.GET)
    return _pairs_page(request, event, player_forms, pair_form, replace)


def _initial_forms(source) -> tuple[list[PlayerPickForm], PairForm]:
    """The add-a-pair forms unbound, filled with what ``source`` holds (a search, a link's choices)."""
    player_forms = [
        PlayerPickForm(initial={name: source.get(f"p{n}-{name}", "") for name in PLAYER_FIELDS}, position=n)
        for n in (1, 2)
    ]
    return player_forms, PairForm(initial={"club": _id(source.get("club", ""))})


def _slot(form, entered) -> dict:
    """One player slot of the add-a-pair form: its search results, with the picked player first."""
    query = form["q"].value() or ""
    found = search_players(query)
    picked = form.cleaned_data.get("player") if form.is_bound and hasattr(form, "cleaned_data") else None
    if picked is None and not form.is_bound and _id(form.initial.get("player")) is not None:
        picked = Player.objects.filter(pk=_id(form.initial["player"])).select_related("club").first()
    if picked is not None and picked not in found:
        found.insert(0, picked)
    _mark_entered(found, entered)
    new_open = any(form[name].value() for name in ("first_name", "last_name", "member_number")) or bool(form.errors)
    return {"form": form, "players": found, "query": query, "picked_id": picked.pk if picked else None,
            "new_open": new_open}


def _pairs_page(request, event, player_forms, pair_form, replace=None):
    if replace is None:
        replace = {"member": request.GET.get("vaihda", "")[:40], "query": "", "players": [], "picked_id": None}
    entered = _entered(event)
    pair_list = list(_pairs_with_players(event))
    context = {
        "event": event, "section": "pairs", "drawn": event.drawn_at is not None,
        "slots": [_slot(form, entered) for form in player_forms], "pair_form": pair_form, "pairs": pair_list,
        "active_count": sum(1 for p in pair_list if p.active),
        "withdrawn_count": sum(1 for p in pair_list if not p.active),
        "replace": replace,
        "members": [
            (f"{pair.pk}:{position}", pair.number, player.full_name)
            for pair in pair_list if pair.active
            for position, player in enumerate(pair.players, start=1)
        ],
    }
    return render(request, "tournaments/organiser/entries/pairs.html", context)


def _replace(request, event, drawn):
    """The replace-a-player form: its search (``search``), or the replacement itself
    (``services.replace_player``). Returns a redirect when done, else what the form shows again."""
    post = request.POST
    query = post.get("r-q", "")[:100]
    state = {
        "member": post.get("member", "")[:40],
        "query": query,
        "players": search_players(query),
        "picked_id": _id(post.get("r-player")),
        "errors": [],
    }
    if "search" not in post:
        if drawn:
            messages.error(request, _("Lohkot on jo arvottu: parin pelaajaa ei voi enää vaihtaa."))
            return redirect("organiser:pairs", event.slug)
        pair_id, _sep, position = state["member"].partition(":")
        pair = Pair.objects.filter(pk=_id(pair_id) or 0, event=event).first()
        position = _id(position)
        new_player = Player.objects.filter(pk=state["picked_id"] or 0).select_related("club").first()
        if pair is None or position not in (1, 2):
            state["errors"].append(_("Valitse vaihdettava pelaaja."))
        if new_player is None:
            state["errors"].append(_("Valitse uusi pelaaja haun tuloksista."))
        if not state["errors"]:
            try:
                old = services.replace_player(pair, position, new_player, request.user)
            except ValidationError as exc:
                state["errors"].extend(exc.messages)
            else:
                messages.success(
                    request,
                    _("Parin %(number)d pelaaja vaihdettu: %(old)s → %(new)s.")
                    % {"number": pair.number, "old": old.full_name, "new": new_player.full_name},
                )
                return redirect(f"{reverse('organiser:pairs', args=[event.slug])}#pari-{pair.number}")
        if new_player is not None and new_player not in state["players"]:
            state["players"].insert(0, new_player)
    _mark_entered(state["players"], _entered(event))
    return state


def _add_pair(event, player_forms, pair_form) -> Pair | None:
    """Create the new players (if any) and the pair, all or nothing. On a refusal the reason is added
    to the forms and None is returned."""
    picked = [f.cleaned_data["player"] for f in player_forms]
    club = pair_form.cleaned_data["club"]
    if club is None:
        club = picked[0].club if picked[0] is not None else None
        if club is None:
            pair_form.add_error(
                "club", _("Valitse kerho: ensimmäisellä pelaajalla ei ole kotikerhoa rekisterissä.")
            )
            return None
    f1, f2 = player_forms
    if f1.is_new and f2.is_new:
        same_name = (f1.cleaned_data["first_name"].casefold(), f1.cleaned_data["last_name"].casefold()) == (
            f2.cleaned_data["first_name"].casefold(),
            f2.cleaned_data["last_name"].casefold(),
        )
        same_number = f1.cleaned_data["member_number"] and (
            f1.cleaned_data["member_number"] == f2.cleaned_data["member_number"]
        )
        if same_number or (same_name and not f1.cleaned_data["member_number"]):
            pair_form.add_error(None, _("Parin pelaajien on oltava kaksi eri henkilöä."))
            return None
    try:
        with transaction.atomic():
            players = []
            for form, player in zip(player_forms, picked, strict=True):
                if player is None:
                    player = form.new_player(club)
                    player.save()
                players.append(player)
            return services.create_pair(event, players[0], players[1], club)
    except ValidationError as exc:
        pair_form.add_error(None, exc)
    except IntegrityError:  # a member number registered by someone else a moment ago
        pair_form.add_error(None, _("Jäsennumero on jo käytössä: hae pelaaja rekisteristä."))
    return None


@organiser_required
@require_POST
def pair_withdraw(request, event, pair_id):
    pair = get_object_or_404(Pair, pk=pair_id, event=event)
    if pair.withdrawn_at is not None:
        messages.info(request, _("Pari %(number)d on jo luopunut.") % {"number": pair.number})
    else:
        try:
            annulled = services.withdraw_pair(pair, request.user)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            text = _("Pari %(number)d luopui.") % {"number": pair.number}
            if annulled:
                text += " " + ngettext(
                    "%(count)d ottelu mitätöitiin.", "%(count)d ottelua mitätöitiin.", annulled
                ) % {"count": annulled}
            messages.success(request, text)
    return _back(request, event)


@organiser_required
@require_POST
def pair_undo_withdraw(request, event, pair_id):
    pair = get_object_or_404(Pair, pk=pair_id, event=event)
    try:
        restored = services.undo_withdrawal(pair, request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        text = _("Pari %(number)d on taas mukana.") % {"number": pair.number}
        if restored:
            text += " " + ngettext(
                "%(count)d ottelu palautettiin.", "%(count)d ottelua palautettiin.", restored
            ) % {"count": restored}
        messages.success(request, text)
    return _back(request, event)


def _back(request, event):
    target = request.POST.get("next", "")
    allowed = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False)
    if not allowed or not target.startswith("/"):  # a path of this site, never a view name or another site
        target = reverse("organiser:pairs", args=[event.slug])
    return HttpResponseRedirect(target)


# The player search (htmx) ----------------------------------------------------------------------------


@login_required
def player_search(request):
    """An HTML fragment: the players matching ``q`` (by name or member number), at most 15.

    ``slot`` (1 or 2) makes the results radio buttons for that player of the add-pair form (``r``: for
    the new player of the replace-a-player form, without the "new player" choice); ``kisa``
    (an event's slug) marks the players already entered in that event.
    """
    user = request.user
    if not (user.is_superuser or user.organised_events.exists()):
        raise PermissionDenied
    slot = request.GET.get("slot", "")
    slot = slot if slot in ("1", "2", "r") else ""
    field = "r-q" if slot == "r" else f"p{slot}-q"
    query = request.GET.get("q") or (request.GET.get(field, "") if slot else "")
    query = query[:100]
    entered = {}
    event = (
        Event.objects.filter(slug=request.GET.get("kisa", "")).first() if request.GET.get("kisa") else None
    )
    if event is not None and event.can_organise(user):
        entered = _entered(event)
    found = search_players(query)
    _mark_entered(found, entered)
    context = {
        "players": found,
        "query": query,
        "slot": slot,
        "entered": entered,
        "picked_id": None,
        "min_length": SEARCH_MIN_LENGTH,
    }
    return render(request, "tournaments/organiser/entries/_player_results.html", context)


# Importing a spreadsheet -----------------------------------------------------------------------------


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


# The morning check-in --------------------------------------------------------------------------------


def _add_search_text(pair: Pair) -> Pair:
    """What the check-in search looks in (number, players, club), folded as the search folds: the page's
    script filters the list by it as the organiser types (static/js/filter.js)."""
    words = [str(pair.number), *(p.full_name for p in pair.players), pair.club.name]
    pair.search_text = fold(" ".join(words)).lower()
    return pair


def pair_matches(pair: Pair, query: str) -> bool:
    """The check-in search without the script: a number finds that pair, words find the pairs whose
    players or club contain every one of them (diacritics ignored)."""
    query = query.strip()
    if not query:
        return True
    if query.isascii() and query.isdigit():  # "²" is a digit to str.isdigit, not to int()
        return pair.number == int(query)
    return all(word in pair.search_text for word in fold(query).lower().split())


def _checkin_counts(event: Event) -> dict[str, int]:
    return event.pairs.filter(withdrawn_at__isnull=True).aggregate(
        total=Count("id"), present=Count("id", filter=Q(checked_in=True))
    )


@organiser_required
@require_POST
def checkin_withdraw_absent(request, event):
    """The pairs not checked in are withdrawn (the page asked first: ``?vahvista=1``)."""
    try:
        withdrawn = services.withdraw_absent(event, request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        text = ngettext(
            "%(count)d poissaoleva pari poistettiin kisasta.", "%(count)d poissaolevaa paria poistettiin kisasta.",
            withdrawn,
        )
        messages.success(request, text % {"count": withdrawn})
    return redirect("organiser:checkin", event.slug)


@organiser_required
def checkin(request, event):
    """The morning check-in: every pair, one tap each (``checkin_toggle``), found by name or number."""
    drawn = event.drawn_at is not None
    pair_list = list(_pairs_with_players(event))
    active = [p for p in pair_list if p.active]
    absent = [p for p in active if not p.checked_in]
    for pair in pair_list:
        _add_search_text(pair)
    query = request.GET.get("haku", "")[:100].strip()
    for pair in active:  # the search hides the others (the script can show them again as one types)
        pair.filtered_out = not pair_matches(pair, query)
    context = {
        "event": event,
        "section": "checkin",
        "drawn": drawn,
        "pairs": active,
        "query": query,
        "found": sum(1 for p in active if not p.filtered_out),
        "withdrawn": [p for p in pair_list if not p.active],
        "absent": absent,
        "counts": {"total": len(active), "present": len(active) - len(absent)},
        "confirm": request.GET.get("vahvista") == "1" and not drawn and bool(absent),
    }
    context.update(day.checkin_context(request, event))  # issue #19: entry fees, the late-forfeit deadline
    return render(request, "tournaments/organiser/entries/checkin.html", context)


@organiser_required
@require_POST
def checkin_toggle(request, event):
    """A pair present, or not present after all: the row and the count come back for htmx."""
    drawn = event.drawn_at is not None
    pair = get_object_or_404(Pair, pk=_id(request.POST.get("pair")) or 0, event=event)
    refusal = None
    if drawn:
        refusal = _("Lohkot on jo arvottu: ilmoittautumista ei enää muuteta.")
    elif pair.withdrawn_at is not None:
        refusal = _("Pari %(number)d on luopunut.") % {"number": pair.number}
    if refusal:
        messages.error(request, refusal)
        if request.htmx:
            return HttpResponseClientRefresh()
        return redirect("organiser:checkin", event.slug)
    services.set_checked_in(pair, request.POST.get("present") == "1")
    if not request.htmx:
        return redirect(f"{reverse('organiser:checkin', args=[event.slug])}#pari-{pair.number}")
    pair = _add_search_text(_pairs_with_players(event).get(pk=pair.pk))
    context = {"event": event, "pair": pair, "drawn": drawn, "counts": _checkin_counts(event), "oob": True}
    html = render_to_string("tournaments/organiser/entries/_checkin_row.html", context, request=request)
    html += render_to_string("tournaments/organiser/entries/_checkin_count.html", context, request=request)
    return HttpResponse(html)
