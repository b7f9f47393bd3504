"""The base of every django-tables2 list: the site's Finnish query parameters (``?jarjestys=`` to sort,
``?sivu=`` for the page) and a sort order that names only the table's own sortable columns (anything
else typed in the address is dropped: the list keeps its default order, and no accessor is ever built
from what a visitor typed)."""

from __future__ import annotations

import django_tables2 as tables


class Table(tables.Table):
    def __init__(self, data, **kwargs):
        kwargs.setdefault("page_field", "sivu")
        kwargs.setdefault("order_by_field", "jarjestys")
        super().__init__(data, **kwargs)

    @property
    def order_by(self):
        return tables.Table.order_by.fget(self)

    @order_by.setter
    def order_by(self, value) -> None:
        asked = value.split(",") if isinstance(value, str) else list(value or ())
        known = {name for name, column in self.columns.items() if column.orderable}
        kept = tuple(a for a in (str(a).strip() for a in asked) if a.lstrip("-") in known)
        tables.Table.order_by.fset(self, kept or None)
