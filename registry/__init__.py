"""The federation's registry: clubs, players, seasons, season clubs and transfers, the search of names
without diacritics and the matching of a typed player to a registered one. Every other app reads it; it
imports none of them (``tests/test_architecture.py``)."""
