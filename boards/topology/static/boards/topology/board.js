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
    if (!data || !form) { ToposTable.land(root, []); return; }  // not this visitor's turn: nothing to click
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
    let roving = null;  // the keyboard's walk over the lit cells, set up below

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
      Object.entries(spots).forEach(function ([k, el]) {
        el.classList.toggle("on", cells.has(k));
        if (cells.has(k)) el.removeAttribute("aria-hidden"); else el.setAttribute("aria-hidden", "true");
      });
      if (roving) roving.update();
      ToposTable.fit(svg);  // on a phone, zoomed until the lit cells are big enough for a thumb
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
      // For a screen reader: where the tile lies now and how to go on (decision 13).
      const say = placeControls.dataset.shown || "";
      ToposTable.say(say.replace("{cells}", a.cells.map(function (c) { return spots[key(c)].getAttribute("aria-label"); }).join(" + "))
        .replace("{n}", index + 1).replace("{of}", options.length));
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
      b.addEventListener("click", function (e) {
        if (b.disabled) return;
        selectTile(+b.dataset.tile);
        // Picked from the keyboard (a click with no mouse detail): on to the board's lit cells.
        if (e.detail === 0 && roving.current()) roving.current().focus();
      });
    });
    Object.entries(spots).forEach(function ([k, el]) {
      el.addEventListener("click", function () { if (el.classList.contains("on")) chooseCell(k); });
    });
    // Clicking the preview itself turns the tile, like clicking its cell again.
    preview.addEventListener("click", turn);
    // Keyboard (decision 13): the lit cells are one Tab stop, the arrow keys move between them; Enter on a
    // cell shows the tile there, Enter again places it, R turns it.
    roving = ToposTable.roving(svg, ".spot", function (el) { return el.classList.contains("on"); },
      function (el) {
        const k = el.dataset.cell;
        if (k === cell && options.length) submit(options[index]);
        else chooseCell(k);
      });
    // R turns the tile wherever the focus is (a clicked cell of the SVG takes none, and the focus then
    // stays on the page's body), except while typing in a field.
    document.addEventListener("keydown", function (e) {
      if (!root.isConnected || e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target;
      if (t && t.closest && t.closest("input, textarea, select, [contenteditable]")) return;
      if ((e.key === "r" || e.key === "R") && options.length) { e.preventDefault(); turn(); }
      else if (e.key === "Escape" && options.length) {
        const back = cell && spots[cell];
        clearPreview();
        if (back && root.contains(document.activeElement)) back.focus();
      }
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
      function pick() {
        svg.querySelectorAll(".tile.picked").forEach(function (o) { o.classList.remove("picked"); });
        g.classList.add("picked");
        turnOverTile = +g.dataset.tile;
        turnoverControls.hidden = false;
      }
      g.addEventListener("click", pick);
      // Focusable, so the advanced variant's choice is made from the keyboard too.
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.addEventListener("keydown", function (e) {
        if (e.key !== "Enter" && e.key !== " ") return;
        e.preventDefault();
        pick();
        const confirm = turnoverControls.querySelector("[data-do=turn-over]");
        if (confirm) confirm.focus();
      });
    });
    root.querySelectorAll("[data-do=turn-over]").forEach(function (b) {
      b.addEventListener("click", function () {
        if (turnOverTile !== null) submit({ type: "turn_over", tile: turnOverTile });
      });
    });

    const first = handButtons.find(function (b) { return !b.disabled; });
    if (first && places.length) selectTile(+first.dataset.tile);
    roving.update();
    ToposTable.land(root, [roving.current(), first, root.querySelector(".turn-controls button.primary"),
      root.querySelector(".turn-controls button"), svg.querySelector(".tile.turnable")]);
  }

  ToposTable.boards(".topology", init, ".topo-status");
})();
