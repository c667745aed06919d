/* The referee console: pick an offence, see the sanction, confirm; "saved" only once stored.
 * Every POST that changes something carries a client-generated Idempotency-Key. The key of a request
 * is kept until the server gives a definitive answer: a 2xx, or a 4xx other than 409 (busy/conflict)
 * and 429 (too many requests). A network failure or a 5xx may have come after the server stored the
 * request, so it is retried with the SAME key (the server then replays its stored answer, infra/
 * idempotency.py), automatically a few times with a visible message, then when the referee presses
 * again; the same request entered again gets the same key. So a flaky venue network or a server error
 * never records a penalty twice. Previews change nothing and carry no key. Its words come from the page
 * (#console-labels, translated on the server). Plain JS, no build step. */
(function () {
  "use strict";
  var root = document.getElementById("console");
  if (!root) { return; }
  var data = JSON.parse(document.getElementById("console-data").textContent);
  var L = JSON.parse(document.getElementById("console-labels").textContent);
  var sideNames = document.getElementById("side-names");
  /* A side as the page names it (in the page language, from #side-names); the API values stay NS/EW. */
  function sideName(code) {
    var name = sideNames && sideNames.dataset[String(code || "").toLowerCase()];
    return name || code;
  }
  var offences = {};
  data.offences.forEach(function (o) { offences[o.code] = o; });
  var form = document.getElementById("ruling-form");
  var statusBox = document.getElementById("status");
  var previewBox = document.getElementById("preview");
  var confirmButton = document.getElementById("confirm");
  var current = null;        // the offence being entered
  var pendingKeys = {};      // "url\nbody" -> the Idempotency-Key of a request not yet definitively answered
  var ATTEMPTS = 4;          // automatic tries of one request (network failure, 5xx) before asking the referee
  var previewTimer = null;
  var lastSignature = "";    // the inputs last previewed
  var offered = [];          // the ids of the referee's options shown (sent as ``choice`` only when some are)
  var learnedFor = null;     // options a preview named (they apply only in some cases): the inputs they were for
  var STATE_CLASS = { void: "void", reversed: "reversed", amended: "reversed", lapsed: "void", pending: "pending" };

  /* The shared helpers (static/js/common.js): a label filled in, a new Idempotency-Key, the CSRF
   * token, whether an answer settles a request (then its key is dropped), a pause. */
  var T = window.Tractor, fill = T.fill, newKey = T.newKey, definitive = T.definitive, sleep = T.sleep;
  function csrf() { return T.csrf(root); }

  /* The key of this exact request: the one kept from an attempt not definitively answered, or a new one. */
  function keyFor(url, body) {
    var id = url + "\n" + JSON.stringify(body);
    if (!pendingKeys[id]) { pendingKeys[id] = newKey(); }
    return pendingKeys[id];
  }

  /* POST JSON with the request's kept key; on a network failure or a 5xx, retry with the SAME key
   * (the server applies it once). Resolves to {ok, status, json, definitive}; the key is dropped only
   * after a definitive answer. Without ``keep`` (previews, which change nothing) no key is sent. */
  function post(url, body, keep, attempt) {
    attempt = attempt || 1;
    var key = keep ? keyFor(url, body) : null;
    var headers = { "Content-Type": "application/json", "X-CSRFToken": csrf() };
    if (key) { headers["Idempotency-Key"] = key; }
    function again(message, response) {
      var wait = 400 * attempt;
      var after = response && parseInt(response.headers.get("Retry-After") || "", 10);
      if (after > 0) { wait = Math.min(after, 10) * 1000; }
      setStatus(fill(L.retrying, { reason: message, n: attempt }), "");
      return sleep(wait).then(function () { return post(url, body, keep, attempt + 1); });
    }
    return fetch(url, {
      method: "POST", credentials: "same-origin", headers: headers, body: JSON.stringify(body)
    }).then(function (response) {
      if (response.status >= 500 && attempt < ATTEMPTS) { return again(L.server_busy, response); }
      return response.json().catch(function () { return {}; }).then(function (json) {
        loginPage = (json && json.login) || null;
        var settled = definitive(response.status);
        if (key && settled) { delete pendingKeys[url + "\n" + JSON.stringify(body)]; }
        return { ok: response.ok, status: response.status, json: json, definitive: settled };
      });
    }, function (error) {
      if (attempt >= ATTEMPTS) { throw error; }
      return again(L.network_down, null);
    });
  }

  var loginPage = null;   // set when the API answered "not logged in" (a session expired): the error line links to it

  /* After an error line: a link to the login page (back to this page) when the API said "not logged in". */
  function addLoginLink(el) {
    if (loginPage) { T.loginLink(el, loginPage, L.log_in); }
  }

  /* The message of an answer that did not save (``label`` names the detail): a request not definitively
   * answered can be sent again. */
  function unsaved(label, result) {
    var detail = result.json.detail || fill(L.error_code, { status: result.status });
    if (result.definitive || T.refused(result.status, result.json)) { return fill(label, { detail: detail }); }
    return fill(L.unsure, { detail: T.bare(detail) });
  }

  function setStatus(text, kind) {
    statusBox.textContent = text;
    statusBox.className = "status" + (kind ? " " + kind : "");
    if (kind === "error") { addLoginLink(statusBox); }
  }

  function field(name) { return form.elements[name]; }

  function radioValue(name) {
    var checked = form.querySelector("input[name=" + name + "]:checked");
    return checked ? checked.value : "";
  }

  function selectedOption() { return radioValue("choice"); }

  function needs() {
    if (!current) { return []; }
    var option = selectedOption();
    return current.needs[option] || current.needs[""] || [];
  }

  function showFields() {
    var wanted = needs();
    ["minutes", "cards", "role"].forEach(function (name) {
      document.getElementById(name + "-field").hidden = wanted.indexOf(name) < 0;
    });
    /* a waiver by the non-offending side, where the profile allows it for this offence (000 article 17 (3)) */
    document.getElementById("waiver-field").hidden = !(current && current.waivable);
    var other = waivingSide();
    var names = document.getElementById("side-names").dataset;
    document.getElementById("waiver-side").textContent = other ? " · " + names[other.toLowerCase()] : "";
    /* which cards to count, as the profile's reading says (003's failed throw), else the page's word */
    var cardsLabel = document.getElementById("cards-label");
    if (!cardsLabel.dataset.plain) { cardsLabel.dataset.plain = cardsLabel.textContent; }
    cardsLabel.textContent = (current && current.cards_label) || cardsLabel.dataset.plain;
  }

  function waivingSide() {
    var side = radioValue("side");
    return side === "NS" ? "EW" : (side === "EW" ? "NS" : "");
  }

  function payload() {
    var wanted = needs();
    var body = { code: current.code, side: radioValue("side") };
    if (offered.length) { body.choice = selectedOption(); }
    if (wanted.indexOf("minutes") >= 0 && field("minutes").value !== "") { body.minutes = parseInt(field("minutes").value, 10); }
    if (wanted.indexOf("minutes") >= 0 && field("seconds").value !== "") { body.seconds = parseInt(field("seconds").value, 10); }
    if (wanted.indexOf("cards") >= 0 && field("cards").value !== "") { body.cards = parseInt(field("cards").value, 10); }
    if (wanted.indexOf("role") >= 0 && radioValue("role")) { body.role = radioValue("role"); }
    if (current.waivable && field("waived").checked && waivingSide()) { body.waived_by = waivingSide(); }
    // the seat while the table has none: the preview refuses a sanction needing it without it, as the record does
    if (field("declarer") && field("declarer").value) { body.declarer = field("declarer").value; }
    return body;
  }

  function ready(body) {
    var wanted = needs();
    if (!body.side) { return L.choose_side; }
    if (wanted.indexOf("minutes") >= 0 && body.minutes === undefined) { return L.enter_minutes; }
    if (wanted.indexOf("cards") >= 0 && body.cards === undefined) { return L.enter_cards; }
    if (wanted.indexOf("role") >= 0 && !body.role) { return L.choose_role; }
    return "";
  }

  /* The referee's options: the offence's own when they always apply (current.always), else those the
   * last preview named for these inputs (e.g. the union's signalling: only the third time, 003 2.13). */
  function renderOptions(options, checked) {
    var list = document.getElementById("option-list");
    list.textContent = "";
    offered = options.map(function (option) { return option.id; });
    document.getElementById("option-field").hidden = !options.length;
    options.forEach(function (option) {
      var label = document.createElement("label");
      var input = document.createElement("input");
      input.type = "radio"; input.name = "choice"; input.value = option.id;
      input.checked = option.id === checked;
      label.appendChild(input);
      label.appendChild(document.createTextNode(" " + option.label));
      list.appendChild(label);
    });
  }

  function openOffence(code) {
    current = offences[code];
    form.reset();
    root.querySelectorAll("button.offence").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.code === code ? "true" : "false");
    });
    document.getElementById("form-title").textContent = current.name;
    learnedFor = null;
    renderOptions(current.always ? current.options : [], current.default);
    showFields();
    previewBox.textContent = L.choose_side;
    previewBox.className = "preview";
    lastSignature = "";
    confirmButton.disabled = true;
    form.hidden = false;
    setStatus("", "");
    form.scrollIntoView({ block: "start" });
  }

  function closeForm() {
    form.hidden = true;
    current = null;
    root.querySelectorAll("button.offence").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
  }

  /* The inputs but the option: options a preview named are dropped when these change (another side may
   * be at its first offence, where there is nothing to choose). */
  function baseSignature() {
    var body = payload();
    delete body.choice;
    return JSON.stringify(body);
  }

  function sameIds(options) {
    return options.length === offered.length && options.every(function (o, i) { return o.id === offered[i]; });
  }

  function schedulePreview() {
    showFields();
    if (current && learnedFor !== null && baseSignature() !== learnedFor) {
      learnedFor = null;
      renderOptions([], null);
      showFields();
    }
    var signature = current ? JSON.stringify(payload()) : "";
    if (signature === lastSignature) { return; }  // e.g. the "change" after "input": nothing new
    lastSignature = signature;
    confirmButton.disabled = true;
    showFields();
    clearTimeout(previewTimer);
    previewTimer = setTimeout(runPreview, 150);
  }

  function runPreview() {
    if (!current) { return; }
    var body = payload();
    var missing = ready(body);
    if (missing) { previewBox.textContent = missing; previewBox.className = "preview"; return; }
    var queue = window.OfflineQueue;
    if (queue && queue.queueing()) { offlinePreview(); return; }   // the server computes it once sent
    previewBox.textContent = L.previewing;
    var sent = JSON.stringify(body);
    post(root.dataset.previewUrl, body, false).then(function (result) {
      if (!current || sent !== lastSignature) { return; }   // the inputs changed meanwhile: their own preview follows
      if (result.ok) {
        var choices = result.json.choices || [];
        if (!current.always && !sameIds(choices)) {   // the sanction offers options for these inputs (or no more)
          renderOptions(choices, result.json.sanction.choice);
          learnedFor = choices.length ? baseSignature() : null;
          showFields();
          lastSignature = JSON.stringify(payload());   // the preview is that of the option it applied
          missing = ready(payload());
          if (missing) { previewBox.textContent = missing; previewBox.className = "preview"; return; }
        }
        previewBox.textContent = fill(result.json.sanction.needs_approval ? L.preview_approval : L.preview,
                                      { explanation: result.json.sanction.explanation });
        if (result.json.impact && result.json.impact.text) {
          var impact = document.createElement("span");
          impact.className = "impact" + (result.json.impact.earlier_hand ? " earlier" : "");
          impact.id = "preview-impact";
          impact.textContent = result.json.impact.text;
          previewBox.appendChild(document.createElement("br"));
          previewBox.appendChild(impact);
        }
        previewBox.className = "preview";
        confirmButton.disabled = false;
      } else {
        previewBox.textContent = result.json.detail || L.no_preview;
        previewBox.className = "preview error";
        addLoginLink(previewBox);
      }
    }, function () {
      if (window.OfflineQueue && !navigator.onLine) { offlinePreview(); return; }
      previewBox.textContent = L.preview_offline;
      previewBox.className = "preview error";
    });
  }

  /* No connection: the inputs are checked here with the server's limits (the inputs' min and max); the
     ruling can be confirmed and kept on the phone, its sanction computed by the server once sent. */
  function offlinePreview() {
    var Q = window.OfflineQueue, bad = null;
    ["minutes", "seconds", "cards"].forEach(function (name) {
      var input = field(name);
      if (bad || !input || input.closest("[hidden]") || input.value === "") { return; }
      var value = Number(input.value);
      if (!/^\d+$/.test(input.value) || value < +input.min || value > +input.max) { bad = input; }
    });
    if (bad) {
      previewBox.textContent = fill(Q.labels.range, { lo: bad.min, hi: bad.max });
      previewBox.className = "preview error";
      return;
    }
    previewBox.textContent = Q.labels.offlinePreview;
    previewBox.className = "preview";
    confirmButton.disabled = false;
  }

  function confirmRuling(event) {
    event.preventDefault();
    if (!current) { return; }
    var body = payload();
    body.note = field("note").value;
    confirmButton.disabled = true;
    var queue = window.OfflineQueue;
    if (queue && queue.queueing()) {   // no connection, or entries still waiting: kept, in order
      var side = sideName(body.side), url = root.dataset.recordUrl;
      queue.add("ruling", url, JSON.stringify(body), queue.labels.ruling + " · " + current.name + " · " + side,
                keyFor(url, body)).then(function () {
        delete pendingKeys[url + "\n" + JSON.stringify(body)];
        closeForm();
        setStatus(queue.labels.queued, "saved");
      });
      return;
    }
    setStatus(L.saving, "");
    // the key is that of every input, note and declarer included: another body (e.g. after picking the
    // declarer) is another request with another key
    post(root.dataset.recordUrl, body, true).then(function (result) {
      if (result.ok) {
        closeForm();
        setStatus(fill(L.saved_as, { explanation: result.json.explanation }), "saved");
        refresh();
      } else {
        confirmButton.disabled = false;
        setStatus(unsaved(L.not_saved, result), "error");
      }
    }, function () {
      confirmButton.disabled = false;  // the same key is kept: pressing again retries the same request
      setStatus(L.confirm_offline, "error");
    });
  }

  function renderList(rulings) {
    var list = document.getElementById("ruling-list");
    list.textContent = "";
    rulings.forEach(function (r) {
      var item = document.createElement("li");
      item.className = STATE_CLASS[r.state] || "";
      item.dataset.id = r.id;
      item.textContent = fill(L.hand, { n: r.hand_number }) + " · " + sideName(r.side) + " · " + r.explanation + " · " + r.proposer + " ";
      var state = document.createElement("span");
      state.className = "state " + r.state;
      state.textContent = r.state_label;
      item.appendChild(state);
      if (data.chief && !data.read_only && r.state !== "void") {   // the chief voids any ruling, not only the last
        var voidOne = pendingButton(L.void_one, function () { voidAsked(r); });
        voidOne.className = "void-one";
        voidOne.setAttribute("aria-label", L.void_one + " " + fill(L.hand, { n: r.hand_number }) + " · " + r.explanation);
        item.appendChild(document.createTextNode(" "));
        item.appendChild(voidOne);
      }
      list.appendChild(item);
    });
    var live = rulings.filter(function (r) { return r.state !== "void"; });
    var undo = document.getElementById("void-last");
    if (undo) { undo.hidden = !live.length; }
    renderPending(rulings);
    renderAppealChoices(live);
  }

  /* The appeal form: every ruling not void, by hand and sanction. */
  function renderAppealChoices(live) {
    var form = document.getElementById("appeal-form");
    if (!form) { return; }
    var select = form.elements.ruling, keep = select.value;
    select.textContent = "";
    live.forEach(function (r) {
      var option = document.createElement("option");
      option.value = r.id;
      option.textContent = fill(L.hand, { n: r.hand_number }) + " · " + sideName(r.side) + " · " + r.explanation;
      select.appendChild(option);
    });
    if (keep) { select.value = keep; }
    document.getElementById("appeal-box").hidden = !live.length;
  }

  var appealForm = document.getElementById("appeal-form");
  if (appealForm) {
    appealForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var box = document.getElementById("appeal-status");
      var body = { side: appealForm.elements.side.value, grounds: appealForm.elements.grounds.value };
      post(appealForm.dataset.url.replace("/0/", "/" + appealForm.elements.ruling.value + "/"), body, true)
        .then(function (result) {
          box.textContent = result.ok ? appealForm.dataset.saved : unsaved(L.not_saved, result);
          box.className = "status " + (result.ok ? "saved" : "error");
          if (result.ok) { appealForm.elements.grounds.value = ""; refresh(); }
        }, function () { box.textContent = L.offline; box.className = "status error"; });
    });
  }

  var pendingButton = T.button;

  function renderPending(rulings) {
    var box = document.getElementById("pending");
    box.textContent = "";
    var waiting = rulings.filter(function (r) { return r.state === "pending"; });
    box.hidden = !waiting.length;
    waiting.forEach(function (r) {
      var row = document.createElement("div");
      row.textContent = fill(L.pending, { explanation: r.explanation, who: r.proposer });
      var sanction = r.sanction || {};
      if (data.read_only) {
        // the round is closed: the list only (the page says why)
      } else if (sanction.pending_choice) {
        sanction.options.forEach(function (option) {
          var named = (r.option_labels || {})[option] || option;   // the rules' words, not the option's id
          row.appendChild(pendingButton(fill(L.chooses, { side: sideName(sanction.beneficiary), option: named }), function () {
            act(root.dataset.choiceUrl.replace("/0/", "/" + r.id + "/"), { side: sanction.beneficiary, option: option });
          }));
        });
      } else if (sanction.needs_approval) {
        if (data.chief) {
          row.appendChild(pendingButton(L.approve, function () { approveAsked(r, sanction); }));
          row.appendChild(pendingButton(L.reject, function () {
            act(root.dataset.approvalUrl.replace("/0/", "/" + r.id + "/"), { approved: false });
          }));
        } else {
          row.appendChild(document.createTextNode(L.awaiting_approval));
        }
      }
      box.appendChild(row);
    });
  }

  /* An approval that ends the match (a match loss, a disqualification) is asked first, naming what happens
     (the server's preview); any other approval acts at once. */
  var MATCH_ENDING = ["match_forfeit", "disqualification"];
  function approveAsked(r, sanction) {
    var url = root.dataset.approvalUrl.replace("/0/", "/" + r.id + "/");
    var ends = (sanction.kinds || []).some(function (k) { return MATCH_ENDING.indexOf(k) >= 0; });
    if (!ends || !T.ask) { act(url, { approved: true }); return; }
    T.ask({
      title: L.ask_approve, yes: L.ask_approve_yes, no: L.ask_cancel, working: L.ask_working, failed: L.ask_failed,
      fallback: [L.approve_fallback],
      load: function () {
        return T.getJSON(url + "preview/").then(function (json) {
          return { lead: fill(L.hand, { n: r.hand_number }) + " · " + sideName(r.side) + " · " + r.explanation,
                   items: [json.text || L.approve_fallback] };
        });
      },
      act: function () { return done(url, { approved: true }); }
    });
  }

  /* The chief voids any ruling: the dialog shows what the void changes in the later rulings and the result
     (the server's preview, nothing stored) and asks the reason. */
  function voidAsked(r) {
    var url = root.dataset.voidUrl.replace("/0/", "/" + r.id + "/");
    T.askVoid(url, fill(L.hand, { n: r.hand_number }) + " · " + sideName(r.side) + " · " + r.explanation, L,
              function (reason) { return done(url, { reason: reason }, L.voided); });
  }

  /* A dialog's act: resolves once stored (the list refreshed), rejects with the line to show in the dialog. */
  function done(url, body, saved) {
    return post(url, body, true).then(function (result) {
      if (!result.ok) { throw new Error(unsaved(L.not_saved, result)); }
      setStatus(saved || L.saved, "saved");
      refresh();
    }, function () { throw new Error(L.offline); });
  }

  function act(url, body) {
    setStatus(L.saving, "");
    post(url, body, true).then(function (result) {
      setStatus(result.ok ? L.saved : unsaved(L.not_saved, result), result.ok ? "saved" : "error");
      refresh();
    }, function () { setStatus(L.offline, "error"); });
  }

  function refresh() {
    return fetch(root.dataset.recordUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (json) {
        renderList(json.rulings);
        var handNumber = document.getElementById("hand-number");   // none once the match is over
        if (handNumber) handNumber.textContent = json.match.hand_number;
        document.getElementById("level-NS").textContent = json.match.levels.NS;
        document.getElementById("level-EW").textContent = json.match.levels.EW;
      }, function () { setStatus(L.list_offline, "error"); });
  }

  var voidButton = document.getElementById("void-last");
  if (voidButton) voidButton.addEventListener("click", function () {
    if (!voidButton.dataset.armed) {
      voidButton.dataset.armed = "1";
      voidButton.textContent = L.void_armed;
      return;
    }
    delete voidButton.dataset.armed;
    voidButton.textContent = L.void;
    setStatus(L.voiding, "");
    post(root.dataset.voidLastUrl, { reason: "" }, true).then(function (result) {
      setStatus(result.ok ? L.voided : unsaved(L.not_voided, result),
        result.ok ? "saved" : "error");
      refresh();
    }, function () { setStatus(L.void_offline, "error"); });
  });

  root.querySelectorAll("button.offence").forEach(function (button) {
    button.addEventListener("click", function () { openOffence(button.dataset.code); });
  });
  if (form) {   // none when the console is read only (the round is closed)
    form.addEventListener("change", schedulePreview);
    form.addEventListener("input", function (event) { if (event.target.name !== "note") { schedulePreview(); } });
    form.addEventListener("submit", confirmRuling);
    document.getElementById("cancel").addEventListener("click", closeForm);
  }
  renderList(data.rulings);
  if (window.OfflineQueue) {
    // the list and the levels are the server's once the queue is sent, or stopped by a refusal
    window.OfflineQueue.onSent(function (item) {
      if (item.refused || !window.OfflineQueue.items().length) {
        refresh().then(function () { window.OfflineQueue.render(); });
      }
    });
  }
})();
