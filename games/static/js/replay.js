// The replay page without reloads (decision 26): a step fetches only the board at that move (?part=step, a fragment
// of games/_replay_step.html) and swaps it in; the controls, the log and the scroll stay where they are, the log's
// current row follows, the address says the move (history.pushState, so a link to a move works and Back steps back)
// and the next positions are fetched ahead.  The step links, the log rows, the arrow keys, Home/End and the slider
// all step this way; without JavaScript the links and the slider's form load the page as before.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
  var AHEAD = [1, 2, 3, -1];  // positions fetched ahead of the one shown
  var cache = new Map();  // ply -> Promise of {html, node}: the fragment's HTML and, until shown, it parsed
  var section, step, slider, label, plies, wanted;

  function ply() { return Number(section.dataset.ply); }
  function clamp(n) { return Math.max(0, Math.min(plies, n)); }
  function address(n) { return window.location.pathname + "?ply=" + n; }

  function load(n) {
    if (!cache.has(n)) {
      var answer = fetch(address(n) + "&part=step", { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      }).then(function (html) {
        return { html: html, node: parse(html) };  // parsed ahead too: a step only puts it in place
      });
      answer.catch(function () { cache.delete(n); });
      cache.set(n, answer);
    }
    return cache.get(n);
  }

  function preload(n) {
    AHEAD.forEach(function (d) { if (n + d >= 0 && n + d <= plies) load(n + d); });
  }

  function markLogRow(seq) {
    var list = document.querySelector(".replay-log");
    if (!list) return;
    list.querySelectorAll("li.current").forEach(function (li) {
      li.classList.remove("current");
      li.removeAttribute("aria-current");
    });
    var row = seq !== "0" && list.querySelector('li[data-seq="' + seq + '"]');
    if (!row) return;
    row.classList.add("current");
    row.setAttribute("aria-current", "step");
    // Scrolled inside the log's own box only: the page itself never moves (scrollIntoView would move it).
    var top = row.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
    var bottom = top + row.offsetHeight;
    if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - (list.clientHeight - row.offsetHeight) / 2;
    }
  }

  function parse(html) {
    var holder = document.createElement("template");
    holder.innerHTML = html;
    var node = holder.content.getElementById("replay-step");
    if (!node) throw new Error("no step in the answer");
    return node;
  }

  function swap(entry, n) {
    var fresh = entry.node || parse(entry.html);
    entry.node = null;  // in the page now: shown again later, it is parsed again
    step.replaceWith(fresh);
    step = fresh;
    section.dataset.ply = String(n);
    if (slider) slider.value = String(n);
    if (label) label.textContent = fresh.dataset.label;
    var to = { first: 0, back: clamp(n - 1), forward: clamp(n + 1), last: plies };
    Object.keys(to).forEach(function (name) {
      var link = document.getElementById("replay-" + name);
      if (link) link.setAttribute("href", "?ply=" + to[name]);
    });
    markLogRow(fresh.dataset.seq);
  }

  // mode: "push" adds the move to the history, "replace" rewrites the current entry, null leaves it.
  function show(n, mode) {
    n = clamp(n);
    wanted = n;
    var started = performance.now();
    return load(n).then(function (entry) {
      if (wanted !== n) return;  // a later step was asked meanwhile
      var fetched = performance.now();
      swap(entry, n);
      if (mode === "push" && window.location.search !== "?ply=" + n) window.history.pushState({ ply: n }, "", address(n));
      if (mode === "replace") window.history.replaceState({ ply: n }, "", address(n));
      // The benchmark (bench/bench_replay_steps.py) and the browser test read how long the last step took.
      var steps = ((window.toposReplay && window.toposReplay.steps) || 0) + 1;
      var now = performance.now();
      window.toposReplay = { ply: n, stepMs: now - started, swapMs: now - fetched, steps: steps };
      preload(n);
    }).catch(function () {
      // The fragment failed: the whole page, as without JavaScript (unless another step was asked since).
      if (wanted === n) window.location.assign(address(n));
    });
  }

  function plyOf(href) {
    var match = /[?&]ply=(\d+)/.exec(href || "");
    return match ? Number(match[1]) : null;
  }

  document.addEventListener("keydown", function (event) {
    var name = KEYS[event.key];
    var target = event.target;
    if (!name || !section || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    // Typing in a field keeps its own keys (the slider moves itself and shows where it stops).
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    var link = document.getElementById("replay-" + name);
    var n = link && plyOf(link.getAttribute("href"));
    if (n === null) return;
    event.preventDefault();
    show(n, "push");
  });

  document.addEventListener("DOMContentLoaded", function () {
    section = document.getElementById("replay");
    step = document.getElementById("replay-step");
    if (!section || !step) return;
    plies = Number(section.dataset.plies);
    slider = document.getElementById("replay-ply");
    label = document.getElementById("replay-label");
    window.toposReplay = { ply: ply(), stepMs: null, steps: 0 };

    section.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a[href^='?ply=']");
      if (!link || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      var n = plyOf(link.getAttribute("href"));
      if (n === null) return;
      event.preventDefault();
      show(n, "push");
    });
    if (slider) {
      slider.addEventListener("input", function () { show(Number(slider.value), null); });
      slider.addEventListener("change", function () { show(Number(slider.value), "push"); });
      slider.form.addEventListener("submit", function (event) {
        event.preventDefault();
        show(Number(slider.value), "push");
      });
    }
    window.addEventListener("popstate", function () {
      var n = plyOf(window.location.search);
      show(n === null ? plies : n, null);
    });

    markLogRow(step.dataset.seq);
    preload(ply());
  });
})();
