/*
 * Live match clocks. Every element with data-clock-url (the clock's JSON) is kept
 * running: the faces count down locally from the server's view (time_ms at
 * server_time, corrected for the offset between this browser's clock and the
 * server's) and the view is fetched again every 2 s while the clock is on the screen
 * (a projector's hidden slides ask nothing; refresh() asks at once when one is shown).
 * The server is the authority: nothing here decides a time, a flag or a press.
 *
 * A page of many clocks (the tournament page, the projector) puts them inside an
 * element with data-clock-batch-url: those read-only clocks are fetched together, one
 * request for all of them on the screen (?matches=12,13 -> {server_time, clocks: {12:
 * view}}), each clock naming its match in data-clock-match (a clock in a table row has
 * nothing else: it is empty until its first view comes).
 *
 * With data-clock-press-url (the table clock), tapping the running half presses the
 * clock: POST {side, version} as JSON with the CSRF token. The version is the one this
 * page last saw, so a double tap presses once (the second gets 409 and is ignored);
 * the halves are disabled while a press is on its way. data-clock-start-url: the
 * buttons of [data-clock-start] start a side's time the same way.
 *
 * Inside the element: [data-clock-face=a|b] the times, [data-clock-half=a|b] the
 * halves, [data-clock-delay=a|b] (with [data-clock-delay-value]) the simple delay
 * still to run, [data-clock-status] spans with data-when="ready|running-a|paused|
 * flagged-b|...", [data-clock-phases="ready paused"] shown only in those phases,
 * [data-clock-error] the last refusal, [data-clock-version] inputs kept current.
 */
