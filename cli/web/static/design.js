// boardrule serve: the designer page. The server checks the text as `boardrule check` checks the file and
// answers with the same codes, lines and columns; this page only shows them.
"use strict";

var pack = null;
var timer = null;
var asked = 0;       // the number of the last check sent: older answers are dropped

function lines(text) { return text.split("\n").length; }

function drawGutter(found) {
  var bad = {};
  (found || []).forEach(function (d) {
    if (d.line) { bad[d.line] = d.severity === "error" ? "bad" : (bad[d.line] || "warn"); }
  });
  var out = [], n = lines(el("source").value);
  for (var i = 1; i <= n; i++) {
    out.push(bad[i] ? '<span class="' + bad[i] + '" data-line="' + i + '">' + i + "</span>" : String(i));
  }
  el("gutter").innerHTML = out.join("\n");
  el("gutter").scrollTop = el("source").scrollTop;
}

function showDiagnostics(report) {
  var list = el("diagnostics");
  list.innerHTML = "";
  if (!report.diagnostics.length) {
    var li = document.createElement("li");
    li.className = "clean";
    li.textContent = report.file + ": no diagnostics";
    list.appendChild(li);
  }
  report.diagnostics.forEach(function (d) {
    var li = document.createElement("li");
    li.className = d.severity;
    li.dataset.code = d.code;
    li.dataset.line = d.line || "";
    li.textContent = d.text;
    li.addEventListener("click", function () { if (d.line) { goTo(d.line, d.col || 1); } });
    list.appendChild(li);
  });
  drawGutter(report.diagnostics);
}

function goTo(line, col) {
  var area = el("source"), parts = area.value.split("\n"), at = 0;
  for (var i = 0; i < line - 1 && i < parts.length; i++) { at += parts[i].length + 1; }
  area.focus();
  area.setSelectionRange(at + col - 1, at + (parts[line - 1] || "").length);
  area.scrollTop = Math.max(0, (line - 5) * 18);
}

function check() {
  var number = ++asked;
  el("checking").textContent = "(checking…)";
  api("POST", "/api/design/check", { pack: pack, text: el("source").value }).then(function (report) {
    if (number !== asked) { return; }
    el("checking").textContent = "";
    showDiagnostics(report);
  }, function (err) { el("checking").textContent = "(" + err.message + ")"; });
}

function rules() {
  api("POST", "/api/design/rules", { pack: pack, text: el("source").value }).then(function (r) {
    el("rules").srcdoc = r.html || "<p>" + r.error + "</p>";
  });
}

function open(name) {
  pack = name;
  history.replaceState(null, "", "/design?pack=" + encodeURIComponent(name));
  el("play-link").href = "/play?pack=" + encodeURIComponent(name);
  api("GET", "/api/design/source?pack=" + encodeURIComponent(name)).then(function (s) {
    el("file").textContent = s.file + " (saves to " + s.saves_to + ")";
    el("source").value = s.text;
    drawGutter([]);
    check();
    rules();
  });
}

function save() {
  el("saved").textContent = "saving and testing…";
  api("POST", "/api/design/save", { pack: pack, text: el("source").value }).then(function (r) {
    el("saved").textContent = "saved to " + r.saved;
    showDiagnostics(r);
    var list = el("tests");
    list.innerHTML = "";
    var failed = r.tests.filter(function (t) { return !t.ok; });
    var head = document.createElement("li");
    head.textContent = r.tests.length + " tests: " + (failed.length ? failed.length + " failed" : "all pass");
    list.appendChild(head);
    failed.forEach(function (t) {
      var li = document.createElement("li");
      li.className = "failed";
      li.textContent = t.name + ": " + t.messages.join("; ");
      list.appendChild(li);
    });
    rules();
  }, function (err) { el("saved").textContent = err.message; });
}

function simulate() {
  el("report").textContent = "simulating…";
  el("plot").innerHTML = "";
  var games = parseInt(el("games").value, 10);
  api("POST", "/api/design/simulate", { pack: pack, text: el("source").value, games: games,
    seats: el("sim-seats").value }).then(function (r) {
    el("report").textContent = r.report;
    el("plot").innerHTML = r.plot || "";
  }, function (err) { el("report").textContent = err.message; });
}

el("source").addEventListener("input", function () {
  drawGutter([]);
  clearTimeout(timer);
  timer = setTimeout(check, 400);
});
el("source").addEventListener("scroll", function () { el("gutter").scrollTop = el("source").scrollTop; });
el("source").addEventListener("keydown", function (event) {
  if (event.key === "Tab") {  // two spaces, as packs are indented
    event.preventDefault();
    var area = el("source"), at = area.selectionStart;
    area.setRangeText("  ", at, area.selectionEnd, "end");
    area.dispatchEvent(new Event("input"));
  } else if ((event.ctrlKey || event.metaKey) && event.key === "s") {
    event.preventDefault();
    save();
  }
});
el("save").addEventListener("click", save);
el("simulate").addEventListener("click", simulate);
el("pack").addEventListener("change", function () { open(el("pack").value); });

api("GET", "/api/packs").then(function (data) {
  var wanted = param("pack") || data.served || data.packs[0].pack;
  data.packs.forEach(function (p) {
    var option = document.createElement("option");
    option.value = p.pack;
    option.textContent = p.name + (p.ok ? "" : " (does not check)");
    if (p.pack === wanted) { option.selected = true; }
    el("pack").appendChild(option);
  });
  open(wanted);
});
