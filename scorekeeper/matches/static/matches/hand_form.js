/* The hand form and the correction form (templates/matches/hand_form.html); the live check is live.js. */
// One tap, one request: the button is disabled once the form is on its way (a second POST
// with the same version would only meet a conflict); re-enabled when the page is shown again.
(function () {
  var form = document.getElementById("hand-form");
  var button = form && form.querySelector("button[type=submit]");
  if (!button) return;
  form.addEventListener("submit", function () { setTimeout(function () { button.disabled = true; }, 0); });
  window.addEventListener("pageshow", function () { button.disabled = false; });
})();
// Tap a player's button for each trick they win: it appends their mark (the player's initial,
// see PiquetForm) to the tricks field, four to a group; the undo button takes the last one off.
// "n tricks" in the page's language, every plural form written by the server.
(function () {
  var counts = document.getElementById("trick-counts");
  var trickCounts = counts ? JSON.parse(counts.textContent) : [];
  document.querySelectorAll(".tapper").forEach(function (bar) {
    var input = document.getElementById(bar.dataset.target);
    if (!input) return;
    var size = parseInt(bar.dataset.markSize, 10) || 1;
    var count = bar.querySelector("[data-count]");
    function marks() {
      var compact = input.value.replace(/[\s,]+/g, "").toUpperCase();
      if (/^[0-9]*$/.test(compact)) return compact.split(""); // the record's seat numbers, as typed
      var out = [];
      for (var i = 0; i < compact.length; i += size) out.push(compact.slice(i, i + size));
      return out;
    }
    function write(list) {
      if (size > 1) { input.value = list.join(" "); return; }
      var text = list.join("");
      input.value = text.replace(/(.{4})(?=.)/g, "$1 ");
    }
    function show() {
      var n = input.value.trim() ? marks().length : 0;
      count.textContent = trickCounts[n] || String(n);
    }
    bar.hidden = false;
    bar.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var list = marks();
      if (/^[0-9]+$/.test(list.join(""))) {
        // Seat numbers typed earlier: shown by the players' marks from now on.
        var byseat = {};
        bar.querySelectorAll("button[data-seat]").forEach(function (b) { byseat[b.dataset.seat] = b.dataset.mark; });
        list = list.map(function (seat) { return byseat[seat] || seat; });
      }
      if (button.hasAttribute("data-undo")) list.pop();
      else list.push(button.dataset.mark);
      write(list);
      show();
    });
    input.addEventListener("input", show);
    show();
  });
})();
// Buttons that type a declaration (a set "4Д", a run "5В"): a count starts one, a rank ends it,
// in the page's language (the server wrote the letters); undo takes the last one off.
(function () {
  document.querySelectorAll(".picker").forEach(function (bar) {
    var input = document.getElementById(bar.dataset.target);
    if (!input) return;
    bar.hidden = false;
    bar.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var tokens = input.value.trim() ? input.value.trim().split(/[\s,;]+/) : [];
      if (button.hasAttribute("data-undo")) tokens.pop();
      else if (button.dataset.count) tokens.push(button.dataset.count);
      else if (button.dataset.rank) {
        var last = tokens.length ? tokens[tokens.length - 1] : "";
        // A rank completes a count typed just before; alone, it cannot stand.
        if (/^[0-9]$/.test(last)) tokens[tokens.length - 1] = last + button.dataset.rank;
        else return;
      }
      input.value = tokens.join(" ");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  });
})();
// Cancel asks before it throws away what was typed: the question shows next to it, "Discard it"
// leaves as Cancel would, "Keep editing" goes back to the form. Nothing typed: it just leaves.
(function () {
  var form = document.getElementById("hand-form");
  var cancel = form && form.querySelector("[data-cancel]");
  var confirm = document.getElementById("cancel-confirm");
  if (!cancel || !confirm || !window.FormData || !window.URLSearchParams) return;
  function snapshot() { return new URLSearchParams(new FormData(form)).toString(); }
  var start = snapshot();
  function unsaved() { return form.hasAttribute("data-unsaved") || snapshot() !== start; }
  cancel.addEventListener("click", function (event) {
    if (!unsaved()) return;
    event.preventDefault();
    confirm.hidden = false;
    confirm.querySelector("[data-keep]").focus();
  });
  confirm.querySelector("[data-keep]").addEventListener("click", function () {
    confirm.hidden = true;
    cancel.focus();
  });
})();
