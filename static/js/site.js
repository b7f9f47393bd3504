// Behaviour every page shares, kept out of the HTML: the Content-Security-Policy allows no inline script,
// no event handler attribute and no eval.
(function () {
  // A polling element (hx-trigger="every 5s") marked data-poll-pauses-in-forms skips its refresh while
  // the focus is inside a form, so a refresh never throws away what is being chosen or typed.
  document.addEventListener("htmx:beforeRequest", function (event) {
    const source = event.detail && event.detail.elt;
    if (!source || !source.hasAttribute("data-poll-pauses-in-forms")) return;
    const active = document.activeElement;
    if (active && active.closest("form")) event.preventDefault();
  });
})();

// A table wider than the screen scrolls inside its .table-wrap: one that scrolls is made a focusable,
// named region (tabindex, role, a label from its data-label, caption or the heading before it), so that
// keyboard users can scroll it with the arrow keys. Templates may set these themselves; this covers the
// rest, after every htmx swap too.
(function () {
  function label(wrap) {
    if (wrap.dataset.label) return wrap.dataset.label;
    const caption = wrap.querySelector("caption");
    if (caption && caption.textContent.trim()) return caption.textContent.trim();
    let before = wrap.previousElementSibling;
    while (before && !/^H[1-6]$/.test(before.tagName)) before = before.previousElementSibling;
    return before ? before.textContent.trim() : document.title;
  }

  function mark(root) {
    (root || document).querySelectorAll(".table-wrap").forEach(function (wrap) {
      if (wrap.hasAttribute("tabindex") || wrap.scrollWidth <= wrap.clientWidth + 1) return;
      wrap.setAttribute("tabindex", "0");
      if (!wrap.hasAttribute("role")) wrap.setAttribute("role", "region");
      if (!wrap.hasAttribute("aria-label") && !wrap.hasAttribute("aria-labelledby")) {
        wrap.setAttribute("aria-label", label(wrap));
      }
    });
  }

  let pending = null;
  function later() {
    if (pending) clearTimeout(pending);
    pending = setTimeout(function () { pending = null; mark(); }, 150);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { mark(); });
  else mark();
  document.addEventListener("htmx:afterSettle", function () { mark(); });
  window.addEventListener("resize", later);
})();

// A form with a kind of event (select name="kind") hides the fields that kind does not use: each such
// field's paragraph names the kinds in data-hide-for (tournaments.forms.UNUSED_BY_KIND). Without
// JavaScript every field shows, and the server sets the unused ones aside.
(function () {
  function apply(select) {
    const form = select.form;
    if (!form) return;
    form.querySelectorAll("[data-hide-for]").forEach(function (row) {
      row.hidden = row.dataset.hideFor.split(" ").indexOf(select.value) !== -1;
    });
  }

  function setUp() {
    document.querySelectorAll("form select[name=kind]").forEach(function (select) {
      apply(select);
      select.addEventListener("change", function () { apply(select); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
