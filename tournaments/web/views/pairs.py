"""Organiser pages for the pairs: the pair list with its add form, a player replaced, a pair withdrawn
and back, the player search (the spreadsheet import is ``imports.py``, the morning check-in
``checkin.py``).

Every event page goes through ``organiser_required``; every change goes through ``tournaments.actions``,
each in one transaction.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from lib.http import int_param, redirect_back
from registry.bans import bans_for
from registry.models import Player
from registry.search import SEARCH_MIN_LENGTH, search_players
from tournaments.actions import entries as entry_actions
from tournaments.models import Event, Pair, PairMember, Withdrawal
from tournaments.web.forms_entries import PairForm, PlayerPickForm
from tournaments.web.permissions import organiser_required
from tournaments.web.tables import PairTable

PLAYER_FIELDS = ("q", "player", "first_name", "last_name", "member_number", "namesake_ok")


def pairs_with_players(event: Event):
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


def _mark_entered(players: list[Player], entered: dict[int, int], event: Event | None = None) -> None:
    """Mark each player with the number of the pair they are in (``entered_pair``) and, given the event,
    a ban on its dates (``ban``, issue #29): neither can be chosen."""
    banned = bans_for(players, event.starts_on, event.ends_on) if event is not None else {}
    for player in players:
        player.entered_pair = entered.get(player.pk)
        player.ban = banned.get(player.pk)


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
    player_forms = [PlayerPickForm(request.POST, position=n, event=event) for n in (1, 2)]
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
    return player_forms, PairForm(initial={"club": int_param(source.get("club", ""))})


def _slot(form, entered, event) -> dict:
    """One player slot of the add-a-pair form: its search results, with the picked player first."""
    query = form["q"].value() or ""
    found = search_players(query)
    picked = form.cleaned_data.get("player") if form.is_bound and hasattr(form, "cleaned_data") else None
    if picked is None and not form.is_bound and int_param(form.initial.get("player")) is not None:
        picked = Player.objects.filter(pk=int_param(form.initial["player"])).select_related("club").first()
    if picked is not None and picked not in found:
        found.insert(0, picked)
    _mark_entered(found, entered, event)
    new_open = any(form[name].value() for name in ("first_name", "last_name", "member_number")) or bool(form.errors)
    return {"form": form, "players": found, "query": query, "picked_id": picked.pk if picked else None,
            "new_open": new_open}


def _pairs_page(request, event, player_forms, pair_form, replace=None):
    if replace is None:
        replace = {"member": request.GET.get("vaihda", "")[:40], "query": "", "players": [], "picked_id": None}
    entered = _entered(event)
    pair_list = list(pairs_with_players(event))
    context = {
        "event": event, "section": "pairs", "drawn": event.drawn_at is not None,
        "slots": [_slot(form, entered, event) for form in player_forms], "pair_form": pair_form, "pairs": pair_list,
        "table": _configured(request, PairTable(pair_list)),
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


def _configured(request, table):
    """The table sorted as the request asks (``?jarjestys=``), on one page."""
    RequestConfig(request, paginate=False).configure(table)
    return table


def _replace(request, event, drawn):
    """The replace-a-player form: its search (``search``), or the replacement itself
    (``entry_actions.replace_player``). Returns a redirect when done, else what the form shows again."""
    post = request.POST
    query = post.get("r-q", "")[:100]
    state = {
        "member": post.get("member", "")[:40],
        "query": query,
        "players": search_players(query),
        "picked_id": int_param(post.get("r-player")),
        "errors": [],
    }
    if "search" not in post:
        if drawn:
            messages.error(request, _("Lohkot on jo arvottu: parin pelaajaa ei voi enää vaihtaa."))
            return redirect("organiser:pairs", event.slug)
        pair_id, _sep, position = state["member"].partition(":")
        pair = Pair.objects.filter(pk=int_param(pair_id) or 0, event=event).first()
        position = int_param(position)
        new_player = Player.objects.filter(pk=state["picked_id"] or 0).select_related("club").first()
        if pair is None or position not in (1, 2):
            state["errors"].append(_("Valitse vaihdettava pelaaja."))
        if new_player is None:
            state["errors"].append(_("Valitse uusi pelaaja haun tuloksista."))
        if not state["errors"]:
            try:
                old = entry_actions.replace_player(pair, position, new_player, request.user)
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
    _mark_entered(state["players"], _entered(event), event)
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
            return entry_actions.create_pair(event, players[0], players[1], club)
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
            annulled = entry_actions.withdraw_pair(pair, request.user)
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
        restored = entry_actions.undo_withdrawal(pair, request.user)
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
    return redirect_back(request, reverse("organiser:pairs", args=[event.slug]), field="next")


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
    event = (
        Event.objects.filter(slug=request.GET.get("kisa", "")).first() if request.GET.get("kisa") else None
    )
    if event is not None and not event.can_organise(user):
        event = None
    entered = _entered(event) if event is not None else {}
    found = search_players(query)
    _mark_entered(found, entered, event)
    context = {
        "players": found,
        "query": query,
        "slot": slot,
        "entered": entered,
        "picked_id": None,
        "min_length": SEARCH_MIN_LENGTH,
    }
    return render(request, "tournaments/organiser/entries/_player_results.html", context)
