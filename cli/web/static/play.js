// boardrule serve: the play page. The server holds the game; this page draws what it sends (the SVG picture
// of the viewer's view, the legal moves value by value) and sends the move picked. No rule runs here.
"use strict";

var room = null;      // the game's id on the server
var snap = null;      // the last snapshot of the game
var viewer = null;    // the seat whose view is on the screen (null: everything)
var pick = null;      // the move being picked: {action, chosen: [value texts]}
var form = 0;         // the orientation of a shape being laid (an index into its forms)
var hover = null;     // the cell under the pointer
var busy = false;     // a request is on its way
var FEW_GROUPS = 12;  // groups of cells offered as buttons too when there are no more

function gameUrl(path) { return "/api/games/" + room + (path || ""); }

function withViewer(url) {
  return viewer === null || viewer === undefined ? url : url + (url.indexOf("?") < 0 ? "?" : "&") + "viewer=" + viewer;
}

function say(text, ok) {
  var m = el("message");
  m.textContent = text || "";
  m.className = ok ? "ok" : "";
}

// ------------------------------------------------------------------ a new game
function setup() {
  el("setup").classList.remove("hidden");
  api("GET", "/api/packs").then(function (data) {
    var select = el("pack"), wanted = param("pack") || data.served;
    var byName = {};
    data.packs.filter(function (p) { return p.ok; }).forEach(function (p) {
      byName[p.pack] = p;
      var option = document.createElement("option");
      option.value = p.pack;
      option.textContent = p.name;
      option.dataset.low = p.players[0];
      option.dataset.high = p.players[1];
      option.dataset.count = p.default_players;
      if (p.pack === wanted) { option.selected = true; }
      select.appendChild(option);
    });
    var kinds = data.seat_kinds;
    function players() {
      var chosen = select.options[select.selectedIndex], count = el("players");
      count.innerHTML = "";
      for (var n = +chosen.dataset.low; n <= +chosen.dataset.high; n++) {
        var o = document.createElement("option");
        o.value = n; o.textContent = n;
        if (n === +chosen.dataset.count) { o.selected = true; }
        count.appendChild(o);
      }
      seats();
      options(byName[select.value].options || []);
    }
    function seats() {
      var area = el("seats"), n = +el("players").value;
      area.innerHTML = "Seats: ";
      for (var i = 0; i < n; i++) {
        var s = document.createElement("select");
        s.className = "seat";
        s.setAttribute("aria-label", "P" + (i + 1));
        kinds.forEach(function (k) {
          var o = document.createElement("option");
          o.value = k; o.textContent = "P" + (i + 1) + ": " + k;
          if (k === (i === 0 ? "human" : "greedy")) { o.selected = true; }
          s.appendChild(o);
        });
        area.appendChild(s);
      }
    }
    select.addEventListener("change", players);
    el("players").addEventListener("change", seats);
    players();
  });
  el("start").addEventListener("click", function () {
    var seats = Array.prototype.map.call(document.querySelectorAll("#seats select"), function (s) { return s.value; });
    var request = { pack: el("pack").value, seats: seats };
    var seed = el("seed-input").value.trim();
    if (seed) { request.seed = parseInt(seed, 10); }
    var chosen = {};
    document.querySelectorAll("#options [data-option]").forEach(function (input) {
      if (input.value !== input.dataset.default) { chosen[input.dataset.option] = input.value; }
    });
    request.options = chosen;
    api("POST", "/api/games", request).then(opened, function (err) { el("setup-message").textContent = err.message; });
  });
  el("load").addEventListener("change", function () {
    var file = el("load").files[0];
    if (!file) { return; }
    file.text().then(function (text) {
      return api("POST", "/api/games/load", text, true);
    }).then(opened, function (err) { el("setup-message").textContent = err.message; });
  });
}

