"use strict";
// The camera view: the device's latest frame with the reader's dice, about once a second.
(() => {
  const $ = (id) => document.getElementById(id);
  const WANTED_PX = 25; // the smallest die width the reader finds reliably (hardware/README.md)
  const digits = (text) => (text || "").replace(/\D/g, ""); // a PIN is digits, nothing else
  let pin = digits(TC.hostPin()); // the host's, as this browser holds it
  let shown = null; // the object URL on screen

  function figures(res) {
    const w = res.headers.get("X-Width"), h = res.headers.get("X-Height");
    const n = Number(res.headers.get("X-Dice")), px = res.headers.get("X-Die-Px");
    const found = n === 1 ? "1 die found" : `${n} dice found`;
    if (!px) return `${w}×${h} picture, ${found}.`;
    const size = Number(px) < WANTED_PX ? `too small: bring the camera closer or zoom so they are at least ${WANTED_PX}` : `at least ${WANTED_PX} wanted`;
    return `${w}×${h} picture, ${found}, about ${px} pixels wide (${size}).`;
  }

  async function refresh() {
    if (document.hidden || !pin) return;
    let res;
    try {
      res = await TC.request("/api/device/view.jpg", { headers: { "X-Host-Pin": pin }, cache: "no-store" });
    } catch (e) { $("error").textContent = e.message; return; }
    if (!res.ok) {
      const e = await TC.refusal(res);
      if (e.code === "auth/pin") { pin = ""; TC.forgetHost(); $("ask-pin").hidden = false; }
      $("error").textContent = TC.sentence(e.message);
      $("view").hidden = true; $("figures").textContent = "";
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    $("view").src = url;
    if (shown) URL.revokeObjectURL(shown);
    shown = url;
    $("view").hidden = false; $("error").textContent = "";
    $("figures").textContent = figures(res);
  }

  $("ask-pin").addEventListener("submit", (ev) => {
    ev.preventDefault();
    pin = digits($("pin").value);
    $("ask-pin").hidden = Boolean(pin);
    TC.becomeHost(pin).catch(() => {}); // kept if right; refresh says if not
    refresh();
  });
  $("ask-pin").hidden = Boolean(pin);
  // one picture at a time: the next is asked for a second after the last one came
  const loop = () => refresh().finally(() => setTimeout(loop, 1000));
  loop();
})();
