// The replay page: the arrow keys and Home/End follow the step links; moving the slider shows that move.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "replay-back", ArrowRight: "replay-forward", Home: "replay-first", End: "replay-last" };

  document.addEventListener("keydown", function (event) {
    var id = KEYS[event.key];
    var target = event.target;
    if (!id || event.altKey || event.ctrlKey || event.metaKey) return;
    // Typing in a field keeps its own keys (the slider moves itself and then submits on change).
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    var link = document.getElementById(id);
    if (link) {
      event.preventDefault();
      window.location.assign(link.href);
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var slider = document.getElementById("replay-ply");
    if (slider) slider.addEventListener("change", function () { slider.form.submit(); });
    var current = document.querySelector(".replay-log .current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  });
})();
