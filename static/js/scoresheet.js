// The scoresheet form shows only the fields the chosen line needs; without JavaScript all are shown.
(function () {
  const form = document.querySelector(".entry-form");
  if (!form) return;
  const value = (name) => (form.querySelector(`[name="${name}"]:checked`) || {}).value;
  const show = (name, on) => {
    const box = form.querySelector(`.field-${name}`);
    if (box) box.hidden = !on;
  };
  function update() {
    const kind = value("kind") || "deal";
    const deal = kind === "deal";
    const early = form.querySelector('[name="early"]');
    show("game", deal);
    show("caller_seat", deal && value("game") === "rami");
    show("tricks_a", deal);
    show("early", deal);
    show("tricks_b", deal && early && early.checked);
    show("penalised", deal);
    show("pair", !deal);
    show("points", kind === "points");
  }
  form.addEventListener("change", update);
  update();
})();
