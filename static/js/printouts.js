// Printouts page: poll each unfinished background build and show its progress, then its download link.
(function () {
  "use strict";
  var POLL_MS = 1000;

  function update(card, job) {
    var bar = card.querySelector("progress");
    bar.value = job.progress;
    bar.textContent = job.progress + "%";
    card.dataset.status = job.status;
    card.querySelector(".job-status").textContent = job.status_label;
    card.querySelector(".job-error").textContent = job.error || "";
    var link = card.querySelector(".job-file");
    if (job.file_url) {
      link.href = job.file_url;
      link.hidden = false;
    }
  }

  function finished(status) {
    return status === "done" || status === "failed";
  }

  function poll(card) {
    if (finished(card.dataset.status)) {
      return;
    }
    fetch(card.dataset.statusUrl, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); })
      .then(function (job) {
        update(card, job);
        if (!finished(job.status)) {
          window.setTimeout(function () { poll(card); }, POLL_MS);
        }
      })
      .catch(function () { window.setTimeout(function () { poll(card); }, POLL_MS * 5); });
  }

  document.querySelectorAll(".print-job").forEach(poll);
})();
