/* Behaviour every page shares, kept out of the HTML so the Content-Security-Policy can forbid inline
   scripts: the language switch submits on change, a "back" link goes back, a form marked
   "keep-scroll" comes back to the same scroll position after its post, and a select marked
   data-follows="<name>" offers only the options whose data-profile is the value chosen in the select
   <name> (the event form's versions of the chosen rule set). */
(function () {
  "use strict";
  document.querySelectorAll("form.lang select[name=language]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  document.querySelectorAll("a[data-back]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      if (window.history.length > 1) { event.preventDefault(); window.history.back(); }
    });
  });
  document.querySelectorAll("select[data-follows]").forEach(function (select) {
    var leader = select.form && select.form.querySelector("select[name=" + select.dataset.follows + "]");
    if (!leader) { return; }
    function follow() {
      Array.prototype.forEach.call(select.options, function (option) {
        var mine = !option.dataset.profile || option.dataset.profile === leader.value;
        option.hidden = !mine;
        option.disabled = !mine;
        if (!mine && option.selected) { select.value = ""; }
      });
    }
    leader.addEventListener("change", follow);
    follow();
  });
  var key = "scroll:" + location.pathname;
  var forms = document.querySelectorAll("form.keep-scroll");
  if (forms.length) {
    var saved = sessionStorage.getItem(key);
    if (saved !== null) { window.scrollTo(0, parseInt(saved, 10)); sessionStorage.removeItem(key); }
    forms.forEach(function (form) {
      form.addEventListener("submit", function () { sessionStorage.setItem(key, String(window.scrollY)); });
    });
  }
})();
