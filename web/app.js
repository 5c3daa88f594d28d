// The web page of `plainsql serve`: plain JavaScript, no library, nothing fetched from elsewhere. Every value from
// the server is put in the page as text (textContent), never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { schemaFor: null, runsLoaded: false };

// ---- talking to the server ----

function token() { return sessionStorage.getItem("plainsql-token") || ""; }

async function api(path, body) {
  const headers = {};
  if (token()) headers["Authorization"] = "Bearer " + token();
  const init = { headers };
  if (body !== undefined) {
    init.method = "POST";
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (res.status === 401) $("token-box").hidden = false;
  return res;
}

async function apiJson(path, body) {
  const res = await api(path, body);
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const message = data && data.error ? data.error.message : "HTTP " + res.status;
    throw new Error(message);
  }
  return data;
}

// POST /api/ask/stream: server-sent events read from a fetch stream (EventSource cannot POST).
async function askStream(body, onEvent) {
  const res = await api("/api/ask/stream", body);
  if (!res.ok) {
    let message = "HTTP " + res.status;
    try { const d = await res.json(); message = d.error.message; } catch (e) { /* not JSON */ }
    onEvent("error", { error: { message } });
    return;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      onEvent(name, data ? JSON.parse(data) : {});
    }
  }
}

// ---- small DOM helpers ----

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

// ---- SQL highlighting ----

const KEYWORDS = new Set(("select from where group by order having limit offset join inner left right full outer " +
  "cross on as and or not in is null like between case when then else end distinct union all except intersect " +
  "with asc desc count sum avg min max exists cast over partition filter values true false").split(" "));

function highlight(sql, pre) {
  clear(pre);
  const re = /('(?:[^']|'')*')|("(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\])|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_$]*)|(\s+|.)/g;
  let m;
  while ((m = re.exec(sql)) !== null) {
    if (m[1]) pre.append(el("span", { class: "str" }, m[1]));
    else if (m[2]) pre.append(el("span", { class: "id" }, m[2]));
    else if (m[3]) pre.append(el("span", { class: "num" }, m[3]));
    else if (m[4]) pre.append(KEYWORDS.has(m[4].toLowerCase()) ? el("span", { class: "kw" }, m[4]) : m[4]);
    else pre.append(m[5]);
  }
}

// ---- results: table and chart ----

function renderTable(columns, rows) {
  const table = $("result");
  clear(table);
  const head = el("tr");
  for (const c of columns) head.append(el("th", {}, c));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    for (const v of row) {
      if (v === null) tr.append(el("td", { class: "null" }, "NULL"));
      else if (typeof v === "number") tr.append(el("td", { class: "n" }, String(v)));
      else tr.append(el("td", {}, typeof v === "object" ? JSON.stringify(v) : v));
    }
    body.append(tr);
  }
  table.append(body);
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// A chart when the result suits one: a label or time column and a number column, 2 to 60 rows. A time series (years
// or ISO dates in order) is drawn as a line, anything else as bars.
function chartKind(columns, rows) {
  if (columns.length !== 2 || rows.length < 2 || rows.length > 60) return null;
  if (!rows.every((r) => typeof r[1] === "number")) return null;
  const timeLike = rows.every((r) => typeof r[0] === "string" && /^\d{4}(-\d{2}(-\d{2})?)?/.test(r[0])
    || typeof r[0] === "number" && Number.isInteger(r[0]) && r[0] >= 1800 && r[0] <= 2200);
  if (timeLike) {
    const keys = rows.map((r) => String(r[0]));
    const sorted = [...keys].sort();
    if (keys.every((k, i) => k === sorted[i])) return "line";
  }
  if (rows.every((r) => r[0] !== null && typeof r[0] !== "object")) return "bar";
  return null;
}

