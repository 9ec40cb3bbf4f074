/* Every page's script (templates/base.html). A file, not inline, so that the
 * Content-Security-Policy can allow scripts from this site only (docs/pages.md). */
(function () {
  "use strict";
  // The browser's time zone for the next page (times are shown in it): a cookie, checked on the server.
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && !/[^A-Za-z0-9_+/-]/.test(zone) && document.cookie.indexOf("tz=" + zone) < 0) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
    }
  } catch {
    // No zone to tell (an old browser, cookies refused): times stay in the one chosen in the
    // settings, or UTC.
  }

  // A link marked data-print prints the page (the score sheet's "Print").
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-print]");
    if (!link) return;
    event.preventDefault();
    window.print();
  });
})();
