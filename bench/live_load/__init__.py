"""Live load: thousands of polling phones and a referee on a 128-pair event in the middle of Saturday
(issue #13, point 5). Prints figures next to their targets (met / NOT MET); asserts nothing.

Run (PostgreSQL at 127.0.0.1:5432, user postgres, no password; Debian's wrk and nginx, installed with
apt-get if missing, with a message):

    .venv/bin/python bench/live_load.py                 # 2,000 phones for 30 s, 2 workers, file cache
    .venv/bin/python bench/live_load.py --cache redis   # Redis at 127.0.0.1:6379, database 15 (flushed)
    .venv/bin/python bench/live_load.py --nodes 2       # two application servers behind nginx, one Redis
    .venv/bin/python bench/live_load.py --phones 500 --seconds 60 --workers 3 --skip-cup --fresh
    .venv/bin/python bench/live_load.py --py-spy /tmp/pyspy/bin/py-spy   # and where the workers' time goes
        # (py-spy is no project dependency: python3 -m venv /tmp/pyspy && /tmp/pyspy/bin/pip install py-spy)

Options: ``--phones N`` (default 2000, each polling every 5 s: N/5 requests/s), ``--seconds S`` (the main
load, default 30), ``--workers W`` (gunicorn sync workers, default 2), ``--cache file|redis``, ``--nodes 1|2`` (application
servers, each a gunicorn master with W workers, behind nginx; 2 forces ``--cache redis`` and nginx: see
``servers.py``), ``--fresh``
(rebuild the live event), ``--skip-cup`` (no cup season, no cup figures), ``--connections C`` (wrk
connections, default 100, for the main load and the full-speed runs alike), ``--ref-seconds S`` (each
full-speed wrk run, default 8), ``--front nginx|none`` (the main load through nginx, the default, or
straight to gunicorn), ``--py-spy PATH`` (sample the workers during the main load), ``--wait-quiet S``
(wait up to S seconds for the machine's other processes to go idle first).

It measures the code it sits in (its parent folder). While other engineers have uncommitted edits in the
working tree, measure a commit from a copy: ``git archive HEAD | tar -x -C /tmp/head``, copy
``bench/live_load.py`` and this folder into ``/tmp/head/bench/`` and run ``.venv/bin/python
/tmp/head/bench/live_load.py`` with this project's virtualenv. Their test runs share the 2 cores: every wrk figure says how busy other processes kept them.

What it does:

1. A scratch database ``tuppi_bench`` (created if missing, migrated): the event
   ``simulate_event --pairs 128 --seed 1 --until draw`` with Saturday rounds 1-3 of 7 played
   (``tournaments.actions.simulation.play_matches``), reused on later runs and put back to that state each run
   (deals the referee saved in an earlier run are removed; the dates move to today so that the event is
   live). Unless ``--skip-cup``: once, a season of ten 128-pair events played to published final places
   (``simulate_event --pairs 128 --seed 101..110``), each counted for the cup with weight 1. Drop the
   database (``dropdb -h 127.0.0.1 -U postgres tuppi_bench``) to rebuild everything.
2. ``collectstatic``, then gunicorn (``tuppiliitto.wsgi``, sync workers) with production settings
   (DJANGO_DEBUG=0, a secret key, DJANGO_SECURE=0, DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost,
   DATABASE_URL to the scratch database) and CACHE_URL=file:///tmp/… (a new, empty directory) or
   redis://127.0.0.1:6379/15. It waits for ``/terveys/`` and stops gunicorn (and nginx) at the end.
3. Figures, in this order:
   - the snapshot computed from scratch (``tournaments.readmodel.build.build``) in this process: median of 5 (target
     150 ms), its query count, its pickled size and unpickling time (what another worker pays);
   - queries per request for each kind of answer, and the cost of a poll and of its parts one request at
     a time (test client in this process): the version query, its SQL round trip, the ORM's share;
   - after a change of the results version: the request that computes the snapshot, and the first
     render of each live part from the cached snapshot;
   - full speed (wrk -t2, no delay, the same connections, straight to gunicorn): ``/terveys/`` (the
     reference: no database), an unchanged poll of a group page (304; target at least 2/3 of the
     reference's requests/s), 200 answers of cached live parts (group, event, pair) and of the cached
     JSON API (target at least 1/5 of the reference), and the event page's first load (the whole page
     ``/kisat/<slug>/``, no If-None-Match, the snapshot cached; target at most 5 times the reference's
     cost);
   - the JSON API's latency once cached, one connection (target median 20 ms), and the season cup pages
     ``/cup/<id>/``, ``…/parit/``, ``…/kerhot/`` of the ten 128-pair events: the first request (which
     computes the cup) and the latency once cached, one connection (target median 20 ms);
   - the main load: N phones (a mix of event, group, pair, schedule and match live parts as htmx polls,
     HX-Request: true, and the JSON API; each phone sends the ETag of its last answer as If-None-Match),
     paced by wrk's ``delay()`` so that the server gets N/5 requests/s (one phone after another on each
     connection), through nginx by default: wrk opens its next connection before the delay, and a sync
     worker that accepts it would wait idle for the request, which nginx (as in the README's deployment)
     prevents. Meanwhile a referee saves a deal every second through a match's secret link (GET the
     page for the CSRF token and version, POST the deal as the form does, follow the redirect; the next
     unplayed match of the current round when one ends), and 4 probe phones poll the edited match's
     group page and the event page every 5 s. Printed: requests/s, median, p95, p99 and max latency,
     errors (socket errors, time-outs over 5 s, non-2xx/3xx), the share of 304s, latency by page and
     status, CPU seconds by process, the referee's save latency and the staleness (seconds from a save's
     answer until a probe phone's poll shows its version, read from the ETag; and the polls sent after a
     save that still showed an older version), and the stale answers: 4 checkers poll the probes' pages
     every 0.5 s, and every answer of the probes and checkers is checked to show the content of the version
     its ETag names (``measuring.py``). Targets: p99 under 100 ms, 0 errors, staleness at
     most 5 s, 0 stale answers. With ``--py-spy``: the workers' sampled time by kind of work.
   - a summary: every target, its figure, met or NOT MET.

Files: bench/out/live_load_*.lua (the wrk scripts), live_load_gunicorn.log (and …2.log), live_load_nginx.conf and
.log, live_load_worker*.pyspy.txt (raw py-spy stacks), and live_load_result.json (every figure of the
last run, with the printed report).

The package, cut at its seams (issue #26): ``environment`` (the database, its events, wrk and nginx),
``servers`` (gunicorn, nginx, the ``--nodes 2`` upstream), ``load`` (wrk's scripts, the phones, CPU by
process), ``actors`` (the referee, the probe phones and checkers), ``measuring`` (every measurement, the
staleness and the stale answers), ``report`` (the printed figures, the summary, the JSON result), and
``__main__`` (the options and the order of the phases). ``bench/live_load.py`` runs it; so does
``.venv/bin/python -m bench.live_load``.
"""
