// Table pages: after an htmx reply that carries a refusal, bring its message into view (phones).
(function () {
  "use strict";
  document.addEventListener("htmx:afterSettle", function () {
    const notice = document.querySelector("#table-live .notice.error");
    if (notice && notice.getBoundingClientRect().top < 0) notice.scrollIntoView({ block: "nearest" });
  });
})();
