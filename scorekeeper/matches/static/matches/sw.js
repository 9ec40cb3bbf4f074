/* The service worker (served at /sw.js by views_offline.service_worker, which puts
 * CACHE_VERSION and SHELL above this text). It keeps the app shell from its install on, and
 * each page as it is visited: pages network first, the kept copy only without a network;
 * static files from the cache. Only what this browser's user saw is kept, and the pages are
 * dropped when another user (or nobody) signs in on it (offline.js says who). */
/* global CACHE_VERSION, SHELL */
"use strict";

var SHELL_CACHE = "scorekeeper-shell-" + CACHE_VERSION;
var PAGES_CACHE = "scorekeeper-pages-" + CACHE_VERSION;
var MOST_PAGES = 60;
// Pages never kept: the API, the admin, signing in and the accounts' pages.
var NOT_KEPT = /^\/(api|admin|accounts|i18n)\//;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE).then(function (cache) { return cache.addAll(SHELL); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  // A new release: the caches of the old one go.
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("scorekeeper-") === 0 && name !== SHELL_CACHE && name !== PAGES_CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "user") return;
  // The pages kept belong to one user: another one (or a sign-out) starts afresh.
  event.waitUntil(
    caches.open(PAGES_CACHE).then(function (cache) {
      return cache.match("/__user__").then(function (kept) {
        return kept ? kept.text() : null;
      }).then(function (user) {
        if (user === String(data.user)) return null;
        if (user === null) {
          // The first word since this cache began: what it holds was seen by this user.
          return cache.put("/__user__", new Response(String(data.user)));
        }
        return caches.delete(PAGES_CACHE).then(function () {
          return caches.open(PAGES_CACHE);
        }).then(function (fresh) {
          return fresh.put("/__user__", new Response(String(data.user)));
        });
      });
    })
  );
});

function keepPage(request, response) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.put(request, response).then(function () { return cache.keys(); }).then(function (keys) {
      var pages = keys.filter(function (k) { return new URL(k.url).pathname !== "/__user__"; });
      // The oldest kept first (keys come in insertion order).
      return Promise.all(pages.slice(0, Math.max(0, pages.length - MOST_PAGES)).map(function (k) {
        return cache.delete(k);
      }));
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (SHELL.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.match(request).then(function (hit) { return hit || fetch(request); }));
    return;
  }
  if (request.mode !== "navigate" || NOT_KEPT.test(url.pathname)) return;
  event.respondWith(
    fetch(request).then(function (response) {
      if (response.ok && response.type === "basic" && !response.redirected) {
        event.waitUntil(keepPage(request, response.clone()));
      }
      return response;
    }).catch(function () {
      return caches.open(PAGES_CACHE).then(function (cache) {
        return cache.match(request, { ignoreVary: true });
      }).then(function (hit) {
        return hit || Response.error();
      });
    })
  );
});
