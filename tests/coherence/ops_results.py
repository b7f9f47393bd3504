"""Operations on a pair event's (or a team competition's) results, as a referee and the organiser's
desk make them: through the match's secret link and the organiser's pages with the test client.

Each operation takes the world and its random generator, picks what it changes, applies it and returns
what it did (a line of the report), or None when it does not apply now (nothing was done)."""

from __future__ import annotations

from django.urls import reverse

from tests.coherence.forms import post
from tournaments.actions import results as services
from tournaments.actions import sunday
from tournaments.models import Event, Match, Stage
from tournaments.readmodel import build as readmodel

OPEN = [Match.Status.SCHEDULED, Match.Status.PLAYING]
DONE = [Match.Status.FINISHED]
EXTRA = 6  # deals beyond the planned ones: a match level after them is decided by another deal


def matches(world, statuses, *, team: bool = True):
    events = [world.event_id] + ([world.team_event_id] if team else [])
    found = Match.objects.filter(event_id__in=events, status__in=statuses).order_by(
        "event_id", "stage", "round", "table"
    )
    return list(found)


def pick(world, statuses, **kwargs) -> Match | None:
    found = matches(world, statuses, **kwargs)
    return world.rng.choice(found) if found else None


def link(match: Match, name: str = "sheet", *args) -> str:
    return reverse(f"link:{name}", args=[match.token, *args])


def desk(match: Match, name: str) -> str:
    return reverse(f"organiser:{name}", args=[match.event.slug, match.pk])


def label(match: Match) -> str:
    return f"{match.event.slug} {match.stage} {match.round}/{match.table} (#{match.pk})"


def random_line(rng) -> dict:
    if rng.random() < 0.6:
        caller = rng.choice("AB")
        tricks = rng.randint(4, 13)
        return {
            "kind": "deal",
            "game": "rami",
            "caller_seat": 1 if caller == "A" else 2,
            "tricks_a": tricks if caller == "A" else 13 - tricks,
        }
    return {"kind": "deal", "game": "nolo", "tricks_a": rng.randint(0, 13)}


def line(world, rng):
    match = pick(world, OPEN)
    if match is None or match.entries.count() >= match.deals_planned + EXTRA:
        return None
    data = random_line(rng)
    post(world.referee, link(match, "add"), {**data, "version": match.version})
    return f"line {data} on {label(match)}"


def correction(world, rng):
    found = [m for m in matches(world, OPEN + DONE) if m.entries.exists() and not m.confirmed_at]
    if not found:
        return None
    match = rng.choice(found)
    position = rng.randint(1, match.entries.count())
    data = random_line(rng)
    post(world.referee, link(match, "correct", position), {**data, "version": match.version})
    return f"correction of line {position} to {data} on {label(match)}"


def delete_last(world, rng):
    found = [m for m in matches(world, OPEN + DONE) if m.entries.exists() and not m.confirmed_at]
    if not found:
        return None
    match = rng.choice(found)
    post(world.referee, link(match, "delete_last"), {"version": match.version})
    return f"delete the last line of {label(match)}"


def paper_result(world, rng):
    found = [m for m in matches(world, OPEN) if not m.entries.exists()]
    if not found:
        return None
    match = rng.choice(found)
    a, b = rng.choice([(40, 20), (20, 40), (60, 8), (30, 30), (8, 60)])
    data = {"version": match.version, "total_a": a, "total_b": b, "deals_played": match.deals_planned}
    if a == b:
        data["deciding_winner"] = rng.choice("AB")
    post(world.desk, desk(match, "sheet_paper"), data)
    return f"paper result {a}-{b} on {label(match)}"


def clear_paper(world, rng):
    found = [m for m in matches(world, DONE) if hasattr(m, "paper") and not m.confirmed_at]
    if not found:
        return None
    match = rng.choice(found)
    post(world.desk, desk(match, "sheet_clear_paper"), {"version": match.version})
    return f"paper result cleared on {label(match)}"


def accept(world, rng):
    found = [m for m in matches(world, DONE) if not m.link_closed and not m.confirmed_at]
    if not found:
        return None
    match, side = rng.choice(found), rng.choice("AB")
    post(world.referee, link(match, "accept", side), {"version": match.version})
    return f"pair {side} accepts {label(match)}"


def confirm(world, rng):
    found = [m for m in matches(world, DONE) if not m.confirmed_at]
    if not found:
        return None
    match = rng.choice(found)
    post(world.desk, desk(match, "sheet_confirm"), {"confirmed": "1", "version": match.version})
    return f"organiser confirms {label(match)}"


def unconfirm(world, rng):
    found = [m for m in matches(world, DONE) if m.confirmed_at and m.event.finished_at is None]
    if not found:
        return None
    match = rng.choice(found)
    post(world.desk, desk(match, "sheet_confirm"), {"confirmed": "0", "version": match.version})
    return f"organiser takes back the confirmation of {label(match)}"


def late_forfeit(world, rng):
    found = [m for m in matches(world, [Match.Status.SCHEDULED], team=False) if not m.entries.exists()]
    if not found:
        return None
    match, side = rng.choice(found), rng.choice("AB")
    url = reverse("organiser:late_forfeit", args=[match.event.slug])
    post(world.desk, url, {"match": match.pk, "pair": side, "sure": "1"})
    return f"late forfeit of pair {side} in {label(match)}"