(function () {
  "use strict";
  if (window.matchClocks) return;

  var REFRESH_MS = 2000;
  var TICK_MS = 100;

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  // m:ss, h:mm:ss from an hour, 0:09.4 under 10 s (as the server's clock_time filter).
  function format(ms) {
    ms = Math.max(0, Math.floor(ms));
    if (ms < 10000) {
      var tenths = Math.floor(ms / 100);
      return "0:0" + Math.floor(tenths / 10) + "." + (tenths % 10);
    }
    var total = Math.floor(ms / 1000);
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    return hours ? hours + ":" + pad(minutes) + ":" + pad(seconds) : minutes + ":" + pad(seconds);
  }

  function parseTime(text) {
    // Python's isoformat has microseconds; keep milliseconds for every browser.
    return Date.parse(String(text).replace(/(\.\d{3})\d+/, "$1"));
  }

  function cookie(name) {
    var found = document.cookie.split(";").map(function (c) { return c.trim(); })
      .filter(function (c) { return c.indexOf(name + "=") === 0; })[0];
    return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
  }

  function Clock(root) {
    this.root = root;
    this.url = root.getAttribute("data-clock-url");
    this.pressUrl = root.getAttribute("data-clock-press-url") || "";
    this.startUrl = root.getAttribute("data-clock-start-url") || "";
    this.view = null;
    this.offset = 0; // server time - browser time, in ms
    this.bestRtt = Infinity;
    this.busy = false; // a press or start on its way
    this.loading = false;
    this.shown = {};
    var many = this.pressUrl || this.startUrl ? null : root.closest("[data-clock-batch-url]");
    this.batch = many ? many.clockBatch || (many.clockBatch = new Batch(many)) : null;
    this.bind();
    this.refresh();
    var self = this;
    root.matchClock = this;
    this.timers = [setInterval(function () { self.render(); }, TICK_MS)];
    if (!this.batch) this.timers.push(setInterval(function () { self.refresh(); }, REFRESH_MS));
    this.onVisible = function () { if (!document.hidden) self.refresh(); };
    document.addEventListener("visibilitychange", this.onVisible);
  }

  Clock.prototype.stop = function () {
    this.timers.forEach(clearInterval);
    document.removeEventListener("visibilitychange", this.onVisible);
  };

  Clock.prototype.all = function (selector) {
    return Array.prototype.slice.call(this.root.querySelectorAll(selector));
  };

  Clock.prototype.bind = function () {
    var self = this;
    if (this.pressUrl) {
      this.all("[data-clock-half]").forEach(function (half) {
        half.addEventListener("click", function (event) {
          event.preventDefault();
          self.press(half.getAttribute("data-clock-half"));
        });
      });
    }
    if (this.startUrl) {
      this.all("[data-clock-start] button[name=side]").forEach(function (button) {
        button.addEventListener("click", function (event) {
          event.preventDefault();
          self.start(button.value);
        });
      });
    }
  };

  // --- Talking to the server --------------------------------------------------------
  Clock.prototype.refresh = function () {
    if (this.batch) return this.batch.soon();
    if (this.loading || this.busy || !this.url) return;
    if (this.root.offsetParent === null) return; // not on the screen (display: none): nobody is looking
    var self = this;
    var sent = Date.now();
    this.loading = true;
    fetch(this.url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (view) { if (view) self.accept(view, sent, Date.now()); })
      .catch(function () { /* offline for a moment: keep counting, try again */ })
      .then(function () { self.loading = false; });
  };

  Clock.prototype.accept = function (view, sent, received) {
    var serverMs = parseTime(view.server_time);
    if (!isNaN(serverMs)) {
      // The view was made about half-way through the round trip; the quickest round
      // trip gives the best estimate of the offset (slowly forget it, clocks drift).
      var rtt = received - sent;
      this.bestRtt *= 1.05;
      if (rtt <= this.bestRtt) {
        this.bestRtt = rtt;
        this.offset = serverMs - (sent + rtt / 2);
      }
    }
    var current = this.view;
    if (current && (view.version < current.version ||
        (view.version === current.version && parseTime(view.server_time) < parseTime(current.server_time)))) {
      return; // an answer overtaken by a newer one
    }
    this.view = view;
    this.all("[data-clock-version]").forEach(function (input) { input.value = view.version; });
    this.render();
  };

  Clock.prototype.send = function (url, body) {
    if (this.busy || !this.view) return;
    var self = this;
    var sent = Date.now();
    this.busy = true;
    this.error("");
    this.render();
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": this.root.getAttribute("data-csrf-token") || cookie("csrftoken"),
      },
      body: JSON.stringify(body),
    })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (data) {
          if (response.ok) self.accept(data, sent, Date.now());
          else if (response.status !== 409) self.error(data.detail || response.statusText);
          // 409: the clock changed (a double tap, the other player, the flag): look again.
        });
      })
      .catch(function () { /* the refetch below shows what the server has */ })
      .then(function () {
        self.busy = false;
        self.refresh();
      });
  };

  Clock.prototype.press = function (side) {
    var view = this.view;
    if (!view || view.presses_from_sheet || view.phase !== "running" || view.running !== side) return;
    this.send(this.pressUrl, { side: side, version: view.version });
  };

  Clock.prototype.start = function (side) {
    var view = this.view;
    if (!view || view.phase !== "ready") return;
    this.send(this.startUrl, { side: side, version: view.version });
  };

  Clock.prototype.error = function (message) {
    this.all("[data-clock-error]").forEach(function (box) {
      box.textContent = message;
      box.hidden = !message;
    });
  };

  // --- Many clocks, one request -------------------------------------------------------
  function Batch(root) {
    this.root = root;
    this.url = root.getAttribute("data-clock-batch-url");
    this.loading = false;
    this.waiting = null;
    var self = this;
    setInterval(function () { self.refresh(); }, REFRESH_MS);
  }

  // Several clocks ask at once (a page loads, a slide shows): one request for them all.
  Batch.prototype.soon = function () {
    var self = this;
    if (this.waiting === null) this.waiting = setTimeout(function () { self.waiting = null; self.refresh(); }, 30);
  };

  Batch.prototype.refresh = function () {
    if (this.loading || document.hidden) return;
    var root = this.root;
    var shown = window.matchClocks.filter(function (clock) {
      return clock.batch === root.clockBatch && clock.root.offsetParent !== null && !clock.busy;
    });
    if (!shown.length) return;
    var ids = shown.map(function (clock) { return clock.root.getAttribute("data-clock-match"); });
    var self = this;
    var sent = Date.now();
    this.loading = true;
    fetch(this.url + "?matches=" + ids.join(","), {
      headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store",
    })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data) return;
        var received = Date.now();
        shown.forEach(function (clock, i) {
          var view = data.clocks[ids[i]];
          if (view) clock.accept(view, sent, received);
        });
      })
      .catch(function () { /* offline for a moment: keep counting, try again */ })
      .then(function () { self.loading = false; });
  };

  // --- Showing it ---------------------------------------------------------------------
  // Each side's face now, and the simple delay left, from the view at server_time.
  Clock.prototype.faces = function () {
    var view = this.view;
    var time = { a: view.time_ms.a, b: view.time_ms.b };
    var delay = 0;
    if (view.running && view.phase === "running") {
      var side = view.running;
      var other = side === "a" ? "b" : "a";
      var used = Math.max(0, Date.now() + this.offset - parseTime(view.server_time));
      var charged = used;
      if (view.delay_kind === "simple") {
        delay = Math.max(0, view.delay_left_ms - used); // the face stands still meanwhile
        charged = Math.max(0, used - view.delay_left_ms);
      }
      var before = time[side];
      time[side] = Math.max(0, before - charged);
      if (view.sandclock) time[other] += before - time[side]; // the sand flows across
    } else if (view.running && view.phase === "paused") {
      delay = view.delay_left_ms;
    }
    return { time: time, delay: delay };
  };

  Clock.prototype.set = function (element, key, text) {
    if (this.shown[key] !== text) {
      element.textContent = text;
      this.shown[key] = text;
    }
  };

  Clock.prototype.render = function () {
    var view = this.view;
    if (!view) return;
    var self = this;
    var now = this.faces();
    var when = view.phase;
    if (view.phase === "running" && view.running) when = "running-" + view.running;
    if (view.phase === "flagged" && view.flagged) when = "flagged-" + view.flagged;
    this.root.setAttribute("data-phase", view.phase);
    this.root.classList.toggle("is-busy", this.busy);

    this.all("[data-clock-face]").forEach(function (face) {
      var side = face.getAttribute("data-clock-face");
      self.set(face, "face-" + side, format(now.time[side]));
    });
    this.all("[data-clock-delay]").forEach(function (box) {
      var side = box.getAttribute("data-clock-delay");
      var showing = view.running === side && now.delay > 0 && view.delay_kind === "simple";
      box.hidden = !showing;
      var value = box.querySelector("[data-clock-delay-value]");
      if (showing && value) self.set(value, "delay-" + side, (Math.ceil(now.delay / 100) / 10).toFixed(1) + " s");
    });
    var tappable = Boolean(this.pressUrl) && !view.presses_from_sheet;
    this.all("[data-clock-half]").forEach(function (half) {
      var side = half.getAttribute("data-clock-half");
      var onMove = view.running === side && (view.phase === "running" || view.phase === "paused");
      half.classList.toggle("is-on-move", onMove);
      half.classList.toggle("is-flagged", view.flagged === side);
      if (half.tagName === "BUTTON") {
        half.disabled = !(tappable && !self.busy && view.phase === "running" && view.running === side);
      }
    });
    this.all("[data-clock-status] [data-when]").forEach(function (span) {
      span.hidden = span.getAttribute("data-when") !== when;
    });
    this.all("[data-clock-phases]").forEach(function (element) {
      element.hidden = element.getAttribute("data-clock-phases").split(" ").indexOf(view.phase) < 0;
    });
    this.all("[data-clock-start] button").forEach(function (button) {
      button.disabled = self.busy;
    });
  };

  // Start a clock for every clock element not running yet, and stop the clocks whose
  // element left the page (a live page replaced a fragment: static/js/live.js).
  function scan() {
    window.matchClocks = window.matchClocks.filter(function (clock) {
      if (document.body.contains(clock.root)) return true;
      clock.stop();
      return false;
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock-url], [data-clock-match]"), function (root) {
      if (!root.matchClock) window.matchClocks.push(new Clock(root));
    });
  }

  window.matchClocks = [];
  window.matchClocksScan = scan;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