function options(list) {
  // the pack's options (`--option KEY=VALUE`): a list of values, yes or no, or a number; defaults first
  var area = el("options");
  area.innerHTML = list.length ? "Options: " : "";
  list.forEach(function (o) {
    var label = document.createElement("label"), input;
    label.title = o.doc || "";
    label.appendChild(document.createTextNode(o.name + " "));
    if (o.type === "int") {
      input = document.createElement("input");
      input.type = "number";
      input.size = 4;
      input.value = o.default;
    } else {
      input = document.createElement("select");
      (o.type === "bool" ? ["false", "true"] : o.values).forEach(function (v) {
        var item = document.createElement("option");
        item.value = v; item.textContent = v;
        if (String(v) === String(o.default)) { item.selected = true; }
        input.appendChild(item);
      });
    }
    input.dataset.option = o.name;
    input.dataset.default = String(o.default);
    label.appendChild(input);
    area.appendChild(label);
  });
}

function opened(s) {
  room = s.id;
  history.replaceState(null, "", "/play?game=" + room);
  el("setup").classList.add("hidden");
  show(s);
}

// ------------------------------------------------------------------ the game on the screen
function refresh(seat) {
  if (seat !== undefined) { viewer = seat; }
  return api("GET", withViewer(gameUrl())).then(show, function (err) { say(err.message); });
}

function show(s) {
  snap = s;
  pick = null;
  form = 0;
  el("game").classList.remove("hidden");
  el("title").textContent = s.name;
  el("seed").textContent = "seed " + s.seed;
  el("design-link").href = "/design?pack=" + encodeURIComponent(s.pack);
  viewer = s.viewer;
  if (s.handover) {
    el("board").innerHTML = "";
    el("others").innerHTML = "";
    if (s.handover.private) {
      el("privacy-text").textContent = s.handover.name + "'s turn: pass the screen to " + s.handover.name +
        "; everyone else, look away.";
      el("privacy-button").textContent = s.handover.name + ": show my view";
      el("privacy-button").onclick = function () { el("privacy").classList.add("hidden"); refresh(s.handover.seat); };
      el("privacy").classList.remove("hidden");
    } else {
      refresh(s.handover.seat);  // nothing on the screen is secret: the next player just goes on
    }
    return;
  }
  el("privacy").classList.add("hidden");
  el("board").innerHTML = s.board;
  el("others").innerHTML = s.others || "";
  enlarge(el("board"));
  el("board").querySelectorAll("g.cell").forEach(function (g) {
    g.addEventListener("click", function () { clicked(g.dataset.cell); });
    g.addEventListener("mouseenter", function () { hover = g.dataset.cell; preview(); });
    g.addEventListener("mouseleave", function () { if (hover === g.dataset.cell) { hover = null; preview(); } });
  });
  showScore(s.score);
  showLog(s.log);
  el("undo").disabled = !s.undo;
  el("redo").disabled = !s.redo;
  el("hint").disabled = !s.decision;
  el("save").href = gameUrl("/save");
  var status = el("status");
  status.classList.remove("thinking");
  el("outcome").classList.add("hidden");
  el("replay-area").classList.add("hidden");
  if (s.over) {
    status.textContent = "game over";
    el("outcome").textContent = s.outcome;
    el("outcome").classList.remove("hidden");
    var slider = el("replay");
    slider.max = s.steps - 1;
    slider.value = s.steps - 1;
    el("replay-at").textContent = "position " + (s.steps - 1) + " of " + (s.steps - 1);
    el("replay-area").classList.remove("hidden");
  } else if (s.turn_kind !== "human") {
    status.textContent = s.turn_name + " (" + s.turn_kind + ") is thinking…";
    status.classList.add("thinking");
    setTimeout(botTurn, 250);
  } else if (s.decision) {
    status.textContent = s.turn_name + " to move" + (s.hotseat ? " (this is " + s.viewer_name + "'s view)" : "");
  } else {
    status.textContent = "waiting for " + s.turn_name;
  }
  decide();
}

