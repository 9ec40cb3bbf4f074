/* An event's live answer, followed (issue 34): what the event page (live.js) and the projector
 * (projector.js) share.
 *
 * Plain JavaScript, no build step. followEventLive(url, tag, every, draw) asks the live endpoint
 * every `every` ms with the ETag it has in If-None-Match and hands each new answer (the JSON of
 * views.event_live, in the page's language) to `draw`. A 304, an error answer or no network
 * changes nothing: what the page shows stays, and the next poll tries again.
 */
(function () {
  "use strict";
  window.followEventLive = function (url, tag, every, draw) {
    function poll() {
      var headers = { "Accept": "application/json" };
      if (tag) headers["If-None-Match"] = tag;
      fetch(url, { credentials: "same-origin", headers: headers, cache: "no-cache" })
        .then(function (response) {
          if (response.status === 304 || !response.ok) return null;
          var next = response.headers.get("ETag");
          return response.json().then(function (data) {
            tag = next || tag;
            return data;
          });
        })
        .then(function (data) {
          if (data) draw(data);
        })
        .catch(function () { /* keep what is shown; the next poll tries again */ })
        .then(function () { setTimeout(poll, every); });
    }
    setTimeout(poll, every);
  };
})();
