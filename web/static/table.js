"use strict";
// The table page (a tablet or TV at the table): the device, the round button, the roll
// entry, the ranking, the join code; the game's own part is drawn by TC.game.table.
(() => {
  const { api, single, live, el, seatName } = TC;
  const main = document.querySelector("main");
  const gameId = main.dataset.game;
  const $ = (id) => document.getElementById(id);
  // The table screen is the host when this browser holds the host PIN: the round button,
  // undo, rolls by hand, the S card, the end and Play again are the host's.
  let pin = TC.hostPin();
  let game = null;
  const link = TC.linkLine("Connection to the device lost: reconnecting…", "status grow error");
  const showError = (e) => {
    $("error").textContent = e ? e.message : "";
    if (e && e.code === "auth/pin") { TC.forgetHost(); pin = null; if (game) render(game); }
  };
  const post = (path, body) => api(`/api/games/${gameId}/${path}`, { method: "POST", body: { ...body, pin } })
    .then((g) => { showError(null); render(g); });
  const act = single((action, extra = {}) => post("actions", { action, ...extra }).catch(showError));
  $("become-host").addEventListener("submit", single(async (ev) => {
    ev.preventDefault();
    try {
      pin = await TC.becomeHost($("host-pin-input").value.trim());
      $("host-error").textContent = "";
      if (game) render(game);
    } catch (e) { $("host-error").textContent = e.message; }
  }));

  $("export-json").href = `/api/games/${gameId}/export.json`;
  $("export-csv").href = `/api/games/${gameId}/export.csv`;
  // the round button, as the hardware button: what the game says it means now
  $("advance").addEventListener("click", single(() => post("press", { expected_seq: game.seq }).catch(showError)));
  // Undo, as the button held: the last action in force, as this page shows it (a misread
  // roll, a mark made by mistake); if the game moved on meanwhile, nothing is undone.
  const undo = single(() => post("undo", { expected_seq: game.seq })
    .catch((e) => showError(e.code === "action/stale" ? new Error("The game changed just now: look again, then undo if you still want to.") : e)));
  $("undo").addEventListener("click", () => {
    if (game && game.last_action && confirm(`Undo this? ${undoing(game)}`)) undo();
  });
  // Play again: the same game for as many players with the same options, at this table, its
  // seats kept: each phone follows to the new game in its own seat.
  $("again").addEventListener("click", single(async () => {
    try {
      const g = await api("/api/games", { method: "POST", body: { game: game.game, players: game.players, options: game.options, again: gameId, pin } });
      location.href = `/table/${g.game_id}`;
    } catch (e) { $("again-error").textContent = e.message; }
  }));
  $("finish").addEventListener("click", () => {
    if (confirm("End the game now and score it as it stands?")) single(() => post("finish", {}).catch(showError))();
  });

  // Roll entry by hand, also used to confirm or correct a roll the camera was unsure of.
  const picker = TC.rollPicker($("entry-dice"));
  let shownPending = null;
  $("enter-roll").addEventListener("click", () => {
    const source = game && game.device.pending ? "confirmed" : "manual";
    let action;
    try { action = picker.action(source); } catch (e) { showError(e); return; }
    act(action);
  });

  const DEVICE = {
    "no camera": ["No camera: enter rolls by hand.", ""],
    "waiting for a roll": ["Camera: waiting for a roll.", ""],
    reading: ["Camera: reading the dice…", ""],
    "needs confirmation": ["Camera: please confirm the roll.", " attention"],
    "camera lost": ["Camera lost.", " error"],
    "dice not read": ["The camera cannot read dice:", " error"],
    "storage problem": ["Storage problem:", " error"],
  };

  function showDevice(g) {
    const d = g.device;
    const [text, cls] = DEVICE[d.state] || [d.state, ""];
    // After a whole sentence the message is one of its own; after a colon it goes on.
    let message = text.endsWith(".") ? TC.sentence(d.message) : d.message || "";
    if (message && text.toLowerCase().includes(message.toLowerCase())) message = ""; // said already
    $("device").textContent = text + (message ? ` ${message}` : "");
    $("device").className = `device${cls}`;
    // a finished game waits for no roll: the camera's rolls go to the game in play
    $("device").hidden = Boolean(g.outcome);
    const pending = d.pending; // only ever this game's (the API leaves out another's)
    $("entry-help").hidden = !pending;
    $("camera-link").hidden = d.state === "no camera"; // nothing to see without one
    TC.showPicture($("entry-picture"), pending, { pin });
    if (pending) {
      $("entry-title").textContent = "Confirm or correct the camera's roll";
      $("entry-help").textContent = "Check each die against the table, tap the right face of any that is wrong or not chosen, then confirm.";
      $("enter-roll").textContent = "Confirm roll";
      const key = JSON.stringify(pending.values);
      if (key !== shownPending) {  // fill in what the camera read, once
        shownPending = key;
        picker.set(pending.values);
      }
    } else {
      shownPending = null;
      $("enter-roll").textContent = "Enter roll";
    }
    return pending;
  }

  // What the table's undo takes back, in words: "Ann: Marked hex (0, 1) with die 1 and die 2."
  function undoing(g) {
    const { seat, description } = g.last_action;
    return seat === null || seat === undefined ? description : `${seatName(g, seat)}: ${description}`;
  }

  function status(g) {
    const own = TC.game && TC.game.status ? TC.game.status(g, null) : null;
    if (own) return own;
    if (g.outcome) return "Game over";
    const on = TC.waitingOn(g);
    return on ? `Waiting for ${on}` : "";
  }

  function render(g) {
    game = g;
    $("title").textContent = g.title;
    $("round").textContent = g.round === null ? "" : g.outcome ? `Finished after round ${g.round}` : `Round ${g.round}`;
    const st = $("status");
    st.textContent = status(g);
    st.className = `status grow${g.outcome ? "" : g.button ? " attention" : ""}`;
    link.show();
    if (TC.game && TC.game.table) TC.game.table(g, { act, showError, host: Boolean(pin) });
    // what only the host may do is shown to the host; any other screen may become it
    const host = Boolean(pin);
    $("become-host").hidden = host;
    $("host-pin").hidden = !host;
    $("pin-shown").textContent = pin || "";
    $("advance").hidden = !g.button || !host;
    if (g.button) $("advance").textContent = g.button.label;
    $("undo").hidden = !g.last_action || !host;
    if (g.last_action) $("undo").title = `Undo: ${undoing(g)}`;
    $("entry").hidden = !g.dice || !host;
    if (g.dice) $("entry-title").textContent = g.dice.showing.length ? `Enter the ${g.dice.purpose}` : "Enter the roll by hand";
    picker.show(g);
    if (showDevice(g) && host) $("entry").hidden = false;
    $("ranking").replaceChildren(...SCORESHEET.ranking(g));
    // phones asking for a taken seat (their player's, on a phone that changed): the host's
    // one tap gives it, and the old phone's hold on it ends
    $("seat-requests").hidden = !(host && g.seat_requests.length);
    $("seat-requests").replaceChildren(...g.seat_requests.map((q) => el("p", { class: "row" },
      el("span", { class: "grow" }, `A phone asks for seat ${q.seat + 1} (${seatName(g, q.seat)}), as "${q.name}".`),
      el("button", { class: "primary", onclick: single(() => api(`/api/games/${gameId}/seats/${q.seat}/give`, { method: "POST", body: { pin } }).catch(showError)) }, "Give it"),
      el("button", { onclick: single(() => api(`/api/games/${gameId}/seats/${q.seat}/refuse`, { method: "POST", body: { pin } }).catch(showError)) }, "Refuse"))));
    $("finish").hidden = !g.finishable || !host;
    $("again").hidden = !host;
    $("results").hidden = !g.outcome;
    if (g.outcome) $("result-body").replaceChildren(...SCORESHEET.results(g));
    // each seat's board, as a file `companion score` reads
    $("board-files").hidden = !(g.outcome && g.board_files);
    if (g.outcome && g.board_files) {
      $("board-files").replaceChildren("Board files: ", ...g.seats.map((s) =>
        el("a", { href: `/api/games/${gameId}/board-${s.seat}.json` }, seatName(g, s.seat))));
    }
  }

  // A render (a press, a fetch's answer) keeps saying the link is down until the stream is back.
  live(gameId, render, (ok) => { link.set(ok); if (game) render(game); else link.show(); });
})();
