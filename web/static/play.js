"use strict";
// A player's phone: claim a seat, then play it (the game's own part: TC.game.play), confirm
// a roll the camera was unsure of, undo, and watch the score.
(() => {
  const { api, single, live, el, seatName } = TC;
  const gameId = document.querySelector("main").dataset.game;
  const $ = (id) => document.getElementById(id);
  const KEY = `tc:${gameId}`;
  let me = JSON.parse(localStorage.getItem(KEY) || "null"); // {seat, token, name}
  let game = null;
  const link = TC.linkLine("Connection lost: reconnecting…", "status error");

  const showError = (e) => { $("error").textContent = e ? e.message : ""; };
  const acted = () => { if (TC.game && TC.game.acted) TC.game.acted(); };
  const post = (path, body) => api(`/api/games/${gameId}/${path}`, { method: "POST", body, token: me && me.token });
  const act = single((action) => post("actions", { action }).then((g) => { acted(); showError(null); render(g); })
    .catch((e) => refused(e)));

  // This phone no longer holds its seat (the host gave it to another phone): say what to do.
  function forget() {
    localStorage.removeItem(KEY); me = null;
    $("claim-error").textContent = "This phone no longer holds its seat: tap your seat to ask the host for it.";
    if (game) render(game);
  }

  const refused = (e) => { if (e.code === "auth/seat") forget(); showError(e); };
  $("undo").addEventListener("click", single(() => post("undo", { seat: me.seat })
    .then((g) => { acted(); showError(null); render(g); }).catch(refused)));

  // A request for a taken seat, waiting for the host: {seat, request}, kept across reloads.
  const ASK = `tc:${gameId}:asked`;
  let asked = JSON.parse(localStorage.getItem(ASK) || "null");

  // Ask the host for the seat: a player whose phone changed gets theirs back in one tap of
  // the host's; nobody takes a seat silently.
  const askFor = single(async (s) => {
    try {
      const res = await api(`/api/games/${gameId}/seats/${s.seat}/ask`, { method: "POST", body: { name: $("name").value.trim() } });
      asked = { seat: s.seat, request: res.request };
      localStorage.setItem(ASK, JSON.stringify(asked));
      $("claim-error").textContent = "";
      render(game);
    } catch (e) { $("claim-error").textContent = e.message; }
  });

  // The host's answer to this phone's request, asked after each change the stream tells of.
  async function answer() {
    if (!asked) return;
    let res;
    try { res = await api(`/api/games/${gameId}/seat-requests/${asked.request}`); } catch (e) {
      localStorage.removeItem(ASK); asked = null;
      $("claim-error").textContent = e.message;
      return;
    }
    if (res.answer === "waiting") return;
    localStorage.removeItem(ASK); asked = null;
    if (res.answer === "given") {
      me = { seat: res.seat, token: res.token, name: res.name };
      localStorage.setItem(KEY, JSON.stringify(me));
      refresh();
    } else {
      $("claim-error").textContent = "The host did not give you that seat.";
      if (game) render(game);
    }
  }

  function renderClaim(g) {
    $("claim").hidden = false; $("play").hidden = true;
    answer();
    if (asked) {
      const name = seatName(g, asked.seat);
      $("seats").replaceChildren(el("p", { class: "status attention" },
        `Asked for seat ${asked.seat + 1} (${name}): waiting for the host to give it to this phone on the table screen.`));
      return;
    }
    $("seats").replaceChildren(...g.seats.map((s) => el("button", {
      class: s.name ? "" : "primary",
      onclick: s.name ? () => askFor(s) : single(async () => {
        try {
          const res = await api(`/api/games/${gameId}/seats/${s.seat}`, { method: "POST", body: { name: $("name").value.trim() } });
          me = { seat: res.seat, token: res.token, name: res.name };
          localStorage.setItem(KEY, JSON.stringify(me));
          // the game as it is now, the seat taken (not waiting on the stream); not awaited:
          // the page's one request is the claim, and a tap once the seat shows must be taken
          refresh();
        } catch (e) { $("claim-error").textContent = e.message; }
      }),
    }, s.name ? `Seat ${s.seat + 1}: ${s.name} — ask for it` : `Seat ${s.seat + 1} — free`)));
  }

  // Confirm or correct a roll the camera was unsure of (any seated phone may).
  const confirmPicker = TC.rollPicker($("confirm-dice"));
  let confirmShown = null;
  $("confirm-roll").addEventListener("click", () => {
    let action;
    try { action = confirmPicker.action("confirmed"); } catch (e) { showError(e); return; }
    act(action);
  });
  function showConfirm(g) {
    const p = g.device && g.device.pending; // only ever this game's (the API leaves out another's)
    $("confirm").hidden = !p || !g.dice;
    TC.showPicture($("confirm-picture"), p, { token: me && me.token });
    confirmPicker.show(g);
    if (!p) { confirmShown = null; return; }
    $("confirm-why").textContent = TC.sentence(g.device.message);
    const key = JSON.stringify(p.values);
    if (key !== confirmShown) {
      confirmShown = key;
      confirmPicker.set(p.values);
    }
  }

  function status(g) {
    const own = TC.game && TC.game.status ? TC.game.status(g, me) : null;
    if (own) return [own, own.startsWith("Your")];
    if (g.outcome) return [`Game over: ${g.outcome.reason}`, false];
    if (g.to_act.seats.includes(me.seat)) return ["Your turn", true];
    const on = TC.waitingOn(g);
    return [on ? `Waiting for ${on}` : "", false];
  }

  function render(g) {
    game = g;
    // this game is over and another was made at the table since ("Play again"): the seat,
    // kept there, goes with the link
    $("next").hidden = !g.next;
    if (g.next) {
      $("next-link").href = `/play/${g.next}`;
      $("next-link").onclick = () => { if (me) localStorage.setItem(`tc:${g.next}`, JSON.stringify(me)); };
    }
    if (!me || me.seat >= g.players || !g.seats[me.seat].name) { renderClaim(g); return; }
    $("claim").hidden = true; $("play").hidden = false;
    $("who").textContent = seatName(g, me.seat);
    $("round").textContent = g.outcome ? "Game over" : g.round === null ? "" : `Round ${g.round}`;
    showConfirm(g);
    const [said, mine] = status(g);
    $("status").textContent = said;
    $("status").className = `status${mine ? " attention" : ""}`;
    link.show();
    if (TC.game && TC.game.play) TC.game.play(g, { me, act, showError, redraw: () => render(game) });
    const own = TC.game && TC.game.myScore ? TC.game.myScore(g, me) : null;
    const row = g.scores.find((r) => r.seat === me.seat);
    $("score").replaceChildren(...(own || [SCORESHEET.lines(row)]));
    $("undo").disabled = Boolean(g.outcome);
    $("final").hidden = !g.outcome;
    if (g.outcome) $("final-body").replaceChildren(...SCORESHEET.results(g, { brief: true }));
  }

  // A render (a tap, a claim's fetch) keeps saying the link is down until the stream is back.
  const refresh = live(gameId, render, (ok) => { link.set(ok); if (game) render(game); else link.show(); }, () => me && me.token);
})();
