/* Live public pages (schedule, group tables, bracket, an entry's page): poll the event's small live JSON
   (served from the hall display's cache) and update the levels and hands of the tables in play in place.
   When a table's state changes (it starts, ends, or its entrants become known) the page's
   [data-live-root] parts are fetched again and swapped in: standings and brackets follow without a reload.
   No framework, no build step. */
(function () {
  "use strict";
  var timer = null, failures = 0, busy = false;

  function feed() { return document.querySelector("[data-live]"); }

  function flash(el) {
    el.classList.remove("live-flash");
    void el.offsetWidth;          // restart the animation
    el.classList.add("live-flash");
  }

  function apply(data, cfg) {
    var stale = false, handsLabel = cfg.getAttribute("data-l-hands") || "{n}";
    document.querySelectorAll("[data-live-match]").forEach(function (el) {
      var row = data.tables[el.getAttribute("data-live-match")];
      if (!row) return;
      if (row.status !== el.getAttribute("data-status")) { stale = true; return; }
      ["ns", "ew"].forEach(function (side) {
        var badge = el.querySelector('[data-lvl="' + side + '"]');
        var value = row[side + "_level"] || "";
        if (badge && badge.textContent !== value) {
          badge.textContent = value;
          badge.hidden = !value;
          flash(badge);
        }
      });
      var hands = el.querySelector("[data-hands]");
      if (hands) {
        var text = row.playing && row.recorded ? handsLabel.replace("{n}", row.recorded) : "";
        if (hands.textContent !== text) hands.textContent = text;
      }
    });
    return stale;
  }

  function swapRoots() {
    return fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelectorAll("[data-live-root]");
        var roots = document.querySelectorAll("[data-live-root]");
        if (fresh.length !== roots.length) { window.location.reload(); return; }
        roots.forEach(function (root, i) { root.innerHTML = fresh[i].innerHTML; });
      });
  }

  var MAX_TABLES = 100;   // tournament.competition.live.MAX_TABLES: more, and the whole rounds are asked for

  function address(cfg) {
    // the tables this page shows, so a poll carries those only (and is a 304 while they stay as they were)
    var ids = [];
    document.querySelectorAll("[data-live-match]").forEach(function (el) {
      var id = el.getAttribute("data-live-match");
      if (id && ids.indexOf(id) < 0) ids.push(id);
    });
    var url = cfg.getAttribute("data-url");
    return ids.length && ids.length <= MAX_TABLES ? url + "&tables=" + ids.join(",") : url;
  }

  function schedule(seconds) {
    clearTimeout(timer);
    timer = setTimeout(poll, seconds * 1000);
  }

  function poll() {
    var cfg = feed();
    if (!cfg) return;
    var every = parseInt(cfg.getAttribute("data-poll"), 10) || 10;
    if (document.hidden || busy) { schedule(every); return; }
    busy = true;
    var offline = document.querySelector("[data-live-offline]");
    fetch(address(cfg), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
      .then(function (data) {
        failures = 0;
        if (offline) offline.hidden = true;
        return apply(data, cfg) ? swapRoots() : null;
      })
      .catch(function () {
        failures += 1;
        if (offline) offline.hidden = false;
      })
      .then(function () {
        busy = false;
        schedule(Math.min(every * Math.pow(2, failures), 120));
      });
  }

  document.addEventListener("visibilitychange", function () { if (!document.hidden) schedule(0.1); });
  poll();
})();
