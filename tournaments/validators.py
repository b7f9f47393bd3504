"""Validators shared by the forms that take names: a name that a spreadsheet would read as a formula is
refused (``lib.formulas.reject_formula``, imported from there), and the judges' council."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from lib.formulas import reject_formula

# The general rules: "the organisers name a judges' council of 3–5 members" (tuomarineuvosto).
COUNCIL_MIN, COUNCIL_MAX = 3, 5
NAME_MAX_LENGTH = 80


def council_names(text: str) -> list[str]:
    """The judges' council as typed: one name a line (or separated by commas), blanks dropped."""
    parts = [p for line in (text or "").splitlines() for p in line.split(",")]
    return [" ".join(p.split()) for p in parts if p.strip()]


def validate_council(names) -> None:
    """A judges' council is not named yet (no names) or has 3–5 members, each a name of its own."""
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValidationError(_("Anna tuomarineuvoston jäsenet, yksi nimi riville."), code="council_format")
    cleaned = [n.strip() for n in names]
    if any(not n for n in cleaned):
        raise ValidationError(_("Tuomarineuvoston jäsenen nimi puuttuu."), code="council_empty_name")
    if cleaned and not COUNCIL_MIN <= len(cleaned) <= COUNCIL_MAX:
        raise ValidationError(
            _("Tuomarineuvostossa on %(min)s–%(max)s jäsentä, ei %(n)s.")
            % {"min": COUNCIL_MIN, "max": COUNCIL_MAX, "n": len(cleaned)},
            code="council_size",
        )
    if len({n.casefold() for n in cleaned}) != len(cleaned):
        raise ValidationError(_("Sama nimi on tuomarineuvostossa kahdesti."), code="council_twice")
    for name in cleaned:
        if len(name) > NAME_MAX_LENGTH:
            raise ValidationError(
                _("Nimi on liian pitkä (enintään %(n)s merkkiä).") % {"n": NAME_MAX_LENGTH}, code="name_long"
            )
        reject_formula(name)
