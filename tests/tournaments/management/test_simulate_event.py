"""`manage.py simulate_event` builds a drawn cup event from the demo registry and prints its slug last."""

from __future__ import annotations

from collections import Counter
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import Event, GroupEntry, Match


@pytest.mark.slow
def test_seventy_pairs(db):
    out = StringIO()
    call_command("simulate_event", "--pairs", "70", "--seed", "4", stdout=out)
    slug = out.getvalue().split()[-1]
    event = Event.objects.get(slug=slug)
    assert event.kind == "cup" and event.pairs.count() == 70
    assert event.pairs.filter(checked_in=True).count() == 70
    sizes = Counter(
        GroupEntry.objects.filter(group__event=event, stage="saturday").values_list("group__name", flat=True)
    )
    assert len(sizes) == 16 and set(sizes.values()) == {4, 5}
    # 6 groups of 5 (10 matches) and 10 groups of 4 (6 matches)
    assert Match.objects.filter(event=event, stage="saturday").count() == 6 * 10 + 10 * 6
    # the whole weekend is played: 4 Sunday groups of 4 (6 matches each) and 16 placement matches
    assert Match.objects.filter(event=event, stage="sunday").count() == 24
    assert Match.objects.filter(event=event, stage="placement").count() == 16
    assert not Match.objects.filter(event=event).exclude(status="finished").exists()
    assert event.finished_at is not None


@pytest.mark.slow
def test_same_seed_same_event(db):
    out1, out2 = StringIO(), StringIO()
    call_command("simulate_event", "--pairs", "20", "--seed", "9", stdout=out1)
    call_command("simulate_event", "--pairs", "20", "--seed", "9", stdout=out2)
    a, b = (Event.objects.get(slug=o.getvalue().split()[-1]) for o in (out1, out2))
    assert a != b

    def layout(event):
        return sorted(
            (e.group.name, tuple(sorted(m.player.member_number for m in e.pair.members.all())))
            for e in GroupEntry.objects.filter(group__event=event, stage="saturday").select_related("group")
        )

    assert layout(a) == layout(b)


def test_too_few_pairs_refused(db):
    with pytest.raises(CommandError, match="at least 16"):
        call_command("simulate_event", "--pairs", "8", "--seed", "1")
