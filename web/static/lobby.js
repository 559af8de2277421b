"use strict";
// The lobby: join a game by its code, see the games on this device (end or delete one left
// behind, with the host PIN), and start a game, its setup form built from the game's options.
(() => {
  const { api, el, single } = TC;
  const $ = (id) => document.getElementById(id);
  let catalog = [];

  // A game left in play for good (the players went home) is ended or deleted with the PIN.
  const withPin = (question, fn) => single(async () => {
    const pin = TC.hostPin() ? (confirm(question) ? TC.hostPin() : null)
      : prompt(`${question}\nThis is the host's: enter the host PIN (the device printed it when it started).`);
    if (!pin) return;
    try { await fn(pin); $("list-error").textContent = ""; } catch (e) { $("list-error").textContent = e.message; }
    list();
  });
  const title = (name) => (catalog.find((c) => c.game === name) || { title: name }).title;

  const row = (g) => el("li", {},
    el("span", {}, el("b", { class: "code" }, g.game_id), ` ${title(g.game)}, ${g.players} player${g.players > 1 ? "s" : ""}`,
      g.finished ? " — finished" : " — in play"),
    el("span", { class: "row" },
      el("a", { href: `/play/${g.game_id}` }, "phone"), " ",
      el("a", { href: `/table/${g.game_id}` }, g.finished ? "results" : "resume"),
      g.finished ? null : el("button", { class: "small", "aria-label": `end game ${g.game_id}`, onclick: withPin(`End game ${g.game_id} now and score it as it stands?`,
        (pin) => api(`/api/games/${g.game_id}/finish`, { method: "POST", body: { pin } })) }, "End"),
      el("button", { class: "small", "aria-label": `delete game ${g.game_id}`, onclick: withPin(`Delete game ${g.game_id} and its record for good?`,
        (pin) => api(`/api/games/${g.game_id}`, { method: "DELETE", body: { pin } })) }, "Delete")));

  // Games in play first; the finished ones (months of them, on a device left plugged in)
  // folded away under their count; each list the last made first. Of two reads of the list,
  // the later asked is the one shown; a read that fails leaves the list as it was.
  let asked = 0, shown = 0;
  async function list() {
    const n = ++asked;
    const games = await api("/api/games").catch(() => null);
    if (!games || n <= shown) return;
    shown = n;
    const playing = games.filter((g) => !g.finished), finished = games.filter((g) => g.finished);
    $("games").replaceChildren(...(playing.length ? playing.map(row) :
      [el("li", { class: "muted" }, finished.length ? "No game in play." : "No games yet.")]));
    $("finished").hidden = !finished.length;
    $("finished-count").textContent = String(finished.length);
    $("finished-games").replaceChildren(...finished.map(row));
  }

  // The setup form of the game chosen: its player counts, and each option that applies to
  // the players chosen (a solo difficulty only for one player), with its help.
  const chosen = () => catalog.find((c) => c.game === $("game").value);
  function drawOptions() {
    const game = chosen(), n = Number($("players").value);
    $("options").replaceChildren(...game.options.filter((o) => o.kind !== "data" && (!o.players || (o.players[0] <= n && n <= o.players[1])))
      .map((o) => {
        const id = `opt-${o.name}`;
        let input;
        if (o.kind === "bool") input = el("input", { type: "checkbox", id, checked: o.default });
        else if (o.kind === "choice") input = el("select", { id }, o.choices.map((c) => el("option", { value: JSON.stringify(c.value), selected: c.value === o.default }, c.label)));
        else if (o.kind === "text") input = el("input", { id, value: o.default, maxlength: o.maximum, class: "grow" });
        else input = el("input", { type: "number", id, value: o.default, min: o.minimum, max: o.maximum, inputmode: "numeric" });
        return el("div", { class: "option" }, el("label", {}, `${o.label} `, input), o.help ? el("p", { class: "muted" }, o.help) : null);
      }));
  }
  function drawPlayers() {
    const game = chosen(), before = Number($("players").value) || 2;
    const counts = Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => game.min_players + i);
    const pick = counts.includes(before) ? before : counts[Math.min(1, counts.length - 1)];
    $("players").replaceChildren(...counts.map((c) => el("option", { value: c, selected: c === pick }, String(c))));
    drawOptions();
  }
  $("game").addEventListener("change", drawPlayers);
  $("players").addEventListener("change", drawOptions);

  $("join").addEventListener("submit", (e) => {
    e.preventDefault();
    // as read out at the table: "ke 4tw" or "KE-4TW" is KE4TW
    const code = $("code").value.replace(/[\s-]+/g, "").toUpperCase();
    if (code) location.href = `/play/${code}`;
  });

  $("start").addEventListener("submit", async (e) => {
    e.preventDefault();
    const game = chosen(), options = {};
    for (const o of game.options) {
      const input = $(`opt-${o.name}`);
      if (!input) continue;
      options[o.name] = o.kind === "bool" ? input.checked : o.kind === "choice" ? JSON.parse(input.value)
        : o.kind === "text" ? input.value : Number(input.value);
    }
    try {
      const pin = TC.hostPin() || await TC.becomeHost($("pin").value.trim());
      const g = await api("/api/games", { method: "POST", body: { game: game.game, players: Number($("players").value), options, pin } });
      location.href = `/table/${g.game_id}`;
    } catch (err) {
      if (err.code === "auth/pin") { TC.forgetHost(); $("start-pin").hidden = false; }
      $("error").textContent = err.message;
    }
  });

  // The games this device plays; the one set up first is the game last played here (the
  // list comes the last made first), chosen before the form is shown, never after a person
  // has picked another.
  $("start-pin").hidden = Boolean(TC.hostPin());
  Promise.all([api("/api/catalog"), api("/api/games").catch(() => [])]).then(([games, made]) => {
    catalog = games;
    const last = made.length && games.some((g) => g.game === made[0].game) ? made[0].game : null;
    $("game").replaceChildren(...games.map((g) => el("option", { value: g.game, selected: g.game === last }, g.title)));
    drawPlayers();
    list();
  }).catch((e) => { $("error").textContent = e.message; });
  // The list follows the device: a game made at the table, or one that ends, shows up
  // without a reload. The stream reconnects by itself; each time it opens, the list is read.
  const es = new EventSource("/api/events");
  es.onopen = () => list();
  es.onmessage = () => list();
  list();
})();
