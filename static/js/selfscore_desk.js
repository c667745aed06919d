/* The desk's card for a round where the players record: the list of the hands waiting and the disputes
   (re-read every 10 s), and the slips: the forms post with fetch, a PDF answer is saved as a file (the codes
   on it are shown this once), a refusal is shown by its field. */
(function () {
  "use strict";
  var list = document.getElementById("selfscore-entries");
  if (!list) { return; }
  var T = window.Tractor;

  function reread() {
    if (document.hidden) { return; }
    fetch(list.dataset.url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null && html !== list.innerHTML) { list.innerHTML = html; } })
      .catch(function () { /* offline: the next round asks again */ });
  }
  window.setInterval(reread, 10000);

  function error(form, field, text) {
    form.querySelectorAll(".field-error").forEach(function (el) { el.hidden = true; el.textContent = ""; });
    if (!text) { return; }
    var prefix = form.id === "slips-form" ? "slips" : "reissue";
    var place = document.getElementById("error-" + prefix + "-" + field) || document.getElementById("error-" + prefix + "-form") ||
      form.querySelector(".field-error");
    place.textContent = text;
    place.hidden = false;
  }

  // New codes for many tables kill every code printed before: asked first, naming how many tables
  // (confirm.js's dialog), as one mis-tap mid-round would stop every table until new slips go round.
  function ask(form) {
    var d = form.dataset, typed = form.elements.tables.value.trim();
    return new Promise(function (resolve) {
      T.ask({ title: d.ask, yes: d.askYes, no: d.askNo,
              lines: [typed ? d.askSome.replace("{tables}", typed) : d.askAll, d.askLine],
              act: function () { resolve(); return Promise.resolve(); } });
    });
  }

  function submit(event) {
    var form = event.target;
    if (form.id !== "slips-form" && form.id !== "reissue-form") { return; }
    event.preventDefault();
    (form.id === "slips-form" && T.ask ? ask(form) : Promise.resolve()).then(function () { send(form); });
  }

  function send(form) {
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    error(form, null, "");
    fetch(form.action, { method: "POST", credentials: "same-origin", body: new FormData(form),
                         headers: { "X-CSRFToken": T.csrf(form) } })
      .then(function (response) {
        if (response.ok && (response.headers.get("Content-Type") || "").indexOf("application/pdf") === 0) {
          var name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
          return response.blob().then(function (blob) {
            var link = document.createElement("a");
            link.href = URL.createObjectURL(blob);
            link.download = name ? name[1] : "slips.pdf";
            document.body.appendChild(link);
            link.click();
            link.remove();
          });
        }
        return response.json().catch(function () { return {}; }).then(function (data) {
          error(form, data.field || "form", data.detail || "");
        });
      })
      .catch(function () { error(form, "form", list.closest("section").dataset.network); })
      .then(function () { button.disabled = false; });
  }
  document.addEventListener("submit", submit);
})();
