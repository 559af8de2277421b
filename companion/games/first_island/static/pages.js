"use strict";
// The First Island's part of the pages (TC.game; see the shell's common.js): tribe dice, the
// roll and who still marks at the table, and on a phone the dice, the island and the cards.
(() => {
  const { el, svg, die, seatName } = TC;
  const { TRIBES, TRIBE, hexShapes, drawIsland, breakdown, solo, chip } = ISLAND;
  const $ = (id) => document.getElementById(id);
  // What the player is building: picks are die numbers (1..5) or an override tribe.
  let picks = [], hex = null, claiming = null, picked = new Set();
  const reset = () => { picks = []; hex = null; claiming = null; picked = new Set(); };

  function face(value, g) {
    const f = g && g.view && g.view.faces && g.view.faces[String(value)];
    const t = f ? TRIBE[f.tribe] : null;
    return t ? { abbr: t.abbr, name: t.name, colour: t.colour } : null;
  }

  const PHASE = {
    roll: "Waiting for the roll", mark: "Players are marking their islands",
    done: "Everyone has marked: press the button or roll for the next round", ended: "Game over",
  };

  // The roll may be rerolled: the roller chooses first (their reroll, or keeping it).
  const rerollOpen = (v) => v.phase === "mark" && v.reroll_allowed;

  function status(g, me) {
    const v = g.view, roller = seatName(g, v.roller);
    if (!v.ended && v.ending) return "A third camp card was scored: anyone may still score a card now, then the button ends the game";
    if (!v.ended && v.s_card_due && v.phase !== "mark") return "Turn up the S card and tap its points before the roll";
    if (me === null) return rerollOpen(v) ? `${roller} rolled 3 or more alike: they reroll or keep the roll` : PHASE[v.phase];
    const board = v.boards[me.seat];
    if (v.ended) return `Game over: ${v.ended}`;
    if (v.phase === "roll") return me.seat === v.roller ? "Your roll: roll the dice" : `Waiting for ${roller}'s roll`;
    if (rerollOpen(v)) return me.seat === v.roller ? "Your roll: reroll the dice alike, or keep the roll" : `Waiting for ${roller} to reroll or keep the roll`;
    if (v.phase === "mark" && board.marks < 2) return `Your move: mark hex ${board.marks + 1} of 2`;
    return v.phase === "mark" ? "Done — waiting for the others" : "Round complete";
  }

  // The table: the roll, who still marks, and the S card to turn up when one is due.
  function table(g, ctx) {
    const v = g.view;
    $("roll").replaceChildren(...(v.roll ? v.roll.map((x, i) => die(x, g, { n: i + 1, big: true })) : [el("p", { class: "muted" }, "No roll yet.")]));
    const waiting = v.phase === "mark" ? v.boards.map((b, s) => [b, s]).filter(([b]) => b.marks < 2)
      .map(([b, s]) => `${seatName(g, s)} (${b.marks} of 2)`) : [];
    $("waiting").textContent = waiting.length ? `Waiting for: ${waiting.join(", ")}` : "";
    // The S cards that may be dealt now come from the engine's legal table actions.
    const deals = v.table_actions.filter((a) => a.type === "deal_table_card");
    $("deal").hidden = deals.length === 0 || !ctx.host;
    $("deal-buttons").replaceChildren(...deals.map((a) => el("button", { onclick: () => ctx.act(a) }, `${a.points} points`)));
  }

  const tribeOf = (g, p, roll) => (typeof p === "string" ? p : g.view.faces[roll[p - 1]].tribe);

  // The six ways to split a hex between two tribes: three axes, and which tribe goes where,
  // each drawn with the tribes' colours and symbols.
  function orientations(g, ctx) {
    const [a, b] = picks, out = [];
    for (const axis of [0, 1, 2]) for (const order of [[a, b], [b, a]]) out.push({ axis, order });
    return out.map(({ axis, order }) => {
      const cell = { split: axis, halves: order.map((p) => tribeOf(g, p, g.view.roll)) };
      const pic = svg("svg", { viewBox: "-22 -22 44 44" }, hexShapes(cell, [0, 0], 20).flatMap(([t, poly, lp]) => {
        const label = svg("text", { x: lp[0].toFixed(1), y: (lp[1] + 3).toFixed(1), class: "sym" });
        label.textContent = TRIBE[t].abbr;
        return [svg("polygon", { points: poly.map((p) => p.join(",")).join(" "), fill: TRIBE[t].colour, stroke: "#222" }), label];
      }));
      return el("button", {
        onclick: () => ctx.act({ type: "mark", seat: ctx.me.seat, hex, picks: order, axis }),
        "aria-label": `split ${axis} ${cell.halves.join(" / ")}`,
      }, pic);
    });
  }

  function renderChoose(g, board, ctx) {
    const v = g.view, box = $("choose");
    box.replaceChildren();
    if (claiming) {
      // where the catalogue holds this deck's shapes, the claim names its card
      const names = (v.card_shapes || {})[claiming.card.deck] || [];
      const which = names.length ? el("select", { "aria-label": "which card", onchange: (e) => { claiming.shape = e.target.value; } },
        names.map((n) => el("option", { value: n, selected: n === claiming.shape }, n))) : null;
      if (which && !claiming.shape) claiming.shape = names[0];
      box.append(...[el("p", {}, `Tap the ${claiming.card.size} placements of the camp for the ${claiming.which === "hand" ? "card in your hand" : "S card"} (${picked.size} chosen).`),
        which ? el("label", {}, "Which card? ", which) : null,
        el("button", { class: "primary", disabled: picked.size !== claiming.card.size, onclick: () => ctx.act({
          type: "score_camp_card", seat: ctx.me.seat, card: claiming.which, camp: [...picked].map((k) => k.split(",").map(Number)),
          ...(which ? { shape: claiming.shape } : {}),
        }) }, "Score this camp"),
        el("button", { onclick: () => { reset(); ctx.redraw(); } }, "Cancel")].filter(Boolean));
      return;
    }
    if (v.phase !== "mark" || board.marks >= 2) return;
    if (!hex) { box.append(el("p", { class: "muted" }, picks.length < 2 ? "Pick 2 dice (or a die and an override), then tap an empty hex." : "Now tap an empty hex.")); return; }
    if (picks.length < 2) { box.append(el("p", { class: "muted" }, `Hex (${hex}) chosen: pick ${2 - picks.length} more.`)); return; }
    const [ta, tb] = picks.map((p) => tribeOf(g, p, v.roll));
    if (ta === tb) box.append(el("button", { class: "primary", onclick: () => ctx.act({ type: "mark", seat: ctx.me.seat, hex, picks }) }, `Mark (${hex}) all ${TRIBE[ta].name}`));
    else box.append(el("p", {}, "Choose how to split the hex:"), ...orientations(g, ctx));
  }

  function renderCards(g, board, ctx) {
    const v = g.view, me = ctx.me;
    if (!v.options.camp_cards) { $("cards").hidden = true; return; }
    const beforeRoll = v.phase === "roll" || v.phase === "done";
    const cardLine = (label, card, which, allowed) => el("div", { class: "row" },
      el("span", { class: "grow" }, card ? `${label}: ${card.size} placements, ${card.points} points` : `${label}: none`),
      card && allowed ? el("button", { onclick: () => { reset(); claiming = { which, card }; ctx.redraw(); } }, "Score it") : null);
    $("card-body").replaceChildren(...[
      cardLine("In hand", board.hand, "hand", beforeRoll && !v.ended && !board.card_this_round),
      cardLine("S card on the table", v.table, "table", beforeRoll && !v.ended && !board.card_this_round && !v.table_scored_by.includes(me.seat)),
      el("p", { class: "muted" }, `Scored: ${board.scored_cards.map((c) => c.points).join(" + ") || "none yet"}.` +
        (v.ended ? "" : board.card_this_round ? " One card a round: your next one waits for the next round." :
          beforeRoll ? "" : " Cards are scored before the next roll.")),
      board.hand && !v.ended ? el("button", { onclick: () => confirm("Discard the card in your hand and draw from the next-lower deck?") && ctx.act({ type: "skip_camp_card", seat: me.seat }) }, "Skip my card") : null,
    ].filter(Boolean)); // (replaceChildren would show a null as the text "null")
  }

  // A phone: the roll's dice to pick, the overrides, the island to mark, the camp cards.
  let keepCtx = null;
  const keep = document.getElementById("keep");
  if (keep) keep.addEventListener("click", () => keepCtx && keepCtx.act({ type: "keep_roll", seat: keepCtx.me.seat }));

  function play(g, ctx) {
    const v = g.view, board = v.boards[ctx.me.seat];
    keepCtx = ctx;
    $("keep-box").hidden = !(rerollOpen(v) && ctx.me.seat === v.roller);
    // while the roller may reroll, the others wait for their choice
    const mine = v.phase === "mark" && board.marks < 2 && !(rerollOpen(v) && ctx.me.seat !== v.roller);
    const used = new Set(board.dice_used), chosen = new Set(picks.filter((p) => typeof p === "number"));
    $("dice").replaceChildren(...(v.roll ? v.roll.map((x, i) => die(x, g, {
      n: i + 1, used: used.has(i + 1), selected: chosen.has(i + 1),
      onclick: mine ? () => { const n = i + 1; picks = chosen.has(n) ? picks.filter((p) => p !== n) : [...picks, n].slice(-2); ctx.redraw(); } : null,
    })) : [el("p", { class: "muted" }, "No roll yet.")]));
    const canOverride = mine && v.overrides_allowed && !board.override_this_turn && board.overrides.length < v.max_overrides;
    $("overrides").replaceChildren(el("span", { class: "muted" }, `Overrides (${board.overrides.length}/${v.max_overrides}):`),
      ...TRIBES.map((t) => el("button", {
        class: `${board.overrides.includes(t) ? "used" : ""}${picks.includes(t) ? " selected" : ""}`,
        disabled: !canOverride || board.overrides.includes(t), "aria-label": `override ${TRIBE[t].name}`,
        onclick: () => { picks = picks.includes(t) ? picks.filter((p) => p !== t) : [...picks.filter((p) => typeof p === "number"), t].slice(-2); ctx.redraw(); },
      }, chip(t))));
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
        ctx.redraw();
      },
    });
    renderChoose(g, board, ctx);
    renderCards(g, board, ctx);
  }

  // A phone's own score area, as the rulebook lays it out; before anything is placed, what
  // the -30 means (six tribes with no camp yet, -5 each).
  function myScore(g, me) {
    const v = g.view, score = v.scores[me.seat], board = v.boards[me.seat];
    return [
      board.cells.length ? null : el("p", { class: "muted" }, "Every tribe starts at −5 until it has a camp, so an empty island scores −30: build camps to climb."),
      breakdown(score),
      score.solo ? solo(score.solo) : null,
    ].filter(Boolean);
  }

  TC.game = { face, status, table, play, myScore, acted: reset };
})();
