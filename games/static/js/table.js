// Table pages: error notices for every table, and the helpers the game scripts share
// (topology.js, topoum.js and toppo.js load after this file; see templates/games/table.html).
(function () {
  "use strict";

  window.ToposTable = {
    // Call init(board) once for every `selector` board on the page now and in every htmx swap.
    boards: function (selector, init) {
      function once(root) {
        if (root.dataset.ready) return;
        root.dataset.ready = "1";
        init(root);
      }
      function scan(elt) {
        if (!elt || !elt.querySelectorAll) return;
        if (elt.matches(selector)) once(elt);
        elt.querySelectorAll(selector).forEach(once);
      }
      if (window.htmx) htmx.onLoad(scan);
      else document.addEventListener("DOMContentLoaded", function () { scan(document.body); });
    },
    // Post one action (a legal-action dict) through the table's hidden .act-form, which htmx sends.
    post: function (form, action) {
      form.querySelector("[name=action]").value = JSON.stringify(action);
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    },
    // A board wider or taller than the screen scrolls; start from its middle, where play begins.
    centre: function (wrap) {
      if (wrap && wrap.scrollWidth > wrap.clientWidth) wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
      if (wrap && wrap.scrollHeight > wrap.clientHeight) wrap.scrollTop = (wrap.scrollHeight - wrap.clientHeight) / 2;
    },
    // Keyboard play (issue 13): the lit cells of a board are one stop of the Tab order (a roving
    // tabindex).  The arrow keys move to the nearest lit cell in their direction on the screen, which on
    // a hex board is the neighbouring hex direction; Home and End go to the first and last; Enter or
    // Space chooses (choose(el)).  `live(el)` says whether a cell can be chosen now; call the returned
    // update() whenever that changes.
    roving: function (container, selector, live, choose) {
      let current = null;
      function items() { return Array.from(container.querySelectorAll(selector)).filter(live); }
      function centreOf(el) { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }
      function setCurrent(el) {
        container.querySelectorAll(selector).forEach(function (o) { o.setAttribute("tabindex", "-1"); });
        current = el;
        if (el) el.setAttribute("tabindex", "0");
      }
      function update() {
        const all = items();
        setCurrent(current && all.includes(current) ? current : all[0] || null);
        return current;
      }
      function nearest(from, dx, dy, all) {
        const [x0, y0] = centreOf(from);
        let best = null, bestScore = Infinity;
        all.forEach(function (el) {
          if (el === from) return;
          const [x, y] = centreOf(el);
          const ex = x - x0, ey = y - y0, dist = Math.hypot(ex, ey);
          const cos = dist ? (ex * dx + ey * dy) / dist : 0;
          if (cos < 0.4) return;  // within about 66 degrees of the arrow's direction
          const score = dist * (2 - cos);
          if (score < bestScore) { best = el; bestScore = score; }
        });
        return best;
      }
      container.addEventListener("keydown", function (e) {
        const el = e.target.closest ? e.target.closest(selector) : null;
        if (!el || !container.contains(el)) return;
        const all = items();
        const moves = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
        let to = null;
        if (moves[e.key]) {
          to = nearest(el, moves[e.key][0], moves[e.key][1], all);
          if (!to) {  // nothing that way: on in reading order
            const i = all.indexOf(el), step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : -1;
            to = all[(i + step + all.length) % all.length] || null;
          }
        } else if (e.key === "Home") to = all[0];
        else if (e.key === "End") to = all[all.length - 1];
        else if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          if (live(el)) choose(el, e);
          return;
        } else return;
        e.preventDefault();
        if (to) { setCurrent(to); to.focus(); }
      });
      container.addEventListener("focusin", function (e) {
        const el = e.target.closest ? e.target.closest(selector) : null;
        if (el && live(el)) setCurrent(el);
      });
      update();
      return { update: update, current: function () { return current; } };
    },
    // After a swap of the table, a keyboard player who was in it lands again on the thing she used if it
    // is still there, else on the first of `preferred` (elements or null) that can take focus.
    land: function (root, preferred) {
      if (!focusWanted) return;
      const same = focusWanted.identity && Array.from(root.querySelectorAll(focusWanted.identity.selector))
        .find(function (el) { return focusable(el) && identityOf(el).text === focusWanted.identity.text; });
      const target = same || preferred.find(function (el) { return el && focusable(el); });
      if (target) { focusWanted = null; target.focus(); }
    },
    // Tell a screen reader something short (what was chosen, what the turn asks).
    say: function (text) { announce(text); }
  };
  // --- focus across swaps, and the announcer -------------------------------------------------------
  let focusWanted = null;
  const KEYS = ["data-key", "data-cell", "data-tile", "data-line", "data-display", "data-call", "data-do"];
  function focusable(el) {
    if (!el || el.disabled || el.closest("[hidden]")) return false;
    if (el instanceof SVGElement && el.matches(".hot, .hot-arrow, .spot") && !el.classList.contains("on")) return false;  // a cell not lit now
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0;
  }
  function identityOf(el) {
    const attr = KEYS.find(function (k) { return el.hasAttribute(k); });
    if (attr) return { selector: "[" + attr + "]", text: attr + "=" + el.getAttribute(attr) };
    if (el.tagName === "BUTTON") return { selector: "button", text: "text=" + el.textContent.trim() };
    return null;
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    const region = document.getElementById("table-live");
    const active = document.activeElement;
    if (!region || e.detail.target !== region || !active || !region.contains(active) || active === region) return;
    // Only from the game itself: a field elsewhere in the table (a chat box) keeps its own focus rules.
    if (!active.closest(".topoum, .topology, .toppo, .generic-board, .tm-status, .topo-status, .tp-status")) return;
    focusWanted = { identity: identityOf(active) };
  });
  document.addEventListener("htmx:afterSettle", function () {
    // The game's script had its chance (ToposTable.land); otherwise the status line of the table.
    const region = document.getElementById("table-live");
    if (!focusWanted || !region) return;
    focusWanted = null;
    const status = region.querySelector(".tm-status, .topo-status, .tp-status, .table-head h1");
    if (status) { status.setAttribute("tabindex", "-1"); status.focus(); }
  });
  let announcer = null, lastSaid = "";
  function announce(text) {
    text = (text || "").replace(/\s+/g, " ").trim();
    if (!text || text === lastSaid) return;
    lastSaid = text;
    if (!announcer) {
      announcer = document.createElement("div");
      announcer.id = "table-announcer";
      announcer.className = "visually-hidden";
      announcer.setAttribute("aria-live", "polite");
      announcer.setAttribute("role", "status");
      document.body.appendChild(announcer);
    }
    announcer.textContent = text;
  }
  // Each fresh table: the newest line of the log and what the game asks now.  Outside the swapped
  // region, so screen readers hear it (a live region that is itself replaced is not read out).
  if (window.htmx) {
    htmx.onLoad(function (elt) {
      const region = document.getElementById("table-live");
      if (!region || !elt || !(elt === region || elt.id === "table-board" || (elt.contains && elt.contains(region)))) return;
      const newest = region.querySelector(".log-lines li");
      const status = region.querySelector(".tm-status, .topo-status, .tp-status");
      announce([newest ? newest.textContent : "", status ? status.textContent : ""].join(" · "));
    });
  }
  // A board fits the width of its box (a phone shows all of it, issue 13).  Where that makes it smaller
  // than its data-min-width (pixels: a cell big enough to tap), the board's Zoom button (.zoom-toggle)
  // shows: zoomed, the board keeps its comfortable width and its box scrolls (pans).  Set here, not in a
  // style="" attribute, which the CSP forbids; registered before the game scripts' own handlers, so
  // they centre a board of its final width.
  const zoomed = {};  // board class -> zoomed, kept across the swaps of one page
  function zoomSetup(board) {
    const wrap = board.parentElement;
    const button = wrap && wrap.querySelector(".zoom-toggle");
    const name = board.getAttribute("class");
    function apply() {
      const on = !!zoomed[name];
      board.style.minWidth = on ? Math.max(+board.dataset.minWidth, 1.8 * wrap.clientWidth) + "px" : "";
      if (button) button.setAttribute("aria-pressed", String(on));
    }
    if (button) {
      button.hidden = !(wrap.clientWidth < +board.dataset.minWidth || zoomed[name]);
      button.addEventListener("click", function () {
        zoomed[name] = !zoomed[name];
        apply();
        window.ToposTable.centre(wrap);
      });
    }
    apply();
  }
  if (window.htmx) {
    htmx.onLoad(function (elt) {
      if (!elt || !elt.querySelectorAll) return;
      const boards = Array.from(elt.querySelectorAll("[data-min-width]"));
      if (elt.matches("[data-min-width]")) boards.push(elt);
      boards.forEach(zoomSetup);
    });
  }
  // A refusal the site rendered as a table fragment (403 not your seat, 404 gone, 429 a limit ran out)
  // replaces the table like 400/409 do; other error pages (a CSRF failure, a server error) are never swapped in.
  document.addEventListener("htmx:beforeSwap", function (e) {
    const xhr = e.detail.xhr;
    if ([403, 404, 429].includes(xhr.status) && xhr.getResponseHeader("X-Topos-Fragment") === "1") {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    } else if (xhr.status >= 500 || (xhr.status >= 401 && xhr.status !== 409)) {
      const notices = document.querySelector("#table-live .notices");
      if (notices && !xhr.getResponseHeader("HX-Redirect")) {
        notices.innerHTML = "";
        const p = document.createElement("p");
        p.className = "notice error";
        p.textContent = notices.dataset.failed || "Something went wrong; reload the page.";
        notices.appendChild(p);
      }
    }
  });
  // The table's event stream (/api/tables/<id>/stream/): as soon as it announces a stamp other than the
  // one shown, the poller asks for the fresh region.  While the stream is connected the poller's own
  // ticks go through only every FALLBACK_MS (in case an announcement was missed); while it is down
  // (the browser reconnects by itself) they all do, as before.
  const FALLBACK_MS = 10000;
  const stream = { source: null, url: "", connected: false, wanted: false, lastPoll: 0 };
  function liveRegion() { return document.getElementById("table-live"); }
  function follow() {
    const region = liveRegion();
    const url = (region && region.querySelector(".poller") && region.dataset.stream) || "";
    if (url === stream.url) return;
    if (stream.source) stream.source.close();  // the game is over, or this is another table
    stream.source = null;
    stream.connected = false;
    stream.url = url;
    if (!url || !window.EventSource) return;
    const source = new EventSource(url);
    source.onopen = function () { stream.connected = true; };
    source.onerror = function () { stream.connected = false; };
    source.addEventListener("table", function (e) {
      const now = liveRegion();
      const poller = now && now.querySelector(".poller");
      if (!poller || JSON.parse(e.data).stamp === poller.dataset.stamp) return;
      stream.wanted = true;
      htmx.trigger(poller, "topos:changed");
    });
    // The chat's stamp as this viewer reads it (issue 17): chat.js refreshes the chat when it differs.
    source.addEventListener("chat", function (e) {
      document.dispatchEvent(new CustomEvent("topos:chat-stamp", { detail: JSON.parse(e.data).stamp }));
    });
    stream.source = source;
  }
  window.ToposTable.stream = stream;
  // A move's answer (issue 16) swaps in only the parts a move changes, out of band, the poller among them: it
  // brings what the page now shows (version, stamp, what its log holds), copied here onto the region, whose
  // htmx requests (moves, the poller) send the log mark and whose data-* tests and scripts read.
  if (window.htmx) {
    htmx.onLoad(function (elt) {
      const region = liveRegion();
      if (!region || !elt || elt.id !== "table-poller" || !region.contains(elt)) return;
      region.dataset.version = elt.dataset.version;
      region.dataset.stamp = elt.dataset.stamp;
      region.setAttribute("hx-headers", elt.getAttribute("hx-headers"));
    });
  }
  if (window.htmx) htmx.onLoad(follow);
  // The poller asks nothing while the tab is hidden (a filter in hx-trigger would need eval, which the
  // Content-Security-Policy forbids), and little while the stream is connected.
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (!e.detail.elt.classList.contains("poller")) return;
    const now = Date.now();
    if (document.hidden || (stream.connected && !stream.wanted && now - stream.lastPoll < FALLBACK_MS)) {
      e.preventDefault();
      return;
    }
    stream.wanted = false;
    stream.lastPoll = now;
  });
  // After a refusal, bring its message into view (phones).
  document.addEventListener("htmx:afterSettle", function () {
    const notice = document.querySelector("#table-live .notice.error");
    if (notice && notice.getBoundingClientRect().top < 0) notice.scrollIntoView({ block: "nearest" });
  });
})();
