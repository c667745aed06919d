/* The chief's desk: renders the round from its JSON (embedded at load, then polled every few seconds)
   and posts the decisions to the API (approve / reject, close / reopen, a table's result, appeals).
   No framework, no build step. */
(function () {
  "use strict";
  var root = document.getElementById("desk");
  if (!root) return;
  var L = JSON.parse(document.getElementById("desk-labels").textContent);
  var rights = JSON.parse(document.getElementById("desk-rights").textContent);
  var data = JSON.parse(document.getElementById("desk-data").textContent);
  var offset = 0;                                   // server clock minus this device's clock (ms)
  var poll = (parseInt(root.dataset.poll, 10) || 4) * 1000;

  var T = window.Tractor, fill = T.fill, newKey = T.newKey, definitive = T.definitive;   // static/js/common.js
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "cls") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }
  function csrf() { return T.csrf(root); }
  function time(iso) {
    if (!iso) return "";
    var d = new Date(iso), lang = document.documentElement.lang || undefined;
    var zone = document.querySelector("meta[name=time-zone]"), options = { hour: "2-digit", minute: "2-digit" };
    if (zone && zone.content) options.timeZone = zone.content;   // the event's clock, as the server's pages say it
    try { return d.toLocaleTimeString(lang, options); }
    catch (e) { delete options.timeZone; return d.toLocaleTimeString(lang, options); }
  }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function mmss(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return (h ? h + ":" + pad(m) : m) + ":" + pad(s % 60);
  }

  /* Every decision carries an Idempotency-Key, kept until the server answers definitively (a 2xx, or a
     4xx other than 409 and 429): after a network failure or a 5xx the decision may have been stored, so
     it is sent again with the SAME key (the server replays its answer), by itself a few times with a
     visible message, then when the chief presses again. */
  var pendingKeys = {};                             // "url\nbody" -> the key of a request not yet settled
  var ATTEMPTS = 4;
  function pause(response, attempt, errorEl) {
    var after = response && parseInt(response.headers.get("Retry-After") || "", 10);
    if (errorEl) errorEl.textContent = fill(L.retrying, { n: attempt });
    return new Promise(function (resolve) { setTimeout(resolve, after > 0 ? Math.min(after, 10) * 1000 : 400 * attempt); });
  }
  function send(url, text, key, errorEl, attempt) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json",
                 "Idempotency-Key": key },
      body: text
    }).then(function (r) {
      if (r.status >= 500 && attempt < ATTEMPTS) {
        return pause(r, attempt, errorEl).then(function () { return send(url, text, key, errorEl, attempt + 1); });
      }
      return r.json().catch(function () { return {}; }).then(function (json) { return { r: r, json: json }; });
    }, function (err) {
      if (attempt >= ATTEMPTS) throw err;
      return pause(null, attempt, errorEl).then(function () { return send(url, text, key, errorEl, attempt + 1); });
    });
  }

  function post(url, body, errorEl) {
    if (errorEl) errorEl.textContent = "";
    var text = JSON.stringify(body || {}), id = url + "\n" + text;
    var key = pendingKeys[id] || (pendingKeys[id] = newKey());
    return send(url, text, key, errorEl, 1).then(function (answer) {
      var r = answer.r, json = answer.json, settled = definitive(r.status);
      if (settled) delete pendingKeys[id];
      if (!r.ok) {
        var detail = json.detail || Object.keys(json).map(function (k) { return [].concat(json[k]).join(" "); }).join(" ");
        var error = new Error(detail || String(r.status));
        error.unsure = !settled && !T.refused(r.status, json);   // "the round cannot close: ..." is an answer
        error.field = json.field;
        error.refused = T.refused(r.status, json);
        throw error;
      }
      return json;
    }).then(function (json) { refresh(); return json; }, function (err) {
      if (errorEl) errorEl.textContent = err.unsure ? fill(L.unsure, { detail: T.bare(err.message) })
        : (err.refused ? err.message : fill(L.error, { detail: err.message }));
      throw err;
    });
  }

  // --- the tables ------------------------------------------------------------------------------
  function remaining(t) {
    if (data.clock.status === "running" && t.ends_at) return (Date.parse(t.ends_at) - (Date.now() + offset)) / 1000;
    return t.remaining_seconds;
  }
  function tableRow(t) {
    var hands = (t.recorded == null ? "–" : t.recorded) + " / " + (t.hands_left == null ? L.no_limit : t.hands_left);
    var secs = remaining(t);
    var timeText = secs == null ? "–" : (secs <= 0 ? L.time_up : mmss(secs));
    var timeCell = el("td", { cls: "t-time", "data-match-id": t.match_id }, [timeText]);
    if (t.extra_seconds) timeCell.appendChild(el("span", { cls: "extra", text: " " + fill(L.extra, { n: Math.round(t.extra_seconds / 60) }) }));
    var state = el("td", { cls: "t-state" }, [el("span", { cls: "badge s-" + t.state, text: t.state_label })]);
    if (t.winner) state.appendChild(el("div", { cls: "winner", text: fill(L.winner, { who: t.winner_name }) }));
    if (t.how && t.ended) state.appendChild(el("div", { cls: "muted how", text: t.how }));
    var alerts = el("td", { cls: "t-alerts" }, t.alerts.map(function (a) { return el("div", { cls: "alert", text: a }); }));
    var links = el("td", { cls: "t-links" }, [
      el("a", { href: t.table_url, text: L.table_page }), el("br"), el("a", { href: t.console_url, text: L.console })]);
    var tr = el("tr", { "data-match-id": t.match_id, cls: "st-" + t.state + (t.alerts.length ? " has-alerts" : "") }, [
      el("td", { text: t.table == null ? "–" : String(t.table) }),
      el("td", { cls: "pairs" }, [el("div", { text: t.ns }), el("div", { text: t.ew })]),
      el("td", { cls: "levels", text: t.has_entries && (t.ns_level || t.ew_level) ? t.ns_level + " : " + t.ew_level : "–" }),
      el("td", { cls: "hands", text: hands }),
      timeCell,
      el("td", { cls: "refs", text: t.referees.length ? t.referees.join(L.sep) : L.nobody }),
      state, alerts, links]);
    return tr;
  }

  function renderTables() {
    var body = root.querySelector("#desk-tables tbody");
    body.replaceChildren.apply(body, data.tables.map(tableRow));
    var byes = document.getElementById("desk-byes"), names = data.byes || [];   // a bye is no table: named once
    byes.textContent = names.length ? fill(L.byes, { n: names.join(L.sep) }) : "";
    byes.hidden = !names.length;
  }
  function tickTimes() {
    data.tables.forEach(function (t) {
      var cell = root.querySelector('td.t-time[data-match-id="' + t.match_id + '"]');
      var secs = remaining(t);
      if (cell && secs != null) cell.firstChild.nodeValue = secs <= 0 ? L.time_up : mmss(secs);
    });
    renderDeadline();
  }

  // --- approvals and appeals ----------------------------------------------------------------------
  function approvalItem(a) {
    var li = el("li", { "data-ruling": a.id }, [
      el("strong", { text: fill(L.table, { n: a.table }) + " · " + fill(L.hand, { n: a.hand }) }), " ",
      el("span", { text: a.offence }),
      el("div", { cls: "muted proposer", text: fill(L.proposed_by, { who: a.proposer, at: time(a.at) }) })]);
    if (rights.approve && !a.mine) {
      var err = el("p", { cls: "error", role: "alert" });
      var yes = el("button", { type: "button", cls: "primary approve", text: L.approve });
      var no = el("button", { type: "button", cls: "reject", text: L.reject });
      yes.addEventListener("click", function () { approveAsked(a); });
      no.addEventListener("click", function () { yes.disabled = no.disabled = true; post("/api/rulings/" + a.id + "/approval/", { approved: false }, err).catch(function () { yes.disabled = no.disabled = false; }); });
      li.appendChild(el("div", { cls: "actions" }, [yes, " ", no]));
      li.appendChild(err);
    } else if (a.mine) {
      li.appendChild(el("div", { cls: "muted", text: L.own }));
    }
    return li;
  }
  /* An approval on the desk is a match loss or a disqualification (the rulings that wait for a chief): it ends
     the match, so it is asked first, naming what happens (the server's preview, nothing stored). */
  function approveAsked(a) {
    var url = "/api/rulings/" + a.id + "/approval/";
    T.ask({
      title: L.ask_approve, yes: L.ask_approve_yes, no: L.ask_cancel, working: L.ask_working, failed: L.ask_failed,
      fallback: [L.approve_fallback],
      load: function () {
        return T.getJSON(url + "preview/").then(function (json) {
          return { lead: fill(L.table, { n: a.table }) + " · " + fill(L.hand, { n: a.hand }) + " · " + a.offence,
                   items: [json.text || L.approve_fallback] };
        });
      },
      act: function () { return post(url, { approved: true }, null); }
    });
  }

  /* The chief voids any ruling of a table: what the void changes first (later rulings counted again, a forfeit
     undone), then the reason. */
  function voidAsked(ruling, label) {
    var url = "/api/rulings/" + ruling + "/void/";
    T.askVoid(url, label, L, function (reason) {
      return post(url, { reason: reason }, null).then(function () {
        document.getElementById("void-status").textContent = L.voided_one;
      });
    });
  }


  function appealItem(a) {
    var li = el("li", { "data-appeal": a.id }, [
      el("strong", { text: fill(L.table, { n: a.table }) + " · " + fill(L.hand, { n: a.hand }) }), " ",
      el("span", { text: a.offence }),
      el("div", { cls: "muted", text: fill(L.filed_by, { who: a.filed_by, side: a.side_label, grounds: a.grounds }) }),
      el("div", { cls: "muted", text: fill(L.waiting, { body: a.body_label }) })]);
    if (a.body && rights.bodies.indexOf(a.body) >= 0) {
      var reason = el("input", { name: "reason", maxlength: "4000", placeholder: L.reason, "aria-label": L.reason });
      var err = el("p", { cls: "error", role: "alert" });
      var form = el("form", { cls: "actions" }, [reason,
        el("button", { type: "submit", value: "upheld", cls: "uphold", text: L.upheld }), " ",
        el("button", { type: "button", cls: "amend-open", "aria-expanded": "false", text: L.amended }), " ",
        el("button", { type: "submit", value: "reversed", cls: "reverse", text: L.reversed })]);
      var amend = document.getElementById("amend-template").content.firstElementChild.cloneNode(true);
      amend.dataset.code = a.code || "";
      form.appendChild(amend);
      // the decision would change a result that can no longer change (the next match has begun, the round is
      // closed): the 409 says why, and this button sends the same decision again keeping the result
      var stands = el("button", { type: "button", cls: "result-stands", text: L.result_stands });
      stands.hidden = true;
      var last = null;
      function decide(body) {
        stands.hidden = true;
        last = body;
        post("/api/appeals/" + a.id + "/decisions/", body, err).then(function () {
          amend.hidden = true;   // decided: the next poll redraws the list
          refresh();
        }, function (x) { stands.hidden = !(x && x.field === "result_stands" && !body.result_stands); });
      }
      stands.addEventListener("click", function () {
        if (last) decide(Object.assign({}, last, { result_stands: true }));
      });
      form.addEventListener("submit", function (e) {
        e.preventDefault();
        var body = { instance: a.waiting_instance, outcome: e.submitter.value, reason: reason.value };
        if (body.outcome === "amended") body.amendment = window.deskAmendment(amend);
        decide(body);
      });
      li.appendChild(form);
      li.appendChild(err);
      li.appendChild(stands);
      window.deskAmendSetup(li);
    }
    return li;
  }
  function renderList(id, items, make) {
    var list = document.getElementById(id);
    list.replaceChildren.apply(list, items.map(make));
    document.getElementById(id + "-empty").hidden = items.length > 0;
  }

  // --- the round: closed or open, deadline --------------------------------------------------------
  function renderDeadline() {
    var box = document.getElementById("round-deadline");
    var end = data.round.appeal_deadline;
    box.hidden = !end;
    if (!end) return;
    var left = (Date.parse(end) - (Date.now() + offset)) / 1000;
    box.textContent = left > 0 ? fill(L.deadline, { left: mmss(left) }) : fill(L.deadline_passed, { at: time(end) });
    box.classList.toggle("passed", left <= 0);
  }
  function renderRound() {
    var closed = data.round.closed;
    var state = document.getElementById("round-state");
    // the round's one status (tournament.competition.rounds), as the table pages and the hall display say it
    state.textContent = closed ? fill(L.closed, { at: time(data.round.results_published_at) })
      : data.round.status_label || L.open;
    state.setAttribute("data-round-status", data.round.status || "");
    if (!closed && data.undecided.length) {
      state.appendChild(el("div", { cls: "muted", text: fill(L.undecided, { tables: data.undecided.join(L.sep) }) }));
    }
    var closeBox = document.getElementById("close-box");
    if (closeBox) closeBox.hidden = closed;
    var reopen = document.getElementById("reopen-form");
    if (reopen) reopen.hidden = !closed;
    renderDeadline();
    document.getElementById("route").textContent = data.route.join(" → ");
  }

  function renderForms() {
    var result = document.getElementById("result-form");
    if (result) {
      var select = result.elements.match, keep = select.value;
      select.replaceChildren.apply(select, data.tables.filter(function (t) { return t.has_entries && !t.winner; }).map(function (t) {
        return el("option", { value: t.match_id, text: fill(L.table, { n: t.table }) + " · " + t.ns + " – " + t.ew });
      }));
      if (keep) select.value = keep;
      result.closest("section").hidden = data.round.closed || !select.options.length;  // nothing to decide
    }
    var voiding = document.getElementById("void-form");
    if (voiding) {
      var vs = voiding.elements.ruling, keepV = vs.value, voidable = [];
      data.tables.forEach(function (t) {
        t.rulings.forEach(function (r) {
          voidable.push(el("option", { value: r.id, text: fill(L.table, { n: t.table }) + " · " + fill(L.hand, { n: r.hand }) + " · " + r.offence }));
        });
      });
      vs.replaceChildren.apply(vs, voidable);
      if (keepV) vs.value = keepV;
      voiding.closest("section").hidden = !voidable.length;
    }
    var appeal = document.getElementById("appeal-form");
    if (appeal) {
      var rs = appeal.elements.ruling, keepR = rs.value, options = [];
      data.tables.forEach(function (t) {
        t.rulings.forEach(function (r) {
          options.push(el("option", { value: r.id, text: fill(L.table, { n: t.table }) + " · " + fill(L.hand, { n: r.hand }) + " · " + r.offence }));
        });
      });
      rs.replaceChildren.apply(rs, options);
      if (keepR) rs.value = keepR;
    }
  }

  function render() {
    renderRound();
    renderTables();
    renderList("approvals", data.approvals, approvalItem);
    renderList("appeals", data.appeals, appealItem);
    renderForms();
  }

  // --- the round's note: a refusal to close or reopen, or being offline ----------------------------------
  // A refusal stays until what it is about changes (the round closed or reopened by anybody, or the next try):
  // a poll that only finds the round as it was must not wipe "the round cannot close: tables 1, 2 ..." away.
  var roundError = document.getElementById("round-error");
  function roundNote(text, about) { roundError.textContent = text; roundError.dataset.about = about; }
  function settleRoundNote() {
    var about = roundError.dataset.about;
    if (about === "offline" || (about === "open" && data.round.closed) || (about === "closed" && !data.round.closed)) {
      roundNote("", "");
    }
  }

  // --- polling -------------------------------------------------------------------------------------
  // A refresh asked for while one is under way (a decision saved during a poll) runs when it ends: the poll
  // under way may have read the round before the decision.
  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    again = false;
    var sent = Date.now();
    fetch(root.dataset.stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (json) {
        offset = Date.parse(json.server_now) - (sent + Date.now()) / 2;
        rights = json.rights || rights;
        var focused = document.activeElement && root.contains(document.activeElement) &&
          /INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName) && !document.activeElement.closest("#desk-tables") ||
          !!root.querySelector("#appeals [data-amend]:not([hidden])");   // a 改判 being written
        data = json;
        if (focused) { renderRound(); renderTables(); } else { render(); }
        root.classList.remove("offline");
        settleRoundNote();
      })
      .catch(function () {
        root.classList.add("offline");
        if (!roundError.textContent || roundError.dataset.about === "offline") roundNote(L.offline, "offline");
      })
      .then(function () { busy = false; if (again) refresh(); });
  }

  // --- actions --------------------------------------------------------------------------------------
  function clockNow() { if (window.TractorClock && window.TractorClock.refresh) window.TractorClock.refresh(); }
  var closeBtn = document.getElementById("close-round");
  if (closeBtn) {
    var confirmBox = document.getElementById("close-confirm");
    closeBtn.addEventListener("click", function () { confirmBox.hidden = false; closeBtn.hidden = true; });
    document.getElementById("close-no").addEventListener("click", function () { confirmBox.hidden = true; closeBtn.hidden = false; });
    document.getElementById("close-yes").addEventListener("click", function () {
      confirmBox.hidden = true; closeBtn.hidden = false;
      post(root.dataset.closeUrl, {}, roundError).then(clockNow, function () { roundError.dataset.about = "open"; });
    });
  }
  var reopenForm = document.getElementById("reopen-form");
  if (reopenForm) {
    reopenForm.addEventListener("submit", function (e) {
      e.preventDefault();
      post(root.dataset.reopenUrl, { reason: reopenForm.elements.reason.value }, roundError)
        .then(function () { reopenForm.reset(); clockNow(); }, function () { roundError.dataset.about = "closed"; });
    });
  }
  var resultForm = document.getElementById("result-form");
  if (resultForm) {
    resultForm.addEventListener("submit", function (e) {
      e.preventDefault();
      var f = resultForm.elements;
      post("/api/matches/" + f.match.value + "/result/", { winner: f.winner.value, kind: f.kind.value, reason: f.reason.value },
        resultForm.querySelector("[data-error]")).then(function () { f.reason.value = ""; }, function () {});
    });
  }
  var voidForm = document.getElementById("void-form");
  if (voidForm) {
    voidForm.addEventListener("submit", function (e) {
      e.preventDefault();
      var select = voidForm.elements.ruling;
      if (!select.value) return;
      document.getElementById("void-status").textContent = "";
      voidAsked(select.value, select.options[select.selectedIndex].text);
    });
  }
  var appealForm = document.getElementById("appeal-form");
  if (appealForm) {
    appealForm.addEventListener("submit", function (e) {
      e.preventDefault();
      var f = appealForm.elements;
      post("/api/rulings/" + f.ruling.value + "/appeals/", { side: f.side.value, grounds: f.grounds.value },
        appealForm.querySelector("[data-error]")).then(function () { f.grounds.value = ""; }, function () {});
    });
  }

  offset = Date.parse(data.server_now) - Date.now();
  render();
  setInterval(refresh, poll);
  setInterval(tickTimes, 1000);
})();
