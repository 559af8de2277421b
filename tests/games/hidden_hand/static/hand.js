"use strict";
(() => {
  const { el, seatName } = TC;
  TC.game = {
    play(g, ctx) {
      const v = g.view;
      document.getElementById("hand").replaceChildren(...(v.hand || []).map((card) =>
        el("button", { onclick: () => ctx.act({ type: "play", seat: ctx.me.seat, card }) }, card)));
      document.getElementById("others").textContent = v.held
        .map((n, s) => `${seatName(g, s)} holds ${n}`).join(", ");
    },
  };
})();
