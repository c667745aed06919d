/* The helpers the page scripts share, written once: window.Tractor. Loaded by templates/base.html in the
   head, without defer, so it runs before every page script (deferred or not, and offline.js, which the
   table page and the console load in their body). It only defines functions and touches no element.
   The service worker (sw.js) cannot see page globals; it needs none of these.
   - fill(text, values): a translated label with its %(name)s filled in (a missing value: "").
   - newKey(): a new Idempotency-Key (a random UUID; a time-and-random string on old browsers).
   - csrf(scope): the CSRF token of the first csrfmiddlewaretoken input in scope (default the document).
   - definitive(status): whether the server's answer settles a request, so its key may be dropped: a 2xx,
     or a 4xx other than 409 (busy/conflict) and 429 (too many requests).
   - refused(status, json): whether the answer is the server's "no" having read the state (a 409 other than
     code "retry", as "the round cannot close: table 2 has no result yet"): shown as it is, never as "not
     confirmed as saved, try again" (its key is still kept: a 409 is never stored, so a retry runs afresh).
   - bare(detail): a detail without its closing full stop, to sit inside a sentence of its own.
   - sleep(ms): a promise resolved after ms milliseconds.
   - loginLink(el, login, text): after an error line, a link to the login page (back to this page).
   - button(text, handler): a new <button type=button> calling handler when clicked. */
(function () {
  "use strict";
  function fill(text, values) {
    return String(text == null ? "" : text).replace(/%\((\w+)\)s/g, function (_, key) {
      return values[key] == null ? "" : values[key];
    });
  }
  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return "k-" + Date.now() + "-" + Math.random().toString(16).slice(2);
  }
  function csrf(scope) {
    var input = (scope || document).querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function definitive(status) { return status < 500 && status !== 409 && status !== 429; }
  // An answer that refuses (nothing was stored; pressing again changes nothing): a conflict, or a throttle (429).
  function refused(status, json) {
    return (status === 409 || status === 429) && !!json && !!json.code && json.code !== "retry";
  }
  function bare(detail) { return String(detail == null ? "" : detail).replace(/[。.]\s*$/, ""); }
  function sleep(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }
  function loginLink(el, login, text) {
    var link = document.createElement("a");
    link.href = login + "?next=" + encodeURIComponent(window.location.pathname + window.location.search);
    link.textContent = text;
    link.className = "login-link";
    el.appendChild(document.createTextNode(" "));
    el.appendChild(link);
  }
  function button(text, handler) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.addEventListener("click", handler);
    return b;
  }
  window.Tractor = {
    fill: fill, newKey: newKey, csrf: csrf, definitive: definitive, refused: refused, bare: bare, sleep: sleep, loginLink: loginLink, button: button
  };
})();
