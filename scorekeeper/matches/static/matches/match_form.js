/* The new-match form (templates/matches/match_form.html). */
// With JavaScript the chances follow the choice of players: the form is sent as "Show the
// chances" (nothing is created), asking for the chances' slot alone (fragment=chances), and
// the answer's chances replace these; one request at a time. Until as many seats are filled as
// the game is played by (data-seats: its player counts), there are no chances to show and
// nothing is asked: the server would only answer that the table is not one of the game's.
(function () {
  var form = document.getElementById("match-form");
  var slot = document.getElementById("prediction-slot");
  if (!form || !slot || !window.fetch) return;
  var counts = (form.getAttribute("data-seats") || "").split(",").map(Number);
  var timer = null, busy = false, again = false;
  function tablePlayable() {
    var filled = 0;
    for (var i = 0; form.elements["seat_" + i]; i++) {
      var typed = form.elements["new_" + i];
      if (form.elements["seat_" + i].value || (typed && typed.value.trim())) filled++;
    }
    return counts.indexOf(filled) >= 0;
  }
  function refresh() {
    if (!tablePlayable()) { slot.innerHTML = ""; return; }
    if (busy) { again = true; return; }
    busy = true;
    var data = new FormData(form);
    data.set("chances", "1");
    data.set("fragment", "chances");
    fetch(window.location.href, { method: "POST", body: data, credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("prediction-slot");
        if (fresh && tablePlayable()) slot.innerHTML = fresh.innerHTML;
      })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  form.addEventListener("change", function (event) {
    if (!/^(seat|new)_/.test(event.target.name || "")) return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  });
})();
