/* The projector (issue 34): the current round's tables and the standings, one slide at a time,
 * on a screen in the club's room.
 *
 * Plain JavaScript, no build step. Every 3 s it asks the event's live endpoint (data-live-url,
 * If-None-Match with the ETag it has: follow.js) and rebuilds its slides from the JSON, whose words are
 * already in the page's language: the tables six to a slide, the standings twelve rows to a
 * slide. Every 10 s it shows the next slide. A failed poll (the network, the server) changes
 * nothing on the screen: the last view stays and the next poll tries again.
 */
(function () {
  "use strict";
  var root = document.getElementById("projector");
  var holder = document.getElementById("slides");
  if (!root || !holder || !root.dataset.liveUrl || !window.fetch || !window.followEventLive) return;

  var POLL = 3000;
  var TURN = 10000;
  var TABLES_PER_SLIDE = 6;
  var ROWS_PER_SLIDE = 12;
  var url = root.dataset.liveUrl;
  var title = document.getElementById("slide-title");
  var shown = 0;

  document.documentElement.classList.add("js");

  function el(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function chunks(list, size) {
    var out = [];
    for (var i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
    return out;
  }

  function tableSlide(data, tables) {
    var slide = el("section", "slide tables");
    slide.appendChild(el("h2", "", data.round_title));
    var grid = el("div", "table-grid");
    tables.forEach(function (table) {
      var card = el("div", "table-card");
      var head = el("h3", "", table.title + " ");
      head.appendChild(el("span", "status " + table.status, table.status_label));
      card.appendChild(head);
      var seats = el("ol");
      table.players.forEach(function (player) {
        var li = el("li");
        li.appendChild(el("span", "name", player.name));
        li.appendChild(el("span", "score", player.score));
        seats.appendChild(li);
      });
      card.appendChild(seats);
      grid.appendChild(card);
    });
    slide.appendChild(grid);
    return slide;
  }

  function standingsSlide(data, rows) {
    var slide = el("section", "slide standings");
    slide.appendChild(el("h2", "", data.standings_title));
    var table = el("table");
    var head = el("tr");
    data.columns.forEach(function (label) { head.appendChild(el("th", "", label)); });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var tbody = el("tbody");
    rows.forEach(function (row) {
      var tr = el("tr");
      row.cells.forEach(function (text) { tr.appendChild(el("td", "", text)); });
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    slide.appendChild(table);
    return slide;
  }

  function build(data) {
    var slides = [];
    chunks(data.tables || [], TABLES_PER_SLIDE).forEach(function (tables) {
      slides.push(tableSlide(data, tables));
    });
    var rows = data.standings || [];
    chunks(rows.length ? rows : [], ROWS_PER_SLIDE).forEach(function (part) {
      slides.push(standingsSlide(data, part));
    });
    if (!slides.length) return;
    while (holder.firstChild) holder.removeChild(holder.firstChild);
    slides.forEach(function (slide) { holder.appendChild(slide); });
    show(shown);
  }

  function show(index) {
    var slides = holder.querySelectorAll(".slide");
    if (!slides.length) return;
    shown = index % slides.length;
    slides.forEach(function (slide, i) { slide.classList.toggle("shown", i === shown); });
    var heading = slides[shown].querySelector("h2");
    if (title && heading) title.textContent = heading.textContent;
  }

  show(0);
  setInterval(function () { show(shown + 1); }, TURN);
  window.followEventLive(url, root.dataset.liveEtag || "", POLL, build);
})();
