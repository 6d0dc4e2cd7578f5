// Client-side search over search.json: every word typed must appear in a record's
// message, class or repository. Results are built with textContent, never as HTML.
(function () {
  "use strict";
  var form = document.getElementById("site-search");
  if (!form) { return; }
  var input = document.getElementById("site-q");
  var list = document.getElementById("site-results");
  var status = document.getElementById("site-status");
  var LIMIT = 50;
  var index = null;
  var loading = null;
  var timer = null;

  function say(text) { status.textContent = text; }

  function load() {
    if (!loading) {
      say("Loading the index…");
      loading = fetch(form.getAttribute("data-index"))
        .then(function (response) {
          if (!response.ok) { throw new Error("HTTP " + response.status); }
          return response.json();
        })
        .then(function (data) {
          index = data;
          index.hay = data.records.map(function (r) {
            return (r[0] + " " + (r[4] || "") + " " + data.repos[r[1]][0]).toLowerCase();
          });
          return index;
        })
        .catch(function (error) { say("The search index could not be loaded (" + error.message + ")."); });
    }
    return loading;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function show(query) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    while (list.firstChild) { list.removeChild(list.firstChild); }
    if (!words.length) { say(index.records.length.toLocaleString() + " records indexed. Type to search."); return; }
    var found = 0;
    for (var i = 0; i < index.hay.length && found < LIMIT; i++) {
      var hay = index.hay[i];
      if (!words.every(function (w) { return hay.indexOf(w) >= 0; })) { continue; }
      var r = index.records[i];
      var repo = index.repos[r[1]];
      var item = element("li");
      var link = element("a", "rec-msg");
      link.href = repo[1] + "/" + r[2] + ".html";
      link.appendChild(element("code", null, r[0]));
      item.appendChild(link);
      var meta = element("span", "meta");
      var type = index.types[r[3]];
      meta.appendChild(element("span", "badge t-" + type.replace(/[^a-z]/g, ""), type));
      meta.appendChild(document.createTextNode(" " + (r[4] ? r[4] + " · " : "") + repo[0]));
      item.appendChild(meta);
      list.appendChild(item);
      found++;
    }
    say(found === 0 ? "Nothing matches every word." :
        (found === LIMIT ? "The first " + LIMIT + " matches." : found + " match" + (found === 1 ? "." : "es.")));
  }

  function search() {
    var query = input.value;
    if (index) { show(query); return; }
    load().then(function () { if (index) { show(input.value); } });
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); search(); });
  input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(search, 120); });
  var initial = new URLSearchParams(window.location.search).get("q");
  if (initial) { input.value = initial; }
  say("Type to search.");
  if (initial) { search(); }
})();
