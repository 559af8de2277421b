"use strict";
(() => {
  const { api, single, live, el, die, TRIBES, TRIBE, seatName } = TC;
  const main = document.querySelector("main");
  const gameId = main.dataset.game, pin = main.dataset.pin;
  const $ = (id) => document.getElementById(id);
  let game = null;
  const link = TC.linkLine("Connection to the device lost: reconnecting…", "status grow error");
  const showError = (e) => { $("error").textContent = e ? e.message : ""; };
  const act = single((action, extra = {}) =>
    api(`/api/games/${gameId}/actions`, { method: "POST", body: { action, ...extra } })
      .then((g) => { showError(null); render(g); }).catch(showError));

  $("export-json").href = `/api/games/${gameId}/export.json`;
  $("export-csv").href = `/api/games/${gameId}/export.csv`;
  // the round button, as the hardware button: what the game says it means now
  $("advance").addEventListener("click", single(() => api(`/api/games/${gameId}/press`, { method: "POST", body: { expected_seq: game.seq } })
    .then((g) => { showError(null); render(g); }).catch(showError)));
  // Undo, as the button held: the last action in force, as this page shows it (a misread
  // roll, a mark made by mistake); if the game moved on meanwhile, nothing is undone.
  const undo = single(() => api(`/api/games/${gameId}/undo`, { method: "POST", body: { pin, expected_seq: game.seq } })
    .then((g) => { showError(null); render(g); })
    .catch((e) => showError(e.code === "action/stale" ? new Error("The game changed just now: look again, then undo if you still want to.") : e)));
  $("undo").addEventListener("click", () => {
    if (game && game.last_action && confirm(`Undo this? ${undoing(game)}`)) undo();
  });
  // Play again: the same game for as many players with the same options, at this table;
  // its phones join it by its own code (the QR code on its page).
  $("again").addEventListener("click", single(async () => {
    try {
      const g = await api("/api/games", { method: "POST", body: { game: game.game, players: game.players, options: game.options } });
      location.href = `/table/${g.game_id}`;
    } catch (e) { $("again-error").textContent = e.message; }
  }));
  $("finish").addEventListener("click", () => {
    if (confirm("End the game now and score it as it stands?")) {
      single(() => api(`/api/games/${gameId}/finish`, { method: "POST", body: { pin } })
        .then((g) => { showError(null); render(g); }).catch(showError))();
    }
  });

  // Manual roll entry: one selector per die.
  // Manual roll entry, also used to confirm or correct a roll the camera was unsure of.
  const picker = TC.rollPicker();
  $("entry-dice").append(...picker.fields);
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
    $("device").hidden = Boolean(g.view && g.view.ended);
    const pending = d.pending; // only ever this game's (the API leaves out another's)
    $("entry-help").hidden = !pending;
    $("camera-link").hidden = d.state === "no camera"; // nothing to see without one
    TC.showPicture($("entry-picture"), pending);
    if (pending) {
      $("entry-title").textContent = "Confirm or correct the camera's roll";
      $("entry-help").textContent = "Check each die against the table, change any that is wrong or shown as ?, then confirm.";
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

  const PHASE = {
    roll: "Waiting for the roll", mark: "Players are marking their islands",
    done: "Everyone has marked: press the button or roll for the next round", ended: "Game over",
  };

  function render(g) {
    game = g;
    const v = g.view;
    $("title").textContent = g.title;
    $("round").textContent = v.ended ? `Finished after round ${v.round}` : `Round ${v.round}`;
    const status = $("status");
    status.textContent = PHASE[v.phase];
    status.className = `status grow${v.phase === "ended" ? "" : v.phase === "done" ? " attention" : ""}`;
    link.show();
    $("roll").replaceChildren(...(v.roll ? v.roll.map((x, i) => die(x, v.faces, { n: i + 1, big: true })) : [el("p", { class: "muted" }, "No roll yet.")]));
    const waiting = v.phase === "mark" ? v.boards.map((b, s) => [b, s]).filter(([b]) => b.marks < 2)
      .map(([b, s]) => `${seatName(g, s)} (${b.marks} of 2)`) : [];
    $("waiting").textContent = waiting.length ? `Waiting for: ${waiting.join(", ")}` : "";
    $("advance").disabled = !g.button;
    if (g.button) $("advance").textContent = g.button.label;
    $("advance").hidden = Boolean(v.ended);
    $("undo").hidden = !g.last_action;
    if (g.last_action) $("undo").title = `Undo ${undoing(g)}`;
    $("entry").hidden = !g.dice;
    $("entry-title").textContent = g.dice && g.dice.showing.length ? `Enter the ${g.dice.purpose}` : "Enter the roll by hand";
    if (showDevice(g)) $("entry").hidden = false;
    // The S cards that may be dealt now come from the engine's legal table actions.
    const deals = v.table_actions.filter((a) => a.type === "deal_table_card");
    $("deal").hidden = deals.length === 0;
    $("deal-buttons").replaceChildren(...deals.map((a) => el("button", { onclick: () => act(a) }, `${a.points} points`)));
    $("ranking").replaceChildren(...SCORESHEET.ranking(g));
    $("finish").hidden = !g.finishable;
    $("results").hidden = !v.ended;
    if (v.ended) $("result-body").replaceChildren(...SCORESHEET.results(g));
  }

  // A render (a press, a fetch's answer) keeps saying the link is down until the stream is back.
  live(gameId, render, (ok) => { link.set(ok); if (game) render(game); else link.show(); });
})();
