/* The referee's table page where the players record: the floor referee decides the hand the players entered
   that waits or is disputed (#entry-decide): confirm it as entered, reject it (nothing recorded), or record
   the hand as it was with the page's hand form (scoring.js asks the hook below: the form then posts the
   decision instead of a new hand; the hand is recorded under the entry's number). The session's login is
   the credential. */
(function () {
  "use strict";
  var T = window.Tractor;

  function panel() { return document.getElementById("entry-decide"); }
  function note() { var input = panel().querySelector("input[name=decide_note]"); return input ? input.value : ""; }
  function say(text) {
    var el = document.getElementById("decide-status");
    el.textContent = text || "";
    el.hidden = !text;
  }

  window.TableHooks = {
    prepare: function (form, data, correcting, url) {
      var box = panel();
      if (!box) { return { url: url, body: data }; }   // nothing to decide: the page's own write
      return { url: box.dataset.decideUrl, body: { action: "record", hand: data, note: note() } };
    },
    fieldError: function (field, detail) { if (panel()) { say(detail); } }
  };

  function decide(button) {
    var box = panel(), action = button.dataset.decide;
    if (action === "reject" && !window.confirm(box.dataset.askReject)) { return; }
    button.disabled = true;
    say("");
    fetch(box.dataset.decideUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": T.csrf(),
                 "Idempotency-Key": T.newKey() },
      body: JSON.stringify({ action: action, note: note() })
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (response.status === 201) { window.location.reload(); return; }
        button.disabled = false;
        say(data.detail || "");
      });
    }, function () {
      button.disabled = false;
      say(document.getElementById("form-status").dataset.network);
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-decide]");
    if (button) { decide(button); }
  });
})();
