// The hall screen (templates/tournaments/public/hall.html): one panel at a time, the next one every 10
// seconds (?vaihto=N sets N seconds, 2–300), in the order the live part names (data-rotation, from
// tournaments/readmodel/hall.py: the current round's tables come back between the other panels, issue #25.10).
// The live part is refreshed by htmx like every public page's (static/js/live.js); after a refresh the
// screen stays on the panel it was showing (panels are named by data-panel), or starts again from the
// first when that panel is gone (a new round).
(function () {
  "use strict";
  var body = document.querySelector("[data-hall]");
  if (!body) {
    return;
  }
  var asked = parseInt(new URLSearchParams(window.location.search).get("vaihto"), 10);
  var seconds = asked >= 2 && asked <= 300 ? asked : parseInt(body.getAttribute("data-rotate"), 10) || 10;
  var current = null;
  var position = 0; // where the screen is in the rotation

  function panels() {
    return Array.prototype.slice.call(document.querySelectorAll("#live [data-panel]"));
  }

  function rotation() {
    var frame = document.querySelector("#live [data-rotation]");
    var keys = frame ? frame.getAttribute("data-rotation").split(/\s+/).filter(Boolean) : [];
    return keys.length ? keys : panels().map(function (p) { return p.getAttribute("data-panel"); });
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

  // Where the panel shown stands in the rotation (its first place; 0 when it is not in it).
  function place(keys) {
    if (keys[position] === current) {
      return position;
    }
    var found = keys.indexOf(current);
    return found >= 0 ? found : 0;
  }

  function next() {
    var keys = rotation();
    if (keys.length < 2) {
      return;
    }
    position = (place(keys) + 1) % keys.length;
    show(keys[position]);
  }

  // The new live part is in the page (not painted yet): put it on the panel being shown.
  document.addEventListener("htmx:afterSwap", function () {
    show(current);
    position = place(rotation());
  });
  var first = document.querySelector("#live [data-panel].is-current") || panels()[0];
  show(first ? first.getAttribute("data-panel") : null);
  position = place(rotation());
  window.setInterval(next, seconds * 1000);
})();
