"use strict";
// The ranking, the score lines and the end of a game, built from the game's score rows alone.
const SCORESHEET = (() => {
  const { el, svg, seatName, rowName } = TC;
  const COLOURS = ["#205f8f", "#b3261e", "#3aa655", "#9a4fc4", "#f28c28", "#6b7480"];

  // A participant's score lines, and the total.
  function lines(row) {
    return el("table", { class: "score lines" },
      el("tbody", {},
        row.lines.map((l) => el("tr", {}, el("th", { scope: "row" }, l.label), el("td", {}, String(l.points)))),
        el("tr", { class: "total" }, el("th", { scope: "row" }, "Total"), el("td", {}, el("b", {}, String(row.total))))));
  }

  // The totals over the rounds: a line per participant, the points and rounds marked on the
  // axes, and the names in a legend below (never cut at the edge).
  function chart(history, g) {
    if (!history || history.length < 2) return null;
    const W = 320, H = 170, L = 34, R = 10, T = 10, B = 26;
    const all = history.flatMap((h) => h.totals);
    const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
    const x = (i) => L + (i * (W - L - R)) / (history.length - 1);
    const y = (v) => H - B - ((v - lo) * (H - T - B)) / (hi - lo);
    const text = (attrs, words) => { const t = svg("text", { "font-size": 10, ...attrs }); t.textContent = words; return t; };
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "score over rounds" });
    for (const v of [...new Set([lo, 0, hi])]) {
      root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: v === 0 ? "#999" : "#ddd" }),
        text({ x: L - 4, y: y(v) + 3, "text-anchor": "end" }, String(v)));
    }
    history.forEach((h, i) => {
      if (h.round !== null && (history.length <= 12 || i % Math.ceil(history.length / 12) === 0 || i === history.length - 1)) {
        root.append(text({ x: x(i), y: H - B + 12, "text-anchor": "middle" }, String(h.round)));
      }
    });
    root.append(text({ x: (L + W - R) / 2, y: H - 2, "text-anchor": "middle" }, "round"));
    const legend = el("ul", { class: "legend" });
    g.scores.forEach((row, k) => {
      const d = history.map((h, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(h.totals[k]).toFixed(1)}`).join(" ");
      const dash = k % 2 ? "5 3" : "";
      root.append(svg("path", { d, fill: "none", stroke: COLOURS[k % 6], "stroke-width": 2.5, "stroke-dasharray": dash }));
      legend.append(el("li", {}, el("span", { class: "swatch", style: `border-color:${COLOURS[k % 6]};border-style:${dash ? "dashed" : "solid"}` }), rowName(g, row)));
    });
    return el("figure", { class: "chart-box" }, root, legend);
  }

  // Everyone by total, highest first, as the ranking's list items.
  function ranking(g) {
    const ranked = [...g.scores].sort((a, b) => b.total - a.total);
    return ranked.map((r) => el("li", {},
      el("span", {}, rowName(g, r),
        r.seat !== null && !g.seats[r.seat].name ? el("span", { class: "muted" }, " (open seat)") : ""),
      el("span", { class: "total" }, String(r.total))));
  }

  // Who won, by name.
  function verdict(g) {
    const o = g.outcome;
    if (!o) return null;
    const names = o.winners.map((s) => seatName(g, s));
    const best = Math.max(...g.scores.filter((r) => o.winners.includes(r.seat)).map((r) => r.total));
    const said = !names.length ? "Nobody wins."
      : `${names.join(" and ")} win${names.length > 1 ? "" : "s"} with ${best} points.`;
    return el("p", {}, el("b", {}, said), ` (${o.reason})`);
  }

  // Everyone's lines side by side: a column a participant, a row a line, the totals last.
  function sheet(g) {
    const rows = g.scores, keys = [];
    for (const r of rows) for (const l of r.lines) if (!keys.some((k) => k.key === l.key)) keys.push(l);
    const points = (r, key) => { const l = r.lines.find((x) => x.key === key); return l ? String(l.points) : "–"; };
    return el("div", { class: "scroll-x" }, el("table", { class: "score lines sheet" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), rows.map((r) => el("th", { scope: "col" }, rowName(g, r))))),
      el("tbody", {},
        keys.map((k) => el("tr", {}, el("th", { scope: "row" }, k.label), rows.map((r) => el("td", {}, points(r, k.key))))),
        el("tr", { class: "total" }, el("th", { scope: "row" }, "Total"), rows.map((r) => el("td", {}, el("b", {}, String(r.total))))))));
  }

  // The end of the game: who won, the scores over the rounds, then everyone's lines side by
  // side (brief: the ranking instead, for a phone, which shows its own lines below).
  function results(g, { brief = false } = {}) {
    const out = [verdict(g), chart(g.history, g)];
    out.push(brief ? el("ol", { class: "ranking" }, ranking(g)) : sheet(g));
    return out.filter(Boolean);
  }

  return { lines, sheet, results, ranking, verdict };
})();
