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
    if (!data || !form) return;  // not this visitor's decision
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
      });
      sourceHint.hidden = source === null || chosen !== null;
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
      el.addEventListener("click", function () { if (el.classList.contains("on")) click(el.dataset.key); });
    });
    root.querySelectorAll("[data-do=cancel]").forEach(function (b) { b.addEventListener("click", cancel); });
    root.addEventListener("keydown", function (e) { if (e.key === "Escape") cancel(); });
    refresh();
  }

  ToposTable.boards(".topoum", init);
})();
