"use strict";
// First Giants' part of the pages (TC.game; see the shell's common.js): the dig sites, the
// Set token supply, the News tokens and the museums at the table; on a phone, the player's
// study, amber and museum, the cards they may take and the displays the rules allow.
(() => {
  const { el, seatName } = TC;
  const $ = (id) => document.getElementById(id);
  const SIZES = ["small", "medium", "large", "egg"];
  const COLOURS = ["#d43f3a", "#2a6fdb", "#e0a100", "#2e9d4e", "#8e44ad"];
  const SIZE_MARK = { small: "S", medium: "M", large: "L", egg: "E" };

  const card = (c, extra = {}) => el("span", { class: `fg-card fg-${c.size}`, ...extra },
    el("b", { "aria-hidden": "true" }, SIZE_MARK[c.size]), " ", c.text);

  function status(g, me) {
    const v = g.view;
    if (v.ended) return `Game over: ${v.ended}`;
    if (v.phase === "deal") return "Deal the dig sites: enter each card put on a site";
    const who = seatName(g, v.seat), mine = me && me.seat === v.seat;
    const end = v.ending ? " (the end is triggered: play on to equal turns)" : "";
    if (v.step === "effects") return (mine ? "Apply your card's effects, then refill the dig site" : `${who} refills the dig site`) + end;
    if (v.step === "reclaim") return (mine ? `Reclaimed: ${v.choices} choice${v.choices === 1 ? "" : "s"} left (1 amber or a display each)` : `${who} chooses amber or displays`) + end;
    return (mine ? "Your turn: play a marker and take a card, or reclaim your markers" : `${who}'s turn`) + end;
  }

  function sites(g, ctx, me) {
    const v = g.view, canTake = me !== null && v.seat === me && v.step === "choose" && v.markers[me].length < 4;
    return v.sites.map((cards, k) => {
      const here = v.markers.flatMap((m, s) => (m.includes(k) ? [s] : []));
      const open = canTake && !v.markers[me].includes(k);
      return el("div", { class: "fg-site", "data-site": k },
        el("div", { class: "fg-site-head" }, `Dig site ${k + 1} `, here.map((s) => el("span", { class: "fg-marker", title: seatName(g, s), style: `background:${COLOURS[s % COLOURS.length]}` }))),
        cards.length ? cards.map((c, slot) => (open
          ? el("button", { class: "fg-take", onclick: () => ctx.act({ type: "take", seat: me, site: k, slot }) }, card(c))
          : el("div", {}, card(c)))) : el("span", { class: "muted" }, "empty"));
    });
  }

  // A card entered as dealt or refilled: by the deck list's name, or its Family and Size.
  // What is picked in a card form survives the redraws the live link brings, until the game
  // moves on to another card (``moment``): a redraw between the picking and the tap must
  // not deal the default card.
  let picked = { moment: null };
  function cardForm(g, label, moment, send) {
    const v = g.view;
    if (picked.moment !== moment) picked = { moment };
    const keep = (select, key) => {
      if (picked[key] !== undefined) select.value = picked[key];
      select.addEventListener("change", () => { picked[key] = select.value; });
      return select;
    };
    const family = keep(el("select", { "aria-label": "Family", class: "fg-family" }, v.families.map((f) => el("option", { value: f }, f))), "family");
    const size = keep(el("select", { "aria-label": "Size", class: "fg-size" }, SIZES.map((s) => el("option", { value: s }, s))), "size");
    const named = v.deck.length ? keep(el("select", { "aria-label": "card from the deck list", class: "fg-name" },
      el("option", { value: "" }, "— or by name —"), v.deck.map((n) => el("option", { value: n }, n))), "name") : null;
    const go = () => send(named && named.value ? { name: named.value } : { family: family.value, size: size.value });
    return el("div", { class: "row fg-form" }, family, size, named, el("button", { class: "primary", onclick: go }, label));
  }

  function museumOf(g, p, { me = null, ctx = null, chosen = null } = {}) {
    const v = g.view;
    const rows = v.museum[p].map((set, k) => {
      const fits = chosen !== null && v.displays.some(([c, s]) => c === chosen && s === k);
      const kind = set.kind ? `${set.kind} set${set.complete ? ", complete" : ""}` : "one card";
      return el("div", { class: `fg-set${set.complete ? " fg-complete" : ""}` },
        el("span", { class: "muted" }, `Set ${k + 1} (${kind}, ${set.tokens} token${set.tokens === 1 ? "" : "s"}) `),
        set.cards.map((c) => card(c)),
        fits ? el("button", { class: "primary", onclick: () => ctx.act(display(v, me, chosen, k)) }, "Add here") : null);
    });
    return rows.length ? rows : [el("p", { class: "muted" }, "Nothing on display yet.")];
  }

  // A display: a reclaimed marker's choice, or one a card's effect allows (named in the
  // effect box, free where it says so).
  function display(v, me, c, into) {
    const a = { type: "display", seat: me, card: c, into };
    if (v.step !== "reclaim") {
      a.effect = $("fg-reason").value.trim() || "a card's effect";
      a.free = $("fg-free").checked;
    }
    return a;
  }

  function table(g, ctx) {
    const v = g.view;
    $("fg-sites").replaceChildren(...sites(g, ctx, null));
    $("fg-deal").hidden = !(ctx.host && v.phase === "deal");
    if (!$("fg-deal").hidden) {
      const k = v.sites.findIndex((s) => s.length < 2);
      $("fg-deal").replaceChildren(el("h3", {}, `Deal dig site ${k + 1}: card ${v.sites[k].length + 1} of 2`),
        cardForm(g, "Deal", `deal:${k}:${v.sites[k].length}`, (c) => ctx.act({ type: "deal", site: k, ...c })));
    }
    $("fg-supply").textContent = `Set tokens in the supply: ${v.supply}${v.box ? ` (${v.box} more in the box)` : ""}${v.ending ? " — the end is triggered" : ""}${v.deck_empty ? " — the deck is empty" : ""}`;
    $("fg-news").replaceChildren(...v.news.map((n) => el("tr", {},
      el("th", { scope: "row" }, n.token.replace(":", " ")), el("td", {}, `${n.value}`),
      el("td", {}, n.holder === null ? "—" : `${seatName(g, n.holder)} (${n.cards} cards)${n.locked ? " 🔒" : ""}`))));
    $("fg-museums").replaceChildren(...g.seats.map((s) => el("div", {},
      el("h3", {}, `${seatName(g, s.seat)}: ${v.amber[s.seat]} amber, study ${v.study[s.seat].length}`),
      ...museumOf(g, s.seat))));
  }

  let chosen = null, playCtx = null;
  function play(g, ctx) {
    playCtx = ctx;
    const v = g.view, me = ctx.me.seat, mine = v.seat === me && !v.ended && v.phase === "play";
    if (!mine) chosen = null;
    $("fg-sites").replaceChildren(...sites(g, ctx, me));
    $("fg-amber").textContent = `${v.amber[me]} amber · ${4 - v.markers[me].length} of 4 markers on your board`;
    const acts = [];
    if (mine && v.step === "choose" && v.markers[me].length) acts.push(el("button", { onclick: () => ctx.act({ type: "reclaim", seat: me }) }, `Reclaim my ${v.markers[me].length} marker${v.markers[me].length === 1 ? "" : "s"}`));
    if (mine && v.step === "reclaim") acts.push(el("button", { class: "primary", onclick: () => ctx.act({ type: "gain_amber", seat: me }) }, "Take 1 amber"));
    if (mine && v.step === "effects") {
      acts.push(v.deck_empty ? el("button", { class: "primary", onclick: () => ctx.act({ type: "deck_empty", seat: me }) }, "End my turn (the deck is empty)")
        : el("div", {}, el("p", {}, `Refill dig site ${v.site + 1} with the deck's top card:`),
          cardForm(g, "Refill", `refill:${v.turn}:${v.seat}:${v.site}`, (c) => ctx.act({ type: "deal", site: v.site, seat: me, ...c })),
          el("button", { onclick: () => ctx.act({ type: "deck_empty", seat: me }) }, "The deck is empty")));
    }
    $("fg-actions").replaceChildren(...acts);
    // the study: a card chosen shows where it may go (a new set, or the sets it fits)
    const canDisplay = mine && (v.step === "reclaim" || v.step === "effects");
    $("fg-study").replaceChildren(...(v.study[me].length ? v.study[me].map((c, i) => el("div", { class: "row" },
      canDisplay ? el("button", { class: chosen === i ? "primary" : "", "aria-pressed": String(chosen === i), onclick: () => { chosen = chosen === i ? null : i; ctx.redraw(); } }, card(c), ` (${c.cost} amber)`) : card(c),
      canDisplay && chosen === i ? el("button", { onclick: () => ctx.act(display(v, me, i, -1)) }, "Start a new set") : null))
      : [el("p", { class: "muted" }, "Your study is empty.")]));
    $("fg-effect-box").hidden = !(mine && v.step === "effects");
    $("fg-museum").replaceChildren(...museumOf(g, me, { me, ctx, chosen: canDisplay ? chosen : null }));
  }

  function acted() { chosen = null; }

  // The effect recorder: what a card's effect gave (or cost), with the card as the reason.
  if ($("fg-effect")) {
    $("fg-effect").addEventListener("submit", (e) => {
      e.preventDefault();
      playCtx.act({
        type: "effect", seat: playCtx.me.seat, reason: $("fg-reason").value,
        points: Number($("fg-points").value) || 0, amber: Number($("fg-amber-gain").value) || 0,
      });
      $("fg-points").value = "0";
      $("fg-amber-gain").value = "0";
    });
  }
  TC.game = { status, table, play, acted };
})();
