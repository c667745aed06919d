/* The table's answer to "was the first lead of the hand in play made?" (000 第十五条): read on load and
   every few seconds, saved when the referee ticks or unticks it. Once the announcement reaches the table
   (the API says "asked"), the page asks the question outright with two buttons; the answer given then,
   while that hand is still in play, decides whether it counts among the last hands. Hands of this table
   still waiting in the offline queue (static/js/offline.js) come first: the box names the hand after them
   and waits, disabled, until they are uploaded (the server's hand in play is behind until then). */
(function () {
  "use strict";
  var form = document.getElementById("lead-report");
  if (!form) { return; }
  var box = document.getElementById("lead-made");
  var ask = document.getElementById("lead-ask");
  var before = document.getElementById("lead-before");
  var taken = document.getElementById("lead-taken");
  var waitingNote = document.getElementById("lead-waiting");
  var hand = null, asked = null, reported = null, made = null, over = null, shown = null;

  function rebellion(item) {
    try { return JSON.parse(item.body).outcome === "rebel"; } catch (e) { return false; }
  }

  /* The numbers of this table's hands waiting in the offline queue (a kept 造反 as the hand before the deal
     it precedes, so the hand in play is that deal). */
  function queued() {
    var queue = window.OfflineQueue;
    if (!queue) { return []; }
    return queue.items().filter(function (i) { return i.kind === "hand" && i.number && i.url === form.dataset.handsUrl; })
      .map(function (i) { return rebellion(i) ? i.number - 1 : i.number; });   // a 造反 holds no number
  }

  function show(data) {
    shown = data;
    hand = data.hand_number; asked = !!data.asked; reported = !!data.reported; made = !!data.made; over = !!data.over;
    if (over) { form.hidden = true; return; }   // the match ended: no hand in play, no "第 n 副已开始出牌"
    var waiting = queued(), number = hand;
    waiting.forEach(function (n) { number = Math.max(number, n + 1); });
    box.checked = reported && made && !waiting.length;   // ticked only by an answer (none: taken as led)
    box.disabled = waiting.length > 0;
    document.getElementById("lead-hand").textContent = String(number);
    ask.querySelector(".lead-ask-hand").textContent = String(number);
    ask.hidden = !asked;
    before.hidden = asked;
    taken.textContent = !reported ? form.dataset.lUnanswered
      : (made ? form.dataset.lAnswerLed : form.dataset.lAnswerNotLed);
    ["lead-yes", "lead-no"].forEach(function (id) {
      var b = document.getElementById(id);
      b.setAttribute("aria-pressed", String(reported && (b.dataset.made === "true") === made));
      b.disabled = waiting.length > 0;
    });
    waitingNote.textContent = waiting.length ? form.dataset.lWaiting.replace("{n}", String(waiting.length)) : "";
    waitingNote.hidden = !waiting.length;
    form.hidden = false;
  }

  function load() {
    return fetch(form.dataset.url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && (hand === null || data.hand_number !== hand || !!data.asked !== asked || !!data.over !== over)) {
          show(data);
        }
      })
      .catch(function () { /* the clock shows the connection state */ });
  }

  function send(value) {
    var status = document.getElementById("lead-status");
    fetch(form.dataset.url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json",
                 "X-CSRFToken": window.Tractor.csrf(form) },
      body: JSON.stringify({ hand_number: hand, made: value })
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (r.status === 201) { show(data); status.textContent = form.dataset.lSaved; status.className = "lead-status ok"; }
        else { status.textContent = data.detail || form.dataset.lError; status.className = "lead-status error"; load(); }
      });
    }, function () { status.textContent = form.dataset.lError; status.className = "lead-status error"; });
  }

  box.addEventListener("change", function () { send(box.checked); });
  Array.prototype.forEach.call(form.querySelectorAll(".lead-answer"), function (button) {
    button.addEventListener("click", function () { send(button.dataset.made === "true"); });
  });

  if (window.OfflineQueue) {
    // a hand queued or uploaded: the box follows (the server's answer once the queue is sent)
    window.OfflineQueue.onChange(function () { if (shown) { show(shown); } });
    window.OfflineQueue.onSent(function () { load(); });
  }

  load();
  setInterval(load, 5000);   // the announcement, or a new hand recorded elsewhere: ask about it
})();
