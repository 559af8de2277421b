"use strict";
// A player's phone: claim a seat, then mark hexes, claim camps, watch the score.
(() => {
  const { api, single, live, el, svg, die, drawIsland, hexShapes, TRIBES, TRIBE, seatName } = TC;
  const gameId = document.querySelector("main").dataset.game;
  const $ = (id) => document.getElementById(id);
  const KEY = `tc:${gameId}`;
  let me = JSON.parse(localStorage.getItem(KEY) || "null"); // {seat, token, name}
  let game = null;
  const link = TC.linkLine("Connection lost: reconnecting…", "status error");
  // What the player is building: picks are die numbers (1..5) or an override tribe.
  let picks = [], hex = null, claiming = null, picked = new Set();

  const showError = (e) => { $("error").textContent = e ? e.message : ""; };
  const post = (path, body) => api(`/api/games/${gameId}/${path}`, { method: "POST", body, token: me && me.token });
  const act = single((action) => post("actions", { action }).then((g) => { reset(); showError(null); render(g); })
    .catch((e) => { if (e.code === "auth/seat") forget(); showError(e); }));

  function reset() { picks = []; hex = null; claiming = null; picked = new Set(); }
  function forget() { localStorage.removeItem(KEY); me = null; if (game) render(game); }

  $("undo").addEventListener("click", single(() => post("undo", { seat: me.seat })
    .then((g) => { reset(); showError(null); render(g); }).catch(showError)));

  function renderClaim(g) {
    $("claim").hidden = false; $("play").hidden = true;
    $("seats").replaceChildren(...g.seats.map((s) => el("button", {
      class: s.name ? "" : "primary",
      onclick: single(async () => {
        try {
          const res = await api(`/api/games/${gameId}/seats/${s.seat}`, { method: "POST", body: { name: $("name").value.trim() } });
          me = { seat: res.seat, token: res.token, name: res.name };
          localStorage.setItem(KEY, JSON.stringify(me));
          // the game as it is now, the seat taken (not waiting on the stream); not awaited:
          // the page's one request is the claim, and a tap once the seat shows must be taken
          refresh();
        } catch (e) { $("claim-error").textContent = e.code === "auth/pin" ? `${s.name} already sits there (the host can hand the seat over with the PIN).` : e.message; }
      }),
    }, s.name ? `Seat ${s.seat + 1}: ${s.name}` : `Seat ${s.seat + 1} — free`)));
  }

  const tribeOf = (p, roll) => (typeof p === "string" ? p : game.view.faces[roll[p - 1]].tribe);

  function orientations(roll) {
    // Six ways to split: three axes, and which tribe goes on which side.
    const [a, b] = picks;
    const out = [];
    for (const axis of [0, 1, 2]) for (const order of [[a, b], [b, a]]) out.push({ axis, order });
    return out.map(({ axis, order }) => {
      const cell = { split: axis, halves: order.map((p) => tribeOf(p, roll)) };
      const s = 20, c = [0, 0];
      const pic = svg("svg", { viewBox: "-22 -22 44 44" }, hexShapes(cell, c, s).map(([t, poly]) =>
        svg("polygon", { points: poly.map((p) => p.join(",")).join(" "), fill: TRIBE[t].colour, stroke: "#222" })));
      return el("button", { onclick: () => act({ type: "mark", seat: me.seat, hex, picks: order, axis }), "aria-label": `split ${axis} ${cell.halves.join(" / ")}` }, pic);
    });
  }

  function renderChoose(v, board) {
    const box = $("choose");
    box.replaceChildren();
    if (claiming) {
      box.append(el("p", {}, `Tap the ${claiming.card.size} placements of the camp for the ${claiming.which === "hand" ? "card in your hand" : "S card"} (${picked.size} chosen).`),
        el("button", { class: "primary", disabled: picked.size !== claiming.card.size, onclick: () => act({
          type: "score_camp_card", seat: me.seat, card: claiming.which, camp: [...picked].map((k) => k.split(",").map(Number)),
        }) }, "Score this camp"),
        el("button", { onclick: () => { reset(); render(game); } }, "Cancel"));
      return;
    }
    if (v.phase !== "mark" || board.marks >= 2) return;
    if (!hex) { box.append(el("p", { class: "muted" }, picks.length < 2 ? "Pick 2 dice (or a die and an override), then tap an empty hex." : "Now tap an empty hex.")); return; }
    if (picks.length < 2) { box.append(el("p", { class: "muted" }, `Hex (${hex}) chosen: pick ${2 - picks.length} more.`)); return; }
    const [ta, tb] = picks.map((p) => tribeOf(p, v.roll));
    if (ta === tb) box.append(el("button", { class: "primary", onclick: () => act({ type: "mark", seat: me.seat, hex, picks }) }, `Mark (${hex}) all ${TRIBE[ta].name}`));
    else box.append(el("p", {}, "Choose how to split the hex:"), ...orientations(v.roll));
  }

  function renderCards(v, board) {
    const body = $("card-body");
    if (!v.options.camp_cards) { $("cards").hidden = true; return; }
    const beforeRoll = v.phase === "roll" || v.phase === "done";
    const cardLine = (label, card, which, allowed) => el("div", { class: "row" },
      el("span", { class: "grow" }, card ? `${label}: ${card.size} placements, ${card.points} points` : `${label}: none`),
      card && allowed ? el("button", { onclick: () => { reset(); claiming = { which, card }; render(game); } }, "Score it") : null);
    body.replaceChildren(...[
      cardLine("In hand", board.hand, "hand", beforeRoll && !v.ended),
      cardLine("S card on the table", v.table, "table", beforeRoll && !v.ended && !v.table_scored_by.includes(me.seat)),
      el("p", { class: "muted" }, `Scored: ${board.scored_cards.map((c) => c.points).join(" + ") || "none yet"}.` +
        (beforeRoll || v.ended ? "" : " Cards are scored before the next roll.")),
      board.hand && !v.ended ? el("button", { onclick: () => confirm("Discard the card in your hand and draw from the next-lower deck?") && act({ type: "skip_camp_card", seat: me.seat }) }, "Skip my card") : null,
    ].filter(Boolean)); // (replaceChildren would show a null as the text "null")
  }

  // Confirm or correct a roll the camera was unsure of (any seated phone may).
  const confirmPicker = TC.rollPicker();
  $("confirm-dice").append(...confirmPicker.fields);
  let confirmShown = null;
  $("confirm-roll").addEventListener("click", () => {
    let action;
    try { action = confirmPicker.action("confirmed"); } catch (e) { showError(e); return; }
    act(action);
  });
  function showConfirm(g) {
    const p = g.device && g.device.pending; // only ever this game's (the API leaves out another's)
    $("confirm").hidden = !p;
    TC.showPicture($("confirm-picture"), p);
    if (!p) { confirmShown = null; return; }
    $("confirm-why").textContent = TC.sentence(g.device.message);
    const key = JSON.stringify(p.values);
    if (key !== confirmShown) {
      confirmShown = key;
      confirmPicker.set(p.values);
    }
  }

  function render(g) {
    game = g;
    // this game is over and another was made at the table since ("Play again")
    $("next").hidden = !g.next;
    if (g.next) $("next-link").href = `/play/${g.next}`;
    if (!me || me.seat >= g.players || !g.seats[me.seat].name) { renderClaim(g); return; }
    $("claim").hidden = true; $("play").hidden = false;
    const v = g.view, board = v.boards[me.seat];
    $("who").textContent = seatName(g, me.seat);
    $("round").textContent = v.ended ? "Game over" : `Round ${v.round}`;
    showConfirm(g);
    const st = $("status");
    const mine = v.phase === "mark" && board.marks < 2;
    st.textContent = v.ended ? `Game over: ${v.ended}` : v.phase === "roll" ? "Waiting for the roll" :
      mine ? `Your move: mark hex ${board.marks + 1} of 2` : v.phase === "mark" ? "Done — waiting for the others" : "Round complete";
    st.className = `status${mine ? " attention" : ""}`;
    link.show();
    const used = new Set(board.dice_used), chosen = new Set(picks.filter((p) => typeof p === "number"));
    $("dice").replaceChildren(...(v.roll ? v.roll.map((x, i) => die(x, v.faces, {
      n: i + 1, used: used.has(i + 1), selected: chosen.has(i + 1),
      onclick: mine ? () => { const n = i + 1; picks = chosen.has(n) ? picks.filter((p) => p !== n) : [...picks, n].slice(-2); render(game); } : null,
    })) : [el("p", { class: "muted" }, "No roll yet.")]));
    const canOverride = mine && v.overrides_allowed && !board.override_this_turn && board.overrides.length < v.max_overrides;
    $("overrides").replaceChildren(el("span", { class: "muted" }, `Overrides (${board.overrides.length}/${v.max_overrides}):`),
      ...TRIBES.map((t) => el("button", {
        class: `${board.overrides.includes(t) ? "used" : ""}${picks.includes(t) ? " selected" : ""}`,
        disabled: !canOverride || board.overrides.includes(t), "aria-label": `override ${TRIBE[t].name}`,
        onclick: () => { picks = picks.includes(t) ? picks.filter((p) => p !== t) : [...picks.filter((p) => typeof p === "number"), t].slice(-2); render(game); },
      }, SCORESHEET.chip(t))));
    const marks = {};
    if (mine) for (const h of v.island) if (!board.cells.some((c) => c.hex[0] === h[0] && c.hex[1] === h[1])) marks[h.join(",")] = "target";
    if (hex) marks[hex.join(",")] = "selected";
    drawIsland($("island"), v.island, board.cells, {
      claimed: board.claimed, picked, marks,
      onHex: (q, r, half) => {
        const key = `${q},${r}`;
        if (claiming) {
          if (!board.cells.some((c) => c.hex[0] === q && c.hex[1] === r)) return;
          const ref = `${q},${r},${half}`;
          picked.has(ref) ? picked.delete(ref) : picked.add(ref);
        } else if (mine && marks[key]) hex = [q, r];
        render(game);
      },
    });
    renderChoose(v, board);
    renderCards(v, board);
    $("score").replaceChildren(SCORESHEET.breakdown(v.scores[me.seat]), v.scores[me.seat].solo ? SCORESHEET.solo(v.scores[me.seat].solo) : "");
    $("undo").disabled = v.ended;
    $("final").hidden = !v.ended;
    if (v.ended) $("final-body").replaceChildren(...SCORESHEET.results(g, { brief: true }));
  }

  // A render (a tap, a claim's fetch) keeps saying the link is down until the stream is back.
  const refresh = live(gameId, render, (ok) => { link.set(ok); if (game) render(game); else link.show(); }, () => me && me.token);
})();
