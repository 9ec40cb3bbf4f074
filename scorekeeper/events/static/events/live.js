/* The event page, live (issue 34): the standings and the tables' running scores follow the
 * matches without a reload.
 *
 * Plain JavaScript, no build step. Every 3 s the page asks the event's live endpoint (the URL
 * in #event-live's data-live-url) with the ETag it has (data-live-etag) in If-None-Match: 304 while nothing
 * changed; otherwise the JSON (views.event_live) in the page's language. The standings'
 * rows are rebuilt from it; each table's score and status are written into its row. When
 * the tables themselves changed (a new round, a swap) the page cannot rebuild its forms: it
 * says so, with a link to reload. A failed poll changes nothing and the next one tries again.
 */
(function () {
  "use strict";
  var root = document.getElementById("event-live");
  if (!root || !root.dataset.liveUrl || !window.fetch) return;

  var EVERY = 3000;
  var url = root.dataset.liveUrl;
  var tag = root.dataset.liveEtag || "";
  var stale = document.getElementById("live-stale");
  var body = document.getElementById("standings-rows");

  function cell(text, className) {
    var td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  function standings(rows) {
    if (!body) return;
    var fresh = document.createDocumentFragment();
    rows.forEach(function (row) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-player", String(row.player));
      row.cells.forEach(function (text, i) {
        tr.appendChild(cell(text, i === 1 ? "sticky" : "num"));
      });
      fresh.appendChild(tr);
    });
    if (!rows.length) return;
    while (body.firstChild) body.removeChild(body.firstChild);
    body.appendChild(fresh);
  }

  function tables(list, round) {
    var changed = false;
    var latest = root.querySelector("section.round");
    if (round !== null && (!latest || latest.getAttribute("data-round") !== String(round))) changed = true;
    list.forEach(function (table) {
      var item = root.querySelector('[data-table-id="' + table.id + '"]');
      if (!item) { changed = true; return; }
      var status = item.querySelector("[data-status]");
      if (status) {
        status.textContent = table.status_label;
        status.className = "badge " + table.status;
      }
      table.players.forEach(function (player) {
        var score = item.querySelector('[data-seat="' + player.seat + '"] [data-score]');
        if (score) score.textContent = player.score;
      });
    });
    if (latest) {
      var ids = list.map(function (table) { return String(table.id); });
      latest.querySelectorAll("[data-table-id]").forEach(function (item) {
        if (ids.indexOf(item.getAttribute("data-table-id")) < 0) changed = true;
      });
    }
    if (changed && stale) stale.hidden = false;
  }

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
        if (!data) return;
        standings(data.standings || []);
        tables(data.tables || [], data.round === undefined ? null : data.round);
      })
      .catch(function () { /* offline or a bad answer: keep what is shown, try again */ })
      .then(function () { setTimeout(poll, EVERY); });
  }

  setTimeout(poll, EVERY);
})();
