/* 改判 (amended): the fieldset of the new sanction (templates/tournament/desk/_amend_fields.html).
   window.deskAmendment(fieldset) -> {code, side, choice, role, minutes, cards} (empty fields left out);
   a button .amend-open next to a fieldset shows it; the option list follows the chosen offence. */
(function () {
  "use strict";
  function sync(fieldset) {
    var code = fieldset.querySelector("[name=code]").value;
    var choice = fieldset.querySelector("[name=choice]");
    Array.prototype.forEach.call(choice.options, function (o) { o.hidden = !!o.dataset.code && o.dataset.code !== code; });
    if (choice.selectedOptions[0] && choice.selectedOptions[0].hidden) choice.value = "";
  }
  window.deskAmendment = function (fieldset) {
    var out = {};
    ["code", "side", "choice", "role", "minutes", "cards"].forEach(function (name) {
      var value = fieldset.querySelector("[name=" + name + "]").value;
      if (value !== "") out[name] = (name === "minutes" || name === "cards") ? parseInt(value, 10) : value;
    });
    return out;
  };
  window.deskAmendSetup = function (scope) {
    scope.querySelectorAll("[data-amend]").forEach(function (fieldset) {
      var code = fieldset.querySelector("[name=code]");
      if (fieldset.dataset.ready) return;
      fieldset.dataset.ready = "1";
      code.addEventListener("change", function () { sync(fieldset); });
      if (fieldset.dataset.code) code.value = fieldset.dataset.code;
      sync(fieldset);
      var opener = fieldset.parentNode.querySelector(".amend-open");
      if (opener) opener.addEventListener("click", function () {
        fieldset.hidden = !fieldset.hidden;
        opener.setAttribute("aria-expanded", String(!fieldset.hidden));
      });
    });
  };
  document.addEventListener("DOMContentLoaded", function () { window.deskAmendSetup(document); });
})();
