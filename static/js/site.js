/* Behaviour every page shares, kept out of the HTML so the Content-Security-Policy can forbid inline
   scripts: the language switch submits on change, a "back" link goes back, and a form marked
   "keep-scroll" comes back to the same scroll position after its post. */
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
