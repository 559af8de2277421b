"use strict";
// The First War's part of the pages (TC.game; see the shell's common.js): the hex map with
// both sides' pieces; on a phone, the choices of the phase: moves (tap a piece's tile, its
// kind, then where), the food emergency, stacks and cover, retreats, hunger wounds, research.
(() => {
  const { el, svg, seatName } = TC;
  const $ = (id) => document.getElementById(id);
  const R = 17, W = Math.sqrt(3) * R;
  const TERRAIN = { lake: "#6fb3e0", fields: "#f1d36b", mountain: "#a1887f", plain: "#b9dc8c", forest: "#4f8f4a" };
  const KIND = { hunter: "#d43f3a", farmer: "#2a6fdb", healer: "#2e9d4e", scientist: "#8e44ad" };
  const PHASE = { emergency: "start of turn", hunters: "Hunter movement", others: "other movement", conflict: "conflict", food: "food", research: "research and development", healing: "healing", population: "population increase" };

  const centre = (v, name) => { const [q, r] = v.coords[name]; return [W * (q + r / 2), 1.5 * R * r]; };

  function status(g, me) {
    const v = g.view;
    if (v.ended) return `Game over: ${v.ended}`;
    const turn = seatName(g, v.seat), mine = me && v.actor === me.seat;
    if (v.phase === "population" && v.pending.length) return `${turn}: roll the die for the population on ${v.pending[0]}`;
    if (v.phase === "conflict" && v.battle) {
      const b = v.battle;
      if (b.retreat) return mine ? `Retreat your ${b.retreat.kind} from ${b.retreat.cell}` : `${seatName(g, b.retreat.seat)} retreats from ${b.retreat.cell}`;
      if (!b.stacks.length) return mine ? `Conflict on ${b.cell}: stack your pieces` : `Conflict on ${b.cell}: the defender stacks`;
      return mine ? `Conflict on ${b.cell}: cover the defender's stacks` : `Conflict on ${b.cell}: the attacker covers`;
    }
    if (v.phase === "food" && v.wounds_owed) return mine ? `Food shortfall: place ${v.wounds_owed} wound(s)` : `${turn} places hunger wounds`;
    return `Turn ${v.turn}, ${turn}: ${PHASE[v.phase]}${mine ? " (yours)" : ""}`;
  }

  // The map: each cell its terrain (face down: grey), each side's pieces (cubes square,
  // disks round), wounded pieces hollow.
  // ``crop`` (a phone): the revealed tiles and the ring around them, larger.
  function shown(v) {
    const near = new Set();
    const key = (q, r) => `${q},${r}`, byKey = Object.fromEntries(v.cells.map((n) => [key(...v.coords[n]), n]));
    for (const n of Object.keys(v.terrain)) {
      const [q, r] = v.coords[n];
      for (const [dq, dr] of [[0, 0], [1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]) {
        const m = byKey[key(q + dq, r + dr)];
        if (m) near.add(m);
      }
    }
    return v.cells.filter((n) => near.has(n));
  }

  function drawMap(root, v, { onCell = null, marked = [], crop = false } = {}) {
    const frame = crop ? shown(v) : v.cells;
    const xs = frame.map((n) => centre(v, n)[0]), ys = frame.map((n) => centre(v, n)[1]);
    const x0 = Math.min(...xs) - W, y0 = Math.min(...ys) - R * 1.2;
    root.setAttribute("viewBox", `${x0} ${y0} ${Math.max(...xs) - x0 + W} ${Math.max(...ys) - y0 + R * 1.2}`);
    const kids = v.cells.map((n) => {
      const [cx, cy] = centre(v, n);
      const pts = [...Array(6).keys()].map((k) => { const a = Math.PI / 180 * (60 * k - 30); return `${cx + R * Math.cos(a)},${cy + R * Math.sin(a)}`; }).join(" ");
      const g = svg("g", { "data-cell": n, class: `fw-cell${marked.includes(n) ? " fw-marked" : ""}` },
        svg("polygon", { points: pts, fill: TERRAIN[v.terrain[n]] || "#cfcfcf", stroke: v.homes.includes(n) ? "#000" : "#fff", "stroke-width": v.homes.includes(n) ? 2 : 1 }));
      const label = svg("text", { x: cx, y: cy - R * 0.55, class: "fw-name" });
      label.textContent = n;
      g.append(label);
      [0, 1].forEach((s) => (v.pieces[s][n] || []).forEach((p, i) => {
        const px = cx - R * 0.55 + (i % 2) * R * 0.5 + s * R * 0.12, py = cy - R * 0.1 + Math.floor(i / 2) * R * 0.42 + s * R * 0.05;
        const attrs = { fill: p.wounded ? "#fff" : KIND[p.kind], stroke: KIND[p.kind], "stroke-width": 1.6 };
        g.append(s === 0 ? svg("rect", { x: px - 3.2, y: py - 3.2, width: 6.4, height: 6.4, ...attrs }) : svg("circle", { cx: px + 0.5, cy: py, r: 3.4, ...attrs }));
      }));
      if (onCell) { g.classList.add("fw-tap"); g.addEventListener("click", () => onCell(n)); }
      return g;
    });
    root.replaceChildren(...kids);
  }

  function sidesLine(g) {
    const v = g.view;
    return [0, 1].map((s) => el("p", {}, el("b", {}, `${seatName(g, s)} (${s === 0 ? "cubes" : "disks"}): `),
      `population ${v.population[s]}, food ${v.food[s][0]} for ${v.food[s][1]}, research ${v.research[s]}; `,
      `active cards ${v.cards[s].active.join(" ") || "none"}${v.emergency[s] ? "; food emergency" : ""}`));
  }

  function table(g) {
    drawMap($("fw-map"), g.view);
    $("fw-sides").replaceChildren(...sidesLine(g));
  }

  // -- a phone --------------------------------------------------------------------------
  let from = null, kind = null;
  const reset = () => { from = null; kind = null; };
  const act = (ctx, a) => { ctx.act(a); reset(); };

  function terrainPick(v, onPick) {
    return el("div", { class: "row" }, el("span", {}, "It turns up as: "),
      v.terrains.map((t) => el("button", { onclick: () => onPick(t), style: `background:${TERRAIN[t]}` }, t)));
  }

  function movePanel(g, ctx, me) {
    const v = g.view, mine = v.pieces[me], hunters = v.phase === "hunters";
    const out = [el("p", { class: "muted" }, hunters ? "Move Hunters: tap a tile of yours, the piece, then where it goes." : "Move the other pieces: tap a tile of yours, the piece, then where it goes.")];
    if (from) {
      const kinds = [...new Set(mine[from].filter((p) => !p.stopped && (p.kind === "hunter") === hunters).map((p) => `${p.wounded ? "wounded " : ""}${p.kind}`))];
      out.push(el("div", { class: "row" }, el("span", {}, `From ${from}: `), kinds.map((k) => el("button", { class: kind === k ? "primary" : "", onclick: () => { kind = k; ctx.redraw(); } }, k))));
      if (kind) out.push(el("p", {}, `Tap where the ${kind} goes.`));
    }
    if (pendingTo) out.push(terrainPick(v, (t) => send(ctx, me, pendingTo, t)));
    out.push(el("button", { class: "primary", onclick: () => act(ctx, { type: "done", seat: me }) }, hunters ? "Hunters moved: other movement" : "Done moving: conflict"));
    return out;
  }

  let pendingTo = null;
  function send(ctx, me, to, reveal = "") {
    const wounded = kind.startsWith("wounded "), k = kind.replace("wounded ", "");
    pendingTo = null;
    act(ctx, { type: "move", seat: me, frm: from, to, kind: k, wounded, reveal });
  }

  function onMapTap(g, ctx, me, n) {
    const v = g.view;
    if (!kind) { from = (v.pieces[me][n] || []).length ? n : null; kind = null; ctx.redraw(); return; }
    if (!(n in v.terrain)) { pendingTo = n; ctx.redraw(); return; }
    send(ctx, me, n);
  }

  // A stack or cover picked survives the redraws the live link brings, within one round of
  // a fight (``moment``)
  let kept = { moment: null };
  function keptSelect(moment, key, attrs, options) {
    if (kept.moment !== moment) kept = { moment };
    const select = el("select", attrs, options);
    if (kept[key] !== undefined) select.value = kept[key];
    select.addEventListener("change", () => { kept[key] = select.value; });
    return select;
  }

  function battlePanel(g, ctx, me) {
    const v = g.view, b = v.battle, moment = JSON.stringify([v.turn, v.seat, b.cell, b.stacks]);
    if (b.retreat) {
      const r = b.retreat;
      return [el("p", {}, `Retreat your ${r.kind} from ${r.cell} to:`), el("div", { class: "row" }, r.options.map((to) =>
        el("button", { onclick: () => (to in v.terrain ? act(ctx, { type: "retreat", seat: me, piece: r.piece, to })
          : ctx.showError(new Error(`${to} is face down: pick its terrain below.`))) }, to))),
        el("div", {}, r.options.filter((to) => !(to in v.terrain)).map((to) => el("div", {}, `${to}: `,
          terrainPick(v, (t) => act(ctx, { type: "retreat", seat: me, piece: r.piece, to, reveal: t })))))];
    }
    if (!b.stacks.length) {
      const pieces = v.pieces[me][b.cell];
      const picks = pieces.map((p, i) => keptSelect(moment, `stack ${i}`, { "aria-label": `stack of piece ${i + 1}`, "data-piece": i },
        pieces.map((_, k) => el("option", { value: k }, `stack ${k + 1}`))));
      return [el("p", {}, `Stack your ${pieces.length} piece(s) on ${b.cell}: pieces with the same stack fight together.`),
        ...pieces.map((p, i) => el("div", { class: "row" }, `${p.wounded ? "wounded " : ""}${p.kind} `, picks[i])),
        el("button", { class: "primary", onclick: () => {
          const chosen = picks.map((s) => Number(s.value)), used = [...new Set(chosen)].sort((a, c) => a - c);
          act(ctx, { type: "stacks", seat: me, stacks: chosen.map((s) => used.indexOf(s)) });
        } }, "Stack")];
    }
    const theirs = v.pieces[1 - me][b.cell];
    const stacks = b.stacks.map((st, k) => `stack ${k + 1}: ${st.map((i) => theirs[i].kind).join(", ")}`);
    const mine = v.pieces[me][b.cell];
    const picks = b.attackers.map((i, j) => keptSelect(moment, `cover ${j}`, { "aria-label": `cover of piece ${j + 1}`, "data-piece": j },
      b.stacks.map((_, k) => el("option", { value: k, selected: k === j % b.stacks.length }, `stack ${k + 1}`))));
    return [el("p", {}, `The defender's ${stacks.join("; ")}. Put each of your pieces on a stack (as many stacks covered as you can).`),
      ...b.attackers.map((i, j) => el("div", { class: "row" }, `${mine[i].kind} `, picks[j])),
      el("button", { class: "primary", onclick: () => act(ctx, { type: "cover", seat: me, covers: picks.map((s) => Number(s.value)) }) }, "Attack")];
  }

  function researchPanel(g, ctx, me) {
    const v = g.view, c = v.cards[me], roman = ["I", "II", "III", "IV"];
    const rows = v.levels.map((n, L) => el("div", { class: "row fw-level" }, [...Array(n).keys()].map((i) => {
      const name = `${roman[L]}-${i + 1}`, up = c.revealed.includes(name), on = c.active.includes(name);
      if (on) return el("span", { class: "fw-card on" }, `${name} ✓`);
      if (up) return el("button", { class: "fw-card", onclick: () => {
        const cost = Number(window.prompt(`${name}: its printed activation cost?`, String(L + 1)));
        if (!Number.isInteger(cost)) return;
        // what the card changes, as its text says: "move:hunter 1", "attack:farmer 1", or nothing
        const said = (window.prompt(`${name}: does it add movement or strength? e.g. "move:hunter 1" or "defend:farmer 1"; leave empty if not`, "") || "").trim();
        const [bonus, amount] = said ? said.split(/\s+/) : ["", "0"];
        act(ctx, { type: "activate", seat: me, level: L + 1, index: i, cost, bonus: bonus || "", amount: Number(amount) || 0 });
      } }, `Activate ${name}`);
      return el("button", { class: "fw-card down", onclick: () => act(ctx, { type: "reveal", seat: me, level: L + 1, index: i }) }, `Reveal ${name} (${L + 1})`);
    })));
    return [el("p", {}, `${v.points} research point(s) to spend this turn (unspent points are lost).`), ...rows,
      el("button", { class: "primary", onclick: () => act(ctx, { type: "done", seat: me }) }, "Done: healing and growth")];
  }

  function woundPanel(g, ctx, me) {
    const v = g.view;
    return [el("p", {}, `Food shortfall: put ${v.wounds_owed} wound(s) on your pieces (a wounded piece takes another only when all are wounded).`),
      ...Object.entries(v.pieces[me]).map(([n, ps]) => el("div", { class: "row" }, `${n}: `, ps.map((p, i) =>
        el("button", { onclick: () => act(ctx, { type: "wound", seat: me, cell: n, piece: i }) }, `${p.wounded ? "wounded " : ""}${p.kind}`))))];
  }

  function play(g, ctx) {
    const v = g.view, me = ctx.me.seat, mine = v.actor === me && !v.ended;
    const moving = mine && (v.phase === "hunters" || v.phase === "others");
    if (!moving) { reset(); pendingTo = null; }
    drawMap($("fw-map"), v, { crop: true, ...(moving ? { onCell: (n) => onMapTap(g, ctx, me, n), marked: from ? [from] : [] } : {}) });
    let panel = [];
    if (mine && v.phase === "emergency") panel = [el("p", {}, "A food emergency: until your next turn every healthy piece on Fields feeds 3, Hunters attack as Farmers."),
      el("div", { class: "row" }, el("button", { onclick: () => act(ctx, { type: "emergency", seat: me }) }, "Declare a food emergency"),
        el("button", { class: "primary", onclick: () => act(ctx, { type: "done", seat: me }) }, "No emergency: move Hunters"))];
    else if (moving) panel = movePanel(g, ctx, me);
    else if (mine && v.phase === "conflict" && v.battle) panel = battlePanel(g, ctx, me);
    else if (mine && v.phase === "food") panel = woundPanel(g, ctx, me);
    else if (mine && v.phase === "research") panel = researchPanel(g, ctx, me);
    $("fw-panel").replaceChildren(...panel);
    $("fw-panel").hidden = !panel.length;
    $("fw-sides").replaceChildren(...sidesLine(g));
  }

  // A phone's standing: the side's figures (a war is won, not scored).
  function myScore(g, me) {
    const v = g.view, s = me.seat;
    return [el("p", {}, `Population ${v.population[s]}; food ${v.food[s][0]} for ${v.food[s][1]}; research ${v.research[s]}; `,
      `${v.cards[s].active.length} development card(s) active`, v.winner === s ? el("b", {}, " — you won") : "")];
  }

  TC.game = { status, table, play, myScore };
})();
