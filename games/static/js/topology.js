// Topology at the table: pick a revealed tile, click a highlighted cell, turn it, place it.
//
// Everything offered comes from the legal actions the server embedded (#topology-places), so a
// highlighted cell is exactly a cell some legal placement of the picked tile covers, and "Turn"
// cycles through exactly the legal placements covering the clicked cell.  The preview is a copy of
// the tile pre-drawn by the server for each orientation with its anchor at the origin, moved onto
// the anchor cell.  The move itself is posted by the hidden .act-form through htmx.
(function () {
  "use strict";

  function key(cell) { return cell[0] + "," + cell[1]; }

  function init(root) {
    ToposTable.centre(root.querySelector(".topo-board-wrap"));  // the first tile lies in the middle
    const data = root.querySelector("#topology-places");
    const form = root.querySelector("form.act-form");
    if (!data || !form) return;  // not this visitor's turn: nothing to click
    const places = JSON.parse(data.textContent);
    const svg = root.querySelector("svg.topo-board");
    const preview = svg.querySelector("use.preview");
    const spots = {};
    svg.querySelectorAll(".spot").forEach(function (el) { spots[el.dataset.cell] = el; });
    const handButtons = Array.from(root.querySelectorAll(".hand-tile"));
    const placeControls = root.querySelector(".place-controls");
    const turnoverControls = root.querySelector(".turnover-controls");
    const turnButton = placeControls.querySelector("[data-do=turn]");
    let tile = null, options = [], index = 0, cell = null, turnOverTile = null;

    function submit(action) { ToposTable.post(form, action); }

    function clearPreview() {
      preview.setAttribute("display", "none");
      options = []; index = 0; cell = null;
      placeControls.hidden = true;
      Object.values(spots).forEach(function (el) { el.classList.remove("chosen"); });
    }

    function selectTile(t) {
      tile = t;
      clearPreview();
      handButtons.forEach(function (b) { b.setAttribute("aria-pressed", String(+b.dataset.tile === t)); });
      const cells = new Set();
      places.forEach(function (a) { if (a.tile === t) a.cells.forEach(function (c) { cells.add(key(c)); }); });
      Object.entries(spots).forEach(function ([k, el]) { el.classList.toggle("on", cells.has(k)); });
    }

    function show() {
      const a = options[index];
      const anchor = spots[key(a.cells[0])];
      preview.setAttribute("href", "#tpl-" + a.tile + "-" + a.orientation);
      preview.setAttribute("transform", "translate(" + anchor.dataset.x + " " + anchor.dataset.y + ")");
      preview.removeAttribute("display");
      Object.values(spots).forEach(function (el) { el.classList.remove("chosen"); });
      a.cells.forEach(function (c) { spots[key(c)].classList.add("chosen"); });
      placeControls.hidden = false;
      turnButton.disabled = options.length < 2;
    }

    function chooseCell(k) {
      if (tile === null) return;
      if (k === cell && options.length) { turn(); return; }
      // Anchored on the clicked cell first (turning about it), then the placements ending on it.
      const here = places.filter(function (a) { return a.tile === tile && key(a.cells[0]) === k; });
      const ending = places.filter(function (a) { return a.tile === tile && key(a.cells[1]) === k; });
      options = here.concat(ending);
      if (!options.length) return;
      index = 0; cell = k;
      show();
    }

    function turn() {
      if (options.length < 2) return;
      index = (index + 1) % options.length;
      show();
    }

    handButtons.forEach(function (b) {
      b.addEventListener("click", function () { if (!b.disabled) selectTile(+b.dataset.tile); });
    });
    Object.entries(spots).forEach(function ([k, el]) {
      el.addEventListener("click", function () { if (el.classList.contains("on")) chooseCell(k); });
    });
    // Clicking the preview itself turns the tile, like clicking its cell again.
    preview.addEventListener("click", turn);
    root.addEventListener("keydown", function (e) {
      if ((e.key === "r" || e.key === "R") && options.length) { e.preventDefault(); turn(); }
    });
    root.querySelectorAll("[data-do=turn]").forEach(function (b) { b.addEventListener("click", turn); });
    root.querySelectorAll("[data-do=place]").forEach(function (b) {
      b.addEventListener("click", function () { if (options.length) submit(options[index]); });
    });
    root.querySelectorAll("[data-do=cancel]").forEach(function (b) {
      b.addEventListener("click", function () {
        clearPreview();
        turnoverControls.hidden = true;
        svg.querySelectorAll(".tile.picked").forEach(function (g) { g.classList.remove("picked"); });
      });
    });

    // Advanced variant: click a placed tile, then confirm turning it half a turn.
    svg.querySelectorAll(".tile.turnable").forEach(function (g) {
      g.addEventListener("click", function () {
        svg.querySelectorAll(".tile.picked").forEach(function (o) { o.classList.remove("picked"); });
        g.classList.add("picked");
        turnOverTile = +g.dataset.tile;
        turnoverControls.hidden = false;
      });
    });
    root.querySelectorAll("[data-do=turn-over]").forEach(function (b) {
      b.addEventListener("click", function () {
        if (turnOverTile !== null) submit({ type: "turn_over", tile: turnOverTile });
      });
    });

    const first = handButtons.find(function (b) { return !b.disabled; });
    if (first && places.length) selectTile(+first.dataset.tile);
  }

  ToposTable.boards(".topology", init);
})();
