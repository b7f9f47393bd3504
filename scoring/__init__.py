"""The Tuppi rules as pure functions: no Django, no database, no settings.

Everything the federation's rules decide (deal and match scoring, standings and tie-breaks, the draw
and schedule, Sunday seeding and brackets, cup points) lives here, so it can be tested on its own and
run from the shell as ``python -m scoring``. The web layer loads facts from the database, calls these
functions and renders what they return.
"""
