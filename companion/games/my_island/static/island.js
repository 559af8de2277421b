"use strict";
// My Island's drawings: the board with its tiles (land and water quarters, roads, the
// communities at their road ends, the printed value, the owner's colour), and one tile.
const MYISLAND = (() => {
  const { svg } = TC;
  const SIDE = 40, HALF = SIDE / 2, MARGIN = 14;
  const SEAT_COLOURS = ["#d43f3a", "#2a6fdb", "#e0a100", "#2e9d4e", "#8e44ad", "#e67e22"];
  const COMMUNITY = {
    mining: { letter: "M", name: "Mining", colour: "#7f8c8d" },
    fishing: { letter: "F", name: "Fishing", colour: "#1f6fb2" },
    logging: { letter: "L", name: "Logging", colour: "#1e6b36" },
    farming: { letter: "A", name: "Farming", colour: "#c59400" },
    city: { letter: "C", name: "City", colour: "#6c3483" },
  };
  const EDGE_CODE = { null: "-", road: "r", mining: "m", fishing: "f", logging: "l", farming: "a", city: "c" };
  const FROM_CODE = { "-": null, r: "road", m: "mining", f: "fishing", l: "logging", a: "farming", c: "city" };
  // the quarters NW NE SE SW as (x, y) offsets, and each edge's midpoint, N E S W
  const QUARTER = [[0, 0], [HALF, 0], [HALF, HALF], [0, HALF]];
  const EDGE_MID = [[HALF, 0], [SIDE, HALF], [HALF, SIDE], [0, HALF]];
  const HALVES = [[0, 1], [1, 2], [3, 2], [0, 3]];

  const colName = (c) => String.fromCharCode(65 + c);
  const squareName = (r, c) => `${colName(c)}${r + 1}`;

  function parse(code) {
    if (code === "WATER") return { value: 0, land: [false, false, false, false], roads: [null, null, null, null], water: true };
    const m = /^(\d{1,2}):([LW]{4}):([-rmflac]{4})$/.exec(code || "");
    if (!m) return null;
    return { value: Number(m[1]), land: [...m[2]].map((q) => q === "L"), roads: [...m[3]].map((e) => FROM_CODE[e]) };
  }
  const codeOf = (t) => (t.water ? "WATER" : `${t.value}:${t.land.map((l) => (l ? "L" : "W")).join("")}:${t.roads.map((r) => EDGE_CODE[r]).join("")}`);
  const turned = (t, k) => ({ ...t, land: t.land.map((_, i) => t.land[(i - k + 8) % 4]), roads: t.roads.map((_, i) => t.roads[(i - k + 8) % 4]) });
  const edgeHasLand = (t, d) => HALVES[d].some((q) => t.land[q]);

  // One tile's shapes at (x, y): quarters, roads to the centre, communities, the value.
  function tileShapes(t, x, y, { owner = null, how = "play", faint = false, capitol = false } = {}) {
    const out = [];
    QUARTER.forEach(([dx, dy], q) => out.push(svg("rect", { x: x + dx, y: y + dy, width: HALF, height: HALF, class: t.land[q] ? "mi-land" : "mi-water" })));
    t.roads.forEach((road, d) => {
      if (!road) return;
      const [ex, ey] = EDGE_MID[d];
      out.push(svg("line", { x1: x + ex, y1: y + ey, x2: x + HALF, y2: y + HALF, class: "mi-road" }));
      const c = COMMUNITY[road];
      if (c) {
        const cx = x + (ex + HALF) / 2 + (ex - HALF) * 0.2, cy = y + (ey + HALF) / 2 + (ey - HALF) * 0.2;
        out.push(svg("circle", { cx, cy, r: 5.5, fill: c.colour, class: "mi-community" }));
        const label = svg("text", { x: cx, y: cy + 3, class: "mi-letter" });
        label.textContent = c.letter;
        out.push(label);
      }
    });
    if (!t.water) {
      out.push(svg("circle", { cx: x + HALF, cy: y + HALF, r: 7, class: "mi-value-bg" }));
      const v = svg("text", { x: x + HALF, y: y + HALF + 3.5, class: "mi-value" });
      v.textContent = String(t.value);
      out.push(v);
    }
    const border = owner === null ? (how === "water" ? "#1c5d8c" : "#555") : SEAT_COLOURS[owner % SEAT_COLOURS.length];
    out.push(svg("rect", {
      x: x + 1.5, y: y + 1.5, width: SIDE - 3, height: SIDE - 3, fill: "none", stroke: border,
      "stroke-width": owner === null ? 1.5 : 3, "stroke-dasharray": owner === null ? "3 2" : "none", class: faint ? "mi-proposal" : "",
    }));
    if (capitol) {
      const star = svg("text", { x: x + SIDE - 8, y: y + 11, class: "mi-capitol" });
      star.textContent = "★";
      out.push(star);
    }
    return out;
  }

  // The rows and columns shown: all, or (``crop``, a phone's narrow screen) those of the
  // island and one square around it, where tiles can go.
  function shown(v, crop) {
    const rows = v.board.length, cols = Math.max(...v.board.map((r) => r.length));
    const placed = Object.keys(v.island).concat(v.proposal ? [v.proposal.square] : [])
      .map((n) => [Number(n.slice(1)) - 1, n.charCodeAt(0) - 65]);
    if (!crop || !placed.length) return [0, rows - 1, 0, cols - 1];
    const rs = placed.map(([r]) => r), cs = placed.map(([, c]) => c);
    const span = (lo, hi, n) => [Math.max(0, lo - 1), Math.min(n - 1, hi + 1)];
    return [...span(Math.min(...rs), Math.max(...rs), rows), ...span(Math.min(...cs), Math.max(...cs), cols)];
  }

  // The board: every square, its tile if any, the proposal drawn faint, and ``selected``.
  // ``onSquare(name)``: tapping a square (empty ones, or all with ``any``).
  function drawBoard(root, v, { onSquare = null, selected = null, any = false, crop = false } = {}) {
    const [r0, r1, c0, c1] = shown(v, crop);
    const left = c0 * SIDE, top = r0 * SIDE;
    root.setAttribute("viewBox", `${left} ${top} ${(c1 - c0 + 1) * SIDE + MARGIN} ${(r1 - r0 + 1) * SIDE + MARGIN}`);
    const capitols = new Set(Object.values(v.capitols));
    const kids = [];
    for (let c = c0; c <= c1; c++) {
      const t = svg("text", { x: MARGIN + c * SIDE + HALF, y: top + 10, class: "mi-axis" });
      t.textContent = colName(c);
      kids.push(t);
    }
    v.board.forEach((row, r) => {
      if (r < r0 || r > r1) return;
      const t = svg("text", { x: left + 6, y: MARGIN + r * SIDE + HALF + 3, class: "mi-axis" });
      t.textContent = String(r + 1);
      kids.push(t);
      [...row].forEach((mark, c) => {
        if (mark !== "#" || c < c0 || c > c1) return;
        const name = squareName(r, c), x = MARGIN + c * SIDE, y = MARGIN + r * SIDE;
        const placed = v.island[name];
        const g = svg("g", { "data-square": name, class: `mi-square${name === v.last ? " mi-last" : ""}` });
        g.append(svg("rect", { x, y, width: SIDE, height: SIDE, class: "mi-empty" }));
        if (placed) g.append(...tileShapes(placed.code === "WATER" ? parse("WATER") : placed, x, y, { owner: placed.owner, how: placed.how, capitol: capitols.has(name) }));
        else if (v.proposal && v.proposal.square === name) {
          g.append(...tileShapes(parse(v.proposal.tile.code), x, y, { owner: v.proposal.how === "play" ? v.proposal.seat : null, how: v.proposal.how, faint: true }));
        }
        if (selected === name) g.append(svg("rect", { x: x + 1, y: y + 1, width: SIDE - 2, height: SIDE - 2, class: "mi-selected" }));
        if (onSquare && (any || !placed)) {
          g.classList.add("mi-tappable");
          g.setAttribute("role", "button");
          g.setAttribute("aria-label", `square ${name}`);
          g.addEventListener("click", () => onSquare(name));
        }
        kids.push(g);
      });
    });
    root.replaceChildren(...kids);
  }

  // One tile, large, for building it on a phone; ``onQuarter(q)`` and ``onEdge(d)`` taps.
  function drawTile(root, t, { onQuarter = null, onEdge = null } = {}) {
    root.setAttribute("viewBox", `-2 -2 ${SIDE + 4} ${SIDE + 4}`);
    const kids = tileShapes(t, 0, 0, { owner: null, how: t.water ? "water" : "play" });
    if (onQuarter) QUARTER.forEach(([dx, dy], q) => {
      kids.push(svg("rect", { x: dx + 2, y: dy + 2, width: HALF - 4, height: HALF - 4, class: "mi-hit", "data-quarter": q, onclick: () => onQuarter(q) }));
    });
    if (onEdge) EDGE_MID.forEach(([ex, ey], d) => {
      kids.push(svg("circle", { cx: ex, cy: ey, r: 4.5, class: "mi-hit mi-edge-hit", "data-edge": d, onclick: () => onEdge(d) }));
    });
    root.replaceChildren(...kids);
  }

  return { SEAT_COLOURS, COMMUNITY, parse, codeOf, turned, edgeHasLand, drawBoard, drawTile, squareName };
})();
