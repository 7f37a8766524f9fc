// Table pages: error notices for every table, and the helpers the game scripts share
// (each game's boards/<game>/board.js loads after this file, found by the boards' registry: games/templates/games/table.html).
(function () {
  "use strict";

  // What belongs to the game on the page (its board, its status line), as the game scripts declare them through
  // ToposTable.boards: this file names no game.  The generic board has no script of its own.
  const gameParts = [".generic-board"], statusLines = [];

  window.ToposTable = {
    // Call init(board) once for every `selector` board on the page now and in every htmx swap; `status` is the
    // selector of the board's status line (where the focus goes when the swap took the focused element away).
    boards: function (selector, init, status) {
      gameParts.push(selector);
      if (status) statusLines.push(status);
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
    // Keyboard play (decision 13): the lit cells of a board are one stop of the Tab order (a roving
    // tabindex).  The arrow keys move to the nearest lit cell in their direction on the screen, which on
    // a hex board is the neighbouring hex direction; Home and End go to the first and last; Enter or
    // Space chooses (choose(el)).  `live(el)` says whether a cell can be chosen now; call the returned
    // update() whenever that changes.
    //
    // The cell the Tab stop starts on is the lit one nearest the last move (decision 26, point 5): the board's
    // element marked data-last-move (Topology's last tile, Topoum's mole in play), else the middle of what the
    // board's box shows.
    roving: function (container, selector, live, choose) {
      let current = null;
      function items() { return Array.from(container.querySelectorAll(selector)).filter(live); }
      function centreOf(el) { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }
      function setCurrent(el) {
        container.querySelectorAll(selector).forEach(function (o) { o.setAttribute("tabindex", "-1"); });
        current = el;
        if (el) el.setAttribute("tabindex", "0");
      }
      function first(all) {
        if (all.length < 2) return all[0] || null;
        return nearestTo(anchorOf(container), all);
      }
      function update() {
        const all = items();
        setCurrent(current && all.includes(current) ? current : first(all));
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
    say: function (text) { announce(text); },
    // Call after the lit targets of `board` (an svg with data-min-width) changed: on a phone it zooms in until
    // each is big enough for a thumb and brings them into view (decision 26, point 3).
    fit: function (board) { if (board && board._fit) board._fit(); }
  };
  // --- the last move, and the lit target nearest it --------------------------------------------------
  function centre(el) { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }
  // A point on the screen: the centre of the board's [data-last-move], else of the part of the board its box shows.
  function anchorOf(board) {
    const mark = board.querySelector("[data-last-move]");
    if (mark && mark.getBoundingClientRect().width) return centre(mark);
    const wrap = board.parentElement;
    return centre(wrap && wrap.getBoundingClientRect().width ? wrap : board);
  }
  function nearestTo(point, all) {
    let best = all[0] || null, bestDist = Infinity;
    all.forEach(function (el) {
      const [x, y] = centre(el), dist = Math.hypot(x - point[0], y - point[1]);
      if (dist < bestDist) { best = el; bestDist = dist; }
    });
    return best;
  }
  // --- the skip link (decision 26, point 5) ---------------------------------------------------------------
  // "Skip to the board", first in the Tab order (games/templates/games/table.html), lands on the board's first
  // target: the lit cell the keyboard starts on, else the first card or button that plays, else the board.
  const ENTRY = [".spot.on[tabindex='0'], .hot.on[tabindex='0'], .hot-arrow.on[tabindex='0']", "button.tm-card.on", ".tm-extra-keys button.on", "button.tm-dir.on",
    ".tp-line-card:not(:disabled)", ".tp-choose button", ".tp-reveal", ".tp-calls button:not(:disabled)",
    ".hand-tile:not(:disabled)", ".turn-controls button", ".tp-votes button", "svg .tile.turnable"];
  document.addEventListener("click", function (e) {
    const link = e.target.closest && e.target.closest("a.skip-board");
    if (!link) return;
    const board = document.getElementById("table-board") || document.getElementById("table-live");
    if (!board) return;
    e.preventDefault();
    let target = null;
    ENTRY.some(function (sel) {
      target = Array.from(board.querySelectorAll(sel)).find(focusable) || null;
      return !!target;
    });
    if (!target) { target = board; if (!board.hasAttribute("tabindex")) board.setAttribute("tabindex", "-1"); }
    target.focus();
    if (target.scrollIntoView) target.scrollIntoView({ block: "nearest", inline: "nearest" });
  });
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
    if (!active.closest(gameParts.concat(statusLines).join(", "))) return;
    focusWanted = { identity: identityOf(active) };
  });
  document.addEventListener("htmx:afterSettle", function () {
    // The game's script had its chance (ToposTable.land); otherwise the status line of the table.
    const region = document.getElementById("table-live");
    if (!focusWanted || !region) return;
    focusWanted = null;
    const status = region.querySelector(statusLines.concat([".table-head h1"]).join(", "));
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
  // A board fits the width of its box (a phone shows all of it, decision 13).  Where that makes it smaller
  // than its data-min-width (pixels: a cell big enough to tap), the board's Zoom button (.zoom-toggle)
  // shows: zoomed, the board keeps its comfortable width and its box scrolls (pans).  Set here, not in a
  // style="" attribute, which the CSP forbids; registered before the game scripts' own handlers, so
  // they centre a board of its final width.
  //
  // On a phone (a touch screen, or a narrow one) the board also zooms by itself while targets are lit (decision 26,
  // point 3): until the smallest lit target is THUMB pixels across, scrolled so the lit targets nearest the last
  // move are in view; the lit cells can then all be reached by panning the board's box.  Her Zoom button turns
  // that off and on again (zoomed[name]: undefined = by itself, false = the whole board, true = zoomed).
  const THUMB = 44;  // a little over the 40 px the issue asks for, so rounding never takes a target under it
  const LIT = ".spot.on, .hot.on, .hot-arrow.on";
  const zoomed = {};  // board class -> zoomed, kept across the swaps of one page
  function phoneLike() {
    return window.innerWidth < 700 || (window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
  }
  function zoomSetup(board) {
    const wrap = board.parentElement;
    const button = wrap && wrap.querySelector(".zoom-toggle");
    const name = board.getAttribute("class");
    function lit() { return Array.from(board.querySelectorAll(LIT)).filter(function (el) { return el.getBoundingClientRect().width > 0; }); }
    // Bring the lit targets into view: all of them if they fit the box, else those around the one nearest the last move.
    function show(targets) {
      if (!targets.length || !wrap) return;
      const box = wrap.getBoundingClientRect();
      let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
      targets.forEach(function (el) {
        const r = el.getBoundingClientRect();
        left = Math.min(left, r.left); top = Math.min(top, r.top); right = Math.max(right, r.right); bottom = Math.max(bottom, r.bottom);
      });
      let cx = (left + right) / 2, cy = (top + bottom) / 2;
      if (right - left > box.width || bottom - top > box.height) [cx, cy] = centre(nearestTo(anchorOf(board), targets));
      wrap.scrollLeft += cx - (box.left + box.width / 2);
      wrap.scrollTop += cy - (box.top + box.height / 2);
    }
    function fit() {
      const state = zoomed[name];
      const auto = state === undefined && phoneLike();
      board.style.minWidth = "";
      const targets = lit();
      let width = 0;
      if (state === true || auto) {
        const smallest = Math.min.apply(null, targets.map(function (el) {
          const r = el.getBoundingClientRect();
          return Math.min(r.width, r.height);
        }));
        const shown = board.getBoundingClientRect().width;
        if (targets.length && smallest < THUMB) width = Math.ceil(shown * THUMB / smallest) + 1;
        else if (state === true) width = Math.max(+board.dataset.minWidth, 1.8 * wrap.clientWidth);
      }
      board.style.minWidth = width ? width + "px" : "";
      const on = width > 0;
      if (button) {
        button.setAttribute("aria-pressed", String(on));
        button.hidden = !(on || state === false || wrap.clientWidth < +board.dataset.minWidth);
      }
      if (on && targets.length) show(targets);
      else if (on) window.ToposTable.centre(wrap);
    }
    board._fit = fit;
    if (button) {
      button.addEventListener("click", function () {
        zoomed[name] = button.getAttribute("aria-pressed") !== "true";
        fit();
        if (!zoomed[name]) window.ToposTable.centre(wrap);
      });
    }
    fit();
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
  const stream = { source: null, url: "", connected: false, wanted: false, lastPoll: 0, latest: null };
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
      const announced = JSON.parse(e.data).stamp;
      if (!poller || announced === poller.dataset.stamp) return;
      stream.latest = announced;
      stream.wanted = true;
      htmx.trigger(poller, "topos:changed");
    });
    // The chat's stamp as this viewer reads it (decision 17): chat.js refreshes the chat when it differs.
    source.addEventListener("chat", function (e) {
      document.dispatchEvent(new CustomEvent("topos:chat-stamp", { detail: JSON.parse(e.data).stamp }));
    });
    stream.source = source;
  }
  window.ToposTable.stream = stream;
  // A move's answer (decision 16) swaps in only the parts a move changes, out of band, the poller among them: it
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
    // An announcement that came while the poller was busy was dropped (hx-sync): if what came back is not
    // what the stream last announced, ask once more now, not at the next fallback tick (a live Toppo table
    // changes several times a second, decision 26).  Once per announcement, so two stamps never ping-pong.
    htmx.onLoad(function (elt) {
      const region = liveRegion();
      if (!region || !elt || !stream.latest || (elt !== region && elt.id !== "table-poller")) return;
      const poller = region.querySelector(".poller");
      const behind = poller && stream.latest !== poller.dataset.stamp;
      stream.latest = null;
      if (!behind) return;
      stream.wanted = true;
      setTimeout(function () { htmx.trigger(poller, "topos:changed"); }, 0);
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
  // Decision 26: "Strong 2 is thinking… 4 s" counts on every second without a reload (the number in the server's
  // words is replaced, so the words stay in the reader's language); the next swap brings the bot's move.
  // Counted from what the server said when it drew the line, so a wrong clock on this device does not matter.
  setInterval(function () {
    document.querySelectorAll(".bot-thinking[data-since]").forEach(function (el) {
      const secs = el.querySelector(".bot-thinking-secs");
      if (!secs) return;
      if (!el.dataset.seen) {
        el.dataset.seen = String(Date.now());
        el.dataset.base = (secs.textContent.match(/\d+/) || ["0"])[0];
      }
      const n = Number(el.dataset.base) + Math.round((Date.now() - Number(el.dataset.seen)) / 1000);
      secs.textContent = secs.textContent.replace(/\d+/, String(n));
    });
  }, 1000);
  // After a refusal, bring its message into view (phones).
  document.addEventListener("htmx:afterSettle", function () {
    const notice = document.querySelector("#table-live .notice.error");
    if (notice && notice.getBoundingClientRect().top < 0) notice.scrollIntoView({ block: "nearest" });
  });
})();
