// The unit's registration page: as the holder types, the draft is checked by the server with the
// import's own checks and each problem is shown under its pair (the unit's problems on top).
(function () {
  "use strict";
  var form = document.getElementById("register-form");
  if (!form || !form.dataset.check) { return; }
  var unitList = document.getElementById("unit-problems");
  var timer = null;
  var asked = 0;

  function listInto(list, messages) {
    list.textContent = "";
    messages.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    });
  }

  function show(problems) {
    var byRow = {};
    var unit = [];
    problems.forEach(function (p) {
      if (p.row === null) { unit.push(p.message); } else { (byRow[p.row] = byRow[p.row] || []).push(p.message); }
    });
    form.querySelectorAll(".row-problems").forEach(function (list) { listInto(list, byRow[list.dataset.row] || []); });
    listInto(unitList, unit);
    unitList.hidden = unit.length === 0;
    form.querySelectorAll(".reg-pair").forEach(function (set) {
      set.classList.toggle("has-error", Boolean(byRow[set.dataset.row]));
    });
  }

  function check() {
    var mine = ++asked;
    fetch(form.dataset.check, {method: "POST", body: new FormData(form), credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && mine === asked) { show(data.problems); } })
      .catch(function () { /* offline: the server checks again on save */ });
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(check, 400);
  }

  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();
