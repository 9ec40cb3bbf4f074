/* The event page, live (issue 34): the standings and the tables' running scores follow the
 * matches without a reload.
 *
 * Plain JavaScript, no build step. Every 3 s the page asks the event's live endpoint (the URL
 * in #event-live's data-live-url, from the ETag in data-live-etag on; follow.js): 304 while
 * nothing changed; otherwise the JSON (views.event_live) in the page's language. The standings'
 * rows are rebuilt from it; each table's score and status are written into its row. When
 * the tables themselves changed (a new round, a swap) the page cannot rebuild its forms: it
 * says so, with a link to reload. A failed poll changes nothing and the next one tries again.
 */
(function () {
  "use strict";
  var root = document.getElementById("event-live");
  if (!root || !root.dataset.liveUrl || !window.fetch || !window.followEventLive) return;

  var EVERY = 3000;
  var url = root.dataset.liveUrl;
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

  window.followEventLive(url, root.dataset.liveEtag || "", EVERY, function (data) {
    standings(data.standings || []);
    tables(data.tables || [], data.round === undefined ? null : data.round);
  });
})();
