// ESLint over the site's own JavaScript: the pages' scripts and the service worker, plain
// scripts with no build step (docs/pages.md). `npx eslint .` (CI runs it).
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

// The recommended set (no-undef, no-unused-vars, no-redeclare …) and a few rules more, each for a
// kind of bug the scripts could hide.
const bugs = {
  eqeqeq: ["error", "always"],
  // A top-level var or function in a page script is a property of window, shared by every
  // script of the page: each file keeps its names inside its own function.
  "no-implicit-globals": "error",
  // A var read before its line is undefined, not an error.
  "no-use-before-define": ["error", { functions: false, variables: true }],
  // The Content-Security-Policy allows no eval: it would throw at run time.
  "no-eval": "error",
  "no-implied-eval": "error",
  "no-new-func": "error",
  "array-callback-return": "error",
  "no-promise-executor-return": "error",
  "no-unmodified-loop-condition": "error",
  "no-self-compare": "error",
  "no-template-curly-in-string": "error",
  radix: "error",
};

module.exports = [
  // Not ours, or copies: Python's packages (DRF's and drf-spectacular's scripts), collectstatic's
  // output, the browser tests' vendored axe-core.
  { ignores: [".venv/", "staticfiles/", "media/", "tests/browser/vendor/"] },
  js.configs.recommended,
  {
    files: ["**/static/**/*.js"],
    ignores: ["**/static/**/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.browser },
    rules: bugs,
  },
  {
    // Served at /sw.js with CACHE_VERSION and SHELL written above it (views_offline.py). A
    // worker has no window or document, and its global scope is its own, shared with no page.
    files: ["**/static/**/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
    rules: { ...bugs, "no-implicit-globals": "off" },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
    rules: bugs,
  },
];
