/*
 * The venue screen (public/projector.html): shows one .slide at a time and moves on
 * every data-seconds seconds, round and round. When live.js replaces the slides with
 * fresher ones, the cycle goes on from the same place.
 */
(function () {
  "use strict";
  var root = document.querySelector(".projector-slides");
  if (!root) return;
  var seconds = Number(root.getAttribute("data-seconds")) || 12;
  var index = 0;

  function show() {
    var slides = root.querySelectorAll(".slide");
    if (!slides.length) return;
    index = index % slides.length;
    Array.prototype.forEach.call(slides, function (slide, i) { slide.classList.toggle("is-shown", i === index); });
  }

  root.addEventListener("live:updated", show);
  setInterval(function () { index += 1; show(); }, seconds * 1000);
  show();
})();
