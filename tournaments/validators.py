"""Validators shared by the forms that take names: a name that a spreadsheet would read as a formula is
refused (``tournaments.workbooks`` writes every exported cell as text too, for names that came in
some other way)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.workbooks import looks_like_formula

FORMULA_MESSAGE = _("Nimi ei voi alkaa merkillä =, +, - tai @ (taulukko-ohjelma lukisi sen kaavaksi).")


def reject_formula(value: str) -> None:
    """A name must not start with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return."""
    if looks_like_formula(value):
        raise ValidationError(FORMULA_MESSAGE, code="formula")
