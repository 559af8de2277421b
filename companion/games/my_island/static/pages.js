"use strict";
// My Island's part of the pages (TC.game; see the shell's common.js): the island and the
// production-point ledger at the table; on a phone, the tile to play, what it would score
// before it is confirmed, and the turn's other choices.
(() => {
  const { el, seatName } = TC;
  const { SEAT_COLOURS, COMMUNITY, parse, codeOf, turned, edgeHasLand, drawBoard, drawTile } = MYISLAND;
  const $ = (id) => document.getElementById(id);
  const FACE_LOOK = {
    mining: { abbr: "Mi", name: "Mining", colour: "#7f8c8d" },
    fishing: { abbr: "Fi", name: "Fishing", colour: "#1f6fb2" },
    logging: { abbr: "Lo", name: "Logging", colour: "#1e6b36" },
    farming: { abbr: "Fa", name: "Farming", colour: "#c59400" },
    "my-island": { abbr: "MI", name: "My-Island", colour: "#6c3483" },
  };
  const EDGE_CYCLE = [null, "road", "mining", "fishing", "logging", "farming", "city"];
  const EDGES = ["north", "east", "south", "west"];

  function face(value, g) {
    const faces = g && g.view && g.view.options && g.view.options.faces;
    return faces ? FACE_LOOK[faces[value - 1]] || null : null;
  }

  const pp = (n) => `${n >= 0 ? "+" : "−"}${Math.abs(n)} PP`;
  const named = (g, s) => seatName(g, s);

  function status(g, me) {
    const v = g.view, who = v.actor === null ? null : named(g, v.actor), mine = me && v.actor === me.seat;
    if (v.ended) return `Game over: ${v.ended}`;
    if (v.phase === "select") return mine ? "Take a tile from the holder, then tap “I took a tile”" : `Tile selection: ${who} takes a tile`;
    if (v.phase === "setup") return mine ? "Set-up: play a tile (no points, no marker)" : `Set-up: ${who} plays a tile`;
    if (v.phase === "draw") return mine ? "Draw phase: refill your hand to 3 tiles" : `Draw phase: ${who} refills their hand`;
    const turn = named(g, v.seat);
    if (v.step === "defend") return mine ? `Play a defensive tile from the holder before ${turn}'s turn` : `${who} plays a defensive tile before ${turn}'s turn`;
    if (v.step === "white") return `${turn}: throw the white commerce dice`;
    if (v.step === "black") return `${who}: throw the black commerce die`;
    if (v.step === "attack") return mine ? "My-Island on the black die: choose a Capitol to attack" : `${who} chooses a Capitol to attack`;
    if (v.step === "after") return mine ? "Build your Capitol, or end your turn" : `${turn} may build a Capitol or end the turn`;
    return mine ? "Your turn: play a tile" : `${turn}'s turn`;
  }

  function ledgerList(g, entries, seat = null) {
    const shown = entries.filter((e) => seat === null || e.seat === seat).slice(-8).reverse();
    if (!shown.length) return [el("li", { class: "muted" }, "No production points yet.")];
    return shown.map((e) => el("li", {}, el("b", {}, pp(e.points)), " ", seat === null ? `${named(g, e.seat)}: ` : "", e.reason));
  }

  function proposalBox(g, p) {
    const lines = p.entries.length ? p.entries.map((e) => el("li", {}, el("b", {}, pp(e.points)), " ", e.reason))
      : [el("li", { class: "muted" }, p.how === "play" || p.how === "water" ? "no connections: 0 PP" : "a set-up or defensive tile scores nothing")];
    const dice = [];
    if (p.white) dice.push(`then ${p.white} white ${p.white === 1 ? "die" : "dice"}`);
    if (p.black.length) dice.push(`the black die for ${p.black.map((s) => named(g, s)).join(", ")}`);
    return [
      el("p", {}, `${named(g, p.seat)} puts `, el("b", { class: "code" }, p.tile.code === "WATER" ? "a Water tile" : p.tile.code), ` on ${p.square}: `, el("b", {}, pp(p.points))),
      el("ul", { class: "mi-entries" }, lines),
      dice.length ? el("p", { class: "muted" }, `Commerce: ${dice.join("; ")}.`) : null,
    ];
  }

  // -- the table ------------------------------------------------------------------------
  let misplayAt = null;
  function table(g, ctx) {
    const v = g.view;
    drawBoard($("mi-board"), v, ctx.host ? { onSquare: (n) => { misplayAt = n; table(g, ctx); }, selected: misplayAt, any: true } : {});
    $("mi-hands").replaceChildren(...g.seats.map((s) => el("span", { class: "mi-hand" },
      el("span", { class: "mi-swatch", style: `background:${SEAT_COLOURS[s.seat % 6]}` }), `${named(g, s.seat)}: ${v.hands[s.seat]} in hand`,
      v.playing_out.includes(s.seat) ? " (playing out)" : "", v.capitols[String(s.seat)] ? ` ★ ${v.capitols[String(s.seat)]}` : "")));
    $("mi-proposal").hidden = !v.proposal;
    if (v.proposal) $("mi-proposal").replaceChildren(...proposalBox(g, v.proposal).filter(Boolean));
    $("mi-roll").textContent = v.roll.length ? `Last commerce dice: ${v.roll.map((f) => FACE_LOOK[f].name).join(", ")}` : "";
    $("mi-reshuffle").hidden = !v.reshuffle;
    $("mi-ledger").replaceChildren(...ledgerList(g, v.ledger));
    $("mi-empty").textContent = `${v.empty} empty squares; playing out from ${v.play_out_at}.`;
    const host = $("mi-host");
    host.hidden = !ctx.host || Boolean(v.ended);
    const placed = misplayAt && v.island[misplayAt];
    $("mi-misplay").disabled = !placed;
    $("mi-misplay").textContent = placed ? `Remove ${misplayAt} as misplayed (${named(g, placed.by)} pays 40 PP)` : "Tap a tile on the island to remove it as misplayed";
    $("mi-misplay").onclick = () => { ctx.act({ type: "misplay", square: misplayAt }); misplayAt = null; };
    $("mi-auction").hidden = !v.auction.length;
    // drawn again only when the tiles for auction change: a bid being typed is not reset
    const key = JSON.stringify([v.auction, v.last, g.seats.map((s) => s.name)]);
    if (v.auction.length && key !== auctionKey) {
      $("mi-auction").replaceChildren(el("h3", {}, "Auction"), ...v.auction.map((sq) => {
        const buyer = el("select", { "aria-label": `buyer of ${sq}` }, g.seats.map((s) => el("option", { value: s.seat }, named(g, s.seat))));
        const price = el("input", { type: "number", min: 0, max: 10000, value: 10, size: 5, "aria-label": `price of ${sq}` });
        return el("p", { class: "row" }, `Set-up tile ${sq}: `, buyer, price,
          el("button", { onclick: () => ctx.act({ type: "buy", square: sq, buyer: Number(buyer.value), price: Number(price.value) }) }, "Sold"));
      }));
    }
    auctionKey = v.auction.length ? key : "";
  }
  let auctionKey = "";

  // -- a phone ---------------------------------------------------------------------------
  // The tile being described: by catalogue number, or drawn (value, quarters, edges).
  const draft = { square: null, mode: "number", number: "", value: 5, land: [true, true, true, true], roads: [null, null, null, null], turn: 0 };
  const fresh = () => Object.assign(draft, { square: null, number: "", turn: 0 });

  function described(v) {
    if (draft.mode === "water") return parse("WATER");
    if (draft.mode === "number") {
      const code = v.catalogue[draft.number];
      return code ? parse(code) : null;
    }
    return { value: draft.value, land: draft.land.slice(), roads: draft.roads.slice() };
  }

  function placeAction(v, me) {
    const tile = draft.mode === "water" ? "WATER" : draft.mode === "number" ? `#${draft.number}` : codeOf(described(v));
    return { type: "place", seat: me, square: draft.square, tile, turn: draft.mode === "water" ? 0 : draft.turn };
  }

  function builder(g, ctx) {
    const v = g.view, me = ctx.me.seat, t = described(v);
    const modes = [["number", "By number"], ["draw", "Describe it"]];
    if (v.options.water_tiles && v.phase === "play" && v.step === "place") modes.push(["water", "Water tile"]);
    const tabs = el("div", { class: "row mi-modes" }, modes.map(([m, label]) => el("button", {
      class: draft.mode === m ? "primary" : "", "aria-pressed": String(draft.mode === m), onclick: () => { draft.mode = m; ctx.redraw(); },
    }, label)));
    const parts = [tabs];
    if (draft.mode === "number") {
      const input = el("input", { id: "mi-number", type: "number", inputmode: "numeric", min: 1, value: draft.number, size: 4, "aria-label": "tile number" });
      input.addEventListener("change", () => { draft.number = input.value; ctx.redraw(); });
      parts.push(el("p", { class: "row" }, el("label", {}, "Tile number ", input),
        el("span", { class: "muted" }, t ? `${t.value} PP tile` : `1 to ${Object.keys(v.catalogue).length} in the host's catalogue`)));
    } else if (draft.mode === "draw") {
      const value = el("input", { id: "mi-value", type: "number", inputmode: "numeric", min: 0, max: 99, value: draft.value, size: 3, "aria-label": "tile value" });
      value.addEventListener("change", () => { draft.value = Math.max(0, Math.min(99, Number(value.value) || 0)); ctx.redraw(); });
      parts.push(el("p", { class: "row" }, el("label", {}, "Value ", value),
        el("span", { class: "muted" }, "Tap a quarter for land or water, an edge's dot for its road or community.")));
    }
    if (t) {
      const pic = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      pic.setAttribute("class", "mi-tile");
      pic.setAttribute("role", "img");
      pic.setAttribute("aria-label", "the tile");
      const shown = turned(t, draft.mode === "water" ? 0 : draft.turn);
      drawTile(pic, shown, draft.mode === "draw" ? {
        onQuarter: (q) => { const i = (q - draft.turn + 8) % 4; draft.land[i] = !draft.land[i]; if (!draft.land.some(Boolean)) draft.land[i] = true; fixRoads(); ctx.redraw(); },
        onEdge: (d) => { const i = (d - draft.turn + 8) % 4; cycleEdge(i); ctx.redraw(); },
      } : {});
      const turnButtons = draft.mode === "water" ? [] : [
        el("button", { "aria-label": "turn left", onclick: () => { draft.turn = (draft.turn + 3) % 4; ctx.redraw(); } }, "⟲"),
        el("button", { "aria-label": "turn right", onclick: () => { draft.turn = (draft.turn + 1) % 4; ctx.redraw(); } }, "⟳")];
      parts.push(el("div", { class: "row mi-tile-row" }, pic, el("div", {}, ...turnButtons,
        el("p", { class: "muted mi-legend" }, Object.values(COMMUNITY).map((c) => `${c.letter} ${c.name}`).join(" · ")))));
    }
    const ready = Boolean(t && draft.square);
    parts.push(el("p", { class: "row" }, el("span", { class: "grow" }, draft.square ? `Square ${draft.square}` : "Tap an empty square on the island."),
      el("button", { id: "mi-put", class: "primary", disabled: !ready, onclick: () => ctx.act(placeAction(v, me)) }, "Put it down")));
    return parts;
  }

  function fixRoads() {
    draft.roads = draft.roads.map((r, d) => (edgeHasLand(draft, d) ? r : null));
  }

  function cycleEdge(d) {
    if (!edgeHasLand(draft, d)) return;
    draft.roads[d] = EDGE_CYCLE[(EDGE_CYCLE.indexOf(draft.roads[d]) + 1) % EDGE_CYCLE.length];
  }

  function choices(g, ctx) {
    const v = g.view, me = ctx.me.seat, out = [];
    const act = (label, action, cls = "") => el("button", { class: cls, onclick: () => ctx.act(action) }, label);
    if (v.phase === "select" && v.actor === me) out.push(act("I took a tile", { type: "pick", seat: me }, "primary"));
    if (v.phase === "draw" && v.actor === me) out.push(act("I refilled my hand to 3", { type: "refill", seat: me }, "primary"));
    if (v.phase === "play" && v.actor === me) {
      if (v.step === "after") {
        out.push(...v.capitol_sites.map((sq) => act(`Build my Capitol on ${sq} (−20 PP)`, { type: "build_capitol", seat: me, square: sq })));
        out.push(act("End my turn", { type: "end_turn", seat: me }, "primary"));
      }
      if (v.step === "attack") {
        out.push(...Object.keys(v.capitols).map(Number).filter((s) => s !== me && !v.protected.includes(s))
          .map((s) => act(`Attack ${named(g, s)}'s Capitol (−10 PP)`, { type: "attack", seat: me, target: s }, "primary")));
      }
      if (v.step === "place" && !v.proposal) {
        if (v.hands[me]) out.push(act("Discard a tile and take another (turn lost)", { type: "discard", seat: me }));
        if (v.playing_out.includes(me) || !v.hands[me]) out.push(act("I cannot play: take a tile", { type: "take", seat: me }));
        if (v.capitols[String(me)] && !v.protected.includes(me)) out.push(act("Protect my Capitol (−5 PP)", { type: "protect", seat: me }));
      }
    }
    if (v.can_play_out.includes(me)) out.push(act("Play out (stop refilling)", { type: "play_out", seat: me }));
    return out;
  }

  function play(g, ctx) {
    const v = g.view, me = ctx.me.seat, p = v.proposal;
    const placing = !v.ended && v.actor === me && (v.phase === "setup" || (v.phase === "play" && ["place", "defend"].includes(v.step)));
    if (!placing) fresh();
    // in the rounds every tile goes beside the island: a phone shows the island and a square
    // around it, larger; set-up tiles go anywhere
    drawBoard($("mi-board"), v, { crop: v.phase !== "setup", ...(placing && !p ? { onSquare: (n) => { draft.square = n; ctx.redraw(); }, selected: draft.square } : {}) });
    const box = $("mi-turn");
    if (p && p.seat === me) {
      box.replaceChildren(el("h2", {}, "Check before you play"), ...proposalBox(g, p).filter(Boolean), el("p", { class: "row" },
        el("button", { id: "mi-confirm", class: "primary grow", onclick: () => { ctx.act({ type: "confirm", seat: me }); fresh(); } }, "Confirm: play it"),
        el("button", { onclick: () => ctx.act({ type: "cancel", seat: me }) }, "Change")));
    } else if (placing) {
      const title = v.phase === "setup" ? "Set-up tile" : v.step === "defend" ? "Defensive tile" : "Play a tile";
      box.replaceChildren(el("h2", {}, title), ...builder(g, ctx), el("div", { class: "row" }, choices(g, ctx)));
    } else {
      const list = choices(g, ctx);
      box.replaceChildren(...(p ? proposalBox(g, p).filter(Boolean) : []), ...(list.length ? [el("div", { class: "row" }, list)] : []));
    }
    box.hidden = !box.childElementCount;
    $("mi-my-ledger").replaceChildren(...ledgerList(g, v.ledger, me));
    $("mi-my-hand").textContent = `${v.hands[me]} tile${v.hands[me] === 1 ? "" : "s"} in hand${v.playing_out.includes(me) ? " (playing out)" : ""}`;
  }

  // A phone's own score: the lines that hold points (nine lines, mostly 0, would fill the
  // screen), then the total.
  function myScore(g, me) {
    const row = g.scores.find((r) => r.seat === me.seat);
    if (!row) return null;
    return [SCORESHEET.lines({ ...row, lines: row.lines.filter((l) => l.points !== 0) })];
  }

  TC.game = { face, status, table, play, myScore };
})();
