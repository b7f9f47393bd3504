"""A page's blocks rendered once without a visitor, its shell around them per visitor."""

from __future__ import annotations

from lib.blocks import render_blocks

TEMPLATES = {
    "root.html": "<title>{% block title %}Root{% endblock %}</title>{% block content %}{% endblock %}"
    "<footer>{{ user }}</footer>",
    "middle.html": "{% extends 'root.html' %}{% block title %}{% block inner_title %}{% endblock %} · Cup{% endblock %}"
    "{% block content %}<h1>{{ name }}</h1>{% block inner %}{% endblock %}{% endblock %}",
    "page.html": "{% extends 'middle.html' %}{% block inner_title %}Players{% endblock %}"
    "{% block inner %}{{ block.super }}<p>{{ html }}</p>{% endblock %}",
    "plain.html": "{% extends 'root.html' %}{% block content %}{% include 'part.html' %}{% endblock %}",
    "part.html": "<b>{{ name }}</b>",
}


def use_templates(settings):
    settings.TEMPLATES = [{
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "OPTIONS": {"loaders": [("django.template.loaders.locmem.Loader", TEMPLATES)]},
    }]  # Django's setting_changed signal makes the template engines anew


def test_blocks_through_two_levels_of_extends(settings):
    use_templates(settings)
    blocks = render_blocks("page.html", {"name": "Tuppicup", "html": "<i>", "user": "someone"})
    assert blocks["title"] == "Players · Cup"
    assert blocks["content"] == "<h1>Tuppicup</h1><p>&lt;i&gt;</p>"  # escaped as in a page
    assert set(blocks) == {"title", "content"}  # the root's blocks; its other text is the shell's


def test_a_block_not_overridden_keeps_the_root_text_and_includes_work(settings):
    use_templates(settings)
    blocks = render_blocks("plain.html", {"name": "Kasa"})
    assert blocks == {"title": "Root", "content": "<b>Kasa</b>"}
