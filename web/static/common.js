// Shared by every page: the API, the live stream, tribes and the hex drawing.
"use strict";

const TC = (() => {
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

  const API_TIMEOUT_MS = 10000;

  // A request to the device: its Response, or an Error saying why none came ("network").
  async function request(path, { method = "GET", headers = {}, body, cache } = {}) {
    try {
      // a request the device never answers (a Wi-Fi gone half-way) would hold the page's
      // one request in flight (single, below) and every tap after it
      const signal = AbortSignal.timeout ? AbortSignal.timeout(API_TIMEOUT_MS) : undefined;
      return await fetch(path, { method, headers, body, cache, signal });
    } catch (err) {
      const e = new Error(err.name === "TimeoutError"
        ? `The device did not answer in ${API_TIMEOUT_MS / 1000} s: check this phone's Wi-Fi.`
        : "Cannot reach the device: check this phone's Wi-Fi and that the device is on, then try again.");
      e.code = "network";
      e.timeout = err.name === "TimeoutError";
      throw e;
    }
  }

  // The device's JSON answer to a request it refused, as an Error with its code.
  async function refusal(res) {
    const data = await res.json().catch(() => ({ error: "network", message: res.statusText }));
    const e = new Error(data.message || res.statusText);
    e.code = data.error;
    return e;
  }

  async function api(path, { method = "GET", body, token, pin } = {}) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers["X-Seat-Token"] = token;
    if (pin) headers["X-Host-Pin"] = pin;
    let res;
    try {
      res = await request(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
    } catch (e) {
      if (e.timeout) e.message += " The page shows whether your tap arrived once the device answers again.";
      throw e;
    }
    if (!res.ok) throw await refusal(res);
    return res.json().catch(() => ({ error: "network", message: res.statusText }));
  }

  // One request at a time from a page: a tap that lands twice (a double tap, a slow
  // network) is sent once, not twice; a tap while a request is out is let go.
  let busy = false;
  const single = (fn) => async (...args) => {
    if (busy) return;
    busy = true;
    try { return await fn(...args); } finally { busy = false; }
  };

  // Live updates: call onState(game) now and after every change; reconnects by itself.
  // token(): the seat's token, if the page has one: the device sends each seat its own view.
  // Returns refresh(), which fetches the game now (after a change the stream may not tell of
  // yet, a seat claimed, say). Of two fetches, the later asked is the one shown: the answer
  // to an earlier one that comes last is older, and would undo what the page shows.
  // onLink(ok) is told each time the link changes: down as soon as the stream or a fetch
  // fails, up again when the stream opens, or a fetch is answered while it is open.
  function live(gameId, onState, onLink, token = () => null) {
    let asked = 0, shown = 0, linked = null, retry = null;
    const es = new EventSource(`/api/games/${gameId}/events`);
    const link = (ok) => {
      if (ok === linked) return;
      linked = ok;
      onLink && onLink(ok);
    };
    const refresh = async () => {
      const n = ++asked;
      let g;
      try { g = await api(`/api/games/${gameId}`, { token: token() }); } catch (e) {
        link(false);
        // with the stream still open, nothing else would ask again: the page would stay
        // down in a quiet game (a stream that opens again asks by itself)
        if (es.readyState === EventSource.OPEN && retry === null) {
          retry = setTimeout(() => { retry = null; refresh(); }, 2000);
        }
        return;
      }
      if (n > shown) { shown = n; onState(g); }
      if (es.readyState === EventSource.OPEN) link(true); // a fetch alone is no live link
    };
    es.onopen = () => { link(true); refresh(); };
    es.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.kind === "deleted") { location.href = "/"; return; }
      refresh();
    };
    es.onerror = () => link(false);
    refresh();
    return refresh;
  }

  // The status line while the live link is down: show() puts ``text`` over whatever a render
  // wrote there, until set(true), since no change made elsewhere reaches the page meanwhile.
  function linkLine(text, className) {
    let lost = false;
    return {
      set(ok) { lost = !ok; },
      show() {
        if (!lost) return;
        const st = document.getElementById("status");
        st.textContent = text; st.className = className;
      },
    };
  }

  const el = (tag, attrs = {}, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
    return e;
  };

  const SVG = "http://www.w3.org/2000/svg";
  const svg = (tag, attrs = {}, ...kids) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
    }
    for (const k of kids.flat()) if (k) e.append(k);
    return e;
  };

  // A die face: the tribe's colour dot and symbol, and the face value.
  function die(value, faces, { selected = false, used = false, n = null, onclick = null, big = false } = {}) {
    const tribe = faces && faces[value] ? faces[value].tribe : null;
    const t = tribe ? TRIBE[tribe] : null;
    // A die you can pick is a button; a die that is only shown is not (no greyed-out look).
    const b = el(onclick ? "button" : "div", {
      class: `die${selected ? " selected" : ""}${used ? " used" : ""}${big ? " big" : ""}`,
      disabled: onclick ? used : false, onclick, role: onclick ? null : "img",
      "aria-label": t ? `die ${n}: ${t.name}` : `die ${n}: ${value}`,
    },
      el("span", { class: "dot", style: `background:${t ? t.colour : "#fff"}` }),
      el("span", { class: "abbr" }, t ? t.abbr : String(value)),
      el("span", { class: "face" }, t ? t.name : ""));
    return b;
  }

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

  const seatName = (g, seat) => (g.seats[seat] && g.seats[seat].name) || `Player ${seat + 1}`;

  // Five selects for entering, confirming or correcting a roll by hand; "?" = not chosen yet.
  function rollPicker(count = 5) {
    const selects = Array.from({ length: count }, (_, i) => el("select", { "aria-label": `die ${i + 1}` },
      el("option", { value: "" }, "?"),
      TRIBES.map((t, v) => el("option", { value: v + 1 }, `${v + 1} ${TRIBE[t].name}`))));
    return {
      selects,
      // each die's list with its number, as the camera's picture of a roll numbers the dice
      fields: selects.map((s, i) => el("label", { class: "die-pick" }, el("span", { class: "n" }, String(i + 1)), s)),
      set(values) { selects.forEach((s, i) => { const x = values[i]; s.value = Number.isInteger(x) ? String(x) : ""; }); },
      // the values, or throws naming the first die not chosen
      get() {
        const missing = selects.findIndex((s) => !s.value);
        if (missing >= 0) throw new Error(`Choose what die ${missing + 1} shows.`);
        return selects.map((s) => Number(s.value));
      },
      // the roll as read dice: the game makes it its own action (a reroll, say)
      action(source) { return { type: "dice_rolled", values: this.get(), source }; },
    };
  }

  // The camera's picture of a roll left to confirm, if it has one: loaded once per roll.
  function showPicture(img, pending) {
    const src = pending && pending.picture ? `/api/device/roll.jpg?n=${pending.picture}` : "";
    img.hidden = !src;
    // let go of the last one when none waits: after a restart the device counts from 1 again
    if (!src) img.removeAttribute("src");
    else if (img.getAttribute("src") !== src) img.setAttribute("src", src);
  }

  // The device's messages are phrases ("4 of 5 dice seen"); shown on their own, or after a
  // sentence, each is written as a sentence: a capital first and a stop at the end.
  function sentence(text) {
    if (!text) return "";
    const s = text[0].toUpperCase() + text.slice(1);
    return /[.!?)]$/.test(s) ? s : `${s}.`;
  }

  return { sentence, rollPicker, showPicture, TRIBES, TRIBE, api, request, refusal, single, live, linkLine, el, svg, die, drawIsland, hexShapes, center, corner, pts, seatName };
})();
