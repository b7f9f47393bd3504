// The referee's scoresheet (templates/tournaments/results/scoresheet_entry.html).
//
// 1. The form shows only the fields the chosen line needs; without JavaScript all are shown.
// 2. The referee's phone never loses a deal: a line is put in a queue kept in the browser
//    (localStorage, shared by every tab of this match) and sent from there, in order, one at a time;
//    while the network is away the lines wait, the page says how many, and they go as soon as it
//    returns. Each line carries an id made here (client_id): a retry, a double tap or a second tab
//    sending the same line is stored once (tournaments.services.add_entry). A line the rules refuse
//    stops the queue and comes back into the form with the reason; the next save goes first.
//    What the referee sees while lines wait (in the sticky Save bar, always in view) is the queue and
//    the rise as it will be once the queue is sent: the rise rule (RULES.md §2–3, scoring/match.py) is
//    folded here over the queued lines, from the state the stored lines leave (the form's data-*).
// 3. A reload or a second tab while the network is away shows the sheet from the device: a service
//    worker (/tulos/sw.js, static/js/referee-sw.js) scoped to this link keeps its last copy.
// 4. A finished result the pairs must accept is brought into view (after the last deal the page
//    reloads, and the result would otherwise stay above the viewport).
(function () {
  "use strict";
  const accept = document.getElementById("hyvaksynta");
  if (accept) {
    document.getElementById("tulos").scrollIntoView({ block: "start" });
    accept.focus({ preventScroll: true });
  }
  const worker = document.querySelector("[data-service-worker]");
  if (worker && navigator.serviceWorker) {
    navigator.serviceWorker
      .register(worker.dataset.serviceWorker, { scope: worker.dataset.scope })
      .catch(() => {}); // no worker (an old browser, plain http on a LAN): the page works online as before
  }

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
  // Lines sent since this page's version: a page older than them (this one, if the network went away
  // before the reload; or the device's copy) folds them in before the queue, so the rise shown is the one
  // the next entry depends on. A page at a later version has them already and ignores them.
  const sentKey = `tuppi-lahetetty-${form.dataset.match}`;
  const sentSince = () => {
    const sent = JSON.parse(localStorage.getItem(sentKey) || "{}");
    return sent.base === form.dataset.version ? sent.lines : [];
  };
  const remember = (line) =>
    localStorage.setItem(sentKey, JSON.stringify({ base: form.dataset.version, lines: [...sentSince(), line] }));
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

  const data = form.dataset;
  const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (all, name) => values[name]);
  const kindLabel = (kind) => {
    const input = form.querySelector(`[name="kind"][value="${kind}"]`);
    return input ? input.closest("label").textContent.trim() : kind;
  };

  function tricksOf(fields) {
    const a = Number(fields.tricks_a);
    return { A: a, B: fields.early ? Number(fields.tricks_b) : 13 - a };
  }

  function describe(fields) {
    if (fields.kind !== "deal") return `${kindLabel(fields.kind)} ${fields.pair || ""}`.trim();
    const t = tricksOf(fields);
    return `${fields.game === "rami" ? "R" : "N"} ${t.A}–${t.B}`;
  }

  // --- the rise once the queue is sent: RULES.md §2–3 as scoring/match.py folds it -------------------
  const other = (pair) => (pair === "A" ? "B" : "A");

  function win(s, winner, points) {
    const deciding = s.awaiting;
    let scored = points;
    if (!s.up) { s.up = winner; s.rise = points; }       // the table: the winner is up with p
    else if (s.up === winner) s.rise += points;          // up and wins: the rise grows
    else { s.up = null; s.rise = 0; scored = 0; }        // up and loses: it falls, nothing scored
    s.totals[winner] += scored;
    s.awaiting = false;
    if (s.up && s.rise >= 52) s.winner = s.up;           // tuppi ends the match at once
    else if (deciding) s.winner = winner;                // the deciding deal decides
    else if (s.played >= s.planned && !s.up) {           // N deals played, the last rise ended
      if (s.totals.A === s.totals.B) s.awaiting = true;
      else s.winner = s.totals.A > s.totals.B ? "A" : "B";
    }
  }

  function step(s, fields) {
    if (fields.kind === "points") return win(s, fields.pair, Number(fields.points) || 28);
    if (fields.kind === "tuppi") { s.winner = fields.pair; return; }
    if (fields.kind === "forfeit") { s.winner = other(fields.pair); return; }
    const t = tricksOf(fields);
    const holder = t.A >= 7 ? "A" : "B";                  // the pair with at least seven tricks
    if (t[holder] < 7) return;                            // not a deal the rules take: the server will say
    const n = t[holder] - 6;
    const caller = [1, 3].includes(Number(fields.caller_seat)) ? "A" : "B";
    s.played += 1;
    if (fields.game === "nolo") win(s, other(holder), 4 * n);
    else win(s, holder, holder === caller ? 4 * n : 8 * n); // rami made, or robbed for double
  }

  function projected(queue) {
    const s = {
      up: data.up || null, rise: Number(data.rise), totals: { A: Number(data.totalA), B: Number(data.totalB) },
      played: Number(data.played), planned: Number(data.planned), awaiting: data.awaiting === "1", winner: null,
    };
    for (const line of [...sentSince(), ...queue]) {
      if (s.winner) break;
      step(s, line.fields);
    }
    const name = (pair) => (pair === "A" ? data.pairA : data.pairB);
    if (s.winner) return fill(data.winsText, { pair: name(s.winner) });
    const parts = [s.up ? fill(data.riseText, { pair: name(s.up), rise: s.rise }) : data.tableText];
    parts.push(fill(data.totalsText, { a: s.totals.A, b: s.totals.B }));
    if (s.awaiting) parts.push(data.decidingText);
    return parts.join(" · ");
  }

  function showQueue(note) {
    const queue = load();
    const queued = document.getElementById("jonossa");
    const last = document.getElementById("viimeisin");
    if (queued) queued.hidden = !queue.length;
    if (last) last.hidden = queue.length > 0;
    if (!queue.length && !note) {
      status.hidden = true;
      return;
    }
    status.hidden = false;
    let waiting = "";
    if (queue.length) {
      const count = fill(queue.length === 1 ? data.waitingOne : data.waitingMany, { n: queue.length });
      const after = projected(queue);
      waiting = `${count}: ${queue.map((l) => describe(l.fields)).join(", ")}. ${data.then} ${after}.`;
      if (queued) queued.textContent = `${data.queuedLine} ${describe(queue[queue.length - 1].fields)} · ${after}`;
    }
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
          if (String(answer.version) !== String(version)) remember(line); // not a line stored before
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
      // Everything is stored: the sheet as the server now has it, from its top (a finished result is
      // brought into view, 4. above), not where the referee stood in the form.
      history.scrollRestoration = "manual";
      location.reload();
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
