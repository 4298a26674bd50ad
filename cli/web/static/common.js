// boardrule serve: what both pages share. The server answers in JSON; an error is {"error": text}.
"use strict";

function api(method, url, data, raw) {
  var options = { method: method, headers: {} };
  if (data !== undefined) {
    options.body = raw ? data : JSON.stringify(data);
    options.headers["Content-Type"] = raw ? "application/octet-stream" : "application/json";
  }
  return fetch(url, options).then(function (response) {
    return response.json().catch(function () {
      return { error: "the server answered " + response.status + " " + response.statusText };
    }).then(function (body) {
      if (!response.ok) {
        var err = new Error(body.error || response.statusText);
        err.refused = true;
        throw err;
      }
      return body;
    });
  });
}

function el(id) { return document.getElementById(id); }

function param(name) { return new URLSearchParams(window.location.search).get(name); }

function button(text, onclick, cls) {
  var b = document.createElement("button");
  b.textContent = text;
  if (cls) { b.className = cls; }
  b.addEventListener("click", onclick);
  return b;
}
