"""Signals other parts of the system listen to."""

from django.dispatch import Signal

# Sent inside the saving transaction after a match's result changed (a line added, corrected or deleted,
# a paper result, a confirmation) and after a group's play-off is recorded; ``match`` or ``group``.
# Listeners move later stages on by themselves: the Sunday placement bracket, the team knockout. A
# match's change also carries its ``reason`` ("" when none was given): the cup app records a forfeit's
# club fine with it (``cup.fines``), so that ``tournaments`` never imports ``cup``.
result_changed = Signal()
