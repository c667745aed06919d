/* The players' table page (a table where the players record): the side's code, and the hooks the table
   page's script (scoring.js, loaded after this one) calls to send a hand to the players' API.
   - The code: typed once, or brought by the slip's QR code in the address's fragment (#code=…, never sent
     to the server as part of the address); kept on this phone (localStorage, per match) and checked by
     the server (the page's code check: a wrong one is refused by the field, as at every write).
   - Every write (an entry, a confirmation, a dispute, a withdrawal) carries "Authorization: Side
     <match>:<code>" and an Idempotency-Key; with no connection, or items still waiting, it is kept in the
     offline queue (offline.js) with its headers and uploads once, in order, when the connection returns.
   - While an entry waits for the other side (or a dispute for the floor referee), the page offers no form:
     the server refuses the next hand until then anyway. */
(function () {
  "use strict";
  var box = document.getElementById("side-code");
  if (!box) { return; }
  var T = window.Tractor, L = box.dataset, match = L.match, KEY = "tractor-side-code:" + match;

  function clean(text) { return String(text || "").replace(/[\s-]/g, ""); }
  function own() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  }
  function keep(value) {
    try {
      if (value) { window.localStorage.setItem(KEY, JSON.stringify(value)); } else { window.localStorage.removeItem(KEY); }
    } catch (e) { /* private mode: the code is typed again next time */ }
    show();
  }
  function header(code) { return { "Authorization": "Side " + match + ":" + code }; }
  function sideName(side) { return side === "NS" ? L.nameNs : side === "EW" ? L.nameEw : L.unchecked; }

  function fieldError(id, text) {
    var place = document.getElementById("error-" + id);
    if (!place) { return false; }
    place.textContent = text || "";
    place.hidden = !text;
    var input = place.parentNode.querySelector("input");
    if (input) { if (text) { input.setAttribute("aria-invalid", "true"); input.focus(); } else { input.removeAttribute("aria-invalid"); } }
    return true;
  }
  function status(text, kind) {
    var el = document.getElementById("form-status");
    el.textContent = text;
    el.className = "form-status" + (kind ? " " + kind : "");
  }

  /* What this phone shows: the code form, or the side it enters for; the waiting entry's buttons for it. */
  function show() {
    var mine = own(), form = document.getElementById("code-form"), known = document.getElementById("code-known");
    form.hidden = !!mine;
    known.hidden = !mine;
    if (mine) { document.getElementById("code-side").textContent = sideName(mine.side) + " (····" + mine.code.slice(-2) + ")"; }
    var waiting = document.getElementById("entry-waiting");
    if (waiting) {
      var entering = !!(mine && mine.side && mine.side === waiting.dataset.side);
      waiting.querySelectorAll("[data-for]").forEach(function (part) {
        part.hidden = (part.dataset.for === "entering") !== entering;
      });
    }
    var queue = window.OfflineQueue, kept = queue && queue.items().some(function (i) { return i.kind !== "step"; });
    ["hand-form", "redeal-form", "rebel-form", "enter-hint"].forEach(function (id) {
      var el = document.getElementById(id);
      if (el) { el.hidden = !!kept; }
    });
    var note = document.getElementById("queued-entry"), line = document.getElementById("form-status");
    if (note) { note.hidden = !kept; }
    if (queue && !queue.items().length && line.textContent === queue.labels.queued) { status("", ""); }
  }

  /* The server says whose code it is (a wrong one: refused by the field); offline it is kept unchecked. */
  function check(code) {
    fieldError("code", "");
    if (!/^\d{8}$/.test(code)) { fieldError("code", L.digits); return Promise.resolve(); }
    if (!navigator.onLine) { keep({ code: code, side: "" }); return Promise.resolve(); }
    return fetch(L.checkUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": T.csrf(box) },
      body: JSON.stringify({ code: code })
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (response.ok) { document.getElementById("code-form").reset(); keep({ code: code, side: data.side }); return; }
        fieldError("code", data.detail || L.digits);
      });
    }, function () { keep({ code: code, side: "" }); });
  }

  var fromSlip = /[#&]code=([\d\s-]+)/.exec(window.location.hash);
  if (fromSlip) {
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
    check(clean(fromSlip[1]));
  } else if (own() && !own().side && navigator.onLine) {
    check(own().code);
  }
  document.getElementById("code-form").addEventListener("submit", function (event) {
    event.preventDefault();
    check(clean(event.target.elements.code.value));
  });
  document.getElementById("code-change").addEventListener("click", function () {
    keep(null);
    document.getElementById("code-form").elements.code.focus();
  });

  /* The server refused this phone's code (replaced by a new slip, wrong, the match over): it is forgotten, and
     the code form asks for the new one with the server's words beside it. */
  function refusedCode(detail) {
    keep(null);
    fieldError("code", detail);
  }

  /* scoring.js asks these: the players' API, the entry's kind, the side's code as the credential. */
  window.TableHooks = {
    prepare: function (form, data, correcting) {
      var mine = own();
      if (!mine) { fieldError("code", L.needed); return null; }
      data.kind = correcting ? "correction" : "new";
      return { url: form.dataset.recordUrl, body: data, headers: header(mine.code) };
    },
    queued: show,
    fieldError: function (field, detail) {
      if (field === "code") { refusedCode(detail); }
    }
  };

  /* Confirm, dispute, withdraw: at once when online with nothing waiting, else kept in the queue. */
  function step(button) {
    var waiting = document.getElementById("entry-waiting"), action = button.dataset.entryAction, D = waiting.dataset;
    var code = "", mine = own();
    fieldError("other_code", "");
    if (button.dataset.other) {
      code = clean(waiting.querySelector("input[name=other_code]").value);
      if (!/^\d{8}$/.test(code)) { fieldError("other_code", L.digits); return; }
    } else if (mine) {
      code = mine.code;
    } else { fieldError("code", L.needed); return; }
    if (action === "dispute" && !window.confirm(D.askDispute)) { return; }
    var noteInput = waiting.querySelector("input[name=note]");
    var body = JSON.stringify({ note: action === "dispute" && noteInput ? noteInput.value : "" });
    var url = D[action + "Url"], done = D[{ confirm: "confirmed", dispute: "disputed", withdraw: "withdrawn" }[action]];
    var queue = window.OfflineQueue, key = T.newKey();
    if (queue && queue.queueing()) {
      queue.add("step", url, body, button.textContent + " · " + waiting.querySelector(".entry-line strong").textContent,
                key, header(code)).then(function () { status(queue.labels.queued, "ok"); });
      return;
    }
    button.disabled = true;
    fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: Object.assign({ "Content-Type": "application/json", "Accept": "application/json",
                               "X-CSRFToken": T.csrf(), "Idempotency-Key": key }, header(code)),
      body: body
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (response.status === 201) {
          return window.TableRefresh().then(function () { status(done, "ok"); show(); });
        }
        button.disabled = false;
        var field = data.field === "code" && button.dataset.other ? "other_code" : data.field;
        if (field === "code") { refusedCode(data.detail); return; }
        if (!fieldError(field, data.detail)) { status(data.detail || "", "error"); }
      });
    }, function () {
      button.disabled = false;
      status(document.getElementById("form-status").dataset.network, "error");
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-entry-action]");
    if (button) { step(button); }
  });

  if (window.OfflineQueue) { window.OfflineQueue.onChange(show); }
  // scoring.js swaps the live part after a save, an upload or another phone's change: show it for this side
  new MutationObserver(show).observe(document.getElementById("table-live").parentNode, { childList: true });
  show();
})();
