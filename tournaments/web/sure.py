"""A destructive step's confirmation (issue #14): its form carries a required "sure" box
(``templates/_sure.html``) naming what the step replaces, and its view refuses the step without it."""

from django.contrib import messages
from django.utils.translation import gettext as _


def unconfirmed(request) -> bool:
    """True (and the organiser told that nothing was changed) when the "sure" box was not ticked."""
    if request.POST.get("sure") == "1":
        return False
    messages.error(request, _("Vahvista toiminto rastilla: mitään ei muutettu."))
    return True
