"use strict";
// The First Island's drawings: the tribes, the island map and the score area.
const ISLAND = (() => {
  const { el, svg } = TC;
  const TRIBES = ["scavengers", "builders", "scholars", "matriarchy", "healers", "scientists"];
  // Tribes are told apart by a two-letter symbol as well as by colour.
  const TRIBE = {
    scavengers: { abbr: "Sv", colour: "#f2c431", name: "Scavengers" },
    builders: { abbr: "Bu", colour: "#e0433f", name: "Builders" },
    scholars: { abbr: "Sc", colour: "#3f73e0", name: "Scholars" },
    matriarchy: { abbr: "Ma", colour: "#9a4fc4", name: "Matriarchy" },
    healers: { abbr: "He", colour: "#3aa655", name: "Healers" },
    scientists: { abbr: "Si", colour: "#f28c28", name: "Scientists" },
  };

  // Pointy-top axial hexes; direction d points at angle -60*d degrees (screen, y down).
  const SQ3 = Math.sqrt(3);
  const center = (q, r, s) => [s * SQ3 * (q + r / 2), s * 1.5 * r];
  const corner = (c, j, s) => {
    const a = (Math.PI / 180) * (-60 * j - 30);
    return [c[0] + s * Math.cos(a), c[1] + s * Math.sin(a)];
  };
  const pts = (list) => list.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ");

  function hexShapes(cell, c, s) {
    // [tribe, polygon points, label position] for each placement of a marked cell
    if (cell.large) return [[cell.large, [0, 1, 2, 3, 4, 5].map((j) => corner(c, j, s)), c]];
    return [0, 1].map((half) => {
      const k = cell.split + 3 * half;
      const poly = [k - 1, k, k + 1, k + 2].map((j) => corner(c, j, s));
      const lx = (poly[1][0] + poly[2][0] + c[0]) / 3, ly = (poly[1][1] + poly[2][1] + c[1]) / 3;
      return [cell.halves[half], poly, [lx, ly]];
    });
  }

  // Draw an island into an <svg>; onHex(q, r) on tap; marks: {"q,r": class}.
  function drawIsland(root, island, cells, { size = 22, onHex = null, marks = {}, claimed = [], picked = new Set() } = {}) {
    root.replaceChildren();
    const claimedSet = new Set(claimed.flat().map((p) => p.join(",")));
    const byHex = Object.fromEntries(cells.map((c) => [c.hex.join(","), c]));
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const [q, r] of island) {
      const [x, y] = center(q, r, size);
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const pad = size * 1.1;
    root.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`);
    for (const [q, r] of island) {
      const c = center(q, r, size), key = `${q},${r}`;
      const g = svg("g", { class: `hex ${marks[key] || ""}`, "data-hex": key });
      if (onHex) g.addEventListener("click", (ev) => {
        const half = ev.target.dataset && ev.target.dataset.half;
        onHex(q, r, half === undefined ? 0 : Number(half));
      });
      g.append(svg("polygon", { class: "ground", points: pts([0, 1, 2, 3, 4, 5].map((j) => corner(c, j, size))) }));
      const cell = byHex[key];
      if (cell) {
        hexShapes(cell, c, size).forEach(([tribe, poly, lp], half) => {
          const t = TRIBE[tribe];
          const ref = `${q},${r},${half}`;
          const cls = `placement${claimedSet.has(ref) ? " claimed" : ""}${picked.has(ref) ? " picked" : ""}`;
          g.append(svg("polygon", { class: cls, points: pts(poly), fill: t.colour, "data-half": half }));
          const label = svg("text", { x: lp[0].toFixed(1), y: (lp[1] + size * 0.12).toFixed(1), class: "sym" });
          label.textContent = t.abbr;
          g.append(label);
        });
      }
      root.append(g);
    }
  }

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

  return { TRIBES, TRIBE, hexShapes, drawIsland, breakdown, solo, chip };
})();
