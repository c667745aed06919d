/* The arbitration page: each decision form posts to the appeals API and reloads the page. */
(function () {
  "use strict";
  var root = document.getElementById("arbitration");
  if (!root) { return; }
  var token = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  root.querySelectorAll("form[data-url]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var err = form.querySelector("[data-error]");
      err.textContent = "";
      var body = {instance: parseInt(form.dataset.instance, 10), outcome: e.submitter.value,
                  reason: form.elements.reason.value};
      if (body.outcome === "amended") { body.amendment = window.deskAmendment(form.querySelector("[data-amend]")); }
      fetch(form.dataset.url, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": token, Accept: "application/json"},
        body: JSON.stringify(body)})
        .then(function (r) { return r.json().then(function (j) { if (!r.ok) throw new Error(j.detail || r.status); }); })
        .then(function () { window.location.reload(); }, function (x) { err.textContent = x.message; });
    });
  });
})();
