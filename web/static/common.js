// Shared by every page: the API, the live stream, dice and the roll picker.
//
// A game's own scripts (its package's pages) set TC.game before the page's script runs:
//   face(value, g)  -> {abbr, name, colour} | null: how a die face looks (default: its number)
//   status(g, me)   -> text | null: the status line (me null: the table's), else the shell's
//   table(g, ctx)   draws the game's part of the table page (ctx: act, showError, host:
//                   whether this screen is the host, whose alone the table's actions are)
//   play(g, ctx)    draws the seat's part of a phone (ctx: me, act, showError, redraw)
//   myScore(g, me)  -> elements | null: a phone's own score, else the shell's score lines
"use strict";

const TC = (() => {

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
      if (m.kind === "evicted") return; // ended for a newer page: it reconnects in a while
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

  // How a die face looks: the game's drawing of it, else its number (and its name, where
  // the dice name their faces).
  function faceLook(value, g) {
    const look = TC.game && TC.game.face ? TC.game.face(value, g) : null;
    if (look) return look;
    const named = g && g.dice && g.dice.faces[String(value)];
    return { abbr: value === null || value === undefined ? "?" : String(value), name: named && named !== String(value) ? named : "", colour: null };
  }

  // A die: the face's colour dot and symbol, and its name; a button when it can be tapped.
  function die(value, g, { selected = false, used = false, n = null, onclick = null, big = false, label = null } = {}) {
    const t = faceLook(value, g);
    return el(onclick ? "button" : "div", {
      class: `die${selected ? " selected" : ""}${used ? " used" : ""}${big ? " big" : ""}`,
      disabled: onclick ? used : false, onclick, role: onclick ? null : "img",
      "aria-label": label || `die ${n}: ${t.name || t.abbr}`,
    },
      t.colour ? el("span", { class: "dot", style: `background:${t.colour}` }) : null,
      el("span", { class: "abbr" }, t.abbr),
      el("span", { class: "face" }, t.name || ""));
  }

  const seatName = (g, seat) => (g.seats[seat] && g.seats[seat].name) || `Player ${seat + 1}`;

  // Entering, confirming or correcting a roll by hand: each die a row of its faces, tapped
  // (the dice the game wants: g.dice). set(values) fills it in (null: not chosen yet).
  function rollPicker(root) {
    let values = [], g = null;
    const draw = () => {
      const spec = g && g.dice;
      if (!spec) { root.replaceChildren(); return; }
      const faces = Object.keys(spec.faces).map(Number);
      root.replaceChildren(...Array.from({ length: spec.count }, (_, i) => {
        const name = spec.dice[i] ? `${spec.dice[i]} die` : `die ${i + 1}`;
        return el("div", { class: "die-row", role: "group", "aria-label": name },
          el("span", { class: "n" }, spec.dice[i] || String(i + 1)),
          faces.map((f) => {
            const b = die(f, g, {
              selected: values[i] === f, n: i + 1,
              label: `${name}: ${faceLook(f, g).name || f}`,
              onclick: () => { values[i] = f; draw(); },
            });
            b.dataset.die = String(i + 1);
            b.dataset.face = String(f);
            b.setAttribute("aria-pressed", String(values[i] === f));
            return b;
          }));
      }));
    };
    return {
      show(game) { g = game; const n = g.dice ? g.dice.count : 0; values = values.slice(0, n); draw(); },
      set(list) { values = list.map((x) => (Number.isInteger(x) ? x : null)); draw(); },
      // the values, or throws naming the first die not chosen
      get() {
        const n = g && g.dice ? g.dice.count : 0;
        for (let i = 0; i < n; i++) if (!Number.isInteger(values[i])) throw new Error(`Choose what die ${i + 1} shows.`);
        return values.slice(0, n);
      },
      // the roll as read dice: the game makes it its own action (a reroll, say)
      action(source) { return { type: "dice_rolled", values: this.get(), source }; },
    };
  }

  // The camera's picture of a roll left to confirm, if it has one: loaded once per roll. The
  // device gives it to the host (auth.pin) and to the seats of the roll's game (auth.token)
  // only, so it is fetched with those and shown from memory.
  function showPicture(img, pending, auth = {}) {
    const key = pending && pending.picture ? `${pending.game_id}:${pending.picture}` : "";
    if (img.dataset.shown === key) return;
    img.dataset.shown = key;
    if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
    // let go of the last one when none waits: after a restart the device counts from 1 again
    img.hidden = true;
    img.removeAttribute("src");
    if (!key) return;
    const headers = {};
    if (auth.token) headers["X-Seat-Token"] = auth.token;
    if (auth.pin) headers["X-Host-Pin"] = auth.pin;
    request(`/api/device/roll.jpg?game=${pending.game_id}&n=${pending.picture}`, { headers, cache: "no-store" })
      .then((res) => (res.ok ? res.blob() : null))
      .then((blob) => {
        if (!blob || img.dataset.shown !== key) return;
        img.src = URL.createObjectURL(blob);
        img.hidden = false;
      })
      .catch(() => {});
  }

  // The device's messages are phrases ("4 of 5 dice seen"); shown on their own, or after a
  // sentence, each is written as a sentence: a capital first and a stop at the end.
  function sentence(text) {
    if (!text) return "";
    const s = text[0].toUpperCase() + text.slice(1);
    return /[.!?)]$/.test(s) ? s : `${s}.`;
  }

  // The host PIN this browser holds (the table screen is the host): from the link the
  // device printed at its start (?pin=, then taken out of the address bar), or typed in once;
  // kept in this browser. null: this browser is not the host.
  const HOST_KEY = "tc:host-pin";
  function hostPin() {
    const url = new URL(location.href), given = url.searchParams.get("pin");
    if (given) {
      localStorage.setItem(HOST_KEY, given);
      url.searchParams.delete("pin");
      history.replaceState(null, "", url);
    }
    return localStorage.getItem(HOST_KEY);
  }
  // Check a PIN typed in with the device, and keep it when it is right (throws why not).
  async function becomeHost(pin) {
    await api("/api/host", { method: "POST", body: { pin } });
    localStorage.setItem(HOST_KEY, pin);
    return pin;
  }
  const forgetHost = () => localStorage.removeItem(HOST_KEY);

  // A score row's participant: the seat's name, or the virtual player's.
  const rowName = (g, row) => (row.seat === null ? row.name : seatName(g, row.seat));

  // Who the game waits on, in words, for a status line: "Ann and Bo", "the roll".
  function waitingOn(g) {
    const t = g.to_act, names = t.seats.map((s) => seatName(g, s));
    if (t.table && g.dice) names.push(`the ${g.dice.showing.length ? "reroll" : "roll"}`);
    else if (t.table && g.button) names.push(`the button (${g.button.label})`);
    return names.join(" and ");
  }

  return { hostPin, becomeHost, forgetHost, sentence, rollPicker, showPicture, api, request, refusal, single, live, linkLine, el, svg, die, faceLook, seatName, rowName, waitingOn, game: null };
})();
