// The hall screen (templates/tournaments/public/hall.html): one panel at a time, the next one every 10
// seconds (?vaihto=N sets N seconds, 2–300). The live part is refreshed by htmx like every public page's
// (static/js/live.js); after a refresh the screen stays on the panel it was showing (panels are named by
// data-panel), or starts again from the first when that panel is gone (a new round).
(function () {
  "use strict";
  var body = document.querySelector("[data-hall]");
  if (!body) {
    return;
  }
  var asked = parseInt(new URLSearchParams(window.location.search).get("vaihto"), 10);
  var seconds = asked >= 2 && asked <= 300 ? asked : parseInt(body.getAttribute("data-rotate"), 10) || 10;
  var current = null;

  function panels() {
    return Array.prototype.slice.call(document.querySelectorAll("#live [data-panel]"));
  }

  function show(key) {
    var list = panels();
    if (!list.length) {
      return;
    }
    var index = 0;
    for (var i = 0; i < list.length; i++) {
      if (list[i].getAttribute("data-panel") === key) {
        index = i;
      }
    }
    for (var j = 0; j < list.length; j++) {
      list[j].classList.toggle("is-current", j === index);
      list[j].setAttribute("aria-hidden", j === index ? "false" : "true");
    }
    current = list[index].getAttribute("data-panel");
    body.setAttribute("data-current", current);
  }

  function next() {
    var list = panels();
    if (list.length < 2) {
      return;
    }
    var index = 0;
    for (var i = 0; i < list.length; i++) {
      if (list[i].getAttribute("data-panel") === current) {
        index = i;
      }
    }
    show(list[(index + 1) % list.length].getAttribute("data-panel"));
  }

  // The new live part is in the page (not painted yet): put it on the panel being shown.
  document.addEventListener("htmx:afterSwap", function () {
    show(current);
  });
  var first = document.querySelector("#live [data-panel].is-current") || panels()[0];
  show(first ? first.getAttribute("data-panel") : null);
  window.setInterval(next, seconds * 1000);
})();
