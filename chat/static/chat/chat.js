// The table's chat panel (chat/templates/chat/): refresh the messages when the table's stream announces a
// new chat stamp (table.js passes it on as "topos:chat-stamp"), poll only while there is no stream, clear the
// box after a message was sent, and show a refusal (400, 403, 404, 429) inside the chat.
(function () {
  "use strict";
  const FALLBACK_MS = 30000;  // while the stream is connected, a poll now and then in case a nudge was missed
  let wanted = false;
  let lastPoll = Date.now();  // the list was just loaded
  function log() { return document.getElementById("chat-log"); }
  document.addEventListener("topos:chat-stamp", function (e) {
    const now = log();
    if (!now || !now.dataset.stamp || now.dataset.stamp === e.detail) return;
    wanted = true;
    htmx.trigger(now, "topos:chat");
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    const elt = e.detail.elt;
    if (elt.id !== "chat-log" || !elt.dataset.stamp) return;  // only the list's own polls
    const stream = window.ToposTable && window.ToposTable.stream;
    const streaming = stream && stream.connected;
    const now = Date.now();
    if (!wanted && (document.hidden || (streaming && now - lastPoll < FALLBACK_MS))) {
      e.preventDefault();
      return;
    }
    wanted = false;
    lastPoll = now;
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    const xhr = e.detail.xhr;
    const target = e.detail.target;
    if (target && target.id === "chat-log" && xhr.status >= 400 && xhr.status < 500
        && xhr.getResponseHeader("X-Topos-Fragment") === "1") {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  // The newest message is at the bottom: keep it in view, unless she scrolled up to read older ones.
  let scrollDown = false;
  document.addEventListener("htmx:beforeSwap", function (e) {
    const target = e.detail.target;
    if (target && target.id === "chat-log" && e.detail.shouldSwap) {
      scrollDown = !target.dataset.stamp || target.scrollHeight - target.scrollTop - target.clientHeight < 40;
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    const now = log();
    if (now && scrollDown) now.scrollTop = now.scrollHeight;
    scrollDown = false;
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    const form = e.detail.elt;
    if (form.matches && form.matches("[data-chat-form]") && e.detail.xhr && e.detail.xhr.status < 300) {
      form.reset();
      const box = form.querySelector("[name=body]");
      if (box) box.focus();
    }
  });
})();
