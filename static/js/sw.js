/* The service worker of the table page and the console (served as /tables/sw.js, scope /tables/): keeps
   the pages and their scripts for offline use. Network first: online, every page and script comes from
   the server (and refreshes the copy); offline, the last copy answers. The cache's name carries the
   build's version (filled in by the server): a new build's worker deletes every older cache. */
var VERSION = "__VERSION__";
var CACHE = "tables-" + VERSION;

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("tables-") === 0 && k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

/* A page asks for itself and its scripts to be kept (its first load came before the worker). */
self.addEventListener("message", function (event) {
  var urls = (event.data && event.data.cache) || [];
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(urls); })
    .then(function () { if (event.ports[0]) { event.ports[0].postMessage("cached"); } }));
});

function kept(url) {
  return url.origin === self.location.origin &&
    (url.pathname.indexOf("/static/") === 0 || url.pathname.indexOf(self.registration.scope.replace(self.location.origin, "")) === 0);
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || !kept(url) || url.pathname === "/tables/sw.js") { return; }
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && !response.redirected) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
    }
    return response;
  }, function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(request, { ignoreVary: true }); })
      .then(function (copy) { return copy || Response.error(); });
  }));
});