function renderChart(columns, rows) {
  const box = $("chart");
  clear(box);
  const kind = chartKind(columns, rows);
  if (!kind) return;
  const W = 720, H = 240, left = 56, bottom = 70, top = 16;
  const max = Math.max(0, ...rows.map((r) => r[1]));
  const min = Math.min(0, ...rows.map((r) => r[1]));
  const span = max - min || 1;
  const y = (v) => top + (H - top - bottom) * (1 - (v - min) / span);
  const step = (W - left - 10) / rows.length;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${kind} chart of ${columns[1]}` });
  chart.append(svg("line", { x1: left, x2: W - 10, y1: y(0), y2: y(0), stroke: "#999" }));
  for (const t of [min, (min + max) / 2, max]) {
    chart.append(svg("text", { x: left - 6, y: y(t) + 4, "text-anchor": "end", "font-size": 11 },
      Number.isInteger(t) ? String(t) : t.toFixed(Math.abs(t) >= 10 ? 0 : 2)));
  }
  const points = [];
  rows.forEach((r, i) => {
    const x = left + i * step;
    if (kind === "bar") {
      const h = Math.abs(y(r[1]) - y(0));
      chart.append(svg("rect", { x: x + step * 0.1, y: Math.min(y(r[1]), y(0)), width: step * 0.8, height: h,
        fill: "#2457c5" }));
    } else {
      points.push(`${x + step / 2},${y(r[1])}`);
      chart.append(svg("circle", { cx: x + step / 2, cy: y(r[1]), r: 3, fill: "#2457c5" }));
    }
    const label = svg("text", { x: x + step / 2, y: H - bottom + 14, "font-size": 11, "text-anchor": "end",
      transform: `rotate(-40 ${x + step / 2} ${H - bottom + 14})` }, String(r[0]).slice(0, 18));
    chart.append(label);
  });
  if (kind === "line") chart.append(svg("polyline", { points: points.join(" "), fill: "none", stroke: "#2457c5" }));
  box.append(chart);
}

function showResult(data) {
  $("error").hidden = true;
  renderTable(data.columns || [], data.rows || []);
  renderChart(data.columns || [], data.rows || []);
  const n = (data.rows || []).length;
  $("result-info").textContent = `${n} row${n === 1 ? "" : "s"}${data.truncated ? " (more exist: cut at the cap)" : ""}` +
    (data.ms !== undefined ? ` · ${data.ms.toFixed(1)} ms${data.cached ? " (translation remembered)" : ""}` : "");
}

function showError(message) {
  $("answer").hidden = false;
  $("error").hidden = false;
  $("error").textContent = message;
}

// ---- the ask page ----

function showTrace(data) {
  const trace = $("trace");
  clear(trace);
  trace.append(el("tr", {}, el("th", {}, "stage"), el("th", {}, "ms"), el("th", {}, "waiting ms")));
  for (const s of (data.trace && data.trace.stages) || []) {
    trace.append(el("tr", {}, el("td", {}, s.stage), el("td", { class: "n" }, (s.ms || 0).toFixed(2)),
      el("td", { class: "n" }, (s.wait_ms || 0).toFixed(2))));
  }
  const list = $("candidates");
  clear(list);
  for (const c of data.candidates || []) {
    const item = el("li", {}, `${c.generator}: ${c.status}${c.problem ? " (" + c.problem + ")" : ""}`);
    if (c.sql) item.append(el("pre", { class: "sql" }, c.sql));
    list.append(item);
  }
}

function showAnswer(data) {
  $("answer").hidden = false;
  highlight(data.sql, $("sql-view"));
  $("sql-text").value = data.sql;
  setEditing(false);
  $("confidence").textContent = data.confidence === null || data.confidence === undefined ? ""
    : `estimated P(right) ${Number(data.confidence).toFixed(2)} · ${data.generator}`;
  $("unsure").hidden = !data.unsure;
  $("unsure").textContent = data.unsure ? "Unsure: " + data.unsure + " Check the SQL before trusting the rows." : "";
  $("notes").textContent = (data.notes || []).join(" ");
  showResult(data);
  showTrace(data);
}

function setEditing(on) {
  $("sql-view").hidden = on;
  $("sql-text").hidden = !on;
  $("sql-run").hidden = !on;
  $("sql-edit").textContent = on ? "Cancel" : "Edit";
}

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  if (!question) return;
  const button = $("ask-button");
  button.disabled = true;
  $("progress").textContent = "Asking…";
  const body = { question, conn: $("conn").value, generator: $("generator").value };
  try {
    await askStream(body, (name, data) => {
      if (name === "stage") $("progress").textContent = `${data.stage} done (${data.ms.toFixed(1)} ms)…`;
      else if (name === "wait") $("progress").textContent = `waiting for ${data.what} (${Math.round(data.seconds)} s)…`;
      else if (name === "answer") { $("progress").textContent = ""; showAnswer(data); }
      else if (name === "error") { $("progress").textContent = ""; showError(data.error.message); }
    });
  } catch (e) {
    $("progress").textContent = "";
    showError(e.message);
  } finally {
    button.disabled = false;
  }
}

async function runEdited() {
  const sql = $("sql-text").value;
  try {
    const data = await apiJson("/api/sql", { sql, conn: $("conn").value });
    highlight(sql, $("sql-view"));
    setEditing(false);
    showResult(data);
  } catch (e) {
    showError(e.message);
  }
}

// ---- the schema page ----

function levelOf(profileName) { return profileName && profileName.level ? profileName.level : "N1"; }

function shareBar(all) {
  const bar = el("div", { class: "shares", role: "img",
    "aria-label": `Regular ${Math.round(all.share_regular * 100)}%, Low ${Math.round(all.share_low * 100)}%, ` +
      `Least ${Math.round(all.share_least * 100)}%` });
  for (const [share, color] of [[all.share_regular, "var(--n1)"], [all.share_low, "var(--n2)"],
    [all.share_least, "var(--n3)"]]) {
    const part = el("div");
    part.style.width = `${(share * 100).toFixed(1)}%`;
    part.style.background = color;
    bar.append(part);
  }
  return bar;
}

async function loadSchema() {
  const conn = $("conn").value;
  if (state.schemaFor === conn) return;
  const [schema, profile] = await Promise.all([
    apiJson("/api/schema?conn=" + encodeURIComponent(conn)),
    apiJson("/api/profile?conn=" + encodeURIComponent(conn)),
  ]);
  state.schemaFor = conn;
  const box = $("profile");
  clear(box);
  box.append(el("h2", {}, `Naturalness of ${profile.database}: ${profile.combined.toFixed(2)} ` +
    `(1 = every name Regular) over ${profile.all.names} names`));
  box.append(shareBar(profile.all));
  const advice = el("ul");
  for (const w of profile.warnings || []) advice.append(el("li", { class: "error" }, w.message));
  for (const a of profile.advice || []) advice.append(el("li", {}, a));
  box.append(advice);
  const levels = new Map();
  for (const t of profile.table_profiles || []) {
    levels.set(t.table, levelOf(t.name));
    for (const c of t.column_names || []) levels.set(t.table + "." + c.name, levelOf(c));
  }
  const tables = $("tables");
  clear(tables);
  for (const t of schema.tables || []) {
    const card = el("div", { class: "tcard" });
    const tl = levels.get(t.name) || "N1";
    card.append(el("h3", {}, el("span", { class: "lvl " + tl, title: tl }, t.name),
      t.kind === "view" ? " (view)" : ""));
    const list = el("ul");
    for (const c of t.columns || []) {
      const cl = levels.get(t.name + "." + c.name) || "N1";
      list.append(el("li", {}, el("span", { class: "lvl " + cl, title: cl }, c.name), " ",
        el("span", { class: "type" }, c.type || "")));
    }
    card.append(list);
    tables.append(card);
  }
}

// ---- the runs page ----

async function openReport(id) {
  const res = await api("/api/runs/" + encodeURIComponent(id) + "/report");
  if (!res.ok) { $("runs-info").textContent = "The report could not be made (HTTP " + res.status + ")."; return; }
  const url = URL.createObjectURL(new Blob([await res.text()], { type: "text/html" }));
  window.open(url, "_blank", "noopener");
}

async function loadRuns() {
  if (state.runsLoaded) return;
  const table = $("runs");
  clear(table);
  try {
    const data = await apiJson("/api/runs");
    state.runsLoaded = true;
    $("runs-info").textContent = data.runs.length ? "" : "No runs yet: plainsql eval run records them.";
    table.append(el("tr", {}, ...["run", "name", "created", "status", "done", "system", ""].map((h) => el("th", {}, h))));
    for (const r of data.runs) {
      const open = el("button", { type: "button" }, "Report");
      open.addEventListener("click", () => openReport(r.id));
      table.append(el("tr", {}, el("td", {}, r.id), el("td", {}, r.name), el("td", {}, r.created),
        el("td", {}, r.status), el("td", { class: "n" }, `${r.done}/${r.total}`), el("td", {}, r.system),
        el("td", {}, open)));
    }
  } catch (e) {
    $("runs-info").textContent = e.message;
  }
}

// ---- page set-up ----

function selectTab(name) {
  for (const b of document.querySelectorAll(".tab")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
  for (const p of document.querySelectorAll(".panel")) p.hidden = p.id !== "tab-" + name;
  if (name === "schema") loadSchema().catch((e) => { $("profile").textContent = e.message; });
  if (name === "runs") loadRuns();
}

async function loadDatabases() {
  try {
    const data = await apiJson("/api/databases");
    const select = $("conn");
    clear(select);
    for (const d of data.databases) {
      select.append(el("option", { value: d.name }, `${d.name} (${d.engine}, ${d.tables} tables)`));
    }
    $("version").textContent = data.version || "";
  } catch (e) {
    showError(e.message);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => selectTab(b.dataset.tab));
  $("ask-form").addEventListener("submit", ask);
  $("sql-edit").addEventListener("click", () => setEditing($("sql-text").hidden));
  $("sql-run").addEventListener("click", runEdited);
  $("conn").addEventListener("change", () => { state.schemaFor = null; if (!$("tab-schema").hidden) selectTab("schema"); });
  $("token-save").addEventListener("click", () => {
    sessionStorage.setItem("plainsql-token", $("token").value.trim());
    $("token-box").hidden = true;
    loadDatabases();
  });
  loadDatabases();
});
