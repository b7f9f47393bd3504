"""What do I need (issue #28.5) for the cup's pages: ``scoring.cup_reach`` computed once per change of
what it reads, kept in the caches, and refined in the background where it leaves a row a bound.

* **Its key** names exactly what the reach reads: the ranked entrants with their results as the model
  sees them (points and places), the weights of the legs left, best N, the points table and whether
  the rows are players or fixed pairs; a digest of them (:func:`reach_key`). Neither the match wins nor a
  running leg's results are in it, so a result entered during a leg (which moves the cup key and
  recomputes the cup) finds the reach already computed.
* **Refinement.** Where the request-time computation leaves a fixed pair's worst a bound (the dense club
  seasons: ``scoring.cup_reach`` step 10), the same computation with the integer programme
  (``exact_nodes``: ``settings.TUPPI_CUP_REACH_EXACT_NODES`` branch-and-cut nodes a row, seconds a row)
  runs in a background thread of the process that computed it, at a lower priority than the requests,
  and keeps its answer under ``<key>:exact``, which every process reads first. Then it bumps the
  season's refinement counter (``cup-reach-gen:<season>``), which :func:`cup.services.cup_keys` puts in
  the cup key: the cup, its rendered tables and their ETags are computed afresh with the exact rows.
  One refinement a key at a time across the servers (a lock in the shared cache, an hour at most, and a set
  in this process; a process that ends lets go of its locks). A cache that does not answer gets no
  refinement (there would be nowhere to keep it): the pages keep the safe bounds, and nothing fails. A
  refinement that fails or dies leaves the bounds (its failure logged); the next computation of the cup
  after the lock's hour tries again.
* Both answers are computed from the same facts; which one a cup holds is a matter of when it was
  computed, never a wrong position (a bound is a position the entrant cannot be worse than).
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import os
import threading

from django.conf import settings
from django.core.cache import cache

from lib import caching
from scoring import cup_reach

logger = logging.getLogger(__name__)

EXACT_TIMEOUT = 7 * 24 * 3600  # the refined reach is kept a week (hours of work on the densest seasons)
LOCK_SECONDS = 3600  # a refinement's lock: one that dies holds the key's next refinement this long
NICE = 10  # the refinement thread's priority below the requests' (Linux: a thread's own)

_refining: set[str] = set()  # the keys this process is refining now
_refining_lock = threading.Lock()


@atexit.register
def _let_go() -> None:
    """A process ending (a command, a worker restarted) lets go of the locks of its refinements, which die
    with it, so that another process may start them again at once."""
    with _refining_lock:
        for key in _refining:
            cache.delete(f"{key}:refining")


def reach_key(standings, weights, best_n, table, *, pairs: bool) -> str:
    """The cache key of the reach of these rows: a digest of exactly what ``scoring.cup_reach.reach``
    reads."""
    width = len(table)
    facts = (
        pairs, best_n, tuple(table), tuple(str(w) for w in weights),
        tuple((repr(s.entrant), cup_reach.history(s, width)) for s in standings),
    )  # fmt: skip
    return "cup-reach:" + hashlib.sha256(repr(facts).encode()).hexdigest()


def gen_key(season_id: int) -> str:
    """The season's refinement counter (:func:`cup.services.cup_keys` reads it)."""
    return f"cup-reach-gen:{season_id}"


def reach(season_id, standings, weights, best_n, table, *, pairs: bool) -> dict:
    """Each entrant's ``scoring.cup_reach.Reach``: the refined answer where one is kept, else the one
    computed at request time (kept too), its refinement started where it leaves a row a bound."""
    key = reach_key(standings, weights, best_n, table, pairs=pairs)
    refined = caching.get_many([f"{key}:exact"]).get(f"{key}:exact")
    if refined is not None:
        return refined
    found = caching.versioned(
        key, lambda: {r.entrant: r for r in cup_reach.reach(standings, weights, best_n, table, pairs=pairs)}
    )
    nodes = settings.TUPPI_CUP_REACH_EXACT_NODES
    if nodes and pairs and not all(r.worst_exact for r in found.values()):  # the players' rows: no step
        refine_later(season_id, key, (standings, weights, best_n, table), pairs, nodes)
    return found


def refine_later(season_id, key, args, pairs, nodes) -> threading.Thread | None:
    """Start the refinement of ``key`` in a background thread (returned; None where another process or
    thread holds it, or the shared cache does not answer)."""
    if caching.in_transaction():
        return None
    with _refining_lock:
        if key in _refining:
            return None
        lock = f"{key}:refining"
        # a cache that does not answer says yes to add(), then keeps nothing: no refinement then
        if not cache.add(lock, 1, LOCK_SECONDS) or cache.get(lock) is None:
            return None
        _refining.add(key)
    thread = threading.Thread(
        target=refine, args=(season_id, key, args, pairs, nodes), name="cup-reach-refine", daemon=True
    )
    thread.start()
    return thread


def refine(season_id, key, args, pairs, nodes) -> None:
    """The reach of ``args`` with the integer programme (``exact_nodes``), kept under ``<key>:exact``;
    then the season's counter bumped. Whatever fails is logged and leaves the bounds."""
    let_go = True
    try:
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
        except (AttributeError, OSError):  # not Linux, or not allowed: the same priority
            pass
        rows = cup_reach.reach(*args, pairs=pairs, exact_nodes=nodes)
        caching.put(f"{key}:exact", {r.entrant: r for r in rows}, EXACT_TIMEOUT)
        if cache.get(f"{key}:exact") is None:  # not kept (the cache went away): tried again in an hour
            let_go = False
            logger.warning("The refined cup reach of season %s could not be kept in the cache", season_id)
        else:
            caching.bump(gen_key(season_id))
    except Exception:
        logger.exception("The cup reach of season %s could not be refined", season_id)
    finally:
        if let_go:
            cache.delete(f"{key}:refining")
        with _refining_lock:
            _refining.discard(key)
