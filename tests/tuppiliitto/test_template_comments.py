"""Issue #25 point 2: a developer's note in a template is never shown to a user. Django's ``{# … #}`` comment
holds on one line only; spread over several lines it is printed as text (it was, on every team leader's
link). Longer notes use ``{% comment %}``."""

from __future__ import annotations

from pathlib import Path

from django.urls import reverse

from tests.teams.builders import drawn_event, row

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_no_template_opens_a_comment_it_does_not_close_on_the_same_line():
    unclosed = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            rest = line
            while "{#" in rest:
                rest = rest[rest.index("{#") + 2:]
                if "#}" not in rest:
                    unclosed.append(f"{path.relative_to(TEMPLATES)}:{number}")
                    break
                rest = rest[rest.index("#}") + 2:]
    assert not unclosed, f"multi-line {{# … #}} comments are printed as text: {unclosed}"


def test_the_team_leader_page_shows_no_template_comment(client, make_event, organiser):
    event, _teams = drawn_event(make_event, organiser, 2)
    team = row(event, 1, 1).team_a
    html = client.get(reverse("teams:leader", args=[team.token])).content.decode()
    assert "{#" not in html and "#}" not in html
    assert "clear_action" not in html  # the note's words