function enlarge(area) {  // the picture at half as large again, as far as the window allows
  var svg = area.querySelector("svg");
  if (svg) { svg.style.width = Math.min(window.innerWidth * 0.6, svg.width.baseVal.value * 1.5) + "px"; }
}

function showLog(lines) {
  var log = el("log");
  log.innerHTML = "";
  lines.forEach(function (line) {
    var li = document.createElement("li");
    li.textContent = line;
    log.appendChild(li);
  });
  log.scrollTop = log.scrollHeight;
}

function showScore(report) {
  var area = el("score");
  area.innerHTML = "";
  report.players.forEach(function (p) {
    var table = document.createElement("table");
    table.className = "sheet";
    var head = table.insertRow(), who = document.createElement("th"), total = document.createElement("th");
    who.textContent = p.name || p.seat; total.textContent = p.total;
    head.appendChild(who); head.appendChild(total);
    p.terms.forEach(function (t) {
      var row = table.insertRow();
      row.insertCell().textContent = t.label + (t.count > 1 ? " (x" + t.count + ")" : "");
      var points = row.insertCell();
      points.textContent = t.points;
      points.className = "points";
    });
    if (p.verdict) { table.insertRow().insertCell().textContent = "verdict: " + p.verdict; }
    area.appendChild(table);
  });
}

function botTurn() {
  if (busy) { return; }
  busy = true;
  api("POST", withViewer(gameUrl("/bot")), {}).then(function (s) { busy = false; show(s); },
    function (err) { busy = false; el("status").classList.remove("thinking"); say(err.message); });
}

// ------------------------------------------------------------------ picking a move
function candidates() {
  if (!pick) { return []; }
  return snap.decision.moves.filter(function (m) {
    return m.action === pick.action && pick.chosen.every(function (c, i) {
      return i < m.values.length && word(m.values[i]) === c;
    });
  });
}

function word(value) {
  return value.kind === "cell" ? value.cells[0] : value.kind === "cells" ? value.key : value.text;
}

function decide() {
  var actions = el("actions");
  actions.innerHTML = "";
  el("values").innerHTML = "";
  el("prompt").textContent = "";
  el("shape-keys").classList.add("hidden");
  clearMarks("target chosen preview-ok preview-bad hinted");
  var d = snap && snap.decision;
  if (!d) { return; }
  var possible = d.actions.filter(function (a) { return a.possible; });
  d.actions.forEach(function (a) {
    var b = button(a.label, function () { a.possible ? choose(a.name) : refuseAction(a.name); },
      a.possible ? "" : "impossible");
    b.dataset.action = a.name;
    if (pick && pick.action === a.name) { b.classList.add("selected"); }
    actions.appendChild(b);
  });
  if (!pick && possible.length === 1) { choose(possible[0].name); return; }
  if (!pick) { el("prompt").textContent = "choose what to do"; return; }
  next();
}

function choose(action) {
  pick = { action: action, chosen: [] };
  form = 0;
  decide();
}

