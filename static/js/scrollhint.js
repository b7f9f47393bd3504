// Wide tables scroll sideways inside their box (.table-wrap); a hint above one (data-scroll-hint, just
// before it) is shown while the table does not fit. Checked on load, on resize and after every refresh of
// the live part (static/js/live.js keeps the scroll position itself).
(function () {
  "use strict";
  function check() {
    var hints = document.querySelectorAll("[data-scroll-hint]");
    for (var i = 0; i < hints.length; i++) {
      var box = hints[i].nextElementSibling;
      if (box && box.classList.contains("table-wrap")) {
        hints[i].hidden = box.scrollWidth <= box.clientWidth + 1;
      }
    }
  }
  document.addEventListener("htmx:afterSettle", check);
  window.addEventListener("resize", check);
  check();
})();
