// "My pair" kept on this device (localStorage, one pair per event): the pair page offers to remember it,
// the event page then leads straight to it. Nothing is sent anywhere; without JavaScript the event page's
// search form still finds the pair by name or number.
(function () {
  "use strict";
  var PREFIX = "tuppi:oma-pari:";

  function read(slug) {
    try {
      var value = JSON.parse(window.localStorage.getItem(PREFIX + slug) || "null");
      return value && value.number ? value : null;
    } catch (e) {
      return null;
    }
  }

  function write(slug, value) {
    try {
      if (value) {
        window.localStorage.setItem(PREFIX + slug, JSON.stringify(value));
      } else {
        window.localStorage.removeItem(PREFIX + slug);
      }
    } catch (e) {
      // storage refused (private mode): the page works as before
    }
  }

  var remember = document.querySelector("[data-my-pair-remember]");
  if (remember) {
    var slug = remember.getAttribute("data-slug");
    var number = remember.getAttribute("data-number");
    var name = remember.getAttribute("data-name");
    var save = remember.querySelector("[data-remember]");
    var saved = remember.querySelector("[data-remembered]");
    var forget = remember.querySelector("[data-forget]");
    var render = function () {
      var mine = read(slug);
      var isMine = mine !== null && String(mine.number) === number;
      save.hidden = isMine;
      saved.hidden = !isMine;
      forget.hidden = !isMine;
    };
    save.addEventListener("click", function () {
      write(slug, { number: number, name: name });
      render();
    });
    forget.addEventListener("click", function () {
      write(slug, null);
      render();
    });
    remember.hidden = false;
    render();
  }

  var link = document.querySelector("[data-my-pair-link]");
  if (link) {
    var mine = read(link.getAttribute("data-slug"));
    if (mine) {
      var anchor = link.querySelector("[data-my-pair-anchor]");
      anchor.href = link.getAttribute("data-url").replace(/\/0\/$/, "/" + encodeURIComponent(mine.number) + "/");
      anchor.textContent = mine.name;
      link.hidden = false;
    }
  }
})();