function next() {
  var moves = candidates(), at = pick.chosen.length;
  if (moves.length && moves.every(function (m) { return m.values.length === at; })) { send(moves[0].text); return; }
  var open = moves.filter(function (m) { return m.values.length > at; }).map(function (m) { return m.values[at]; });
  if (!open.length) { pick = null; decide(); return; }
  markChosen();
  var kind = open[0].kind;
  if (kind === "value") {
    var seen = {};
    open.forEach(function (v) { seen[v.text] = v.label; });
    var texts = Object.keys(seen);
    if (texts.length === 1) { pick.chosen.push(texts[0]); next(); return; }
    el("prompt").textContent = "choose one:";
    texts.forEach(function (t) {
      var b = button(seen[t], function () { pick.chosen.push(t); decide(); });
      b.dataset.value = t;
      el("values").appendChild(b);
    });
  } else if (kind === "cell") {
    open.forEach(function (v) { mark(v.cells, "target"); });
    el("prompt").textContent = "click a highlighted cell";
  } else if (!shapeForms().length) {
    open.forEach(function (v) { mark(v.cells, "target"); });
    pick.toggled = pick.toggled || {};
    mark(Object.keys(pick.toggled), "chosen");
    var group = Object.keys(pick.toggled).sort().join("+");
    el("prompt").textContent = "click the cells of the group, one by one, then confirm";
    var confirm = button("confirm " + (group || "(no cell yet)"), function () {
      pick.chosen.push(group);
      pick.toggled = null;
      decide();
    });
    confirm.id = "confirm";
    confirm.disabled = !legalWords()[group];
    el("values").appendChild(confirm);
  } else {
    var groups = {};
    open.forEach(function (v) { mark(v.cells, "target"); groups[v.key] = true; });
    el("prompt").textContent = "lay the shape over the board and click: R turns it, F flips it";
    var keys = Object.keys(groups);
    if (keys.length <= FEW_GROUPS) {  // few ways: each is a button too
      keys.forEach(function (key) {
        var b = button(key, function () { pick.chosen.push(key); decide(); });
        b.dataset.value = key;
        el("values").appendChild(b);
      });
    }
    el("shape-keys").classList.remove("hidden");
    preview();
  }
  el("values").appendChild(button("cancel", function () { pick = null; decide(); }));
}

function shapeForms() {
  var key = pick.action + ":" + pick.chosen.length;
  var shapes = snap.decision.shapes[key];
  return shapes ? shapes.forms : [];
}

function nextKind() {
  if (!pick) { return null; }
  var at = pick.chosen.length, open = candidates().filter(function (m) { return m.values.length > at; });
  return open.length ? open[0].values[at].kind : null;
}

function legalWords() {
  var at = pick.chosen.length, found = {};
  candidates().forEach(function (m) { if (m.values.length > at) { found[word(m.values[at])] = true; } });
  return found;
}

function clicked(cell) {
  if (!snap || !snap.decision) { return; }
  var kind = nextKind();
  if (kind === null) {
    say(pick ? "" : "choose what to do first: " + snap.decision.actions.filter(function (a) { return a.possible; })
      .map(function (a) { return a.label; }).join("; "));
    return;
  }
  if (kind === "value") { say("choose one of the buttons first"); return; }
  var w = cell;
  if (kind === "cells" && !shapeForms().length) {  // a group picked cell by cell
    if (!el("board").querySelector('g.cell.target[data-cell="' + cell + '"]')) {
      refuse(Object.keys(pick.toggled).concat([cell]).sort().join("+"));
      return;
    }
    if (pick.toggled[cell]) { delete pick.toggled[cell]; } else { pick.toggled[cell] = true; }
    say("");
    decide();
    return;
  }
  if (kind === "cells") {
    var placed = (shapeForms()[form] || { at: {} }).at[cell];
    if (!placed) { say("the shape does not fit on the board there"); return; }
    w = placed.join("+");
  }
  if (!legalWords()[w] && kind === "cell") { w = columnTarget(cell) || w; }
  if (legalWords()[w]) {
    say("");
    pick.chosen.push(w);
    decide();
  } else {
    refuse(w);
  }
}

function columnOf(name) { return name.replace(/[0-9]+$/, ""); }

function columnTarget(cell) {
  // where the decision's moves are of one action and differ in one cell, a cell of each column at most (a disc
  // dropped into a column), a click anywhere in a column is its cell, as `boardrule play` numbers such moves
  // by their column (reasons.menu_numbers)
  var all = snap.decision.moves;
  if (all.some(function (m) { return m.action !== pick.action; }) || candidates().length !== all.length) {
    return null;
  }
  var targets = Object.keys(legalWords()), columns = {};
  for (var i = 0; i < targets.length; i++) {
    var column = columnOf(targets[i]);
    if (columns[column]) { return null; }
    columns[column] = targets[i];
  }
  return columns[columnOf(cell)] || null;
}

