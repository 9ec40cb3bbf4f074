/* Live validation of the hand form and the correction form (issue 13).
 *
 * Plain JavaScript, vendored, no build step. As the scorer types, the form is sent as it
 * stands (the same fields a save would send) to the page's live check, the URL in the form's
 * data-live-check (scorekeeper/matches/views_live.py). The server turns it into the hand
 * record with the form's own code and runs the API's dry run on it, so this script knows
 * nothing of games or records: the answer names the form field of every problem and, per
 * seat, the score the rules give and why the declared one differs, in the language asked
 * for (Accept-Language = the page's <html lang>).
 *
 * - Debounced: a check is sent 300 ms after the last change.
 * - One request in flight: a change made meanwhile waits for it and is sent when it ends;
 *   an answer to a form that has changed since it was sent is dropped (stale).
 * - Saving: the Save button is marked unavailable while the latest answer, for the form as
 *   it is, says the hand would be refused (errors; mismatches not accepted with a reason).
 *   A tap then shows why instead of sending. When no fresh answer is known (typing, the
 *   network down) the form is sent: the server checks everything, as without JavaScript.
 * - A problem on a field not touched yet (a fresh form: everything is missing) is listed
 *   once in the summary ("Still to fill in") instead of by its field.
 */
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  if (!form || !form.dataset.liveCheck || !window.fetch || !window.FormData || !window.URLSearchParams) return;

  var DELAY = 300;
  var url = form.dataset.liveCheck;
  var lang = document.documentElement.lang || "en";
  var summary = document.getElementById("live-summary");
  var accept = form.querySelector("[data-live-accept]");
  var button = form.querySelector("button[type=submit]");
  var held = document.getElementById("save-held");
  var said = null; // what the summary says now: it is rewritten (and announced) only when that changes
  var timer = null;
  var busy = false; // a request is in flight
  var waiting = false; // a change came while it was: send again when it ends
  var answer = null; // {body, savable, data}: the latest answer and the form it was for
  var touched = {};
  var everything = false; // pre-filled (a correction, a re-shown form): every field counts as touched

  function snapshot() {
    return new URLSearchParams(new FormData(form)).toString();
  }

  function csrf() {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(send, DELAY);
    form.setAttribute("data-live-state", "typing");
  }

  function send() {
    timer = null;
    if (busy) { waiting = true; return; }
    var body = snapshot();
    busy = true;
    waiting = false;
    form.setAttribute("data-live-state", "checking");
    fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Accept": "application/json",
        "Accept-Language": lang,
        "X-CSRFToken": csrf()
      }
    })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        // Stale: the form changed while this was on its way; the newer check will answer.
        if (body === snapshot()) show(body, data);
      }, function () {
        if (body === snapshot()) offline();
      })
      .then(function () {
        busy = false;
        if (waiting && !timer) { waiting = false; send(); }
        else if (!timer && !waiting) form.setAttribute("data-live-state", answer ? "done" : "idle");
      });
  }

  function slot(name) {
    return document.getElementById("live-" + name);
  }

  function fieldBox(name) {
    return form.querySelector('.field[data-field="' + name + '"]');
  }

  function clear() {
    form.querySelectorAll(".live").forEach(function (el) { el.textContent = ""; el.className = "live"; });
    form.querySelectorAll(".live-error").forEach(function (el) { el.classList.remove("live-error"); });
    form.querySelectorAll(".live-mismatch").forEach(function (el) { el.classList.remove("live-mismatch"); });
  }

  // aria-invalid follows the latest answer: on the controls of a field with a problem or a
  // declared score that differs, off everywhere else (also where the last save's error was).
  function invalid(names) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.tagName === "BUTTON") return;
      if (names[el.name]) el.setAttribute("aria-invalid", "true");
      else el.removeAttribute("aria-invalid");
    });
  }

  // "Use 43": the rules' score into the declared field, then checked again as if typed.
  function useButton(el, seat) {
    var input = form.elements[seat.field];
    if (!el || !input || !seat.use || seat.rules_give === null || seat.rules_give === undefined) return;
    var tap = document.createElement("button");
    tap.type = "button";
    tap.className = "use";
    tap.textContent = seat.use;
    tap.addEventListener("click", function () {
      input.value = String(seat.rules_give);
      touched[input.name] = true;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.focus();
    });
    el.appendChild(tap);
  }

  function line(el, text, kind) {
    if (!el || !text) return false;
    var div = document.createElement("div");
    div.textContent = text;
    el.appendChild(div);
    el.classList.add(kind);
    return true;
  }

  function show(body, data) {
    // From the first answer on, the live messages replace the last save's (now old) ones.
    form.setAttribute("data-live-active", "");
    form.querySelectorAll(".field.has-error").forEach(function (el) { el.classList.remove("has-error"); });
    clear();
    var missing = [];
    var loose = [];
    var bad = {};
    (data.problems || []).forEach(function (p) {
      var known = p.field && (touched[p.field] || everything);
      if (known && line(slot(p.field), p.message, "bad")) {
        var box = fieldBox(p.field);
        if (box) box.classList.add("live-error");
        bad[p.field] = true;
      } else if (p.field && p.label) {
        if (missing.indexOf(p.label) < 0) missing.push(p.label);
      } else {
        loose.push(p.message);
      }
    });
    (data.seats || []).forEach(function (seat) {
      if (!seat.field || !seat.note) return;
      line(slot(seat.field), seat.note, seat.differs ? "diff" : "ok");
      if (seat.differs) {
        useButton(slot(seat.field), seat);
        var input = form.elements[seat.field];
        if (input && input.classList) input.classList.add("live-mismatch");
        bad[seat.field] = true;
      }
    });
    invalid(bad);
    if (accept && (data.mismatches || []).length) accept.hidden = false;
    if (summary) {
      var lines = [data.message].concat(loose);
      if (missing.length) lines.push(data.still_to_fill + ": " + missing.join(", "));
      var kind = "live-summary " + (data.valid ? "ok" : data.savable ? "warn" : "bad");
      var now = kind + "\n" + lines.join("\n");
      // The one live region: rewritten, and so announced, only when what it says changes.
      if (now !== said) {
        said = now;
        summary.textContent = "";
        summary.className = kind;
        lines.forEach(function (text) { line(summary, text, "msg"); });
      }
      summary.hidden = false;
    }
    answer = { body: body, savable: !!data.savable, data: data };
    mark();
  }

  function offline() {
    answer = null;
    said = null;
    if (summary) { summary.hidden = true; summary.textContent = ""; }
    mark();
  }

  // Save is unavailable only while a fresh answer says it would be refused; then the reason
  // is said next to it (and read with it: the button's aria-describedby).
  function mark() {
    if (!button) return;
    var refused = answer && !answer.savable && answer.body === snapshot();
    if (refused) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
    if (held) {
      held.textContent = refused ? (answer.data.held || answer.data.message) : "";
      held.hidden = !refused;
    }
  }

  function changed(event) {
    if (event.target && event.target.name) touched[event.target.name] = true;
    mark();
    schedule();
  }

  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  // The trick tapper writes into its field without an input event of its own.
  form.addEventListener("click", function (event) {
    var tap = event.target.closest && event.target.closest(".tapper button");
    if (!tap) return;
    var tapper = tap.closest(".tapper");
    if (tapper && tapper.dataset.target) {
      var input = document.getElementById(tapper.dataset.target);
      if (input) touched[input.name] = true;
    }
    schedule();
  });
  form.addEventListener("submit", function (event) {
    if (answer && !answer.savable && answer.body === snapshot()) {
      event.preventDefault();
      event.stopImmediatePropagation();
      everything = true;
      show(answer.body, answer.data);
      var first = form.querySelector(".live.bad, .live.diff");
      (first || summary).scrollIntoView({ block: "center" });
    }
  }, true);

  // A form that arrives filled in (a correction, a refused hand shown again) is checked at
  // once, every field as typed; a new hand's (even with its suggestions) waits for a change.
  if (form.hasAttribute("data-live-now")) {
    everything = true;
    send();
  }
})();
