// Live reload for `docgen serve`: reloads open pages when the site is rebuilt, keeping the
// scroll position and the #hash, and shows content errors over the page until they are fixed.
(function () {
  var KEY = "docgen-live-scroll";
  try {
    var saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    sessionStorage.removeItem(KEY);
    if (saved && saved.path === location.pathname) {
      addEventListener("load", function () { scrollTo(0, saved.y); });
    }
  } catch (e) { /* storage may be unavailable; reloading still works */ }

  function overlay(text) {
    var el = document.getElementById("docgen-error-overlay");
    if (!text) { if (el) el.remove(); return; }
    if (!el) {
      el = document.createElement("div");
      el.id = "docgen-error-overlay";
      el.setAttribute("role", "alertdialog");
      el.setAttribute("aria-label", "Build errors");
      el.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;background:rgba(20,20,24,.94);color:#f4f4f5;padding:24px;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace";
      var title = document.createElement("h2");
      title.textContent = "The site does not build: until the errors below are fixed, you see the last version that did.";
      title.style.cssText = "font:600 16px system-ui,sans-serif;margin:0 0 12px;color:#fca5a5";
      var pre = document.createElement("pre");
      pre.style.cssText = "white-space:pre-wrap;margin:0";
      el.appendChild(title);
      el.appendChild(pre);
      document.body.appendChild(el);
    }
    el.querySelector("pre").textContent = text;
  }

  function reload() {
    try { sessionStorage.setItem(KEY, JSON.stringify({ path: location.pathname, y: scrollY })); } catch (e) { /* ignore */ }
    location.reload();
  }

  // A newer tab of this browser took this one's place (the server keeps a few per client):
  // stop, and reload when the page is looked at again, as a rebuild may have been missed.
  function ended(source) {
    source.close();
    function back() {
      if (document.visibilityState !== "visible") return;
      removeEventListener("focus", back);
      document.removeEventListener("visibilitychange", back);
      reload();
    }
    addEventListener("focus", back);
    document.addEventListener("visibilitychange", back);
  }

  // Connect once the page has loaded, so the long-lived stream never competes with the
  // page's own requests.
  function connect() {
    var source = new EventSource("/_docgen/live");
    source.addEventListener("errors", function (e) { overlay(JSON.parse(e.data).text); });
    source.addEventListener("reload", reload);
    source.addEventListener("ended", function () { ended(source); });
  }
  if (document.readyState === "complete") connect(); else addEventListener("load", connect);
})();
