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
