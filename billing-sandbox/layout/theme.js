// Runs before the first paint. The stylesheet follows the system theme by itself; when the Atrium app on this
// origin saved a choice (its theme toggle, key "atrium-theme"), that choice wins here too, as in the app.
(function () {
  var saved = null;
  try {
    saved = window.localStorage.getItem("atrium-theme");
  } catch {
    // Storage can be blocked; the system theme applies.
  }
  if (saved === "light" || saved === "dark") document.documentElement.classList.add(saved);
})();
