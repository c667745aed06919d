/* The arbitration page: each decision form posts to the appeals API and reloads the page. */
(function () {
  "use strict";
  var root = document.getElementById("arbitration");
  if (!root) { return; }
  var token = window.Tractor.csrf(root);   // static/js/common.js
  /* A decision that would change a result which can no longer change (the next match has begun, the round
     is closed) is answered 409 with field result_stands: a button sends it again keeping the result. */
  function send(form, body, err) {
    var stands = form.querySelector("button.result-stands");
    if (stands) { stands.hidden = true; }
    fetch(form.dataset.url, {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": token, Accept: "application/json"},
      body: JSON.stringify(body)})
      .then(function (r) {
        return r.json().then(function (j) {
          if (!r.ok) { var e = new Error(j.detail || r.status); e.field = j.field; throw e; }
        });
      })
      .then(function () { window.location.reload(); }, function (x) {
        err.textContent = x.message;
        if (x.field === "result_stands" && !body.result_stands && stands) {
          stands.hidden = false;
          stands.onclick = function () { send(form, Object.assign({}, body, {result_stands: true}), err); };
        }
      });
  }
  root.querySelectorAll("form[data-url]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var err = form.querySelector("[data-error]");
      err.textContent = "";
      var body = {instance: parseInt(form.dataset.instance, 10), outcome: e.submitter.value,
                  reason: form.elements.reason.value};
      if (body.outcome === "amended") { body.amendment = window.deskAmendment(form.querySelector("[data-amend]")); }
      send(form, body, err);
    });
  });
})();
