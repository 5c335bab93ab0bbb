// Applies the saved colour theme before the first paint, so dark mode never flashes light.
(function () {
  var saved = localStorage.getItem("atrium-theme");
  var dark = saved === "dark" || (saved !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
})();
