"""The organiser's lists as django-tables2 tables (issue #28.6): the pair list and the unpaid entry fees,
each column declared once with its translated header, sorted by a tap on the number, the names or the
club (``?jarjestys=``). Each row of the pair list keeps its own forms (withdraw, undo, replace a player:
``templates/tournaments/organiser/entries/_pair_actions.html``). Neither is paginated: an event has at
most a few hundred pairs, and the pages' redirects lead to a row's anchor (``#pari-7``), which must be on
the one page."""

from __future__ import annotations

import django_tables2 as tables
from django.template.defaultfilters import floatformat
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from lib.tables import Table

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
BY_NAME = ("players__0__last_name", "players__0__first_name", "players__1__last_name")


class _Organiser(Table):
    number = tables.Column(_("Nro"), attrs=NUM)

    class Meta:
        orderable = True


class ActionsColumn(tables.TemplateColumn):
    """A row's forms; its header is for screen readers only."""

    @property
    def header(self):
        return format_html('<span class="visually-hidden">{}</span>', self.verbose_name)


class PairTable(_Organiser):
    """Every pair of the event, withdrawn ones too: names and member numbers, club, the day's status and
    the withdrawals' history; the row's forms."""

    names = tables.TemplateColumn(template_name="tournaments/organiser/entries/_pair_names.html",
                                  verbose_name=_("Pari"), order_by=BY_NAME, attrs={"td": {"class": "pair-names"}})
    club = tables.Column(_("Kerho"), accessor="club__name", default="")
    actions = ActionsColumn(template_name="tournaments/organiser/entries/_pair_actions.html",
                            verbose_name=_("Toiminnot"), orderable=False)

    class Meta(_Organiser.Meta):
        template_name = "tournaments/organiser/entries/_pair_table.html"
        attrs = {"class": "pair-list"}
        empty_text = _("Yhtään paria ei ole vielä lisätty.")


class UnpaidTable(_Organiser):
    """The active pairs that have not paid their entry fee."""

    names = tables.Column(_("Pelaajat"), accessor="full_name", order_by=BY_NAME)
    club = tables.Column(_("Kerho"), accessor="club__name", default="")
    present = tables.Column(_("Paikalla"), accessor="checked_in")
    fee = tables.Column(_("Maksu (€)"), accessor="number", orderable=False, attrs=NUM)

    class Meta(_Organiser.Meta):
        template_name = "tournaments/organiser/entries/_fee_table.html"
        attrs = {"class": "fees-table"}

    def __init__(self, data, *, fee, **kwargs):
        self.fee = fee
        super().__init__(data, **kwargs)

    def render_present(self, value):
        return _("kyllä") if value else _("ei")

    def render_fee(self):
        return floatformat(self.fee, "-2")
