// The referee's scoresheet (templates/tournaments/results/scoresheet_entry.html).
//
// 1. The form shows only the fields the chosen line needs; without JavaScript all are shown.
// 2. The referee's phone never loses a deal: a line is put in a queue kept in the browser
//    (localStorage, shared by every tab of this match) and sent from there, in order, one at a time;
//    while the network is away the lines wait, the page says how many, and they go as soon as it
//    returns. Each line carries an id made here (client_id): a retry, a double tap or a second tab
//    sending the same line is stored once (tournaments.services.add_entry). A line the rules refuse
//    stops the queue and comes back into the form with the reason; the next save goes first.
(function () {
  "use strict";
  const form = document.querySelector(".entry-form");
  if (!form) return;

  // --- 1. fields that follow the entry kind ---------------------------------------------------
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
  const firstError = form.querySelector(".has-error input, .has-error select");
  if (firstError) {
    firstError.focus();
    firstError.scrollIntoView({ block: "center" });
  }

  // --- 2. the queue ---------------------------------------------------------------------------
  const url = form.dataset.queue;
  if (!url || !window.localStorage || !window.fetch) return; // a correction, or an old browser: plain posts
  const key = `tuppi-jono-${form.dataset.match}`;
  const status = document.getElementById("jono");
  const csrf = form.querySelector('[name="csrfmiddlewaretoken"]').value;
  let version = form.dataset.version;
  let sending = false;
  let first = false; // the next saved line goes before the ones waiting (it replaces a refused one)

  const load = () => JSON.parse(localStorage.getItem(key) || "[]");
  const store = (queue) => localStorage.setItem(key, JSON.stringify(queue));
  const newId = () =>
    window.crypto && crypto.randomUUID
      ? crypto.randomUUID()
      : Date.now().toString(36) + Math.random().toString(36).slice(2, 12);

  function describe(fields) {
    if (fields.kind !== "deal") return `${fields.kind} ${fields.pair || ""}`.trim();
    const b = fields.early ? fields.tricks_b : 13 - Number(fields.tricks_a);
    return `${fields.game === "rami" ? "R" : "N"} ${fields.tricks_a}–${b}`;
  }

  function showQueue(note) {
    const queue = load();
    if (!queue.length && !note) {
      status.hidden = true;
      return;
    }
    status.hidden = false;
    const waiting = queue.length
      ? `${form.dataset.waiting.replace("%(n)s", queue.length)}: ${queue.map((l) => describe(l.fields)).join(", ")}`
      : "";
    status.textContent = [note, waiting].filter(Boolean).join(" ");
  }

  function fieldsOf() {
    const fields = {};
    for (const [name, v] of new FormData(form).entries()) {
      if (name !== "csrfmiddlewaretoken" && name !== "version") fields[name] = v;
    }
    return fields;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const fields = fieldsOf();
    const queue = load();
    if (!queue.some((line) => line.id === fields.client_id)) {  // a double tap queues the line once
      const line = { id: fields.client_id, fields };
      if (first) queue.unshift(line);
      else queue.push(line);
      first = false;
      store(queue);
    }
    form.reset();
    form.querySelector('[name="client_id"]').value = newId();
    update();
    showQueue();
    send();
  });

  async function send() {
    if (sending) return;
    sending = true;
    try {
      for (let queue = load(); queue.length; queue = load()) {
        const line = queue[0];
        const body = new FormData();
        for (const [name, v] of Object.entries(line.fields)) body.append(name, v);
        body.append("version", version);
        body.append("csrfmiddlewaretoken", csrf);
        let response;
        try {
          response = await fetch(url, {
            method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" },
          });
        } catch (error) {
          showQueue(form.dataset.offline);
          return; // offline: the lines wait; the "online" event or the next minute sends them
        }
        const answer = await response.json().catch(() => ({ ok: false, errors: {} }));
        if (answer.ok) {
          store(load().filter((l) => l.id !== line.id));
          version = answer.version;
          continue;
        }
        if (answer.code === "stale") {
          location.reload(); // someone else saved meanwhile: the queue goes on from the sheet as it is now
          return;
        }
        // Refused: the line comes back into the form with its reason; what follows waits for it.
        store(load().filter((l) => l.id !== line.id));
        refill(line.fields, answer);
        return;
      }
      location.reload(); // everything is stored: the sheet as the server now has it
    } finally {
      sending = false;
    }
  }

  function refill(fields, answer) {
    form.reset();
    for (const [name, v] of Object.entries(fields)) {
      for (const input of form.querySelectorAll(`[name="${name}"]`)) {
        if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === v || v === "on";
        else input.value = v;
      }
    }
    form.querySelector('[name="client_id"]').value = newId();
    update();
    const messages = Object.values(answer.errors || {}).flat();
    showQueue(`${form.dataset.refused} ${messages.join(" ")}`.trim());
    first = true;
    status.scrollIntoView({ block: "center" });
  }

  window.addEventListener("online", send);
  setInterval(() => { if (load().length) send(); }, 15000);
  showQueue();
  if (load().length) send();
})();
