"""Prints the time and peak memory of rendering one round's scoresheets of a 128-pair event (64 pages).

Run: .venv/bin/python bench/print_scoresheets.py
It builds the event once in a throwaway SQLite file under bench/out/ and reuses it on later runs.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
OUT.mkdir(parents=True, exist_ok=True)
os.environ.setdefault("DATABASE_URL", f"sqlite:///{OUT / 'print.sqlite3'}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tuppiliitto.settings_test")
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.utils import translation  # noqa: E402

from tournaments.models import Event, Match  # noqa: E402
from tournaments.output.printing import scoresheets_pdf  # noqa: E402


def main() -> None:
    call_command("migrate", verbosity=0)
    event = Event.objects.filter(slug__startswith="simulaatio-128-paria-1").first()
    if event is None:
        call_command("simulate_event", "--pairs", "128", "--seed", "1", "--until", "draw", verbosity=0)
        event = Event.objects.get(slug__startswith="simulaatio-128-paria-1")
    translation.activate("fi")
    matches = list(Match.objects.filter(event=event, stage="saturday", round=1))
    times = []
    for _ in range(3):
        start = time.perf_counter()
        pdf = scoresheets_pdf(matches, "https://tulokset.tuppiliitto.fi", "Kierros 1")
        times.append(time.perf_counter() - start)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    median = statistics.median(times)
    print(
        f"round 1 of a 128-pair event: {len(matches)} pages, {len(pdf) // 1024} KB; "
        f"median {median:.2f} s over {len(times)} runs = {median / len(matches) * 1000:.0f} ms a page; "
        f"peak memory {peak_mb:.0f} MB"
    )


if __name__ == "__main__":
    main()
