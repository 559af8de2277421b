"use strict";
// The score area as the rulebook lays it out, and the end-of-game results.
const SCORESHEET = (() => {
  const { el, svg, TRIBES, TRIBE, seatName } = TC;

  function chip(tribe) {
    const t = TRIBE[tribe];
    return el("span", { class: "sym-chip", style: `background:${t.colour}`, title: t.name }, t.abbr);
  }

  function breakdown(score) {
    const tr = score.tribes;
    const row = (label, f) => el("tr", {}, el("th", { scope: "row" }, label), TRIBES.map((t) => el("td", {}, String(f(tr[t], t)))));
    return el("table", { class: "score" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), TRIBES.map((t) => el("th", {}, chip(t))))),
      el("tbody", {},
        row("Placements", (x) => x.placements),
        row("In camps", (x) => x.scorable),
        row("Base", (x) => x.base),
        row("Request", (x) => x.request),
        row("Tribe total", (x) => x.base + x.request),
        el("tr", {}, el("th", { scope: "row" }, "Overrides (−1 each)"), el("td", { colspan: 6 }, String(score.overrides))),
        el("tr", {}, el("th", { scope: "row" }, "Camp cards"), el("td", { colspan: 6 }, String(score.camp_cards))),
        el("tr", {}, el("th", { scope: "row" }, "Total"), el("td", { colspan: 6 }, el("b", {}, String(score.total))))),
      el("caption", { class: "muted" }, "Base: +1 per placement in a camp, −1 per stray, −5 for a tribe with no camp."));
  }

  function solo(report) {
    return el("ul", {}, report.criteria.map((c) => el("li", {},
      `${c.passed ? "✔ passed" : "✘ failed"} — ${c.criterion}: ${c.actual} (needs ${c.at_most ? "at most" : "at least"} ${c.target})`)));
  }

  function chart(history, g) {
    if (!history || history.length < 2) return null;
    const W = 320, H = 160, P = 24;
    const all = history.flatMap((h) => h.totals);
    const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
    const x = (i) => P + (i * (W - 2 * P)) / (history.length - 1);
    const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo);
    const colours = ["#205f8f", "#b3261e", "#3aa655", "#9a4fc4", "#f28c28", "#6b7480"];
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "score over rounds" });
    root.append(svg("line", { x1: P, x2: W - P, y1: y(0), y2: y(0), stroke: "#aaa" }));
    for (let s = 0; s < g.players; s++) {
      const d = history.map((h, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(h.totals[s]).toFixed(1)}`).join(" ");
      root.append(svg("path", { d, fill: "none", stroke: colours[s % 6], "stroke-width": 2.5, "stroke-dasharray": s % 2 ? "5 3" : "" }));
      const label = svg("text", { x: W - P + 2, y: y(history[history.length - 1].totals[s]) + 4, "font-size": 10 });
      label.textContent = seatName(g, s);
      root.append(label);
    }
    const axis = svg("text", { x: P, y: H - 4, "font-size": 10 });
    axis.textContent = `rounds 1–${history[history.length - 1].round}`;
    root.append(axis);
    return root;
  }

  // The seats by total, highest first, as the ranking's list items.
  function ranking(g) {
    const ranked = [...g.scores].sort((a, b) => b.total - a.total);
    return ranked.map((r) => el("li", {},
      el("span", {}, r.seat === null ? r.name : seatName(g, r.seat),
        r.seat !== null && !g.seats[r.seat].name ? el("span", { class: "muted" }, " (open seat)") : ""),
      el("span", { class: "total" }, String(r.total))));
  }

  // The end of the game: who won, the scores over the rounds, then each seat's breakdown
  // (brief: the ranking instead, for a phone, which shows its own breakdown below).
  function results(g, { brief = false } = {}) {
    const v = g.view, out = [];
    const o = g.outcome;
    if (o) {
      const names = o.winners.map((s) => seatName(g, s));
      out.push(el("p", {}, el("b", {}, g.players === 1 ? (names.length ? "All solo targets met!" : "Solo targets not met.") :
        `${names.join(" and ")} win${names.length > 1 ? "" : "s"} with ${Math.max(...o.totals)} points.`), ` (${o.reason})`));
    }
    out.push(chart(g.history, g));
    if (brief) {
      out.push(el("ol", { class: "ranking" }, ranking(g)));
      return out.filter(Boolean);
    }
    v.scores.forEach((s, seat) => {
      out.push(el("h3", {}, `${seatName(g, seat)}: ${s.total}`), breakdown(s));
      if (s.solo) out.push(solo(s.solo));
    });
    return out.filter(Boolean);
  }

  return { breakdown, results, ranking, chip, solo };
})();
