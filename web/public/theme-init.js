// Applies the colour theme before the first paint, so dark mode never flashes light. A choice made with the theme
// button ("atrium-theme" in localStorage) wins; without one the page follows the system's setting, also when it
// changes while the page is open (the theme button listens to the <html> class, so it follows too).
(function () {
  var system = window.matchMedia("(prefers-color-scheme: dark)");
  function apply() {
    var saved = localStorage.getItem("atrium-theme");
    var dark = saved === "dark" || (saved !== "light" && system.matches);
    document.documentElement.classList.toggle("dark", dark);
  }
  apply();
  system.addEventListener("change", apply);
})();
