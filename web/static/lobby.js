"use strict";
(() => {
  const { api, el } = TC;
  const $ = (id) => document.getElementById(id);
  const players = $("players");
  players.addEventListener("change", () => {
    const solo = players.value === "1";
    $("difficulty-box").hidden = !solo;
  });

  const row = (g) => el("li", {},
    el("span", {}, el("b", { class: "code" }, g.game_id), ` ${g.players} player${g.players > 1 ? "s" : ""}`,
      g.finished ? " — finished" : " — in play"),
    el("span", { class: "row" },
      el("a", { href: `/play/${g.game_id}` }, "phone"), " ",
      el("a", { href: `/table/${g.game_id}` }, g.finished ? "results" : "resume")));

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

  $("join").addEventListener("submit", (e) => {
    e.preventDefault();
    // as read out at the table: "ke 4tw" or "KE-4TW" is KE4TW
    const code = $("code").value.replace(/[\s-]+/g, "").toUpperCase();
    if (code) location.href = `/play/${code}`;
  });

  $("start").addEventListener("submit", async (e) => {
    e.preventDefault();
    const n = Number(players.value);
    const options = {};
    if (n === 1) options.difficulty = $("difficulty").value;
    const v = $("variant").value;
    if (v === "none") options.camp_cards = false; else if (n > 1) options.variant = v;
    try {
      const g = await api("/api/games", { method: "POST", body: { game: $("game").value, players: n, options } });
      location.href = `/table/${g.game_id}`;
    } catch (err) { $("error").textContent = err.message; }
  });
  // The list follows the device: a game made at the table, or one that ends, shows up
  // without a reload. The stream reconnects by itself; each time it opens, the list is read.
  const es = new EventSource("/api/events");
  es.onopen = () => list();
  es.onmessage = () => list();
  list();
})();
