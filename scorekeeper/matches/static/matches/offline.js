/* Offline capture (every page, templates/base.html; docs/pages.md "Offline").
 * Registers the service worker (sw.js) and keeps the queue of hands saved without a network:
 * IndexedDB, one entry per hand with its own Idempotency-Key, sent in order to the match's
 * .../hands/send/ when the network returns (the online event, on every page load, and again
 * with a growing wait after a failed try). The banner (#offline-banner, its words rendered by
 * the server in the page's language) says what waits and what became of each hand. A hand that
 * meets a version conflict stays, shown beside the hand recorded meanwhile, until the scorer
 * sends it as the next hand or drops it. Without JavaScript none of this runs. */
(function () {
  "use strict";
  var banner = document.getElementById("offline-banner");
  if (!banner) return;
  var user = banner.getAttribute("data-user") || "";

  if ("serviceWorker" in navigator && banner.getAttribute("data-sw")) {
    navigator.serviceWorker.register(banner.getAttribute("data-sw"), { scope: "/" }).catch(function () {});
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "user", user: user });
    });
  }
  if (!window.indexedDB || !user) return;

  var words = banner.dataset;
  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_all, name) { return values[name]; });
  }

  // -- the queue (IndexedDB): entries in the order they were saved ----------------------------
  var opening = null;
  function db() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var request = indexedDB.open("scorekeeper-offline", 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opening;
  }
  function store(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var tx = database.transaction("hands", mode);
        var result = work(tx.objectStore("hands"));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }
  function entries() {
    return store("readonly", function (hands) { return hands.getAll(); }).then(function (all) {
      return all.filter(function (e) { return e.user === user; });
    });
  }
  function put(entry) { return store("readwrite", function (hands) { return hands.put(entry); }); }
  function remove(id) { return store("readwrite", function (hands) { return hands.delete(id); }); }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  function pending(entry) { return entry.state === "waiting" || entry.state === "conflict"; }

  // -- saving on the hand form ------------------------------------------------------------
  var form = document.querySelector("form[data-offline-send]");
  var waitingHere = 0;

  function summary(form) {
    // What was typed, by its label: shown in the banner, and beside the other hand on a conflict.
    var rows = [];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.type === "hidden" || field.type === "submit" || field.type === "button") return;
      if ((field.type === "checkbox" || field.type === "radio") && !field.checked) return;
      var value = field.tagName === "SELECT" ? (field.selectedOptions[0] || {}).textContent : field.value;
      if (!value || !String(value).trim()) return;
      var label = field.id && form.querySelector('label[for="' + field.id + '"]');
      rows.push([label ? label.textContent.trim() : field.name, field.type === "checkbox" ? "✓" : String(value).trim()]);
    });
    return rows;
  }

  function enqueue(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") fields.push([name, String(value)]);
    });
    var match = form.getAttribute("data-offline-match");
    return entries().then(function (all) {
      var before = all.filter(function (e) { return e.match === match && pending(e); });
      return put({
        user: user,
        match: match,
        title: form.getAttribute("data-offline-title") || "",
        matchUrl: form.getAttribute("data-offline-match-url"),
        sendUrl: form.getAttribute("data-offline-send"),
        fields: fields,
        summary: summary(form),
        key: newKey(),
        // A hand saved after others of the match still queued goes with the version the one
        // before it leads to (set when that one is sent).
        chained: before.length > 0,
        state: "waiting",
        saved: new Date().toISOString(),
      });
    });
  }

  if (form) {
    form.addEventListener("submit", function (event) {
      if (event.defaultPrevented) return; // held by the live check
      if (navigator.onLine && waitingHere === 0) return; // the form is posted as always
      event.preventDefault();
      enqueue(form).then(function () {
        window.location.href = form.getAttribute("data-offline-match-url");
      });
    });
  }

  // -- sending ------------------------------------------------------------------------------
  var sending = false;
  var retryWait = 2000;
  var retryTimer = null;

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function field(entry, name, value) {
    entry.fields = entry.fields.filter(function (f) { return f[0] !== name; });
    entry.fields.push([name, String(value)]);
  }
  function fieldValue(entry, name) {
    var found = entry.fields.filter(function (f) { return f[0] === name; })[0];
    return found ? found[1] : null;
  }

  function nextOfMatch(all, entry) {
    return all.filter(function (e) { return e.id > entry.id && e.match === entry.match && pending(e); })[0];
  }

  function post(entry) {
    var body = new FormData();
    body.append("csrfmiddlewaretoken", csrfToken());
    entry.fields.forEach(function (f) { body.append(f[0], f[1]); });
    return fetch(entry.sendUrl, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Idempotency-Key": entry.key, Accept: "application/json" },
    }).then(function (response) {
      if (response.status >= 500) throw new Error("server " + response.status);
      return response.json().catch(function () { return {}; }).then(function (answer) {
        return { status: response.status, answer: answer };
      });
    });
  }

  function sendOne(all, entry) {
    return post(entry).then(function (reply) {
      var answer = reply.answer;
      var next = nextOfMatch(all, entry);
      if (reply.status === 201) {
        entry.state = "sent";
        entry.number = answer.number;
        entry.url = answer.url;
        entry.message = say(words.sent, { number: answer.number });
      } else if (reply.status === 409 && answer.code === "version_conflict") {
        entry.state = "conflict";
        entry.message = answer.message;
        entry.theirs = answer.theirs;
        entry.current = answer.version;
        next = null; // the ones after it wait for the scorer's decision
      } else {
        entry.state = "refused";
        entry.message = answer.message || String(reply.status);
      }
      var writes = [put(entry)];
      if (next && next.chained) {
        next.chained = false;
        field(next, "version", entry.state === "sent" ? answer.version : fieldValue(entry, "version"));
        writes.push(put(next));
      }
      return Promise.all(writes);
    });
  }

  function sync() {
    if (sending || !navigator.onLine) return Promise.resolve();
    sending = true;
    clearTimeout(retryTimer);
    return entries().then(function (all) {
      var held = {};
      var chain = Promise.resolve();
      all.forEach(function (entry) {
        chain = chain.then(function () {
          if (entry.state === "conflict") held[entry.match] = true;
          if (entry.state !== "waiting" || held[entry.match]) return null;
          return sendOne(all, entry).then(function () {
            if (entry.state === "conflict") held[entry.match] = true;
          });
        });
      });
      return chain;
    }).then(function () {
      retryWait = 2000;
    }, function () {
      // No network after all, or the server is down: again later, waiting longer each time.
      retryTimer = setTimeout(sync, retryWait);
      retryWait = Math.min(retryWait * 2, 60000);
    }).then(function () {
      sending = false;
      return show();
    });
  }

  // -- the banner ---------------------------------------------------------------------------
  function button(text, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "secondary";
    b.textContent = text;
    b.addEventListener("click", action);
    return b;
  }

  function rowsTable(caption, rows) {
    var table = document.createElement("table");
    var head = document.createElement("caption");
    head.textContent = caption;
    table.appendChild(head);
    rows.forEach(function (row) {
      var tr = table.insertRow();
      var th = document.createElement("th");
      th.scope = "row";
      th.textContent = row[0];
      tr.appendChild(th);
      tr.insertCell().textContent = row[1];
    });
    return table;
  }

  function theirRows(theirs) {
    if (!theirs) return [];
    var rows = theirs.seats.map(function (seat) {
      var text = seat.score === null ? "–" : String(seat.score);
      if (seat.declared !== null && seat.declared !== seat.score) text += " (" + seat.declared + ")";
      return [seat.name, text];
    });
    rows.unshift([words.recordedBy, theirs.by]);
    return rows;
  }

  function show() {
    return entries().then(function (all) {
      var waiting = all.filter(function (e) { return e.state === "waiting"; }).length;
      waitingHere = form ? all.filter(function (e) {
        return e.match === form.getAttribute("data-offline-match") && pending(e);
      }).length : 0;
      banner.textContent = "";
      banner.hidden = all.length === 0;
      if (!all.length) return;
      var heading = document.createElement("p");
      heading.className = "offline-count";
      heading.textContent = say(words.waiting, { count: waiting }) + (navigator.onLine ? "" : " · " + words.offline);
      banner.appendChild(heading);
      var list = document.createElement("ol");
      all.forEach(function (entry) {
        var item = document.createElement("li");
        item.className = "offline-" + entry.state;
        item.setAttribute("data-state", entry.state);
        var what = document.createElement("p");
        what.textContent = (entry.title ? entry.title + ": " : "") +
          (entry.state === "waiting" ? words.stateWaiting : entry.message);
        item.appendChild(what);
        if (entry.state === "conflict") {
          var both = document.createElement("div");
          both.className = "offline-both";
          both.appendChild(rowsTable(words.mine, entry.summary || []));
          both.appendChild(rowsTable(say(words.theirs, { number: entry.theirs ? entry.theirs.number : "?" }),
            theirRows(entry.theirs)));
          item.appendChild(both);
          item.appendChild(button(words.sendNext, function () {
            field(entry, "version", entry.current);
            entry.key = newKey();
            entry.state = "waiting";
            entry.message = "";
            put(entry).then(sync);
          }));
          if (entry.theirs) {
            // Or mine replaces the hand recorded meanwhile: a correction (its reason goes to the audit log).
            var reasonId = "offline-reason-" + entry.id;
            var label = document.createElement("label");
            label.htmlFor = reasonId;
            label.textContent = words.reason;
            var reason = document.createElement("input");
            reason.id = reasonId;
            reason.type = "text";
            reason.maxLength = 500;
            item.appendChild(label);
            item.appendChild(reason);
            item.appendChild(button(say(words.sendCorrection, { number: entry.theirs.number }), function () {
              field(entry, "version", entry.current);
              field(entry, "reason", reason.value.trim());
              entry.sendUrl = entry.theirs.url + "send/";
              entry.key = newKey();
              entry.state = "waiting";
              entry.message = "";
              put(entry).then(sync);
            }));
          }
          item.appendChild(button(words.drop, function () {
            // Both versions are on screen; what was typed goes only when the scorer says so twice.
            if (!window.confirm(words.dropConfirm)) return;
            entries().then(function (now) {
              var next = nextOfMatch(now, entry);
              if (next) { next.chained = false; return put(next); }
              return null;
            }).then(function () { return remove(entry.id); }).then(sync);
          }));
        } else if (entry.state !== "waiting") {
          item.appendChild(button(words.dismiss, function () { remove(entry.id).then(show); }));
        }
        list.appendChild(item);
      });
      banner.appendChild(list);
    });
  }

  window.addEventListener("online", function () { retryWait = 2000; sync(); });
  window.addEventListener("offline", show);
  show().then(sync);
})();
