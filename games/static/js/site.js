// Behaviour every page shares, bound by event delegation so it also works in what htmx swaps in.
// (The Content-Security-Policy allows no inline handlers: templates name the behaviour with a data-
// attribute instead of onchange= or onclick=.)
(function () {
  "use strict";
  // The browser's time zone, for pages shown before she has an account and for her sign-up
  // (accounts.personal).  A year is long enough; it is rewritten on every page anyway.
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // IANA names are letters, digits and / _ + - only: nothing to escape in a cookie.
    if (zone) document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
  } catch (e) { /* a browser without Intl: times stay in UTC */ }
  // <select data-submit-on-change>: choosing sends its form (the language menu).
  document.addEventListener("change", function (e) {
    const el = e.target;
    if (el.matches && el.matches("[data-submit-on-change]") && el.form) el.form.submit();
  });
  // <input data-select-on-click>: one click selects the whole text, ready to copy (an invite link).
  document.addEventListener("click", function (e) {
    const el = e.target;
    if (el.matches && el.matches("input[data-select-on-click]")) el.select();
  });
  // The phone's Menu button (templates/base.html) opens and closes the site's links under the header.
  document.addEventListener("click", function (e) {
    const button = e.target.closest && e.target.closest("[data-menu-toggle]");
    if (!button) return;
    const header = button.closest(".site-header");
    const open = !header.classList.contains("open");
    header.classList.toggle("open", open);
    button.setAttribute("aria-expanded", String(open));
  });
})();
