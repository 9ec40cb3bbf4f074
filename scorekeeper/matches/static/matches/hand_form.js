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
// Tap a player's button for each trick they win: it appends their seat to the tricks field.
// "n tricks" in the page's language, every plural form written by the server.
(function () {
  var trickCounts = JSON.parse(document.getElementById("trick-counts").textContent);
  document.querySelectorAll(".tapper").forEach(function (bar) {
    var input = document.getElementById(bar.dataset.target);
    if (!input) return;
    var count = bar.querySelector("[data-count]");
    function show() {
      var n = input.value.replace(/[^0-9]/g, "").length;
      count.textContent = trickCounts[n] || String(n);
    }
    bar.hidden = false;
    bar.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var digits = input.value.replace(/[^0-9]/g, "");
      digits = button.hasAttribute("data-undo") ? digits.slice(0, -1) : digits + button.dataset.seat;
      input.value = digits.replace(/(\d{4})(?=\d)/g, "$1 ");
      show();
    });
    input.addEventListener("input", show);
    show();
  });
})();
