/* Round clocks on any page: every [data-round-clock] element polls its JSON endpoint and counts down
   locally between polls. The clock keeps to server time: each poll measures the offset between this
   device and the server (server_now vs. the midpoint of the request) and keeps the sample with the
   shortest round trip. No framework, no build step. */
(function () {
  "use strict";
  if (window.TractorClock) { window.TractorClock.scan(); return; }

  var feeds = {};          // url -> {url, els, data, offset, bestRtt, timer, failures}
  var zh = (document.documentElement.lang || "").toLowerCase().indexOf("zh") === 0;

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function format(seconds) {
    var whole = seconds > 0 ? Math.ceil(seconds - 1e-6) : 0;
    var h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
    if (zh) return (h ? h + "小时" + pad(m) : m) + "分" + pad(s) + "秒";
    return (h ? h + ":" + pad(m) : m) + ":" + pad(s);
  }

  function serverNow(feed) { return Date.now() + feed.offset; }

  function remaining(feed, table) {
    var d = feed.data, src = table || d;
    if (d.status === "running" && src.ends_at) {
      return Math.max(0, (Date.parse(src.ends_at) - serverNow(feed)) / 1000);
    }
    return src.remaining_seconds || 0;
  }

  function label(el, key, n) {
    var text = el.getAttribute("data-l-" + key) || "";
    return text.replace("{n}", n);
  }

  function findTable(feed, el) {
    var id = el.getAttribute("data-match-id");
    if (!id || !feed.data.tables) return null;
    for (var i = 0; i < feed.data.tables.length; i++) {
      if (String(feed.data.tables[i].match_id) === id) return feed.data.tables[i];
    }
    return null;
  }

  // The round's one status leads (tournament.competition.rounds.round_status): a round played without its
  // clock ever starting is in progress, not "not started" with a full countdown beside finished tables.
  function clockless(d) { return d.status === "not_started" && d.round_status === "in_progress"; }

  function allOver(d) {
    var rows = (d.tables || []).filter(function (t) { return t.playing || t.ended; });
    return rows.length > 0 && rows.every(function (t) { return t.ended; });
  }

  function statusKey(d, secs) {
    if (clockless(d)) return allOver(d) ? "all-over" : "no-clock";
    if (d.status === "running" && secs <= 0) return "time-up";
    return { not_started: "not-started", paused: "paused", running: "running", time_up: "time-up",
             closed: "closed" }[d.status];
  }

  function tick(feed) {
    if (!feed.data) return;
    feed.els.forEach(function (el) {
      var table = findTable(feed, el);
      var secs = remaining(feed, table);
      // No rule (a profile without a time limit): nothing to count down.
      var known = feed.data.remaining_seconds != null && !clockless(feed.data);
      el.querySelector("[data-clock-time]").textContent = known ? format(secs) : "--:--";
      el.querySelector("[data-clock-status]").textContent = label(el, statusKey(feed.data, secs));
      el.setAttribute("data-status", feed.data.status);
      el.setAttribute("data-round-status", feed.data.round_status || "");
    });
  }

  function renderTables(el, feed) {
    var list = el.querySelector("[data-clock-tables]");
    if (!list) return;
    // Every table with two entries, finished ones kept with their winner; after time-up, the results.
    var rows = (feed.data.tables || []).filter(function (t) { return t.playing || t.ended; });
    var heading = el.querySelector("[data-clock-tables-title]");
    if (heading) {
      heading.textContent = label(el, feed.data.time_up ? "results" : "tables");
      heading.hidden = !rows.length;
    }
    list.textContent = "";
    rows.forEach(function (t) {
      var li = document.createElement("li");
      li.className = t.ended ? "ended" : "playing";
      li.setAttribute("data-match-id", t.match_id);
      var b = document.createElement("b");
      b.textContent = label(el, "table", t.table == null ? "" : t.table);
      var pairs = document.createElement("span");
      pairs.className = "pairs";
      pairs.textContent = t.ns + " – " + t.ew;
      var levels = document.createElement("span");
      levels.className = "levels";
      levels.textContent = t.ns_level || t.ew_level ? t.ns_level + " : " + t.ew_level : "";
      var hands = document.createElement("span");
      hands.className = "hands";
      if (t.ended) hands.textContent = t.winner ? label(el, "winner", t.winner_name) : label(el, "no-result");
      else if (t.hands_left != null) hands.textContent = label(el, "hands-left", t.hands_left);
      li.appendChild(b); li.appendChild(pairs); li.appendChild(levels); li.appendChild(hands);
      list.appendChild(li);
    });
    turnPages(el, list, heading);
    // A bye is no table: its entry is named once, below the tables ("轮空：…"), never as a tile.
    var byes = el.querySelector("[data-clock-byes]");
    if (byes) {
      var names = feed.data.byes || [];
      byes.textContent = names.length ? label(el, "byes", names.join(label(el, "sep") || "、")) : "";
      byes.hidden = !names.length;
    }
  }

  // The hall's tables that do not fit its screen turn over in pages, one every PAGE_SECONDS: the page is
  // worked out from where the items land (the grid has as many columns as fit), so any screen shows all.
  var PAGE_SECONDS = 10;
  function turnPages(el, list, heading) {
    var items = Array.prototype.slice.call(list.children);
    items.forEach(function (li) { li.hidden = false; });
    var bottom = list.getBoundingClientRect().bottom;
    var perPage = items.filter(function (li) { return li.getBoundingClientRect().bottom <= bottom + 1; }).length;
    if (!items.length || perPage >= items.length || perPage === 0 || list.clientHeight === 0) {
      el.removeAttribute("data-pages");
      el.removeAttribute("data-per-page");
      return;
    }
    var pages = Math.ceil(items.length / perPage);
    var now = Math.floor(Date.now() / (PAGE_SECONDS * 1000)) % pages;
    items.forEach(function (li, i) { li.hidden = Math.floor(i / perPage) !== now; });
    el.setAttribute("data-pages", pages);
    el.setAttribute("data-per-page", perPage);
    if (heading) heading.textContent += " · " + label(el, "page", (now + 1) + "/" + pages);
  }

  function render(feed) {
    feed.els.forEach(function (el) {
      var banner = el.querySelector("[data-clock-banner]");
      banner.textContent = feed.data.banner || "";
      banner.hidden = !feed.data.announced;
      el.classList.toggle("announced", !!feed.data.announced);
      var hands = el.querySelector("[data-clock-hands]");
      var table = findTable(feed, el);
      if (hands) {
        hands.textContent = table && !table.ended && table.hands_left != null   // a finished table: no "0 hands left"
          ? (table.hands_left === 1 ? label(el, "last-hand") + " · " : "") + label(el, "hands-left", table.hands_left)
          : "";
      }
      renderTables(el, feed);
      // a line shown only while the hall clock has not started (tournament/desk/_guidance.html)
      document.querySelectorAll("[data-while-clock-not-started]").forEach(function (hint) {
        hint.hidden = !(feed.data.status === "not_started" && feed.data.length_seconds != null);
      });
      var off = el.querySelector("[data-clock-offline]");
      off.hidden = !feed.failures;
      off.textContent = feed.failures ? label(el, "offline") : "";
    });
    tick(feed);
  }

  function measure(feed, data, t0, t1) {
    var rtt = t1 - t0, sample = Date.parse(data.server_now) - (t0 + t1) / 2;
    // Prefer the sample with the shortest round trip; let old ones age out slowly.
    if (feed.bestRtt == null || rtt <= feed.bestRtt * 1.2) {
      feed.offset = sample;
      feed.bestRtt = feed.bestRtt == null ? rtt : Math.min(rtt, feed.bestRtt);
    } else {
      feed.bestRtt *= 1.05;
    }
  }

  // Only the latest poll of a feed counts: one sent before a refresh (the desk closing the round) may answer
  // after it, with the round as it was; its answer is dropped and it schedules nothing (one chain of polls).
  function poll(feed) {
    var t0 = Date.now(), seq = feed.seq = (feed.seq || 0) + 1;
    function latest() { return seq === feed.seq; }
    fetch(feed.url, { cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) {
        if (!latest()) return;
        measure(feed, data, t0, Date.now());
        feed.data = data;
        feed.failures = 0;
        render(feed);
      })
      .catch(function () { if (!latest()) return; feed.failures += 1; if (feed.data) render(feed); })
      .then(function () {
        if (!latest()) return;
        var every = feed.period * (feed.failures ? Math.min(6, 1 + feed.failures) : 1);
        feed.timer = setTimeout(function () { poll(feed); }, every * (0.9 + Math.random() * 0.2));
      });
  }

  function scan() {
    document.querySelectorAll("[data-round-clock]").forEach(function (el) {
      if (el._clockBound) return;
      el._clockBound = true;
      var url = el.getAttribute("data-url");
      var feed = feeds[url];
      if (!feed) {
        feed = feeds[url] = { url: url, els: [], data: null, offset: 0, bestRtt: null, failures: 0,
                              period: Math.max(1, parseFloat(el.getAttribute("data-poll")) || 5) * 1000 };
        poll(feed);
      }
      feed.els.push(el);
    });
  }

  // Poll every clock on the page now (the desk after closing or reopening the round: its label follows at once).
  function refresh() {
    Object.keys(feeds).forEach(function (k) { clearTimeout(feeds[k].timer); poll(feeds[k]); });
  }

  window.TractorClock = { scan: scan, format: format, feeds: feeds, refresh: refresh };
  scan();
  setInterval(function () { Object.keys(feeds).forEach(function (k) { tick(feeds[k]); }); }, 250);
})();
