"use strict";
// The score pad's part of the pages (TC.game; see the shell's common.js).
(() => {
  const { el, die, seatName } = TC;
  const $ = (id) => document.getElementById(id);

  // The sheet: a row per round (and category), a column per player, the totals last.
  function sheet(g) {
    const v = g.view, many = v.lines.length > 1;
    const head = el("tr", {}, el("th", {}, "Round"), g.seats.map((s) => el("th", { scope: "col" }, seatName(g, s.seat))));
    const rows = v.sheet.flatMap((r) => v.lines.map((line, i) => el("tr", { class: r.round === v.round && !v.ended ? "now" : "" },
      el("th", { scope: "row" }, i === 0 ? `${r.round}${many ? ` ${line}` : ""}` : line),
      r.points.map((p) => {
        const x = p[line];
        return el("td", { class: x === null ? "blank" : "" }, x === null ? "–" : String(x));
      }))));
    const total = el("tr", { class: "total" }, el("th", { scope: "row" }, "Total"), v.totals.map((t) => el("td", {}, String(t))));
    return [el("thead", {}, head), el("tbody", {}, rows, total)];
  }

  function showRoll(g) {
    const v = g.view;
    $("pad-roll").hidden = !v.roll;
    if (!v.roll) return;
    $("pad-dice").replaceChildren(...v.roll.map((x, i) => die(x, g, { n: i + 1 })));
    $("pad-sum").textContent = String(v.sum);
  }

  // The table: the roll and its sum, the sheet, and any player's points entered by hand.
  let tableCtx = null;
  function table(g, ctx) {
    tableCtx = ctx;
    const v = g.view;
    showRoll(g);
    $("pad-sheet").replaceChildren(...sheet(g));
    $("pad-entry").hidden = Boolean(v.ended) || !ctx.host;  // any player's points: the host's
    const player = $("pad-player").value, category = $("pad-category").value;
    $("pad-player").replaceChildren(...g.seats.map((s) => el("option", { value: s.seat }, seatName(g, s.seat))));
    $("pad-category").replaceChildren(...v.lines.map((line) => el("option", { value: line }, line)));
    if (player) $("pad-player").value = player;
    if (category) $("pad-category").value = category;
    $("pad-category-box").hidden = v.lines.length < 2;
  }
  if ($("pad-entry")) {
    $("pad-entry").addEventListener("submit", (e) => {
      e.preventDefault();
      const points = Number($("pad-points").value);
      if (!Number.isInteger(points)) { tableCtx.showError(new Error("Enter the points as a whole number.")); return; }
      tableCtx.act({ type: "enter_points", player: Number($("pad-player").value), category: $("pad-category").value, points });
      $("pad-points").value = "";
    });
  }

  // A phone: this round's lines of its own player, each entered (or corrected) on its own.
  const typed = {};  // what was typed and not entered yet, kept across redraws
  function play(g, ctx) {
    const v = g.view, me = ctx.me.seat, round = v.sheet[v.sheet.length - 1];
    $("pad-round-title").textContent = v.ended ? "Final round" : `Round ${v.round}: my points`;
    $("pad-mine").hidden = Boolean(v.ended);
    $("pad-lines").replaceChildren(...v.lines.map((line) => {
      const saved = round.points[me][line], key = `${v.round}:${line}`;
      const input = el("input", { type: "number", inputmode: "numeric", step: 1, "aria-label": `${line} points`, value: typed[key] ?? (saved ?? "") });
      input.addEventListener("input", () => { typed[key] = input.value; });
      const enter = () => {
        const points = Number(input.value);
        if (input.value === "" || !Number.isInteger(points)) { ctx.showError(new Error(`Enter your ${line} points as a whole number.`)); return; }
        delete typed[key];
        ctx.act({ type: "enter_points", player: me, category: line, points, seat: me });
      };
      input.addEventListener("keydown", (e) => { if (e.key === "Enter") enter(); });
      return el("div", { class: "line" }, el("label", {}, line, " ", input),
        el("span", { class: "saved muted" }, saved === null ? "not entered" : `✓ ${saved}`),
        el("button", { class: "primary", onclick: enter }, saved === null ? "Enter" : "Change"));
    }));
    showRoll(g);
    $("pad-sheet").replaceChildren(...sheet(g));
  }

  function status(g, me) {
    const v = g.view;
    if (v.ended) return null;
    if (me === null) {
      const blank = g.to_act.seats.map((s) => seatName(g, s));
      return blank.length ? `Round ${v.round}: waiting for ${blank.join(", ")}` : `Round ${v.round}: everyone has entered; press the button for the next round`;
    }
    return g.to_act.seats.includes(me.seat) ? `Your points for round ${v.round}` : `Round ${v.round}: your points are in`;
  }

  TC.game = { table, play, status };
})();
