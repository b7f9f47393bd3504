"""The write side of the team competition (RULES.md §6): one module per domain, each change in one
transaction. The rules are pure functions in ``scoring.knockout``; the read side is ``teams.results``."""
