// The /docs page: inline CSS and script, nothing loaded from elsewhere, so it works offline and
// behind firewalls. It reads ./openapi.json and lists operations (parameters, bodies, responses),
// the schemas, and a form per operation that sends a real request to the service. Every value
// from the document is inserted as text, never as markup.
#include "http/docs_page.h"

namespace fitz::http {

namespace {

const char kPage[] = R"html(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>API docs</title>
<style>
:root{--fg:#1d2330;--mu:#5b6475;--ln:#e3e6ec;--soft:#f6f7f9;--get:#1a7f37;--post:#0b5cad;--put:#9a6700;--patch:#8250df;--delete:#cf222e}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg)}
header{padding:.8rem 1.5rem;border-bottom:1px solid var(--ln);display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
h1{margin:0;font-size:1.3rem}.mu{color:var(--mu);font-size:.9rem}a{color:var(--post)}
.wrap{display:flex}nav{width:17rem;flex:none;border-right:1px solid var(--ln);padding:1rem;position:sticky;top:0;height:100vh;overflow:auto}
nav input{width:100%}nav a{display:block;padding:.15rem 0;color:inherit;text-decoration:none;font-size:.85rem;word-break:break-all}
nav h3{font-size:.7rem;text-transform:uppercase;letter-spacing:.05em;color:var(--mu);margin:1rem 0 .2rem}
main{flex:1;padding:1rem 2rem;min-width:0}details.op{border:1px solid var(--ln);border-radius:6px;margin:0 0 .8rem}
details.op>summary{cursor:pointer;padding:.5rem .8rem;display:flex;gap:.7rem;align-items:baseline;list-style:none}
details.op[open]>summary{border-bottom:1px solid var(--ln);background:var(--soft)}.body{padding:.5rem 1rem 1rem}
.m{display:inline-block;min-width:4.2rem;text-align:center;font:600 .75rem/1.6 ui-monospace,monospace;color:#fff;border-radius:4px;text-transform:uppercase}
.m.get{background:var(--get)}.m.post{background:var(--post)}.m.put{background:var(--put)}.m.patch{background:var(--patch)}.m.delete{background:var(--delete)}
.path{font:600 .95rem ui-monospace,monospace;word-break:break-all}h4{margin:1rem 0 .3rem;font-size:.85rem;text-transform:uppercase;color:var(--mu)}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border-bottom:1px solid var(--ln);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{font-weight:600;color:var(--mu);font-size:.8rem}code,.ty{font-family:ui-monospace,monospace;font-size:.85rem}.req{color:var(--delete);font-size:.75rem}
pre{background:var(--soft);padding:.7rem;overflow:auto;font-size:.85rem;margin:.3rem 0;max-height:30rem}
input,textarea,button{font:inherit;padding:.3rem .5rem;border:1px solid var(--ln);border-radius:4px}textarea{width:100%;font-family:ui-monospace,monospace;font-size:.85rem}
button{background:var(--post);color:#fff;border-color:var(--post);cursor:pointer}form.try{background:var(--soft);padding:.7rem;border-radius:6px}
form.try label{display:flex;gap:.5rem;align-items:center;margin:.2rem 0}form.try label span{min-width:10rem;font-family:ui-monospace,monospace;font-size:.85rem}
.st{font-weight:600}.st.ok{color:var(--get)}.st.bad{color:var(--delete)}section.schema{margin-bottom:1.2rem}
@media (max-width:50rem){.wrap{display:block}nav{position:static;width:auto;height:auto;border:0}}
</style></head>
<body><header><h1 id="title">API</h1><span class="mu" id="version"></span><a href="openapi.json">openapi.json</a>
<label class="mu" id="auth" hidden>Bearer token <input id="token" size="30" autocomplete="off"></label></header>
<div class="wrap"><nav><input id="filter" placeholder="Filter operations" aria-label="Filter operations"><div id="toc"></div></nav>
<main><p id="desc" class="mu"></p><div id="ops">Loading openapi.json…</div><h2 id="schemas-h" hidden>Schemas</h2><div id="schemas"></div></main></div>
<script>
"use strict";
const $ = id => document.getElementById(id);
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
  return e;
}
const METHODS = ["get", "post", "put", "patch", "delete"];
let DOC = {};
const slug = s => String(s).replace(/[^A-Za-z0-9_.-]/g, "_");
function resolve(s) {
  for (let i = 0; s && s.$ref && i < 20; i++) {
    const parts = s.$ref.replace(/^#\//, "").split("/").map(p => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    s = parts.reduce((o, p) => (o ? o[p] : undefined), DOC);
  }
  return s || {};
}
const refName = r => r.split("/").pop();
// A one-line type: `integer (int64)`, `array of Item`, `string | null`; $refs become links.
function typeNode(s) {
  s = s || {};
  if (s.$ref) return el("a", {href: "#schema-" + slug(refName(s.$ref))}, refName(s.$ref));
  const alts = s.anyOf || s.oneOf;
  if (alts) { const span = el("span"); alts.forEach((a, i) => { if (i) span.append(" | "); span.append(typeNode(a)); }); return span; }
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (!types.length) return el("span", {class: "ty"}, "any");
  const span = el("span", {class: "ty"});
  types.forEach((t, i) => {
    if (i) span.append(" | ");
    if (t === "array" && s.prefixItems) { span.append("["); s.prefixItems.forEach((p, j) => { if (j) span.append(", "); span.append(typeNode(p)); }); span.append("]"); }
    else if (t === "array") span.append("array of ", typeNode(s.items));
    else if (t === "object" && s.additionalProperties && typeof s.additionalProperties === "object") span.append("map of ", typeNode(s.additionalProperties));
    else span.append(t + (t !== "null" && s.format ? " (" + s.format + ")" : ""));
  });
  return span;
}
function propsTable(s) {
  const req = new Set(s.required || []);
  const rows = Object.entries(s.properties || {}).map(([name, p]) => {
    const notes = [];
    if (p.description) notes.push(p.description);
    if (p.default !== undefined) notes.push("default " + JSON.stringify(p.default));
    if (p.examples) notes.push("example " + JSON.stringify(p.examples[0]));
    return el("tr", {}, el("td", {}, el("code", {}, name), req.has(name) ? el("span", {class: "req"}, " required") : null),
              el("td", {}, typeNode(p)), el("td", {}, notes.join(" · ")));
  });
  return el("table", {}, el("tr", {}, el("th", {}, "field"), el("th", {}, "type"), el("th", {}, "notes")), rows);
}
function schemaNode(s) {
  s = s || {};
  if (!s.$ref && s.properties) return propsTable(s);
  return el("div", {}, typeNode(s));
}
function example(s, depth) {
  s = s || {};
  if (depth > 6) return null;
  if (s.$ref) return example(resolve(s), depth + 1);
  if (s.examples && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  const alts = s.anyOf || s.oneOf;
  if (alts) return example(alts.find(a => a.type !== "null") || alts[0], depth + 1);
  const t = Array.isArray(s.type) ? s.type.find(x => x !== "null") : s.type;
  if (t === "object") {
    const o = {};
    for (const [k, p] of Object.entries(s.properties || {})) o[k] = example(p, depth + 1);
    return o;
  }
  if (t === "array") return s.prefixItems ? s.prefixItems.map(p => example(p, depth + 1)) : [example(s.items, depth + 1)];
  if (t === "integer") return 0;
  if (t === "number") return 0.5;
  if (t === "boolean") return false;
  if (t === "null") return null;
  if (t === "string") return {date: "2024-01-31", "date-time": "2024-01-31T12:00:00Z", uuid: "00000000-0000-4000-8000-000000000000"}[s.format] || "string";
  return null;
}
function tryForm(method, path, op) {
  const params = op.parameters || [];
  const inputs = params.map(p => {
    const input = el("input", {placeholder: (Array.isArray(p.schema && p.schema.type) ? p.schema.type[0] : (p.schema && p.schema.type)) || "value", required: !!p.required && p.in === "path"});
    return {p, input, label: el("label", {}, el("span", {}, p.name + " (" + p.in + ")" + (p.required ? " *" : "")), input)};
  });
  const media = op.requestBody ? Object.keys(op.requestBody.content || {})[0] || "application/json" : null;
  const body = media ? el("textarea", {rows: 8, spellcheck: "false"}) : null;
  if (body) body.value = JSON.stringify(example(op.requestBody.content[media].schema, 0), null, 2);
  const out = el("div");
  const form = el("form", {class: "try"}, el("h4", {}, "Try it"), inputs.map(i => i.label),
                  body ? el("label", {}, el("span", {}, media)) : null, body, el("button", {type: "submit"}, "Send " + method.toUpperCase()), out);
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    out.replaceChildren("Sending…");
    let url = path;
    const query = new URLSearchParams();
    const headers = {};
    for (const {p, input} of inputs) {
      const v = input.value;
      if (p.in === "path") url = url.split("{" + p.name + "}").join(encodeURIComponent(v));
      else if (v === "") continue;
      else if (p.in === "query") query.append(p.name, v);
      else if (p.in === "header") headers[p.name] = v;
    }
    const qs = query.toString();
    if (qs) url += "?" + qs;
    if (op.security && $("token").value) headers["Authorization"] = "Bearer " + $("token").value;
    const init = {method: method.toUpperCase(), headers};
    if (body) { headers["Content-Type"] = media; init.body = body.value; }
    const started = performance.now();
    try {
      const r = await fetch(url, init);
      const text = await r.text();
      let shown = text;
      try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) {}
      const ms = Math.round(performance.now() - started);
      out.replaceChildren(el("p", {}, el("span", {class: "st " + (r.ok ? "ok" : "bad")}, r.status + " " + r.statusText), " · " + ms + " ms · ", el("code", {}, init.method + " " + url)),
                          el("pre", {}, shown || "(empty body)"));
    } catch (e) {
      out.replaceChildren(el("p", {class: "st bad"}, "request failed: " + e.message));
    }
  });
  return form;
}
function operation(method, path, op) {
  const id = "op-" + slug(op.operationId || method + path);
  const parts = [];
  if (op.description) parts.push(el("p", {}, op.description));
  if (op.security) parts.push(el("p", {class: "mu"}, "Requires a bearer token."));
  const params = op.parameters || [];
  if (params.length)
    parts.push(el("h4", {}, "Parameters"), el("table", {}, el("tr", {}, el("th", {}, "name"), el("th", {}, "in"), el("th", {}, "type")),
      params.map(p => el("tr", {}, el("td", {}, el("code", {}, p.name), p.required ? el("span", {class: "req"}, " required") : null),
                          el("td", {}, p.in), el("td", {}, typeNode(p.schema))))));
  if (op.requestBody)
    for (const [media, c] of Object.entries(op.requestBody.content || {}))
      parts.push(el("h4", {}, "Request body · " + media), schemaNode(c.schema));
  parts.push(el("h4", {}, "Responses"));
  const rows = Object.entries(op.responses || {}).map(([status, r]) => {
    const c = r.content && Object.values(r.content)[0];
    return el("tr", {}, el("td", {}, el("code", {}, status)), el("td", {}, r.description || ""), el("td", {}, c ? schemaNode(c.schema) : ""));
  });
  parts.push(el("table", {}, el("tr", {}, el("th", {}, "status"), el("th", {}, "meaning"), el("th", {}, "body")), rows));
  parts.push(tryForm(method, path, op));
  return el("details", {class: "op", id},
            el("summary", {}, el("span", {class: "m " + method}, method), el("span", {class: "path"}, path), el("span", {class: "mu"}, op.summary || op.operationId || "")),
            el("div", {class: "body"}, parts));
}
function render(doc) {
  DOC = doc;
  const info = doc.info || {};
  document.title = (info.title || "API") + " docs";
  $("title").textContent = info.title || "API";
  $("version").textContent = info.version ? "version " + info.version : "";
  $("desc").textContent = info.description || "";
  const groups = new Map();
  let secured = false;
  for (const [path, item] of Object.entries(doc.paths || {}))
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      secured = secured || !!op.security;
      const group = (op.tags && op.tags[0]) || "/" + (path.split("/")[1] || "");
      if (!groups.has(group)) groups.set(group, []);
      groups.get(group).push({method, path, op});
    }
  $("auth").hidden = !secured;
  const ops = $("ops"), toc = $("toc");
  ops.replaceChildren();
  toc.replaceChildren();
  if (!groups.size) ops.append(el("p", {class: "mu"}, "This service has no routes."));
  const entries = [];
  for (const [group, list] of groups) {
    const h = el("h3", {}, group);
    toc.append(h);
    ops.append(el("h2", {}, group));
    for (const {method, path, op} of list) {
      const node = operation(method, path, op);
      const link = el("a", {href: "#" + node.id}, el("span", {class: "m " + method}, method), " " + path);
      link.addEventListener("click", () => { node.open = true; });
      toc.append(link);
      ops.append(node);
      entries.push({text: (method + " " + path + " " + (op.operationId || "") + " " + (op.summary || "")).toLowerCase(), link, node});
    }
  }
  $("filter").addEventListener("input", ev => {
    const q = ev.target.value.toLowerCase();
    for (const e of entries) e.link.hidden = e.node.hidden = !e.text.includes(q);
  });
  const schemas = (doc.components && doc.components.schemas) || {};
  $("schemas-h").hidden = !Object.keys(schemas).length;
  $("schemas").replaceChildren(...Object.entries(schemas).map(([name, s]) =>
    el("section", {class: "schema", id: "schema-" + slug(name)}, el("h3", {}, el("code", {}, name)),
       s.description ? el("p", {}, s.description) : null, schemaNode(s))));
  if (location.hash) { const t = document.getElementById(location.hash.slice(1)); if (t) { if (t.tagName === "DETAILS") t.open = true; t.scrollIntoView(); } }
}
fetch("openapi.json").then(r => { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
  .then(render).catch(e => { $("ops").textContent = "Could not load openapi.json: " + e.message; });
</script></body></html>
)html";

}  // namespace

std::string_view docs_page() { return {kPage, sizeof kPage - 1}; }

}  // namespace fitz::http
