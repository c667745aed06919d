/* Behaviour every page shares, kept out of the HTML so the Content-Security-Policy can forbid inline
   scripts: the language switch submits on change, a "back" link goes back, a form marked
   "keep-scroll" comes back to the same scroll position after its post, and a select marked
   data-follows="<name>" offers only the options whose data-profile is the value chosen in the select
   <name> (the event form's versions of the chosen rule set). On an English page, the runs of Chinese text a
   page's script adds later (names in the desk's rows, the hall display, the console's list) carry
   lang="zh-Hans", as the server marks the page's own (infra/langmark.py). */
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
  var HAN = /([0-9]*[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e](?:[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e\s0-9·]*[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e])?[0-9]*)/;
  var LEFT_ALONE = "[lang=zh-Hans], script, style, title, option, optgroup, textarea, svg";
  function markChinese(text) {
    var parent = text.parentNode;
    if (!parent || parent.nodeType !== 1 || parent.closest(LEFT_ALONE) || !HAN.test(text.nodeValue)) { return; }
    var bits = text.nodeValue.split(HAN), piece = document.createDocumentFragment();
    bits.forEach(function (bit, i) {
      if (!bit) { return; }
      if (i % 2) {
        var span = document.createElement("span");
        span.lang = "zh-Hans";
        span.textContent = bit;
        piece.appendChild(span);
      } else {
        piece.appendChild(document.createTextNode(bit));
      }
    });
    parent.replaceChild(piece, text);
  }
  function markAdded(node) {
    if (node.nodeType === 3) { markChinese(node); return; }
    if (node.nodeType !== 1) { return; }
    var walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT), texts = [];
    while (walker.nextNode()) { texts.push(walker.currentNode); }
    texts.forEach(markChinese);
  }
  if (/^en/.test(document.documentElement.lang) && window.MutationObserver) {
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        if (change.type === "characterData") { markChinese(change.target); }
        change.addedNodes.forEach(markAdded);
      });
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }

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
