// Table pages.
(function () {
  "use strict";
  // A refusal the site rendered as a table fragment (403 not your seat, 404 gone) replaces the table
  // like 400/409 do; other error pages (a CSRF failure, a server error) are never swapped in.
  document.addEventListener("htmx:beforeSwap", function (e) {
    const xhr = e.detail.xhr;
    if ((xhr.status === 403 || xhr.status === 404) && xhr.getResponseHeader("X-Topos-Fragment") === "1") {
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
  // After a refusal, bring its message into view (phones).
  document.addEventListener("htmx:afterSettle", function () {
    const notice = document.querySelector("#table-live .notice.error");
    if (notice && notice.getBoundingClientRect().top < 0) notice.scrollIntoView({ block: "nearest" });
  });
})();
