"""The season cup (*Tuppicup*, RULES.md §7–8): settings, rankings, public pages, XLSX and API."""
