// Topoum at the table: click a highlighted space, card or button, confirm, and the action is posted.
//
// The server embeds every legal action with its click path (#topoum-paths): one key ("q,r", "hand:x",
// "line:3", "dir:2", "change_tile", "beside", "none") or two (a mole, then where it goes; a farmer
// tile, then where it goes).  Highlighted are exactly the first keys, or, once a first key that
// starts two-step paths is chosen, exactly its second keys.  The last click opens a small choice
// bar naming the action(s); clicking the same key again or a button there posts it through the
// hidden .act-form (htmx), with the version the page showed.
(function () {
  "use strict";

  function init(root) {
    ToposTable.centre(root.querySelector(".tm-board-wrap"));
    const data = root.querySelector("#topoum-paths");
    const form = root.querySelector("form.act-form");
    if (!data || !form) { ToposTable.land(root, []); return; }  // not this visitor's decision
    const paths = JSON.parse(data.textContent);
    const keyed = Array.from(root.querySelectorAll("[data-key]"));
    const choice = root.querySelector(".tm-choice");
    const choiceButtons = choice.querySelector(".tm-choice-buttons");
    const choiceWhere = choice.querySelector(".tm-choice-where");
    const sourceHint = root.querySelector(".tm-source-hint");
    let source = null;       // the first key of a two-step path, once chosen
    let chosen = null;       // the key whose actions the choice bar offers
    let candidates = [];

    function submit(action) {
      keyed.forEach(function (el) { el.classList.add("busy"); });
      ToposTable.post(form, action);
    }

    // What choosing a key does now (first steps, or where the chosen piece goes), for its accessible name.
    function labelsNow(k) {
      const seen = [];
      paths.forEach(function (p) {
        const hit = source === null ? p.path[0] === k : p.path.length === 2 && p.path[0] === source && p.path[1] === k;
        if (hit && !seen.includes(p.label)) seen.push(p.label);
      });
      return seen;
    }

    function refresh() {
      const on = new Set();
      paths.forEach(function (p) {
        if (source === null) on.add(p.path[0]);
        else if (p.path.length === 2 && p.path[0] === source) on.add(p.path[1]);
      });
      keyed.forEach(function (el) {
        const k = el.dataset.key;
        const live = on.has(k) || k === source;
        el.classList.toggle("on", live);
        el.classList.toggle("source", k === source);
        el.classList.toggle("chosen", k === chosen);
        if (el.tagName === "BUTTON") el.disabled = !live;
        else {
          // A board cell: named by what lies there and what choosing it does.
          if (el.dataset.base === undefined) el.dataset.base = el.getAttribute("aria-label") || "";
          const words = [el.dataset.base].concat(labelsNow(k)).filter(Boolean);
          el.setAttribute("aria-label", words.join(": "));
          if (live) el.removeAttribute("aria-hidden"); else el.setAttribute("aria-hidden", "true");
        }
      });
      sourceHint.hidden = source === null || chosen !== null;
      if (cells) { cells.update(); ToposTable.fit(svg); }  // on a phone, zoomed until the lit spaces suit a thumb
    }

    function hideChoice() {
      chosen = null;
      candidates = [];
      choice.hidden = true;
      choiceButtons.textContent = "";
    }

    function showChoice(k, list) {
      chosen = k;
      candidates = list;
      choiceButtons.textContent = "";
      choiceWhere.textContent = list[0].where || "";
      list.forEach(function (p) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = list.length === 1 ? "primary" : "secondary";
        button.textContent = p.label;
        button.addEventListener("click", function () { submit(p.action); });
        choiceButtons.appendChild(button);
      });
      choice.hidden = false;
      ToposTable.say([list[0].where || ""].concat(list.map(function (p) { return p.label; })).join(" "));
    }

    function cancel() {
      source = null;
      hideChoice();
      refresh();
    }

    function click(k) {
      if (k === chosen && candidates.length === 1) { submit(candidates[0].action); return; }
      if (source !== null) {
        if (k === source) { cancel(); return; }
        hideChoice();
        const ends = paths.filter(function (p) { return p.path.length === 2 && p.path[0] === source && p.path[1] === k; });
        if (ends.length) showChoice(k, ends);
        refresh();
        return;
      }
      hideChoice();
      const singles = paths.filter(function (p) { return p.path.length === 1 && p.path[0] === k; });
      if (paths.some(function (p) { return p.path.length === 2 && p.path[0] === k; })) source = k;
      if (singles.length) showChoice(k, singles);
      refresh();
    }

    keyed.forEach(function (el) {
      el.addEventListener("click", function (e) {
        if (!el.classList.contains("on")) return;
        click(el.dataset.key);
        // A button pressed from the keyboard (a click with no mouse detail): on to the bar that confirms.
        if (el.tagName === "BUTTON" && e.detail === 0 && !choice.hidden && source === null) {
          const first = choiceButtons.querySelector("button");
          if (first) first.focus();
        }
      });
    });
    root.querySelectorAll("[data-do=cancel]").forEach(function (b) { b.addEventListener("click", cancel); });
    root.addEventListener("keydown", function (e) {
      if (e.key !== "Escape") return;
      const back = source !== null || choice.contains(document.activeElement);
      cancel();
      const cell = back && cells.update();
      if (cell) cell.focus();
    });

    // Keyboard (decision 13): the lit spaces and arrows of the board are one Tab stop; Enter chooses.  A
    // choice that ends an action moves the focus to the bar that confirms it; a piece that goes somewhere
    // keeps it on the board, where its destinations are lit now.
    const svg = root.querySelector("svg.tm-board");
    let cells = null;
    cells = ToposTable.roving(svg, ".hot[data-key], .hot-arrow[data-key]",
      function (el) { return el.classList.contains("on"); },
      function (el) {
        click(el.dataset.key);
        if (!choice.hidden) {
          const first = choiceButtons.querySelector("button");
          if (first && source === null) first.focus();
          else el.focus();
        } else {
          const now = cells.update();
          if (now && source !== null) now.focus();
        }
      });
    refresh();
    ToposTable.land(root, [cells.current(), root.querySelector("button.tm-card.on"),
      root.querySelector(".tm-extra-keys button.on, button.tm-dir.on"),
      root.querySelector(".tm-decision .turn-controls button")]);
  }

  ToposTable.boards(".topoum", init, ".tm-status");
})();
