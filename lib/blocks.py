"""Render a page's blocks once, and its personal shell for each visitor.

A public page shows the same thing to everyone but for its header (the visitor's login, the language
switch's form with its CSRF token, messages). :func:`render_blocks` renders the blocks of a template
that extends a base template (through any number of levels, ``{{ block.super }}`` included) with a plain
context, no request: what it gives can be kept and shared. The shell (a template extending the same base
whose blocks print the kept ones) is then rendered per request around them.
"""

from __future__ import annotations

from django.template import Context
from django.template.base import Template, TextNode
from django.template.loader import get_template
from django.template.loader_tags import BLOCK_CONTEXT_KEY, BlockContext, BlockNode, ExtendsNode
from django.utils.safestring import SafeString, mark_safe


def render_blocks(template_name: str, context: dict) -> dict[str, SafeString]:
    """Each top-level block of the root template, as ``template_name`` and its ancestors fill it."""
    template: Template = get_template(template_name).template
    ctx = Context(context)
    blocks = BlockContext()
    with ctx.bind_template(template):
        ctx.render_context[BLOCK_CONTEXT_KEY] = blocks
        current = template
        while (extends := _extends(current)) is not None:
            blocks.add_blocks(extends.blocks)
            with ctx.render_context.push_state(current, isolated_context=False):
                current = extends.get_parent(ctx)
        roots = {n.name: n for n in current.nodelist if isinstance(n, BlockNode)}
        blocks.add_blocks(roots)
        with ctx.render_context.push_state(current, isolated_context=False):
            return {name: mark_safe(node.render(ctx)) for name, node in roots.items()}  # rendered by us


def _extends(template: Template) -> ExtendsNode | None:
    for node in template.nodelist:
        if not isinstance(node, TextNode):
            return node if isinstance(node, ExtendsNode) else None
    return None
