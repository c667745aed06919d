/* A question before an act that cannot be taken back by a click (an approval that ends a match, a void that
   counts the later rulings again): window.Tractor.ask(options) opens a modal <dialog> (the browser keeps the
   focus in it, Esc or the cancel button closes it and nothing happens), shows what the act will do, loaded from
   the server when the dialog opens, and acts only on the confirm button. Loaded after common.js by the pages
   that ask (the console, the chief's desk). Its words come from the page (translated on the server).
   options:
     title           the question (the dialog's name for screen readers)
     load()          a promise of the lines to show (what the act changes), or of {lead, heading, items}: a
                     first paragraph (what is acted on), a heading over the lines, the lines; optional
     lines           lines shown at once (when there is nothing to load)
     empty           the line shown when load() gives none
     working         shown while loading;   failed: "...%(detail)s" when loading fails
     fallback        lines shown when loading fails, the act then still allowed (else it is not)
     reason          {label, missing}: a reason field, required (missing: its error when left empty)
     note            a line under the lines (e.g. what is recorded)
     yes, no         the buttons' words
     act(reason)     a promise: resolved when done (the dialog closes), rejected with an Error whose
                     message is shown in the dialog (the dialog stays, the act can be tried again) */
(function () {
  "use strict";
  var T = window.Tractor;
  if (!T) { return; }
  var count = 0;

  function node(tag, cls, text) {
    var el = document.createElement(tag);
    if (cls) { el.className = cls; }
    if (text != null) { el.textContent = text; }
    return el;
  }

  function ask(options) {
    var id = "confirm-dialog-" + (++count);
    var dialog = node("dialog", "confirm-dialog");
    dialog.id = id;
    dialog.setAttribute("aria-labelledby", id + "-title");
    dialog.setAttribute("aria-describedby", id + "-lines");
    var title = node("h2", "confirm-title", options.title);
    title.id = id + "-title";
    var lines = node("div", "confirm-lines");
    lines.id = id + "-lines";
    lines.setAttribute("role", "status");
    lines.setAttribute("aria-live", "polite");
    var form = node("form", "confirm-form");
    form.method = "dialog";
    form.appendChild(title);
    form.appendChild(lines);
    if (options.note) { form.appendChild(node("p", "muted confirm-note", options.note)); }
    var reason = null;
    if (options.reason) {
      var label = node("label", "confirm-reason", options.reason.label);
      reason = node("input");
      reason.name = "reason";
      reason.maxLength = 2000;
      reason.setAttribute("aria-required", "true");   // checked here, in the page's words (not the browser's bubble)
      reason.autocomplete = "off";
      label.appendChild(reason);
      form.appendChild(label);
    }
    var error = node("p", "error confirm-error");
    error.setAttribute("role", "alert");
    form.appendChild(error);
    var no = node("button", "confirm-no", options.no);
    no.type = "button";
    var yes = node("button", "primary confirm-yes", options.yes);
    yes.type = "submit";
    var actions = node("div", "confirm-actions");
    actions.appendChild(no);
    actions.appendChild(yes);
    form.appendChild(actions);
    dialog.appendChild(form);
    document.body.appendChild(dialog);

    var busy = false;
    function show(items) {
      lines.textContent = "";
      if (items && !Array.isArray(items)) {   // {lead, heading, items}: the act's object, then what it changes
        if (items.lead) { lines.appendChild(node("p", "confirm-lead", items.lead)); }
        if (items.heading && items.items.length) { lines.appendChild(node("p", "confirm-heading", items.heading)); }
        items = items.items;
      }
      var list = node("ul", "confirm-list");
      (items.length ? items : [options.empty || ""]).forEach(function (text) {
        if (text) { list.appendChild(node("li", null, text)); }
      });
      lines.appendChild(list);
    }
    function close() {
      if (dialog.open && dialog.close) { dialog.close(); } else { finish(); }
    }
    function finish() { if (dialog.parentNode) { dialog.parentNode.removeChild(dialog); } }
    dialog.addEventListener("close", finish);
    dialog.addEventListener("cancel", function (event) { if (busy) { event.preventDefault(); } });
    no.addEventListener("click", function () { if (!busy) { close(); } });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (busy || yes.disabled) { return; }
      var text = reason ? reason.value.trim() : "";
      if (reason && !text) {
        error.textContent = options.reason.missing;
        reason.setAttribute("aria-invalid", "true");
        reason.focus();
        return;
      }
      error.textContent = "";
      busy = true;
      yes.disabled = no.disabled = true;
      Promise.resolve().then(function () { return options.act(text); }).then(function () {
        busy = false;
        close();
      }, function (err) {
        busy = false;
        yes.disabled = no.disabled = false;
        error.textContent = (err && err.message) || String(err || "");
      });
    });

    if (options.load) {
      yes.disabled = true;
      lines.textContent = options.working || "";
      options.load().then(function (items) {
        show(items || []);
        yes.disabled = false;
      }, function (err) {
        lines.textContent = T.fill(options.failed || "%(detail)s", { detail: (err && err.message) || "" });
        if (options.fallback) {
          show(options.fallback);
          lines.insertBefore(node("p", "error", T.fill(options.failed || "", { detail: (err && err.message) || "" })),
                             lines.firstChild);
          yes.disabled = false;
        }
      });
    } else {
      show(options.lines || []);
    }
    if (dialog.showModal) { dialog.showModal(); } else { dialog.setAttribute("open", ""); }
    (reason || no).focus();
    return dialog;
  }

  /* GET a preview as JSON; resolves to the answer, rejects with an Error carrying the server's detail. */
  function getJSON(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (json) {
        if (!r.ok) { throw new Error(json.detail || String(r.status)); }
        return json;
      });
    });
  }

  /* The void of a ruling (the console's and the desk's alike): what it changes in the later rulings and the
     result (the server's preview, nothing stored), then the reason; act(reason) voids. words: the page's. */
  function askVoid(url, lead, words, act) {
    ask({
      title: words.ask_void, yes: words.ask_void_yes, no: words.ask_cancel, working: words.ask_working,
      failed: words.ask_failed, empty: words.void_nothing, note: words.void_note,
      reason: { label: words.void_reason, missing: words.void_reason_missing },
      load: function () {
        return getJSON(url + "preview/").then(function (json) {
          return { lead: lead, heading: words.void_changes, items: json.text };
        });
      },
      act: act
    });
  }

  T.ask = ask;
  T.askVoid = askVoid;
  T.getJSON = getJSON;
})();
