"use strict";
// Small Islands' part of the pages (TC.game; see the shell's common.js). A phone: its own
// secret objective, its turn (explore: the face-up tile taken, a bonus token; land), the
// reward phase's islands (counts tapped in, the device scores them) and its ships. The
// table: the round, the stacks and the face-up row, the ships, Alexis' moves in a solo game.
(() => {
  const { el, seatName } = TC;
  const $ = (id) => document.getElementById(id);
  // Inputs keep what was typed across the redraws that other players' moves bring.
  const typed = {};
  function kept(key, attrs) {
    const input = el("input", { ...attrs, value: typed[key] ?? attrs.value });
    input.addEventListener("input", () => { typed[key] = input.value; });
    return input;
  }
  // ...until the game moves on (a choice made, an island scored, a card drawn): then the
  // inputs start afresh
  let moment = "";
  function moved(key) {
    if (key !== moment) for (const k of Object.keys(typed)) delete typed[k];
    moment = key;
  }
  function keptSelect(key, attrs, options) {
    const select = el("select", attrs, options);
    if (typed[key] !== undefined) select.value = typed[key];
    select.addEventListener("change", () => { typed[key] = select.value; });
    return select;
  }
  const COUNTS = [["flowers", "Flowers"], ["fruits", "Fruits"], ["leaves", "Leaves"], ["temples", "Temples"],
    ["ports", "Ports"], ["tiles", "Tiles"], ["locations", "House locations"], ["houses", "Houses"]];

  function status(g, me) {
    const v = g.view;
    if (v.ended) return `Game over: ${v.ended}`;
    const mine = me && !v.ready.includes(me.seat);
    if (v.phase === "prepare") return mine ? `Round ${v.round}: choose your objective (secret)` : `Round ${v.round}: the players choose their objectives`;
    if (v.phase === "explore") {
      if (v.alexis_turn) return v.card ? "Alexis' turn: place his tile as the card says" : "Alexis' turn: draw his exploration card";
      return me && v.turn === me.seat ? "Your turn: explore, or land" : `Round ${v.round}: ${seatName(g, v.turn)} explores`;
    }
    if (v.phase === "reward") return mine ? "Reward: put Houses on the islands that fulfil your mission" : "Reward: the players put their Houses";
    if (v.phase === "ships") return mine ? "The end: count the Ports around your ships" : "The end: the ships are counted";
    return null;
  }

  function board(v) {
    return [el("p", {}, `Round ${v.round} of 4 · navigation stack ${v.nav} · reserve ${v.reserve} · ${v.row} face-up tile${v.row === 1 ? "" : "s"}`),
      el("p", { class: "muted" }, `Ships landed: ${v.landed.length ? v.landed.map((s) => (s === "Alexis" ? s : `player ${s}`)).join(", ") : "none yet"}; ${v.grey} grey ship(s) left`)];
  }

  // Alexis' stack: his card's counts of Explore and Land cards, picked at random here (the
  // chance enters the game as an action, as a roll does); each draw a card left in it.
  const shuffled = (xs) => { const a = xs.slice(); for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; };
  function makeStack(v) {
    const [explore, land] = v.alexis_counts, of = (k) => Object.keys(v.exploration).filter((c) => v.exploration[c] === k).map(Number);
    return [...shuffled(of("explore")).slice(0, explore), ...shuffled(of("land")).slice(0, land)];
  }
  function alexisBox(v, ctx) {
    if (!v.solo || !ctx.host) return [];
    const out = [];
    if (!v.deck.length) {
      out.push(el("button", { class: "primary", onclick: () => ctx.act({ type: "alexis_deck", cards: makeStack(v) }) }, "Make Alexis' exploration stack"));
      return out;
    }
    const pick = (label, send) => {
      const left = v.deck.filter((c) => !v.drawn.includes(c));
      const n = kept("card", { type: "number", min: 1, max: 15, size: 3, "aria-label": "exploration card number", class: "si-card", value: "" });
      return el("div", { class: "row" }, el("span", {}, `${label} `),
        el("button", { class: "primary", onclick: () => { const from = left.length ? left : v.deck; send(from[Math.floor(Math.random() * from.length)]); } }, "Draw Alexis' card"),
        el("label", {}, " or the card drawn by hand ", n), el("button", { onclick: () => send(Number(n.value)) }, "Draw"));
    };
    if (v.alexis_turn && !v.card) out.push(pick("Alexis' exploration card:", (c) => ctx.act({ type: "alexis_card", card: c })));
    if (v.alexis_turn && v.card) {
      const c = v.card;
      out.push(el("p", {}, c.lands ? `Alexis lands: a grey ship, placed nearest your last tile (${c.directions}).`
        : `Alexis takes face-up tile ${c.take} and places it nearest the tile you placed last, in line with it: direction ${c.directions}; never growing an island with his House.`),
      el("div", { class: "row" }, el("button", { class: "primary", onclick: () => ctx.act({ type: "alexis_placed", placed: true }) }, "Placed"),
        el("button", { onclick: () => ctx.act({ type: "alexis_placed", placed: false }) }, c.lands ? "Cannot place: he explores" : "Cannot place (1 PP to Alexis)")));
    }
    if (v.phase === "reward" && !v.alexis_done) {
      if (!v.card) out.push(pick("Alexis' card for his mission:", (c) => ctx.act({ type: "alexis_card", card: c })));
      else {
        const n = kept("alexis-islands", { type: "number", min: 0, max: 8, value: 0, size: 3, "aria-label": "islands for Alexis", class: "si-alexis-islands" });
        out.push(el("p", {}, `Alexis' mission: ${v.card.mission}. His Houses go on every island that fulfils it.`),
          el("div", { class: "row" }, el("label", {}, "Islands ", n), el("button", { class: "primary", onclick: () => ctx.act({ type: "alexis_houses", islands: Number(n.value) }) }, "Alexis' Houses placed")));
      }
    }
    if (v.phase === "ships" && v.alexis_total !== null) {
      const n = kept("alexis-ports", { type: "number", min: 0, max: 32, value: 0, size: 3, "aria-label": "ports around Alexis' ships", class: "si-alexis-ports" });
      out.push(el("div", { class: "row" }, el("label", {}, "Ports around Alexis' grey ships ", n),
        el("button", { class: "primary", onclick: () => ctx.act({ type: "alexis_houses", islands: 0, ports: Number(n.value) }) }, "Count Alexis")));
    }
    return out;
  }

  let tableKey = "", panelKey = "";
  function table(g, ctx) {
    const v = g.view;
    moved(`${v.phase}:${v.round}:${v.turn}:${v.card && v.card.number}:${v.alexis_done}`);
    // the board and Alexis' box are drawn again only when what they show changes: inputs
    // being typed in are not replaced under the host's fingers
    const key = JSON.stringify([v.phase, v.round, v.turn, v.card, v.alexis_done, v.nav, v.row, v.reserve, v.grey, v.landed, v.alexis_total, ctx.host]);
    if (key !== tableKey) $("si-board").replaceChildren(...board(v), ...alexisBox(v, ctx));
    tableKey = key;
    $("si-objectives").hidden = !v.objectives;
    if (v.objectives) $("si-objectives").replaceChildren(el("h2", {}, "Objectives"), ...v.objectives.map((o, s) => el("p", {}, `${seatName(g, s)}: ${o ? o.says : "—"}`)),
      ...Object.entries(v.achievements).filter(([, a]) => a.length).map(([s, a]) => el("p", { class: "muted" }, `${seatName(g, Number(s))}'s Great Explorer achievements: ${a.join("; ")}`)));
  }

  function choosePanel(v, ctx, me) {
    if (v.advanced) {
      const sel = (opts, label, cls) => keptSelect(cls, { "aria-label": label, class: cls }, Object.entries(opts).map(([k, t]) => el("option", { value: k }, t)));
      const m = sel(v.missions, "mission", "si-mission"), r = sel(v.rewards, "reward", "si-reward");
      const lm = sel(v.missions, "next round's mission", "si-later-mission"), lr = sel(v.rewards, "next round's reward", "si-later-reward");
      return [el("p", {}, "This round:"), m, r, el("p", {}, "Put aside for the next round:"), lm, lr,
        el("button", { class: "primary", onclick: () => ctx.act({ type: "choose", seat: me, mission: m.value, reward: r.value, later_mission: lm.value, later_reward: lr.value }) }, "Keep these")];
    }
    const opts = Object.entries(v.cards).map(([n, c]) => el("option", { value: n }, `${n}: ${v.missions[c.mission]} — ${v.rewards[c.reward]}`));
    const now = keptSelect("now", { "aria-label": "this round's objective card", class: "si-card-now" }, opts);
    const later = keptSelect("later", { "aria-label": "the card put aside", class: "si-card-later" }, opts.map((o) => o.cloneNode(true)));
    if (typed.later === undefined) later.selectedIndex = 1;
    return [el("label", {}, "This round's card ", now), el("label", {}, " Put aside for the next round ", later),
      el("button", { class: "primary", onclick: () => ctx.act({ type: "choose", seat: me, card: Number(now.value), later: v.round < 4 ? Number(later.value) : 0 }) }, "Keep these")];
  }

  function play(g, ctx) {
    const v = g.view, me = ctx.me.seat, mine = !v.ready.includes(me);
    moved(`${v.phase}:${v.round}:${mine}:${v.houses[me]}:${v.turn}`);
    $("si-objective").textContent = v.objective ? v.objective.says : "No objective chosen yet.";
    $("si-me").textContent = `${v.houses[me]} House(s), ${v.bonus[me]} bonus token(s) left${v.own_ship[me] ? "; your ship is still to land" : ""}`;
    let panel = [];
    if (v.phase === "prepare" && mine) panel = choosePanel(v, ctx, me);
    if (v.phase === "explore" && v.turn === me) {
      panel = [el("p", {}, "Take a face-up tile, place one from your hand (and a bonus token, if you like):"),
        el("div", { class: "row" }, [...Array(v.row).keys()].map((i) => el("button", { class: "primary", onclick: () => ctx.act({ type: "explore", seat: me, take: i + 1 }) }, `Tile ${i + 1}`)),
          v.bonus[me] && v.row ? el("button", { onclick: () => ctx.act({ type: "explore", seat: me, take: 1, bonus: "port" }) }, "Tile 1 + a port token") : null,
          v.bonus[me] && v.row ? el("button", { onclick: () => ctx.act({ type: "explore", seat: me, take: 1, bonus: "resource" }) }, "Tile 1 + a resource token") : null,
          v.row ? null : el("button", { onclick: () => ctx.act({ type: "explore", seat: me, take: 0 }) }, "No tile left: pass"))];
      if (!v.nav) panel.push(el("div", { class: "row" },
        v.own_ship[me] ? el("button", { onclick: () => ctx.act({ type: "land", seat: me, ship: "own" }) }, "Land my ship") : null,
        v.grey ? el("button", { onclick: () => ctx.act({ type: "land", seat: me, ship: "grey" }) }, "Land a grey ship") : null));
    }
    if (v.phase === "reward" && mine) {
      const inputs = COUNTS.map(([k, label]) => kept(k, { type: "number", min: 0, max: 60, value: k === "tiles" ? 1 : 0, size: 3, "aria-label": label, "data-count": k }));
      panel = [el("p", {}, `Your mission: ${v.objective ? v.objective.says : ""}. For each island you put a House on, tap in its counts (bonus tokens included):`),
        el("div", { class: "si-counts" }, COUNTS.map(([, label], i) => el("label", {}, `${label} `, inputs[i]))),
        el("div", { class: "row" }, el("button", { class: "primary", onclick: () => ctx.act({ type: "island", seat: me, counts: inputs.map((n) => Number(n.value) || 0) }) }, "House on this island"),
          el("button", { onclick: () => ctx.act({ type: "rewarded", seat: me }) }, "No more Houses this round"))];
    }
    if (v.phase === "ships" && mine) {
      const ports = kept("ports", { type: "number", min: 0, max: 32, value: 0, size: 3, "aria-label": "ports around my ships", class: "si-ports" });
      const disc = kept("discovery", { type: "number", min: 0, max: 200, value: 0, size: 3, "aria-label": "discovery points", class: "si-discovery" });
      panel = [el("label", {}, "Ports on the tiles around my ships ", ports), v.advanced ? el("label", {}, " Discovery tokens' points ", disc) : null,
        el("button", { class: "primary", onclick: () => ctx.act({ type: "ship", seat: me, ports: Number(ports.value) || 0, discovery: Number(disc.value) || 0 }) }, "Count my ships")];
    }
    // likewise the phone's panel: drawn again only when its choices change
    const key = JSON.stringify([v.phase, v.round, mine, v.houses[me], v.turn, v.row, v.nav, v.bonus[me], v.own_ship[me], v.grey, v.objective]);
    if (key !== panelKey) {
      $("si-panel").replaceChildren(...panel.filter(Boolean));
      $("si-panel").hidden = !panel.length;
    }
    panelKey = key;
    $("si-board").replaceChildren(...board(v));
    $("si-mine").replaceChildren(...(v.mine.length ? v.mine.slice(-8).reverse().map((e) => el("li", {}, `+${e.points} PP ${e.reason}`)) : [el("li", { class: "muted" }, "No points yet.")]));
  }

  TC.game = { status, table, play };
})();
