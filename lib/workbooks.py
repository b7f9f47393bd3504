"""Serialising the federation's workbooks so that every cell holds what was put in it, never a formula.

A name is text whatever it starts with. openpyxl turns any string that starts with ``=`` into a formula
(an ``<f>`` element that Excel evaluates when the file is opened), so a player named
``=HYPERLINK("http://…","Avaa")`` would become a live link in a public download. Spreadsheet programs
also treat ``+``, ``-``, ``@``, a tab and a carriage return as the start of a formula when such text is
typed or pasted (CSV, copy and paste from the sheet). ``to_bytes`` walks every cell of every sheet and
stores any string that starts with one of those as a plain string cell, then serialises the workbook:
every workbook the site offers goes through it.

The pair form and the import refuse such names in the first place (``looks_like_formula``); this is the
second line, for names that came in some other way (the admin, old data).
"""

from __future__ import annotations

from io import BytesIO

from openpyxl import Workbook

from lib.formulas import looks_like_formula


def neutralise(workbook: Workbook) -> int:
    """Make every formula-looking string cell of ``workbook`` a plain string cell; returns how many."""
    changed = 0
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if looks_like_formula(cell.value):
                    cell.data_type = "s"
                    changed += 1
    return changed


def to_bytes(workbook: Workbook) -> bytes:
    """The workbook as an .xlsx file, every text cell a string (``neutralise``)."""
    neutralise(workbook)
    out = BytesIO()
    workbook.save(out)
    return out.getvalue()
