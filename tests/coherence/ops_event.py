"""Operations on an event's entries, draw and settings, and federation staff's admin saves: the
organiser's pages and the Django admin's change forms with the test client; the team competition's
leaders and organiser through the team services their pages call."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from cup.models import CupEvent, SeasonCupSettings
from registry.models import Club, Player, Season
from teams.actions import common as team_common
from teams.actions import orders as team_orders
from teams.actions import places as team_places
from teams.models import Team, TeamMatch
from tests.coherence.forms import admin_save, admin_url, form_of, post
from tournaments.actions import draw as draw_actions
from tournaments.actions import results as result_actions
from tournaments.models import Pair


def organiser(world, name: str) -> str:
    return reverse(f"organiser:{name}", args=[world.event.slug])


def draw(world, rng):
    event = world.event
    if event.drawn_at is not None:
        return None
    post(world.desk, organiser(world, "draw"))
    return "first draw"


def redraw(world, rng):
    event = world.event
    if event.drawn_at is None or draw_actions.draw_locked(event) or event.finished_at:
        return None
    data = form_of(world.desk, organiser(world, "draw"))
    post(world.desk, organiser(world, "draw"), {**data, "sure": "on"})
    return "redraw"


def swap(world, rng):
    event = world.event
    if event.drawn_at is None or draw_actions.draw_locked(event):
        return None
    groups = draw_actions.current_groups(event)
    g1, g2 = rng.sample(range(len(groups)), 2)
    x, y = rng.choice(groups[g1]), rng.choice(groups[g2])
    post(world.desk, organiser(world, "swap"), {"pair_x": x, "pair_y": y, "sure": "1"})
    return f"swap pairs #{x} and #{y}"


def withdraw(world, rng):
    pairs = list(Pair.objects.filter(event_id=world.event_id, withdrawn_at__isnull=True).order_by("number"))
    if world.event.finished_at or len(pairs) < 22:
        return None
    pair = rng.choice(pairs)
    post(world.desk, reverse("organiser:pair_withdraw", args=[world.event.slug, pair.pk]))
    return f"pair {pair.number} withdraws"


def undo_withdrawal(world, rng):
    pairs = list(Pair.objects.filter(event_id=world.event_id, withdrawn_at__isnull=False).order_by("number"))
    if not pairs:
        return None
    pair = rng.choice(pairs)
    post(world.desk, reverse("organiser:pair_undo_withdraw", args=[world.event.slug, pair.pk]))
    return f"pair {pair.number}'s withdrawal undone"


def replace_player(world, rng):
    event = world.event
    if event.drawn_at is not None:
        return None
    pair = rng.choice(list(event.pairs.order_by("number")))
    position = rng.choice([1, 2])
    n = Player.objects.count()
    newcomer = Player.objects.create(first_name=f"Uusi{n}", last_name=f"Vaihtaja{n}", club=pair.club)
    post(
        world.desk,
        organiser(world, "pair_replace"),
        {"member": f"{pair.pk}:{position}", "r-player": newcomer.pk},
    )
    return f"player {position} of pair {pair.number} replaced by {newcomer}"


def edit_event(world, rng):
    """The organiser edits the pair event (its name, venue, dates or address) or the team competition (its
    name or address)."""
    team = rng.random() < 0.25
    event = world.team_event if team else world.event
    url = reverse("organiser:event_edit", args=[event.slug])
    data = form_of(world.desk, url)
    choice = rng.choice(["name", "slug"] if team else ["name", "venue", "dates", "slug"])
    base = "joukkue-sm" if team else "joulukisa"
    if choice == "name":
        data["name"] = rng.choice([base.capitalize(), f"{base.capitalize()} 2026", f"Kemin {base}"])
    elif choice == "venue":
        data["venue"] = rng.choice(["Kemi", "Tornio", "Oulu"])
    elif choice == "dates":
        starts = event.starts_on + dt.timedelta(days=rng.choice([-7, 0, 7]))
        if event.drawn_at is not None:
            starts = dt.date(2026, 12, 12) if starts != dt.date(2026, 12, 12) else dt.date(2026, 12, 5)
        data["starts_on"], data["ends_on"] = starts.isoformat(), (starts + dt.timedelta(days=1)).isoformat()
    else:
        data["slug"] = rng.choice([base, f"{base}-2026", f"kemin-{base}"])
    post(world.desk, url, data)
    return f"{event.slug} edited: {choice} → {data.get(choice, data.get('starts_on'))}"


# --- federation staff in the admin -----------------------------------------------------------------------


def admin_club(world, rng):
    club = rng.choice(list(Club.objects.filter(pairs__event_id=world.event_id).distinct().order_by("pk")))
    name = f"{club.name.split(' (')[0]} ({rng.randint(1, 99)})"
    admin_save(world.staff, club, name=name, short_name=club.short_name)
    return f"admin: club #{club.pk} renamed {name!r}"


def admin_player(world, rng):
    """A player of any of the three events renamed in the admin, or moved to another club."""
    events = [world.event_id, world.done_id, world.team_event_id]
    player = rng.choice(
        list(Player.objects.filter(pair_memberships__event_id__in=events).distinct().order_by("pk"))
    )
    if rng.random() < 0.7:
        name = f"Suku{rng.randint(100, 999)}"
        admin_save(world.staff, player, last_name=name)
        return f"admin: player #{player.pk} renamed {name!r}"
    club = rng.choice(list(Club.objects.order_by("pk")))
    admin_save(world.staff, player, club=club.pk)
    return f"admin: player #{player.pk}'s club is now #{club.pk}"


def admin_pair(world, rng):
    pair = rng.choice(list(Pair.objects.filter(event_id=world.event_id).order_by("number")))
    club = rng.choice(list(Club.objects.filter(pairs__event_id=world.event_id).distinct().order_by("pk")))
    admin_save(world.staff, pair, club=club.pk)
    return f"admin: pair {pair.number} plays for club #{club.pk}"


def admin_team(world, rng):
    team = rng.choice(list(Team.objects.filter(event_id=world.team_event_id).order_by("pk")))
    name = f"Joukkue {rng.randint(10, 99)}"
    admin_save(world.staff, team, name=name)
    return f"admin: team #{team.pk} renamed {name!r}"


def admin_cup_event(world, rng):
    counted = CupEvent.objects.filter(event_id__in=[world.event_id, world.done_id]).order_by("pk")
    if not counted:
        return None
    row = rng.choice(list(counted))
    weight = rng.choice(["1", "0.5", "2"])
    admin_save(world.staff, row, weight=weight)
    return f"admin: cup weight of event #{row.event_id} set to {weight}"


def admin_cup_count(world, rng):
    """Staff take an event out of the cup (the admin's delete page) or count it again (its add page)."""
    event_id = rng.choice([world.event_id, world.done_id])
    row = CupEvent.objects.filter(event_id=event_id).first()
    if row is not None:
        post(world.staff, admin_url(row, "delete"), {"post": "yes"})
        return f"admin: event #{event_id} no longer counted for the cup"
    url = reverse("admin:cup_cupevent_add")
    post(world.staff, url, {"event": event_id, "weight": "", "_save": "Tallenna"})
    return f"admin: event #{event_id} counted for the cup again"


def admin_season(world, rng):
    settings, _created = SeasonCupSettings.objects.get_or_create(season_id=world.season_id)
    field = rng.choice(["best_n", "points", "forfeit_fine"])
    value = {
        "best_n": rng.choice(["", "1", "2"]),
        "points": rng.choice(["10, 8, 6, 5, 4, 3, 2, 1", "20, 15, 10"]),
        "forfeit_fine": rng.choice(["50", "30"]),
    }[field]
    admin_save(world.staff, settings, **{field: value})
    return f"admin: season cup setting {field} = {value!r}"


def admin_season_years(world, rng):
    season = Season.objects.get(pk=world.season_id)
    value = rng.choice(["", "1", "3"])
    admin_save(world.staff, season, best_n=value)
    return f"admin: season best_n = {value!r}"


# --- the team competition ---------------------------------------------------------------------------------


def team_step(world, rng):
    """The next step of one team match: a team declares its order, or the organiser starts it."""
    rows = list(
        TeamMatch.objects.filter(
            event_id=world.team_event_id, started_at__isnull=True, team_a__isnull=False, team_b__isnull=False
        ).order_by("round", "slot")
    )
    if not rows:
        return None
    row = rng.choice(rows)
    declared = set(row.orders.values_list("team_id", flat=True))
    for team in (row.team_a, row.team_b):
        if team.pk not in declared:
            pairs = list(team.team_pairs.values_list("pair_id", flat=True))
            rng.shuffle(pairs)
            team_orders.declare_order(row, team, pairs, team_common.Actor(via_link=True))
            return f"team {team.name} declares its order in team match #{row.pk}"
    url = reverse("teams_organiser:start_match", args=[world.team_event.slug, row.pk])
    post(world.desk, url, {"sure": "1"})
    return f"team match #{row.pk} started"


def team_publish(world, rng):
    event = world.team_event
    if event.finished_at is not None or team_places.final_places(event) is None:
        return None
    waiting = result_actions.unconfirmed(event)
    data = {"sure": "1", "confirm": [f"{m.pk}:{m.version}" for m in waiting]}
    post(world.desk, reverse("teams_organiser:publish", args=[event.slug]), data)
    return "team competition published"
