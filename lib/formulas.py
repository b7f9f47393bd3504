"""Names that a spreadsheet would read as a formula, refused wherever a name is typed.

Spreadsheet programs read a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
as a formula (OWASP's list). The forms, the import and the admin refuse such names
(``reject_formula``, ``NamesAreTextMixin``); the workbooks store every such cell as text anyway
(``lib.workbooks``), for names that came in some other way.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Characters that make a spreadsheet program read the rest of a cell as a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

FORMULA_MESSAGE = _("Nimi ei voi alkaa merkillä =, +, - tai @ (taulukko-ohjelma lukisi sen kaavaksi).")


def looks_like_formula(text: object) -> bool:
    """True for a string a spreadsheet could take for a formula (see ``FORMULA_STARTS``)."""
    return isinstance(text, str) and text.startswith(FORMULA_STARTS)


def reject_formula(value: str) -> None:
    """A name must not start with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return."""
    if looks_like_formula(value):
        raise ValidationError(FORMULA_MESSAGE, code="formula")


class NamesAreTextMixin:
    """For a ``ModelAdmin``: refuse names a spreadsheet would read as a formula in ``name_fields`` (the
    workbooks write them as text anyway)."""

    name_fields: tuple[str, ...] = ()

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if field is not None and db_field.name in self.name_fields:
            field.validators = [*field.validators, reject_formula]
        return field
