"""The public final places page (``/kisat/<slug>/lopputulokset/``): places with players and clubs, shared
places as "1.–3." (issue #14), and a 404 for an unknown event."""

from __future__ import annotations

from django.urls import reverse

from tests.support.results_helpers import tie_group
from tests.tournaments.output.test_printouts import results_rows, text_of


def test_shared_places_show_as_a_range(client, make_event, organiser):
    """A one-stage group whose three-way tie at the top was never played off: the three share places 1–3
    (RULES.md §4 small events), then 4 and 5 alone."""
    event, group, (p1, p2, p3, p4, p5) = tie_group(make_event, organiser)
    html = client.get(reverse("final_places", args=[event.slug])).content.decode()
    labels = [part.split("</span>")[0] for part in html.split('<span class="place">')[1:]]
    assert labels == ["1.–3.", "1.–3.", "1.–3.", "4.", "5."]
    for pair in (p1, p2, p3):
        assert pair.full_name in html
    assert html.count('<li value="1">') == 3  # the list's numbers stay the places themselves


def test_unknown_event_is_404(client, db):
    assert client.get(reverse("final_places", args=["ei-ole"])).status_code == 404


def test_the_printed_results_list_shows_shared_places_as_a_range_too(client, make_event, organiser):
    """Issue #14.6: the results PDF printed "1." three times for places the three pairs share."""
    event, group, (p1, p2, p3, p4, p5) = tie_group(make_event, organiser)
    rows = results_rows(text_of(client.get(reverse("results_pdf", args=[event.slug])).content))
    assert [row[0] for row in rows] == ["1.–3.", "1.–3.", "1.–3.", "4.", "5."]
    assert {row[1] for row in rows[:3]} == {p1.full_name, p2.full_name, p3.full_name}
