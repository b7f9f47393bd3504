// Live parts of public pages (tournaments/readmodel/live.py): every 5 seconds htmx asks for the part again with
// the ETag it was rendered with; "304 Not Modified" means nothing changed, and the page is left exactly
// as it is (no swap, no lost scroll). When something did change, wide tables keep their scroll position.
(function () {
  "use strict";
  var kept = {};

  document.addEventListener("htmx:configRequest", function (event) {
    var etag = event.detail.elt.getAttribute("data-etag");
    if (etag) {
      event.detail.headers["If-None-Match"] = etag;
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 304) {
      event.detail.shouldSwap = false;
      event.detail.isError = false;
      return;
    }
    kept = {};
    var scrollers = event.detail.target.querySelectorAll(".table-wrap");
    for (var i = 0; i < scrollers.length; i++) {
      kept[i] = [scrollers[i].scrollLeft, scrollers[i].scrollTop];
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var live = document.getElementById("live");
    if (!live) {
      return;
    }
    var scrollers = live.querySelectorAll(".table-wrap");
    for (var i = 0; i < scrollers.length; i++) {
      if (kept[i]) {
        scrollers[i].scrollLeft = kept[i][0];
        scrollers[i].scrollTop = kept[i][1];
      }
    }
  });
})();
