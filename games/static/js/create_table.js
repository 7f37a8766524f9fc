// The create-table form: show only what fits the chosen game, player count and pace.
// Without this script every field shows and the server still checks everything.
(function () {
  "use strict";
  // option field -> [the field it depends on, the value that makes it count], as each game's options script
  // (boards/<game>/options.js, loaded after this one, before the page is ready) declares them.
  const DEPENDS = {};
  window.ToposCreateTable = { depends: function (map) { Object.assign(DEPENDS, map); } };
  function setup(form) {
    const players = form.querySelector("[name=players]");
    function chosenGame() { return form.querySelector("input[name=game]:checked"); }
    function update() {
      const game = chosenGame();
      if (!game) return;
      const name = game.value, min = +game.dataset.min, max = +game.dataset.max, live = game.dataset.live === "1";
      form.querySelectorAll(".game-options").forEach(function (fs) { fs.hidden = fs.dataset.game !== name; });
      players.min = min; players.max = max;
      const n = +players.value;
      if (!n || n < min) players.value = min;
      if (n > max) players.value = max;
      const liveInput = form.querySelector("input[name=pace][value=live]");
      if (liveInput) {
        liveInput.closest("label, div").hidden = !live;
        if (!live && liveInput.checked) form.querySelector("input[name=pace][value=correspondence]").checked = true;
      }
      const pace = (form.querySelector("input[name=pace]:checked") || {}).value || "correspondence";
      form.querySelectorAll("[data-pace]").forEach(function (el) { el.hidden = el.dataset.pace !== pace; });
      form.querySelectorAll(".bot-seat").forEach(function (el) { el.hidden = +el.dataset.seat > +players.value - 1; });
      // An option that only counts for one choice of another (a game's card types for a custom deck, the
      // preset's name for a preset deck) shows only then (decision 13).  Hidden boxes are still sent and
      // the server ignores them; without this script everything shows and works.
      Object.keys(DEPENDS).forEach(function (name) {
        const field = form.querySelector("[name='" + name + "']");
        const [on, value] = DEPENDS[name];
        const chosen = form.querySelector("[name='" + on + "']:checked, select[name='" + on + "']");
        const box = field && field.closest(".field");
        if (box && chosen) box.hidden = chosen.value !== value;
      });
    }
    form.addEventListener("change", update);
    players.addEventListener("input", update);
    update();
  }
  document.addEventListener("DOMContentLoaded", function () {
    const form = document.getElementById("create-table");
    if (form) setup(form);
  });
})();
