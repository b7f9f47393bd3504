"""Public pages: read-only, no login, made for a phone; live pages refresh themselves (htmx polling)."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from tournaments.models import Event, Match, Pair, PaperResult
from tournaments.results import load_outcomes, outcome, sheet, stage_tables
from tournaments.views.common import pair_members_prefetch, saturday_groups


def home(request):
    events = list(Event.objects.select_related("organising_club").order_by("starts_on", "name"))
    by_status = {"live": [], "upcoming": [], "finished": []}
    for event in events:
        by_status[event.status].append(event)
    by_status["finished"].reverse()  # the most recent first
    return render(request, "tournaments/public/home.html", {"by_status": by_status})


def _event(slug):
    return get_object_or_404(Event.objects.select_related("organising_club", "season", "drawn_by"), slug=slug)


def round_statuses(event, stage: str = "saturday") -> dict[int, list[str]]:
    """Each round's match statuses, in one light query: the event and schedule pages need no more than
    these to find the current round, so they do not fold every scoresheet of a large event."""
    rounds: dict[int, list[str]] = {}
    for number, status in Match.objects.filter(event=event, stage=stage).values_list("round", "status"):
        rounds.setdefault(number, []).append(status)
    return rounds


def current_round(rounds: dict[int, list[str]]) -> int | None:
    """The first round with a match still to finish; None when all are done (or nothing is scheduled)."""
    for number in sorted(rounds):
        if any(status in (Match.Status.SCHEDULED, Match.Status.PLAYING) for status in rounds[number]):
            return number
    return None


def event(request, slug):
    event = _event(slug)
    rounds = round_statuses(event)
    statuses = [status for in_round in rounds.values() for status in in_round]
    swaps = event.draw_swaps.prefetch_related(pair_members_prefetch("pair_x__"), pair_members_prefetch("pair_y__"))
    pairs = Pair.objects.filter(event=event, withdrawn_at__isnull=True).prefetch_related(pair_members_prefetch(""))
    context = {
        "event": event,
        "groups": saturday_groups(event),
        "swaps": swaps,
        "current_round": current_round(rounds),
        "played": statuses.count(Match.Status.FINISHED),
        "total": sum(1 for status in statuses if status != Match.Status.ANNULLED),
        "pairs": sorted(pairs, key=lambda p: p.name),
    }
    return render(request, "tournaments/public/event.html", context)


def schedule(request, slug):
    """Who plays whom at which table, one round at a time (``?kierros=N``; default the current round)."""
    event = _event(slug)
    rounds = round_statuses(event)
    numbers = sorted(rounds)
    default = current_round(rounds) or (numbers[0] if numbers else 1)
    try:
        current = int(request.GET.get("kierros", default))
    except ValueError:
        current = default
    if numbers and current not in rounds:
        raise Http404
    # only the shown round's matches and scoresheets are loaded
    matches = list(
        Match.objects.filter(event=event, stage="saturday", round=current)
        .select_related("group", "pair_a__club", "pair_b__club")
        .prefetch_related(pair_members_prefetch("pair_a__"), pair_members_prefetch("pair_b__"))
        .order_by("table")
    )
    outcomes = load_outcomes(matches)
    for m in matches:
        m.outcome = outcomes[m.pk]
    context = {"event": event, "numbers": numbers, "current": current, "matches": matches}
    return render(request, "tournaments/public/schedule.html", context)


def group(request, slug, name):
    event = _event(slug)
    group = get_object_or_404(event.groups.all(), name=name)  # Saturday A…P, Sunday 1…4
    table = stage_tables(event, group.stage, group_id=group.pk)[0]
    pairs = [r.pair for r in table.rows]
    context = {"event": event, "group": group, "table": table, "cross_rows": table.cross_rows, "pairs": pairs}
    return render(request, "tournaments/public/group.html", context)


def match(request, slug, match_id):
    event = _event(slug)
    match = get_object_or_404(
        Match.objects.filter(event=event)
        .select_related("group", "pair_a__club", "pair_b__club")
        .prefetch_related(pair_members_prefetch("pair_a__"), pair_members_prefetch("pair_b__")),
        pk=match_id,
    )
    rows = list(match.entries.order_by("position"))
    paper = PaperResult.objects.filter(match=match).first()
    lines, state = sheet(match, rows)
    context = {"event": event, "match": match, "lines": lines, "state": state, "outcome": outcome(match, rows, paper)}
    return render(request, "tournaments/public/match.html", context)


def pair(request, slug, number):
    event = _event(slug)
    pair = get_object_or_404(
        Pair.objects.filter(event=event).select_related("club").prefetch_related(pair_members_prefetch("")),
        number=number,
    )
    entry = pair.group_entries.filter(stage="saturday").select_related("group").first()
    table = stage_tables(event, "saturday", group_id=entry.group_id)[0] if entry else None
    matches = [m for m in table.matches if pair.pk in (m.pair_a_id, m.pair_b_id)] if table else []
    position = next((r.standing for r in table.rows if r.pair.pk == pair.pk), None) if table else None
    upcoming = [m for m in matches if m.outcome.status in ("scheduled", "playing")]
    context = {
        "event": event, "pair": pair, "group": entry.group if entry else None, "table": table,
        "matches": matches, "position": position, "next_match": upcoming[0] if upcoming else None,
    }
    return render(request, "tournaments/public/pair.html", context)
