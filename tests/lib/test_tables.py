"""``lib.tables.Table``: a sort order typed in the address names only the table's own sortable columns."""

from __future__ import annotations

import warnings

import django_tables2 as tables

from lib.tables import Table


class Rows(Table):
    name = tables.Column()
    points = tables.Column()
    note = tables.Column(orderable=False)


DATA = [{"name": "Aho", "points": 3, "note": "b"}, {"name": "Ylä", "points": 9, "note": "a"}]


def test_the_finnish_parameters():
    table = Rows(DATA)
    assert (table.prefixed_order_by_field, table.prefixed_page_field) == ("jarjestys", "sivu")


def test_a_known_column_sorts_and_anything_else_is_dropped():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # django-tables2 warns of an accessor built from junk: none may be built
        assert Rows(DATA, order_by="-points").order_by == ("-points",)
        assert [r.get_cell("name") for r in Rows(DATA, order_by="-points").rows] == ["Ylä", "Aho"]
        for junk in ("1.5", "note", "-__class__", "points.x", "", "name,1.5,--points"):
            table = Rows(DATA, order_by=junk)
            assert all(o.lstrip("-") in {"name", "points"} for o in table.order_by), junk
            assert [r.get_cell("name") for r in table.rows]  # renders
        assert Rows(DATA, order_by="name,1.5").order_by == ("name",)
