// Filter a list as the user types (the check-in search, the cup tables' name search): an
// <input data-filter-list="ID"> hides the items of the list with that id (a <ul>, or a table's <tbody>)
// that do not match; a box marked data-filter-box, hidden in the HTML, is shown once the script runs. Each item (or an element in it) carries data-number
// and data-search (its words, lower case, diacritics folded by the server the way the search folds
// them): a number finds that pair, words find the items containing every one of them. Without the script the form's button asks
// the server, which filters the same way.
(function () {
  function fold(text) {
    return text.toLowerCase().replace(/ø/g, "o").replace(/æ/g, "ae")
      .normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function apply(input) {
    const list = document.getElementById(input.dataset.filterList);
    if (!list) return;
    const query = fold(input.value.trim());
    const words = query.split(/\s+/).filter(Boolean);
    const number = /^\d+$/.test(query) ? String(parseInt(query, 10)) : null;
    let shown = 0;
    for (const item of list.children) {
      const data = item.querySelector("[data-search]") || item;
      const match = !words.length || (number !== null
        ? data.dataset.number === number
        : words.every(function (word) { return (data.dataset.search || "").includes(word); }));
      item.hidden = !match;
      if (match) shown += 1;
    }
    const status = document.getElementById(input.dataset.filterStatus || "");
    if (status) {
      status.textContent = !words.length ? "" : shown === 1
        ? list.dataset.foundOne
        : (list.dataset.foundMany || "").replace("%(count)s", String(shown));
    }
    const none = document.getElementById(input.dataset.filterList.replace(/-list$/, "-none"));
    if (none) none.hidden = shown > 0;
  }

  // After a check-in from the filtered list (a form marked data-clears-search), the search box is emptied
  // for the next name; the pair just checked in stays shown (its fee can still be tapped) until the
  // organiser types again. Without the script the check-in's redirect drops the search by itself.
  document.addEventListener("htmx:afterRequest", function (event) {
    const form = (event.detail.requestConfig || {}).elt; // the row is swapped already: the event reaches
    if (!event.detail.successful || !form || !form.matches("form[data-clears-search]")) return; // its list
    document.querySelectorAll("input[data-filter-list]").forEach(function (input) {
      const list = document.getElementById(input.dataset.filterList);
      if (list && (list.contains(form) || list.contains(event.target))) input.value = "";
    });
  });

  function start() {
    document.querySelectorAll("[data-filter-box]").forEach(function (box) { box.hidden = false; });
    document.querySelectorAll("input[data-filter-list]").forEach(function (input) {
      input.addEventListener("input", function () { apply(input); });
      // Enter filters in place (the page already shows every pair); the button still asks the server.
      input.addEventListener("keydown", function (event) {
        if (event.key === "Enter") { event.preventDefault(); apply(input); }
        if (event.key === "Escape") { input.value = ""; apply(input); }
      });
      if (input.value) apply(input);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
