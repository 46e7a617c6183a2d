/*
 * The venue screen (public/projector.html): shows one .slide at a time and moves on
 * every data-seconds seconds, round and round. Slides are fitted to the screen:
 *   data-fit="pages"  its cards are split over as many screens as they need ("2/5");
 *   data-fit="first"  only the cards that fit on one screen are shown;
 *   data-fit="scale"  the content (the bracket) is scaled to fill the screen.
 * When live.js replaces the slides with fresher ones, or the window changes size, the
 * slides are fitted again and the cycle goes on from the same place. Cards are moved,
 * never copied, so the running clocks inside them keep ticking (clock.js).
 */
(function () {
  "use strict";
  var root = document.querySelector(".projector-slides");
  if (!root) return;
  // How long each slide stays: 12 s, or ?seconds=N in the address (3 to 120).
  var asked = Number(new URLSearchParams(window.location.search).get("seconds"));
  var seconds = asked >= 3 && asked <= 120 ? asked : Number(root.getAttribute("data-seconds")) || 12;
  var MARGIN = 16; // px kept free under the last row of cards
  var MAX_SCALE = 2; // a small bracket is drawn larger, to be read across the hall
  var index = 0;

  function slides() {
    return root.querySelectorAll(".slide");
  }

  function show() {
    var all = slides();
    if (!all.length) return;
    index = index % all.length;
    Array.prototype.forEach.call(all, function (slide, i) { slide.classList.toggle("is-shown", i === index); });
    // The clocks of a hidden slide do not ask the server (clock.js): ask as it shows.
    Array.prototype.forEach.call(all[index].querySelectorAll("[data-clock-url]"), function (face) {
      if (face.matchClock) face.matchClock.refresh();
    });
  }

  // Put the cards of the screens made last time back into their slide.
  function gather(slide) {
    var grid = slide.querySelector(".projector-grid");
    var next = slide.nextElementSibling;
    while (next && next.hasAttribute("data-fitted-page")) {
      var extra = next;
      next = next.nextElementSibling;
      Array.prototype.forEach.call(extra.querySelectorAll(".projector-grid > *"), function (card) { grid.appendChild(card); });
      extra.remove();
    }
    Array.prototype.forEach.call(grid.children, function (card) { card.hidden = false; });
    return grid;
  }

  // The cards grouped by screen: whole rows of the grid, as many as fit under its top.
  function screens(grid) {
    var top = grid.getBoundingClientRect().top;
    var room = window.innerHeight - top - MARGIN;
    var rows = [];
    Array.prototype.forEach.call(grid.children, function (card) {
      var box = card.getBoundingClientRect();
      var row = rows.length && Math.abs(rows[rows.length - 1].top - box.top) < 2 ? rows[rows.length - 1] : null;
      if (!row) {
        row = { top: box.top, bottom: box.bottom, cards: [] };
        rows.push(row);
      }
      row.bottom = Math.max(row.bottom, box.bottom);
      row.cards.push(card);
    });
    var pages = [];
    var page = null;
    rows.forEach(function (row) {
      if (!page || (row.bottom - page.top > room && page.cards.length)) {
        page = { top: row.top, cards: [] };
        pages.push(page);
      }
      page.cards = page.cards.concat(row.cards);
    });
    return pages;
  }

  function fitCards(slide, mode) {
    var grid = gather(slide);
    var pages = screens(grid);
    if (mode === "first") {
      pages.slice(1).forEach(function (page) { page.cards.forEach(function (card) { card.hidden = true; }); });
      return;
    }
    var made = [slide];
    pages.slice(1).forEach(function (page, i) {
      var screen = slide.cloneNode(false);
      screen.setAttribute("data-fitted-page", String(i + 2));
      screen.removeAttribute("data-fit");
      screen.classList.remove("is-measuring", "is-shown");
      var heading = slide.querySelector("h2");
      if (heading) screen.appendChild(heading.cloneNode(true));
      var moved = grid.cloneNode(false);
      page.cards.forEach(function (card) { moved.appendChild(card); });
      screen.appendChild(moved);
      made[made.length - 1].after(screen);
      made.push(screen);
    });
    made.forEach(function (screen, i) {
      var label = screen.querySelector(".slide-count");
      if (label) label.textContent = made.length > 1 ? i + 1 + "/" + made.length : "";
    });
  }

  function fitScale(slide) {
    var content = slide.querySelector(".bracket") || slide.lastElementChild;
    if (!content) return;
    content.style.transform = "";
    var box = content.getBoundingClientRect();
    var width = content.scrollWidth;
    var height = content.scrollHeight;
    var room = { width: window.innerWidth - box.left - MARGIN, height: window.innerHeight - box.top - MARGIN };
    var scale = Math.min(MAX_SCALE, room.width / width, room.height / height);
    if (Math.abs(scale - 1) > 0.02) {
      content.style.transformOrigin = "top left";
      content.style.transform = "scale(" + scale.toFixed(3) + ")";
    }
  }

  // Each slide is measured alone on the screen, hidden from sight, in one go (no paint).
  function fit() {
    var fitted = root.querySelectorAll("[data-fit]");
    Array.prototype.forEach.call(fitted, function (slide) {
      Array.prototype.forEach.call(slides(), function (s) { s.classList.remove("is-shown"); });
      slide.classList.add("is-measuring");
      var mode = slide.getAttribute("data-fit");
      if (mode === "scale") fitScale(slide);
      else fitCards(slide, mode);
      slide.classList.remove("is-measuring");
    });
    show();
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(fit, 200);
  });
  root.addEventListener("live:updated", fit);
  window.addEventListener("load", fit);
  setInterval(function () { index += 1; show(); }, seconds * 1000);
  fit();
})();
