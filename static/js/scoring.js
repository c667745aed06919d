/* The table page: post the next hand (or a correction) to the API with fetch(), show "saved" only
   after the server answered 201, then refresh the levels, the form and the history from the page. */
(function () {
  "use strict";

  /* The Idempotency-Key of a submission is kept until the server answers definitively (a 2xx, or a 4xx
     other than 409 and 429): a network failure or a 5xx may have come after the hand was stored, so the
     same submission is sent again with the SAME key (the server replays its stored answer), a few times
     by itself with a visible message, then when the referee presses again. */
  var pendingKey = null;
  var pendingBody = null;
  var ATTEMPTS = 4;

  var T = window.Tractor, definitive = T.definitive, sleep = T.sleep, newKey = T.newKey;   // static/js/common.js

  function status(text, kind, login) {
    var el = document.getElementById("form-status");
    el.textContent = text;
    el.className = "form-status" + (kind ? " " + kind : "");
    /* The session expired (the API answered "not logged in" with the login page): a link back in after
       logging in, to this page. */
    if (login) { T.loginLink(el, login, el.getAttribute("data-login") || "Log in"); }
  }

  /* Clear the messages shown next to the fields. */
  function clearFieldErrors(form) {
    form.querySelectorAll(".field-error").forEach(function (el) { el.textContent = ""; el.hidden = true; });
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
  }

  /* Show the server's message next to the field it names; false when the page has no place for it. */
  function showFieldError(form, field, detail) {
    var place = field ? document.getElementById("error-" + field) : null;
    if (!place || !form.contains(place)) { return false; }
    place.textContent = detail;
    place.hidden = false;
    if (form.elements[field]) { form.elements[field].setAttribute("aria-invalid", "true"); form.elements[field].focus(); }
    return true;
  }

  function intOrRaw(value) {
    var text = (value || "").trim();
    return /^-?\d+$/.test(text) ? parseInt(text, 10) : text;
  }

  /* The request body from the form fields (the server checks every value). */
  function collect(form, number) {
    var f = form.elements;
    var body = {
      number: number,
      trump: f.trump.value,
      defender_points: intOrRaw(f.defender_points.value),
      bottom_points: intOrRaw(f.bottom_points.value || "0"),
      last_trick: {
        by: f.lt_by.value,
        shape: f.lt_shape.value,
        pairs: f.lt_shape.value === "tractor" ? intOrRaw(f.lt_pairs.value)
          : f.lt_shape.value === "throw" ? intOrRaw(f.lt_throw_pairs.value) : 1,
        trump: f.lt_trump.checked
      }
    };
    if (f.lt_shape.value === "throw") { body.last_trick.cards = intOrRaw(f.lt_cards.value); }
    if (f.declarer && f.declarer.value) { body.declarer = f.declarer.value; }
    if (f.reclaim) { body.reclaim = f.reclaim.checked; }
    if (f.lt_rank && f.lt_rank.value) { body.last_trick.rank = f.lt_rank.value; }
    if (f.lt_buried_by) { body.last_trick.buried_by = f.lt_buried_by.value; }
    if (mainRankAsked(form) && f.lt_main.value) { body.last_trick.main_rank = f.lt_main.value === "true"; }
    return body;
  }

  /* 004 四.5: a capture with the level rank asks 主J/副J (主A/副A) where the profile tells them apart: at
     that level every such card is a trump, so "played with trumps" cannot say which. */
  function mainRankAsked(form) {
    var f = form.elements, box = form.querySelector("label.lt-main");
    if (!box || !f.lt_rank || !f.lt_rank.value) { return false; }
    return box.dataset.ranks.split(",").indexOf(f.lt_rank.value) >= 0;
  }

  /* Show the 主/副 question for the picked rank, and name the last trick's winners by who buried the bottom
     (004 七.1: the side that buried it keeps it, 保底; the other side captures it, 抠底). */
  function syncLastTrick(form) {
    var f = form.elements, box = form.querySelector("label.lt-main");
    if (box) {
      var asked = mainRankAsked(form);
      if (asked) {
        Array.prototype.forEach.call(f.lt_main.options, function (option) {
          var text = option.dataset.label && option.dataset.label.split("{rank}").join(f.lt_rank.value);
          if (text && option.label !== text) { option.textContent = text; option.label = text; }
        });
      } else {
        f.lt_main.value = "";
      }
      box.hidden = !asked;
    }
    if (f.lt_buried_by) {
      var reburied = f.lt_buried_by.value === "defenders";
      Array.prototype.forEach.call(f.lt_by.options, function (option) {
        if (!option.dataset.usual) { option.dataset.usual = option.textContent; }
        option.textContent = reburied ? option.dataset.rebury : option.dataset.usual;
      });
    }
  }

  /* The tractor's number of pairs is asked only for a tractor (a single or a pair has none to give). */
  function syncShape(form) {
    var box = form.querySelector("label.lt-pairs");
    if (box) { box.hidden = form.elements.lt_shape.value !== "tractor"; }
    /* a throw (甩牌): its cards and pairs, with how the event's reading counts it */
    var throwBox = form.querySelector(".lt-throw");
    if (throwBox) { throwBox.hidden = form.elements.lt_shape.value !== "throw"; }
  }

  /* The stored inputs of the last hand (the page puts them in #last-hand-inputs), or null. */
  function lastInputs() {
    var el = document.getElementById("last-hand-inputs");
    try { return el ? JSON.parse(el.textContent) : null; } catch (e) { return null; }
  }

  function setValue(field, value) {
    if (!field || value === undefined || value === null) { return; }
    if (field.type === "checkbox") { field.checked = !!value; } else { field.value = String(value); }
  }

  /* Ticking "correct the last hand" names that hand in the title and fills the form with what was stored
     for it; unticking gives back the empty form for the next hand. */
  function syncCorrection(form) {
    var box = form.elements.correct, title = document.getElementById("form-title");
    if (!box || !title) { return; }
    var correcting = box.checked, data = correcting ? lastInputs() : null;
    title.textContent = correcting ? title.dataset.lastTitle : title.dataset.nextTitle;
    if (!correcting) {
      Array.prototype.forEach.call(form.elements, function (field) {
        if (field === box || field.type === "hidden" || !field.name) { return; }
        if (field.type === "checkbox") { field.checked = field.defaultChecked; return; }
        if (field.tagName === "SELECT") {
          var chosen = Array.prototype.filter.call(field.options, function (o) { return o.defaultSelected; })[0];
          field.value = chosen ? chosen.value : (field.options[0] ? field.options[0].value : "");
          return;
        }
        field.value = field.defaultValue;
      });
    } else if (data) {
      var f = form.elements, lt = data.last_trick || {};
      setValue(f.declarer, data.declarer);
      setValue(f.trump, data.trump);
      setValue(f.defender_points, data.defender_points);
      setValue(f.bottom_points, data.bottom_points);
      setValue(f.reclaim, data.reclaim);
      setValue(f.lt_buried_by, lt.buried_by || "declarers");
      setValue(f.lt_by, lt.by);
      setValue(f.lt_shape, lt.shape);
      setValue(f.lt_pairs, lt.shape === "tractor" ? lt.pairs : 2);
      if (f.lt_cards) { setValue(f.lt_cards, lt.shape === "throw" ? lt.cards : 2); }
      if (f.lt_throw_pairs) { setValue(f.lt_throw_pairs, lt.shape === "throw" ? lt.pairs : 0); }
      if (lt.trump !== undefined) { setValue(f.lt_trump, lt.trump); }
      setValue(f.lt_rank, lt.rank || "");
      if (f.lt_main) { setValue(f.lt_main, lt.main_rank === true ? "true" : lt.main_rank === false ? "false" : ""); }
    }
    syncShape(form);
    syncLastTrick(form);
  }

  /* The question the referee left unanswered, shown by its field; true when there is one. */
  function missingAnswer(form) {
    if (!mainRankAsked(form) || form.elements.lt_main.value) { return false; }
    var select = form.elements.lt_main;
    showFieldError(form, "last_trick.main_rank", select.dataset.required.split("{rank}").join(form.elements.lt_rank.value));
    select.setAttribute("aria-invalid", "true");
    select.focus();
    return true;
  }

  /* Re-read the page and swap in the parts that change after a save. */
  function refresh() {
    return fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        ["table-live", "table-history"].forEach(function (id) {
          var fresh = doc.getElementById(id), old = document.getElementById(id);
          if (fresh && old) { old.replaceWith(fresh); }
        });
        ready();
      });
  }

  function submit(event) {
    var form = event.target;
    if (form.id !== "hand-form" && form.id !== "redeal-form" && form.id !== "rebel-form") { return; }
    event.preventDefault();
    var statusEl = document.getElementById("form-status");
    var rebel = form.id === "rebel-form";      // 004 二.7 造反: dealt again, the stage bid for anew, no score
    var redeal = form.id === "redeal-form" || rebel;   // 000 第五条: nobody declared trump, no score
    if (rebel && !rebelChosen(form)) { return; }
    if (redeal && !window.confirm(form.dataset.confirm)) { return; }
    if (!redeal) { clearFieldErrors(form); }
    if (!redeal && missingAnswer(form)) { return; }
    var correcting = !redeal && form.elements.correct && form.elements.correct.checked;
    var number = parseInt(correcting ? form.dataset.last : form.dataset.next, 10);
    var url = correcting ? form.dataset.correctUrl : form.dataset.recordUrl;
    var data = rebel ? { number: number, outcome: "rebel", called_by: form.elements.called_by.value,
                         declarer: form.elements.declarer.value }
                     : redeal ? { number: number, outcome: "redeal" } : collect(form, number);
    /* Another page's hooks (the players' table, a referee's decision): where the hand goes, in which body,
       with which credentials; null: not sent (the hook said why). */
    var hooks = window.TableHooks || {}, extra = {};
    if (hooks.prepare) {
      var prepared = hooks.prepare(form, data, correcting, url);
      if (!prepared) { return; }
      url = prepared.url; data = prepared.body; extra = prepared.headers || {};
    }
    var body = JSON.stringify(data);
    if (body !== pendingBody) { pendingKey = newKey(); pendingBody = body; }
    var queue = window.OfflineQueue;
    if (queue && queue.queueing()) {   // no connection, or entries still waiting: kept, in order
      if (!redeal && badPoints(form)) { return; }
      var label = rebel ? rebelLabel(form) : redeal ? form.querySelector("button[type=submit]").textContent
                                                     : handLabel(form, number, correcting);
      queue.add(correcting ? "correction" : "hand", url, body, label, pendingKey, extra).then(function () {
        if (hooks.queued) { hooks.queued(form); }
        else if (!correcting) { nextAfterQueued(form, number); }
        status(queue.labels.queued, "ok");
      });
      pendingKey = null; pendingBody = null;
      return;
    }
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    var handForm = document.getElementById("hand-form");
    if (handForm) { clearFieldErrors(handForm); }
    status(statusEl.dataset.saving, "");
    var key = pendingKey;
    function send(attempt) {
      return fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: Object.assign({
          "Content-Type": "application/json",
          "Accept": "application/json",
          "X-CSRFToken": T.csrf(form),
          "Idempotency-Key": key
        }, extra),
        body: body
      }).then(function (response) {
        if (response.status < 500 || attempt >= ATTEMPTS) { return response; }
        return retry(attempt, response);
      }, function (error) {
        if (attempt >= ATTEMPTS) { throw error; }
        return retry(attempt, null);
      });
    }
    function retry(attempt, response) {   // the same submission, the same key
      var after = response && parseInt(response.headers.get("Retry-After") || "", 10);
      status(statusEl.dataset.retrying.replace("{n}", attempt), "");
      return sleep(after > 0 ? Math.min(after, 10) * 1000 : 400 * attempt).then(function () { return send(attempt + 1); });
    }
    send(1).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (definitive(response.status) && pendingKey === key) { pendingKey = null; pendingBody = null; }
        if (response.status === 201) {
          return refresh().catch(function () { /* saved anyway; the page reloads later */ })
            .then(function () { status(statusEl.dataset.saved, "ok"); });
        }
        button.disabled = false;
        var detail = data.detail || ("HTTP " + response.status);
        var answered = definitive(response.status) || T.refused(response.status, data);
        status(answered ? detail : statusEl.dataset.unsure.replace("{detail}", T.bare(detail)),
               "error", data.login);   // by the button, and by the field
        if (!(handForm && showFieldError(handForm, data.field, data.detail || "")) && hooks.fieldError) {
          hooks.fieldError(data.field, data.detail || "");
        }
      });
    }).catch(function () {
      button.disabled = false;
      status(statusEl.dataset.network, "error");
    });
  }

  /* Offline, the same limits as the server's (the inputs' min, max and step, from the profile): the queue
     never keeps what the server would refuse for a typo. True (with the message by the field) when bad. */
  function badPoints(form) {
    return ["defender_points", "bottom_points"].some(function (name) {
      var input = form.elements[name], raw = (input.value || (name === "bottom_points" ? "0" : "")).trim();
      var value = parseInt(raw, 10), fill = T.fill, message = "";
      if (!/^-?\d+$/.test(raw)) { message = form.dataset.msgWhole.replace("%(value)r", "'" + raw + "'"); }
      else if (value < +input.min || value > +input.max) {
        message = fill(form.dataset.msgRange, { value: value, lo: input.min, hi: input.max });
      } else if (value % (+input.step || 1)) { message = fill(form.dataset.msgFive, { value: value }); }
      return message ? showFieldError(form, name, message) || true : false;
    });
  }

  /* A rebellion names who called it and who won the new bidding (the messages by the fields when not). */
  function rebelChosen(form) {
    var ok = true;
    ["called_by", "declarer"].forEach(function (name) {
      var select = form.elements[name], place = document.getElementById("error-rebel-" + name);
      var missing = !select.value;
      if (place) { place.hidden = !missing; }
      if (missing) { select.setAttribute("aria-invalid", "true"); ok = false; } else { select.removeAttribute("aria-invalid"); }
    });
    return ok;
  }

  /* How a kept rebellion is listed: the button's words, the caller and the new declarer. */
  function rebelLabel(form) {
    var f = form.elements;
    return form.querySelector("button[type=submit]").textContent + " · " +
      f.called_by.options[f.called_by.selectedIndex].textContent + " → " + f.declarer.options[f.declarer.selectedIndex].textContent;
  }

  /* How a kept hand is listed: its number, trump and points. */
  function handLabel(form, number, correcting) {
    var f = form.elements, title = document.getElementById("form-title");
    var name = correcting ? title.textContent : title.dataset.pattern.replace("{n}", number);
    var trump = f.trump.options[f.trump.selectedIndex];
    return name + " · " + (trump ? trump.textContent : "") + " · " + f.defender_points.value + " / " + (f.bottom_points.value || "0");
  }

  /* A kept entry's outcome ("played" when its body names none). */
  function outcomeOf(item) {
    try { return JSON.parse(item.body).outcome || "played"; } catch (e) { return "played"; }
  }

  /* The hand after the last one kept: its number (after what the server has and what waits), an empty form. */
  function nextAfterQueued(form, number) {
    form.reset();
    form.dataset.next = number + 1;
    applyQueue();
  }

  /* Hands waiting in the queue: the next number follows them; the server names their declarers; the last
     stored hand is no longer the last, so "correct the last hand" waits until they are sent. */
  function applyQueue() {
    var queue = window.OfflineQueue, form = document.getElementById("hand-form");
    if (!queue || !form) { return; }
    var waiting = queue.items().filter(function (i) { return i.kind === "hand" && i.number; });
    var next = parseInt(form.dataset.next, 10);
    // a kept 造反 holds no number: the deal after it is played under the number it was kept with
    waiting.forEach(function (i) { next = Math.max(next, i.number + (outcomeOf(i) === "rebel" ? 0 : 1)); });
    form.dataset.next = next;
    ["redeal-form", "rebel-form"].forEach(function (id) {
      var other = document.getElementById(id);
      if (!other) { return; }
      other.dataset.next = next;
      var button = other.querySelector("button[data-pattern]");
      if (button) { button.textContent = button.dataset.pattern.replace("{n}", next); }
      // after a kept entry the server names the declarer: the attackers are known again once it is sent
      if (id === "rebel-form") { other.hidden = waiting.length > 0; }
    });
    var title = document.getElementById("form-title"), box = form.elements.correct;
    if (title && title.dataset.pattern && !(box && box.checked)) { title.textContent = title.dataset.pattern.replace("{n}", next); }
    if (box && !box.disabled) { box.closest("label").hidden = waiting.length > 0; }
    var declarer = form.elements.declarer;
    if (declarer && waiting.length) { declarer.value = ""; declarer.closest("label").hidden = true; }
    syncShape(form);
    syncLastTrick(form);
  }

  /* On load, and after a save swapped in a fresh form: the shape's question, and a correction already ticked
     (a finished match offers only the correction). */
  function ready() {
    var form = document.getElementById("hand-form"), note = document.getElementById("other-phone");
    typing = false;   // a fresh form: nothing typed in it yet
    if (note) { note.hidden = true; }
    if (!form) { return; }
    syncShape(form);
    if (form.elements.correct && form.elements.correct.checked) { syncCorrection(form); }
    applyQueue();
    if (window.OfflineQueue) { window.OfflineQueue.render(); }
  }

  if (window.OfflineQueue) {
    window.OfflineQueue.onChange(applyQueue);
    // the page shows the server's levels and hands once the queue is sent, or stopped by a refusal
    window.OfflineQueue.onSent(function (item) {
      if (item.refused || !window.OfflineQueue.items().length) { refresh().catch(function () {}); }
    });
  }

  /* Two phones at one table: while online with nothing waiting, the page asks every 10 s whether the match
     changed (its ETag: 304 while not) and shows what another phone saved: at once while nothing is being
     typed here, else with a note above the form (the server refuses a stale hand anyway). */
  var WATCH_MS = 10000, stateTag = null, typing = false;
  function signature(state) {   // the players' table adds the entry waiting (its id and state)
    return [state.levels.NS, state.levels.EW, state.status, state.hands.map(function (h) {
      return h.number + "." + (h.version == null ? "" : h.version) + ",";
    }).join("")].join("|") + (state.waiting ? "|" + state.waiting.id + state.waiting.state : "");
  }
  function watch() {
    var live = document.getElementById("table-live"), queue = window.OfflineQueue;
    if (!live || !live.dataset.stateUrl || document.hidden || !navigator.onLine || pendingKey ||
        (queue && queue.items().length)) { return; }
    var headers = { "Accept": "application/json" };
    if (stateTag) { headers["If-None-Match"] = stateTag; }
    fetch(live.dataset.stateUrl, { credentials: "same-origin", headers: headers }).then(function (response) {
      if (response.status !== 200) { return; }
      stateTag = response.headers.get("ETag");
      return response.json().then(function (state) {
        if (signature(state) === live.dataset.signature) { return; }
        if (!typing) { return refresh(); }
        document.getElementById("other-phone").hidden = false;
      });
    }).catch(function () { /* offline or a hiccup: the next round asks again */ });
  }
  var liveBox = document.getElementById("table-live");   // the players' table asks more often (data-watch, s)
  window.setInterval(watch, (liveBox && +liveBox.dataset.watch * 1000) || WATCH_MS);
  document.addEventListener("input", function (event) {
    if (event.target.form && event.target.form.id === "hand-form") { typing = true; }
  });

  window.TableRefresh = refresh;   // the players' table page re-reads itself after a confirmation
  document.addEventListener("submit", submit);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", ready); } else { ready(); }
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (!form || form.id !== "hand-form") { return; }
    if (event.target.name === "correct") { clearFieldErrors(form); syncCorrection(form); return; }
    syncShape(form);
    syncLastTrick(form);
    var place = document.getElementById("error-last_trick.main_rank");
    if (event.target.name === "lt_main" && place) { place.hidden = true; event.target.removeAttribute("aria-invalid"); }
  });
})();
