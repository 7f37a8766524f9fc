// Toppo at the table: lay line cards onto display cards, then shout top or match.
//
// Nothing here knows which calls are right (ruling P3): the page posts whatever the player built
// and the server judges.  Click a line card to pick it, then a display card to lay it there (the
// next free line card is picked for you).  "Top!" posts the order when every display card has
// exactly one line card; "Match!" posts the pairs laid so far.  A live table is redrawn every
// second while others play, so the arrangement is kept in sessionStorage for as long as the line
// and the display stay the same (also across a refused shout, so she can shout again at once).
(function () {
  "use strict";

  function init(root) {
    const form = root.querySelector("form.act-form");
    const lineCards = Array.from(root.querySelectorAll(".tp-line-card"));
    const displayCards = Array.from(root.querySelectorAll(".tp-display-card"));
    if (!form || !lineCards.length) {  // nothing to arrange
      ToposTable.land(root, [root.querySelector(".tp-reveal button, button.tp-reveal"),
        root.querySelector(".tp-choose button"), root.querySelector(".tp-calls button:not(:disabled)"),
        root.querySelector(".tp-votes button")]);
      return;
    }
    const problem = root.querySelector(".tp-call-problem");
    // The arrangement belongs to this line on this display: their drawings name both.
    const signature = [root.dataset.table, root.dataset.hand,
      lineCards.map(function (b) { return b.querySelector("svg").getAttribute("aria-label"); }).join("|"),
      displayCards.map(function (b) { return b.querySelector("svg").getAttribute("aria-label"); }).join("|")].join("/");
    const storeKey = "toppo-arrangement:" + root.dataset.table;
    let onto = {};       // line position -> display position
    let picked = null;   // the line position picked, waiting for a display card
    // Picked by the page (the next free card after one was laid), not by her: her Enter or click on it keeps it
    // picked instead of putting it back (decision 26, point 5: no pre-picked card that Enter toggles off).
    let autoPicked = false;

    function load() {
      try {
        const saved = JSON.parse(sessionStorage.getItem(storeKey) || "null");
        if (saved && saved.signature === signature) { onto = saved.onto || {}; picked = saved.picked; }
      } catch (e) { /* storage unavailable: start afresh */ }
    }

    function save() {
      try { sessionStorage.setItem(storeKey, JSON.stringify({ signature: signature, onto: onto, picked: picked })); }
      catch (e) { /* ignore */ }
    }

    function nextFree() {
      const free = lineCards.map(function (b) { return +b.dataset.line; }).filter(function (j) { return !(j in onto); });
      return free.length ? free[0] : null;
    }

    function draw() {
      lineCards.forEach(function (b) {
        const j = +b.dataset.line;
        b.setAttribute("aria-pressed", String(j === picked));
        b.classList.toggle("laid", j in onto);
        const tag = b.querySelector(".tp-onto");
        tag.hidden = !(j in onto);
        tag.textContent = j in onto ? "→ " + (onto[j] + 1) : "";
      });
      displayCards.forEach(function (b) {
        b.disabled = picked === null && !Object.values(onto).includes(+b.dataset.display);
        b.classList.toggle("target", picked !== null);
      });
      root.querySelectorAll(".tp-laid").forEach(function (box) {
        box.textContent = "";
        const d = +box.dataset.laid;
        Object.keys(onto).forEach(function (j) {
          if (onto[j] !== d) return;
          const svg = lineCards[+j].querySelector("svg").cloneNode(true);
          svg.classList.add("mini");
          box.appendChild(svg);
        });
      });
      if (problem) problem.hidden = true;
      save();
    }

    function submit(action) {
      // The arrangement stays stored: if the shout is refused (the game moved on, a live table's
      // version changes with every reveal), the same line on the same display comes back laid out.
      ToposTable.post(form, action);
    }

    function complain(which) {
      if (!problem) return;
      problem.textContent = problem.dataset[which];
      problem.hidden = false;
    }

    lineCards.forEach(function (b) {
      b.addEventListener("click", function (e) {
        const j = +b.dataset.line;
        if (j in onto) { delete onto[j]; picked = j; }
        else if (picked === j && autoPicked) { /* she confirms the page's pick */ }
        else picked = picked === j ? null : j;
        autoPicked = false;
        draw();
        // From the keyboard (a click with no mouse detail), on to the display cards (decision 13).
        if (e.detail === 0 && picked !== null) {
          const target = displayCards.find(function (c) { return !c.disabled; });
          if (target) target.focus();
        }
      });
    });
    displayCards.forEach(function (b) {
      b.addEventListener("click", function (e) {
        const d = +b.dataset.display;
        if (picked === null) {
          // Clicking a display card with nothing picked takes back what lies on it.
          Object.keys(onto).forEach(function (j) { if (onto[j] === d) delete onto[j]; });
        } else {
          onto[picked] = d;
          picked = nextFree();
          autoPicked = picked !== null;
        }
        draw();
        // From the keyboard: the next display card while a line card is picked, else the shouts.
        if (e.detail === 0) {
          const next = picked === null ? null
            : displayCards.slice(d + 1).concat(displayCards.slice(0, d + 1)).find(function (c) { return !c.disabled; });
          const call = root.querySelector(".tp-calls [data-call=top]:not(:disabled)");
          if (next) next.focus(); else if (call) call.focus();
        }
      });
    });
    root.querySelectorAll("[data-do=clear]").forEach(function (b) {
      b.addEventListener("click", function () { onto = {}; picked = null; autoPicked = false; draw(); });
    });
    root.querySelectorAll("[data-call=top]").forEach(function (b) {
      b.addEventListener("click", function () {
        const size = displayCards.length;
        const order = new Array(size).fill(null);
        let ok = Object.keys(onto).length === lineCards.length && lineCards.length === size;
        Object.keys(onto).forEach(function (j) {
          if (order[onto[j]] !== null) ok = false;
          order[onto[j]] = +j;
        });
        if (!ok || order.includes(null)) { complain("top"); return; }
        submit({ type: "top", order: order });
      });
    });
    root.querySelectorAll("[data-call=match]").forEach(function (b) {
      b.addEventListener("click", function () {
        const pairs = Object.keys(onto).map(Number).sort(function (a, c) { return a - c; })
          .map(function (j) { return [j, onto[j]]; });
        if (!pairs.length) { complain("match"); return; }
        submit({ type: "match", pairs: pairs });
      });
    });
    // Keyboard: 1-5 lays the picked card on that display card.
    root.addEventListener("keydown", function (e) {
      const d = parseInt(e.key, 10) - 1;
      if (picked !== null && d >= 0 && d < displayCards.length) { e.preventDefault(); displayCards[d].click(); }
    });

    load();  // nothing is picked for her at first (decision 26, point 5): her first Enter on a card picks it
    draw();
    ToposTable.land(root, [lineCards.find(function (b) { return !b.disabled; }),
      root.querySelector(".tp-calls button:not(:disabled)"), root.querySelector(".tp-reveal button, button.tp-reveal")]);
  }

  ToposTable.boards(".toppo", init, ".tp-status");

  // Keys for the live race (decision 26): T the top the page found, M its biggest match, N renew, R reveal;
  // not while typing (the chat) or with a modifier held.
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    const t = e.target;
    if (t && (t.isContentEditable || (t.closest && t.closest("input, textarea, select")))) return;
    const root = document.querySelector(".toppo");
    if (!root) return;
    const which = { t: "[data-claim=top]", m: "[data-claim=match]", n: "button.tp-renew", r: "button.tp-reveal" }[e.key.toLowerCase()];
    const button = which && root.querySelector(which);
    if (!button || button.disabled) return;
    e.preventDefault();
    button.click();
  });
})();