def referee(world, rng):
    match = pick(world, OPEN + DONE, team=False)
    if match is None:
        return None
    name = rng.choice(["Reijo Tuomari", "Tiina Tuomari", ""])
    post(world.desk, desk(match, "match_referee"), {"referee": name})
    return f"referee {name!r} named for {label(match)}"


def playoff(world, rng):
    event = world.event
    snap = readmodel.build(event.pk)
    for stage in (Stage.SATURDAY, Stage.SUNDAY):
        for table in snap.stage_tables(stage):
            tied: dict[int, list[int]] = {}
            for row in table.rows:
                if row.standing.playoff_required or (row.standing.rank in tied):
                    tied.setdefault(row.standing.rank, []).append(row.pair.pk)
            tied = {k: v for k, v in tied.items() if len(v) > 1}
            if table.finished and tied:
                order = rng.choice(list(tied.values()))
                rng.shuffle(order)
                url = reverse("organiser:playoff", args=[event.slug, table.group.pk])
                data = {"order": order}
                if event.finished_at:
                    data["reason"] = "Uusinnan korjaus"
                post(world.desk, url, data)
                return f"play-off order {order} in group {table.group.name}"
    return None


def finish_group(world, rng):
    """Every open match of one group of the current stage, and about half of the others, played to the end
    (so that a sequence reaches Sunday and publication): from paper at the desk, or line by line on the
    link where a match has lines already."""
    open_ = matches(world, OPEN, team=False)
    if not open_:
        return None
    first = open_[0]
    same = [
        m for m in open_ if m.stage == first.stage and (m.group_id == first.group_id or rng.random() < 0.5)
    ]
    if first.stage == Stage.PLACEMENT:
        same = [m for m in open_ if m.stage == first.stage and m.placement_round == first.placement_round]
    play(world, rng, same)
    return f"{len(same)} matches from {label(first)} on played to the end"


def finish_team_match(world, rng):
    """The pair matches of one started team match played to the end."""
    open_ = [m for m in matches(world, OPEN) if m.event_id == world.team_event_id]
    if not open_:
        return None
    same = [m for m in open_ if m.round == open_[0].round]
    play(world, rng, same)
    return f"{len(same)} pair matches of the team competition from {label(open_[0])} on played to the end"


def play(world, rng, found) -> None:
    for match in found:
        if match.entries.exists():
            while match.status in OPEN and match.entries.count() < match.deals_planned + EXTRA:
                post(world.referee, link(match, "add"), {**random_line(rng), "version": match.version})
                match.refresh_from_db()
            continue
        a, b = rng.choice([(40, 20), (20, 40), (60, 8), (8, 60)])
        data = {"version": match.version, "total_a": a, "total_b": b, "deals_played": match.deals_planned}
        post(world.desk, desk(match, "sheet_paper"), data)


def confirm_all(world, rng):
    found = [m for m in matches(world, DONE, team=False) if not m.confirmed_at]
    if not found:
        return None
    url = reverse("organiser:confirm_many", args=[world.event.slug])
    post(
        world.desk,
        url,
        {
            "confirm": [f"{m.pk}:{m.version}" for m in found],
            "unaccepted_too": "1",
            "unaccepted": [f"{m.pk}:{m.version}" for m in found],
        },
    )
    return f"the desk confirms {len(found)} results"


def publish(world, rng):
    event = world.event
    if event.finished_at or event.format != Event.Format.STANDARD:
        return None
    placements = Match.objects.filter(event=event, stage=Stage.PLACEMENT)
    if not placements.exists() or placements.filter(status__in=OPEN).exists():
        return None
    confirm_all(world, rng)
    unconfirmed = services.unconfirmed(event)
    data = {"sure": "1", "confirm": [f"{m.pk}:{m.version}" for m in unconfirmed]}
    post(world.desk, reverse("organiser:publish", args=[event.slug]), data)
    return "final places published"


def correct_published(world, rng):
    """A correction after publication (issue #24): a paper result changed from the desk, with a reason."""
    if world.event.finished_at is None:
        return None
    match = pick(world, DONE, team=False)
    a, b = rng.choice([(40, 20), (20, 40), (60, 8)])
    url = desk(match, "sheet_paper")
    post(
        world.desk,
        url,
        {
            "version": match.version,
            "total_a": a,
            "total_b": b,
            "deals_played": match.deals_planned,
            "reason": "Korjaus julkaisun jälkeen",
        },
    )
    return f"correction after publication: paper {a}-{b} on {label(match)}"


def advance(world, rng):
    event = world.event
    if (
        event.drawn_at is None
        or sunday.sunday_started(event)
        or Match.objects.filter(event=event, stage=Stage.SUNDAY).exists()
    ):
        return None
    if Match.objects.filter(event=event, stage=Stage.SATURDAY, status__in=OPEN).exists():
        return None
    post(world.desk, reverse("organiser:advance", args=[event.slug]))
    return "Sunday groups formed"


def seeding(world, rng):
    event = world.event
    current = sunday.current_seeding(event)
    if not current or not any(current) or sunday.sunday_started(event):
        return None
    g1, g2 = rng.sample(range(len(current)), 2)
    i, j = rng.randrange(len(current[g1])), rng.randrange(len(current[g2]))
    current[g1][i], current[g2][j] = current[g2][j], current[g1][i]
    data = {
        "sure": "1",
        **{f"group{name}": ids for name, ids in zip(sunday.SUNDAY_NAMES, current, strict=False)},
    }
    post(world.desk, reverse("organiser:seeding", args=[event.slug]), data)
    return f"Sunday seeding corrected: {current}"
