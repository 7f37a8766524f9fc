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
    }
  };
  // A board is never narrower than its data-min-width (pixels): it scrolls rather than shrinks, so a
  // cell stays big enough to tap.  Set here, not in a style="" attribute, which the CSP forbids; this
  // handler is registered before the game scripts' own, so they centre a board of its final width.
  if (window.htmx) {
    htmx.onLoad(function (elt) {
      if (!elt || !elt.querySelectorAll) return;
      const boards = Array.from(elt.querySelectorAll("[data-min-width]"));
      if (elt.matches("[data-min-width]")) boards.push(elt);
      boards.forEach(function (b) { b.style.minWidth = b.dataset.minWidth + "px"; });
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
      if (!poller || JSON.parse(e.data).stamp === now.dataset.stamp) return;
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
