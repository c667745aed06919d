/* The table's answer to "was the first lead of the hand in play made?" (000 第十五条): read on load and
   after each hand, saved when the referee ticks or unticks it. */
(function () {
  "use strict";
  var form = document.getElementById("lead-report");
  if (!form) { return; }
  var box = document.getElementById("lead-made");
  var hand = null;

  function show(data) {
    hand = data.hand_number;
    box.checked = !!data.made;
    document.getElementById("lead-hand").textContent = String(hand);
    form.hidden = false;
  }

  function load() {
    return fetch(form.dataset.url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && (hand === null || data.hand_number !== hand)) { show(data); } })
      .catch(function () { /* the clock shows the connection state */ });
  }

  box.addEventListener("change", function () {
    var status = document.getElementById("lead-status");
    fetch(form.dataset.url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json",
                 "X-CSRFToken": form.elements.csrfmiddlewaretoken.value },
      body: JSON.stringify({ hand_number: hand, made: box.checked })
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (r.status === 201) { show(data); status.textContent = form.dataset.lSaved; status.className = "lead-status ok"; }
        else { status.textContent = data.detail || form.dataset.lError; status.className = "lead-status error"; load(); }
      });
    }, function () { status.textContent = form.dataset.lError; status.className = "lead-status error"; });
  });

  load();
  setInterval(load, 15000);   // a new hand recorded elsewhere: ask about the next one
})();
