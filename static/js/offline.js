/* The offline queue of the table page and the console (shared by both, loaded before their own script).
   A hand or a ruling entered while the phone has no connection is kept in IndexedDB, per match and per
   user, with its Idempotency-Key, in the order entered; it is shown at once as pending and sent in that
   order when the connection returns (the server's idempotency keeps a resent item single). A refusal
   (409: someone else recorded or corrected the match; 400: a rule refused it) stops the queue at that
   item with the server's reason; the items behind it stay. The page tells the server how many items it
   holds (the chief's desk shows it). A service worker (/tables/sw.js) keeps the pages and scripts for
   offline use. Plain JS, no build step; the words come from the page (#offline, translated there). */
(function () {
  "use strict";
  var box = document.getElementById("offline");
  if (!box) { return; }
  var L = box.dataset;
  var owner = box.dataset.owner;
  var DB = "tractor-offline", STORE = "queue";
  var items = [];            // this match's and user's items, in order (the copy of the store)
  var sending = false, hadItems = false, onSent = [], onChange = [], lastReported = null, retryTimer = null;

  var T = window.Tractor, fill = T.fill, newKey = T.newKey, csrf = T.csrf;   // static/js/common.js

  // --- IndexedDB --------------------------------------------------------------------------------
  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = window.indexedDB.open(DB, 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true }).createIndex("owner", "owner");
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opened;
  }
  function run(mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var tx = d.transaction(STORE, mode), result;
        work(tx.objectStore(STORE), function (value) { result = value; });
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }
  function load() {
    return run("readonly", function (store, done) {
      var request = store.index("owner").getAll(owner);
      request.onsuccess = function () { done(request.result.sort(function (a, b) { return a.seq - b.seq; })); };
    }).then(function (list) { items = list || []; changed(); return items; });
  }
  function save(item) { return run("readwrite", function (store) { store.put(item); }); }
  function remove(seq) { return run("readwrite", function (store) { store.delete(seq); }); }

  // --- what the page shows ------------------------------------------------------------------------
  function changed() {
    if (items.length) { hadItems = true; }
    render();
    onChange.forEach(function (f) { f(items); });
    report();
  }

  var button = T.button;

  function render() {
    var banner = document.getElementById("offline-banner"), list = document.getElementById("offline-list");
    var online = navigator.onLine, refused = items.filter(function (i) { return i.refused; })[0];
    var text = "", kind = "";
    if (refused) { text = fill(L.stopped, { n: items.length }); kind = "error"; }
    else if (items.length) { text = fill(online ? L.waiting : L.offlineWaiting, { n: items.length }); kind = "waiting"; }
    else if (!online) { text = L.offline; kind = "waiting"; }
    else if (hadItems) { text = L.done; kind = "ok"; }
    banner.textContent = text;
    banner.className = "offline-banner" + (kind ? " " + kind : "");
    banner.hidden = !text;
    list.textContent = "";
    list.hidden = !items.length;
    items.forEach(function (item) {
      var li = document.createElement("li");
      li.className = "queued" + (item.refused ? " refused" : "");
      li.dataset.seq = item.seq;
      li.appendChild(document.createTextNode(item.label + " · "));
      var state = document.createElement("strong");
      state.textContent = item.refused ? L.refused : L.pending;
      li.appendChild(state);
      if (item.refused) {
        var why = document.createElement("div");
        why.className = "reason";
        why.textContent = item.refused + " " + L.advice;
        li.appendChild(why);
        li.appendChild(button(L.retry, function () { item.refused = ""; save(item).then(load).then(flush); }));
        li.appendChild(button(L.drop, function () {
          items = items.filter(function (i) { return i.seq !== item.seq; });
          remove(item.seq).then(load).then(flush);
        }));
      }
      list.appendChild(li);
    });
    ["NS", "EW"].forEach(function (side) {   // the levels are the server's to compute
      var level = document.getElementById("level-" + side);
      if (!level) { return; }
      if (items.length && !level.dataset.known) { level.dataset.known = level.textContent; }
      if (items.length) { level.textContent = L.unconfirmed; level.classList.add("unconfirmed"); }
      else if (level.dataset.known) {
        if (level.textContent === L.unconfirmed) { level.textContent = level.dataset.known; }
        delete level.dataset.known;
        level.classList.remove("unconfirmed");
      }
    });
  }

  /* Tell the server how many items wait (the chief's desk shows a table whose results are late). */
  function report(always) {
    if (!box.dataset.uplinkUrl || !navigator.onLine || (!always && lastReported === items.length)) { return; }
    var count = items.length;
    fetch(box.dataset.uplinkUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify({ pending: count })
    }).then(function (r) { if (r.ok) { lastReported = count; } }, function () { /* offline: next time */ });
  }

  // --- sending, in order ---------------------------------------------------------------------------
  function later(ms) { clearTimeout(retryTimer); retryTimer = setTimeout(flush, ms); }

  function sendOne(item) {
    return fetch(item.url, {
      method: "POST", credentials: "same-origin",
      headers: Object.assign({ "Content-Type": "application/json", "Accept": "application/json",
                               "X-CSRFToken": csrf(), "Idempotency-Key": item.key }, item.headers || {}),
      body: item.body
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (json) {
        return { status: response.status, json: json };
      });
    });
  }

  /* Send the items one by one; stop at a refusal (kept, with its reason), a busy server or no network. */
  function drain() {
    var item = items[0];
    if (!item || item.refused) { return Promise.resolve(); }
    return sendOne(item).then(function (answer) {
      if (answer.status >= 200 && answer.status < 300) {
        items.shift();
        return remove(item.seq).then(function () {
          changed();
          onSent.forEach(function (f) { f(item, answer.json); });
          return drain();
        });
      }
      if (answer.status >= 500 || answer.status === 429) { later(5000); return null; }
      item.refused = answer.json.detail || fill(L.code, { status: answer.status });
      return save(item).then(function () {
        changed();
        onSent.forEach(function (f) { f(item, null); });   // the page shows what the server holds now
      });
    }, function () { later(10000); });
  }

  function flush() {
    if (sending || !navigator.onLine) { return Promise.resolve(); }
    sending = true;
    var work = function () { return load().then(drain); };
    var done = navigator.locks ? navigator.locks.request("offline-queue:" + owner, work) : work();
    return done.catch(function () { /* the store is unavailable: nothing queued */ }).then(function () {
      sending = false;
      render();
    });
  }

  /* Keep a new item (``body`` a JSON string; ``headers``: its own, e.g. a side's code at a players' table)
     and send the queue. */
  function add(kind, url, body, label, key, headers) {
    var item = { owner: owner, kind: kind, url: url, body: body, label: label, key: key || newKey(),
                 headers: headers || {},
                 number: JSON.parse(body).number || null, created: new Date().toISOString(), refused: "" };
    return run("readwrite", function (store) { store.add(item); }).then(load).then(function () { flush(); });
  }

  /* Whether a new entry goes to the queue: no connection, or items still waiting (order is kept). */
  function queueing() { return !navigator.onLine || items.length > 0; }

  // --- the service worker: the pages and their scripts available offline ---------------------------
  function cacheThisPage() {
    if (!("serviceWorker" in navigator) || !box.dataset.worker) { return; }
    navigator.serviceWorker.register(box.dataset.worker, { scope: box.dataset.scope }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      var urls = [window.location.href];
      document.querySelectorAll("script[src]").forEach(function (s) { urls.push(s.src); });
      document.querySelectorAll("link[rel=stylesheet]").forEach(function (l) { urls.push(l.href); });
      var channel = new MessageChannel();
      channel.port1.onmessage = function () { document.documentElement.dataset.offlineReady = "1"; };
      registration.active.postMessage({ cache: urls }, [channel.port2]);
    }).catch(function () { /* no worker: the page still works online */ });
  }

  window.addEventListener("online", function () { render(); report(true); flush(); });
  window.addEventListener("offline", render);
  setInterval(function () { report(true); }, 30000);

  window.OfflineQueue = {
    add: add, flush: flush, queueing: queueing, render: render, items: function () { return items; }, labels: L,
    onSent: function (f) { onSent.push(f); }, onChange: function (f) { onChange.push(f); f(items); }
  };
  load().then(flush, function () { render(); });
  cacheThisPage();
})();