function typedSoFar(last) {
  if (pick.action === "choice") { return snap.asking + " / " + last; }
  return [pick.action].concat(pick.chosen, [last]).join(" ");
}

function refuse(last) {
  api("POST", gameUrl("/explain"), { seat: viewer, text: typedSoFar(last) }).then(function (r) { say(r.reason); });
}

function refuseAction(action) {
  api("POST", gameUrl("/explain"), { seat: viewer, text: action }).then(function (r) { say(r.reason); });
}

function preview() {
  clearMarks("preview-ok preview-bad");
  if (nextKind() !== "cells" || hover === null) { return; }
  var placed = (shapeForms()[form] || { at: {} }).at[hover];
  if (!placed) { return; }
  mark(placed, legalWords()[placed.join("+")] ? "preview-ok" : "preview-bad");
}

function turnShape(how) {
  var forms = shapeForms();
  if (!forms.length) { return; }
  form = forms[form][how];
  preview();
}

function mark(cells, cls) {
  cells.forEach(function (name) {
    var g = el("board").querySelector('g.cell[data-cell="' + name + '"]');
    if (g) { g.classList.add(cls); }
  });
}

function clearMarks(classes) {
  var names = classes.split(" ");
  el("board").querySelectorAll("g.cell").forEach(function (g) {
    names.forEach(function (c) { g.classList.remove(c); });
  });
}

function markChosen() {
  pick.chosen.forEach(function (w) {
    var cells = w.split("+").filter(function (n) {
      return el("board").querySelector('g.cell[data-cell="' + n + '"]');
    });
    mark(cells, "chosen");
  });
}

function send(text) {
  if (busy) { return; }
  busy = true;
  api("POST", gameUrl("/move"), { seat: viewer, text: text }).then(function (s) {
    busy = false;
    show(s);
    say("");
  }, function (err) {
    busy = false;
    pick = null;
    decide();
    say(err.message);
  });
}

// ------------------------------------------------------------------ the controls
function control(path, seat) {
  return api("POST", gameUrl(path), { seat: seat }).then(function (s) { show(s); say(s.message, true); },
    function (err) { say(err.message); });
}

function wire() {
  el("undo").addEventListener("click", function () { control("/undo", viewer); });
  el("redo").addEventListener("click", function () { control("/redo", viewer); });
  el("hint").addEventListener("click", function () {
    say("thinking about a hint…", true);
    api("POST", gameUrl("/hint"), { seat: viewer }).then(function (r) {
      say("hint: " + r.hint, true);
      mark(r.hint.split(/[\s+\/]+/), "hinted");
    }, function (err) { say(err.message); });
  });
  el("rotate").addEventListener("click", function () { turnShape("turn"); });
  el("flip").addEventListener("click", function () { turnShape("mirror"); });
  el("cancel").addEventListener("click", function () { pick = null; decide(); });
  document.addEventListener("keydown", function (event) {
    if (event.target.tagName === "INPUT") { return; }
    if (event.key === "r" || event.key === "R") { turnShape("turn"); }
    else if (event.key === "f" || event.key === "F") { turnShape("mirror"); }
    else if (event.key === "Escape") { pick = null; decide(); }
  });
  el("typed").addEventListener("submit", function (event) {
    event.preventDefault();
    var text = el("move-text").value.trim();
    if (text) { el("move-text").value = ""; send(text); }
  });
  el("replay").addEventListener("input", function () {
    var index = +el("replay").value;
    api("GET", gameUrl("/replay?index=" + index)).then(function (r) {
      el("board").innerHTML = r.board;
      enlarge(el("board"));
      el("others").innerHTML = "";
      el("replay-at").textContent = "position " + r.index + " of " + (r.steps - 1);
      showLog(r.log);
    });
  });
}

wire();
if (param("game")) { room = param("game"); refresh(); } else { setup(); }
