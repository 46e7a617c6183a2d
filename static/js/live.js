/*
 * Live public pages without reloading. Every element with data-live-url and
 * data-version (the tournament's version it shows) asks the server every 1.5 s whether
 * the tournament has changed: "?since=<version>" answers 204 when nothing changed (one
 * cheap query), else the fragment's new HTML and version, which replace the element's
 * content. Running clocks inside are kept by static/js/clock.js, which is told to look
 * again. Nothing is asked while the page is hidden; it asks at once when shown again.
 */
(function () {
  "use strict";
  if (window.liveFragments) return;

  var POLL_MS = 1500;

  function Live(root) {
    this.root = root;
    this.url = root.getAttribute("data-live-url");
    this.loading = false;
    var self = this;
    setInterval(function () { self.poll(); }, POLL_MS);
    document.addEventListener("visibilitychange", function () { self.poll(); });
  }

  Live.prototype.poll = function () {
    if (this.loading || document.hidden) return;
    var self = this;
    var version = this.root.getAttribute("data-version");
    var url = this.url + (this.url.indexOf("?") < 0 ? "?" : "&") + "since=" + encodeURIComponent(version);
    this.loading = true;
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.status === 200 ? response.json() : null; })
      .then(function (data) { if (data) self.show(data); })
      .catch(function () { /* offline for a moment: ask again */ })
      .then(function () { self.loading = false; });
  };

  Live.prototype.show = function (data) {
    if (Number(data.version) <= Number(this.root.getAttribute("data-version"))) return;
    this.root.innerHTML = data.html;
    this.root.setAttribute("data-version", data.version);
    if (window.matchClocksScan) window.matchClocksScan();
    this.root.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
  };

  function init() {
    window.liveFragments = Array.prototype.map.call(document.querySelectorAll("[data-live-url]"), function (root) {
      return new Live(root);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
