"use strict";
// What the page knows: the rows (each the JSON Lines record of one procedure, with the
// id of its event), the tones of recent procedures by that id, the set-up and summary.
const MAX_ROWS = 20000, MAX_TONES = 200, TRACE_WINDOW = 2000, TABLE_ROWS = 50;
const state = { rows: [], rowById: new Map(), tones: new Map(), toneIds: [], follow: true, chosen: -1,
                dropped: 0, setup: null, summary: null, ended: false, connected: false, received: 0, map: null, statusLines: [] };
const SVGNS = "http://www.w3.org/2000/svg";
const $ = id => document.getElementById(id);

// ---- Drawing ---------------------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

const finite = v => typeof v === "number" && Number.isFinite(v);

// A 1-2-5 step giving about `count` ticks over `span`.
function niceStep(span, count) {
  const raw = span / Math.max(1, count), p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

function extent(values, includeZero) {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) if (finite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (includeZero) { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
  if (!finite(lo)) { lo = 0; hi = 1; }
  if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
  const pad = (hi - lo) * 0.04;
  return [lo - pad, hi + pad];
}

// Draws axes, series and marker lines into `svg`; returns the scales for extra marks.
// spec: { x, y: axis labels; series: [{ xs, ys, style: "line" | "dash" | "dots" | "none", cls }];
//         markers: [{ x, label, cls }]; includeZero; width; height; wholeY (integer y ticks);
//         xRange, yRange: [lo, hi] instead of the data's }
function chart(svg, spec) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const W = spec.width || 640, H = spec.height || 250, L = 58, R = 12, T = 10, B = 36;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const markers = (spec.markers || []).filter(m => finite(m.x));
  const [x0, x1] = spec.xRange || extent(spec.series.flatMap(s => s.xs).concat(markers.map(m => m.x)), false);
  const [y0, y1] = spec.yRange || extent(spec.series.flatMap(s => s.ys), spec.includeZero);
  const px = x => L + (x - x0) / (x1 - x0) * (W - L - R);
  const py = y => H - B - (y - y0) / (y1 - y0) * (H - T - B);
  const axes = el("g", { class: "axes" }, svg);
  for (const [lo, hi, across] of [[x0, x1, true], [y0, y1, false]]) {
    const step = across || !spec.wholeY ? niceStep(hi - lo, across ? 8 : 5) : Math.max(1, niceStep(hi - lo, 5));
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      const label = String(+v.toFixed(6));
      if (across) {
        el("line", { x1: px(v), x2: px(v), y1: T, y2: H - B, class: "grid" }, axes);
        el("text", { x: px(v), y: H - B + 13, class: "tick", "text-anchor": "middle" }, axes).textContent = label;
      } else {
        el("line", { x1: L, x2: W - R, y1: py(v), y2: py(v), class: "grid" }, axes);
        el("text", { x: L - 4, y: py(v) + 3, class: "tick", "text-anchor": "end" }, axes).textContent = label;
      }
    }
  }
  el("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "frame" }, axes);
  el("text", { x: (L + W - R) / 2, y: H - 4, class: "label", "text-anchor": "middle" }, axes).textContent = spec.x;
  const mid = (T + H - B) / 2;
  el("text", { x: 12, y: mid, class: "label", "text-anchor": "middle", transform: `rotate(-90 12 ${mid})` }, axes).textContent = spec.y;
  for (const s of spec.series) {
    if (s.style === "none") continue;
    if (s.style === "dots") {
      const g = el("g", { class: s.cls }, svg);
      s.xs.forEach((x, i) => { if (finite(s.ys[i])) el("circle", { cx: px(x), cy: py(s.ys[i]), r: 2.2 }, g); });
      continue;
    }
    // A line, broken where a value is missing.
    let d = "", pen = false;
    s.xs.forEach((x, i) => {
      const y = s.ys[i];
      if (!finite(y) || !finite(x)) { pen = false; return; }
      d += (pen ? "L" : "M") + px(x).toFixed(1) + " " + py(y).toFixed(1);
      pen = true;
    });
    if (d) el("path", { d, class: s.cls + (s.style === "dash" ? " dash" : ""), fill: "none" }, svg);
  }
  // Marker labels one under the other, so close markers stay readable.
  markers.forEach((m, i) => {
    el("line", { x1: px(m.x), x2: px(m.x), y1: T, y2: H - B, class: "marker " + m.cls }, svg);
    el("text", { x: px(m.x) + 3, y: T + 11 + 11 * i, class: "marker-label " + m.cls }, svg).textContent = m.label;
  });
  return { px, py };
}

const metres = v => finite(v) ? v.toFixed(3) + " m" : "–";

// The distance trace and the quality under it; each row is a circle carrying its record's
// values, so what is drawn can be checked against the JSON Lines.
function drawTrace() {
  // The records that carry a distance (a run's events, such as nearby's, do not).
  const rows = state.rows.filter(r => "distance_m" in r).slice(-TRACE_WINDOW);
  // Against time when the rows have it (a run), else against their order (a capture).
  const timed = rows.length > 0 && rows.every(r => finite(r.time_s));
  const at = r => timed ? r.time_s : r.seq;
  const xLabel = timed ? "time (s)" : "procedure (in capture order)";
  const t = rows.map(at);
  const hasTruth = rows.length > 0 && rows.every(r => finite(r.true_distance_m));
  const series = [];
  if (hasTruth) series.push({ xs: t, ys: rows.map(r => r.true_distance_m), style: "dash", cls: "truth" });
  if (rows.some(r => finite(r.smoothed_distance_m))) {
    series.push({ xs: t, ys: rows.map(r => r.smoothed_distance_m), style: "line", cls: "smoothed" });
  } else {
    // Nothing smoothed (a capture): a thin line through the estimates keeps the trace readable.
    series.push({ xs: t, ys: rows.map(r => r.distance_m), style: "line", cls: "rawline" });
  }
  series.push({ xs: t, ys: rows.map(r => r.distance_m), style: "none", cls: "raw" });
  const svg = $("trace");
  const { px, py } = chart(svg, { x: xLabel, y: "distance (m)", width: 1280, height: 300, series });
  const g = el("g", { class: "raw", id: "trace-points" }, svg);
  for (const r of rows) {
    const c = el("circle", { r: 2.6, "data-id": r.id, "data-counter": r.procedure_counter, "data-time": r.time_s,
                             "data-distance": String(r.distance_m), "data-smoothed": String(r.smoothed_distance_m),
                             "data-quality": String(r.quality) }, g);
    if (finite(r.distance_m)) { c.setAttribute("cx", px(at(r))); c.setAttribute("cy", py(r.distance_m)); }
    else c.setAttribute("visibility", "hidden");
    c.addEventListener("click", () => choose(r.id));
  }
  const chosen = state.rowById.get(state.toneIds[state.chosen]);
  if (chosen && finite(chosen.distance_m)) el("circle", { cx: px(at(chosen)), cy: py(chosen.distance_m), r: 6, class: "chosen-mark" }, svg);
  const quality = $("quality");
  quality.style.display = rows.some(r => finite(r.quality)) ? "" : "none";
  chart(quality, { x: xLabel, y: "quality", width: 1280, height: 120, includeZero: true,
                        series: [{ xs: t, ys: rows.map(r => r.quality), style: "line", cls: "quality" }] });
}

// The chosen procedure's four panels.
function drawProcedure() {
  const id = state.toneIds[state.chosen];
  const tones = state.tones.get(id), row = state.rowById.get(id);
  if (!tones || !row) return;
  // One side's PCTs (the accessory's reflector): their phase holds its LO's, so no impulse response.
  const oneSided = tones.side === "reflector";
  $("chosen-row").textContent = oneSided
    ? `procedure ${row.procedure_counter}: the reflector's own PCTs (${state.chosen + 1} of ${state.toneIds.length} with plots)`
    : `procedure ${row.procedure_counter}` + (finite(row.time_s) ? ` at ${row.time_s} s` : "") + `: distance ${metres(row.distance_m)}` +
    (finite(row.smoothed_distance_m) ? `, smoothed ${metres(row.smoothed_distance_m)}` : "") + `, quality ${finite(row.quality) ? row.quality : "–"}` +
    (finite(row.true_distance_m) ? `, truth ${metres(row.true_distance_m)}` : "") +
    ` (${state.chosen + 1} of ${state.toneIds.length} with plots)`;
  document.body.classList.toggle("one-sided", oneSided);
  $("phase-title").textContent = oneSided ? "The reflector's PCT phase, unwrapped (its LO's phase is in it)" : "Round-trip phase, unwrapped";
  const mhz = p => p.channels.map(k => 2402 + k);
  const legend = $("paths-legend");
  while (legend.firstChild) legend.removeChild(legend.firstChild);
  tones.paths.forEach((_, p) => {
    const i = document.createElement("i"); i.className = "p" + p; legend.appendChild(i);
    legend.appendChild(document.createTextNode("path " + p));
  });
  chart($("amplitude"), { x: "frequency (MHz)", y: "amplitude (of the strongest)", includeZero: true,
                          series: tones.paths.map((p, i) => ({ xs: mhz(p), ys: p.amplitude, style: "line", cls: "p" + i })) });
  chart($("phase"), { x: "frequency (MHz)", y: "phase (rad)",
                      series: tones.paths.map((p, i) => ({ xs: mhz(p), ys: p.phase_rad, style: "line", cls: "p" + i })) });
  const ir = tones.impulse;
  if (!oneSided) chart($("impulse"), { x: "one-way distance (m)", y: "magnitude", includeZero: true,
                        series: [{ xs: ir.magnitude.map((_, i) => i * ir.bin_m), ys: ir.magnitude, style: "line", cls: "p0" }],
                        markers: [{ x: row.true_distance_m, label: "truth", cls: "truth" },
                                  { x: ir.first_path_m, label: "first path (IFFT)", cls: "first" },
                                  { x: row.distance_m, label: "estimate", cls: "estimate" }]
                          .concat((ir.fit_paths_m || []).map((d, i) => ({ x: d, label: `fit path ${i + 1} (${ir.fit_amplitudes[i]})`, cls: "fit" }))) });
  drawSteps(tones);
}

// One row of cells per antenna path, one cell per tone in the order the steps measured them.
function drawSteps(tones) {
  const svg = $("steps");
  const longest = Math.max(1, ...tones.paths.map(p => p.step_quality.length));
  const { px, py } = chart(svg, { x: "step (tone in measured order)", y: "antenna path", height: 80 + 30 * tones.paths.length, wholeY: true,
                                  series: [{ xs: [0, longest], ys: [-0.5, tones.paths.length - 0.5], style: "none", cls: "" }] });
  const w = Math.max(1, px(1) - px(0)), h = Math.abs(py(0) - py(0.8));
  tones.paths.forEach((p, row) => {
    const g = el("g", { class: "steps-path" }, svg);
    p.step_quality.forEach((q, i) => {
      const cell = el("rect", { x: px(i), y: py(row + 0.4), width: w, height: h, class: "q" + q }, g);
      el("title", {}, cell).textContent = `channel ${p.step_channels[i]}: ${["good", "bad", "unrated"][q]}`;
    });
  });
}

// DL-TDoA's floor: anchors by role, NLOS zones, the true path, the fixes and the tracked
// path, east and north to one scale; the anchors the latest fix rejected are ringed.
function drawMap() {
  const m = state.map, rows = state.rows;
  const xy = (list, i) => rows.map(r => Array.isArray(r[list]) ? r[list][i] : NaN);
  const points = m.anchors.map(a => a.position_m).concat(rows.map(r => r.true_m).filter(Array.isArray));
  const [ex0, ex1] = extent(points.map(p => p[0])), [ny0, ny1] = extent(points.map(p => p[1]));
  const half = Math.max(ex1 - ex0, ny1 - ny0) * 0.55, cx = (ex0 + ex1) / 2, cy = (ny0 + ny1) / 2;
  const svg = $("map");
  const { px, py } = chart(svg, { x: "east (m)", y: "north (m)", width: 720, height: 720,
                                  xRange: [cx - half, cx + half], yRange: [cy - half, cy + half],
                                  series: [{ xs: xy("true_m", 0), ys: xy("true_m", 1), style: "dash", cls: "truth" },
                                           { xs: xy("tracked_m", 0), ys: xy("tracked_m", 1), style: "line", cls: "smoothed" },
                                           { xs: xy("fix_m", 0), ys: xy("fix_m", 1), style: "dots", cls: "raw" }] });
  for (const z of m.zones) {
    const [x0, y0] = z.min_m, [x1, y1] = z.max_m;
    el("rect", { x: px(x0), y: py(y1), width: px(x1) - px(x0), height: py(y0) - py(y1), class: "zone" }, svg);
  }
  const last = rows[rows.length - 1];
  const rejected = new Set(last && Array.isArray(last.rejected) ? last.rejected.map(r => r.anchor) : []);
  const g = el("g", { id: "anchors" }, svg);
  for (const a of m.anchors) {
    const [x, y] = a.position_m;
    el("rect", { x: px(x) - 5, y: py(y) - 5, width: 10, height: 10, class: a.initiator ? "a-init" : "a-resp", "data-address": a.address }, g);
    if (rejected.has(a.address)) el("circle", { cx: px(x), cy: py(y), r: 11, class: "a-rej" }, g);
    el("text", { x: px(x) + 8, y: py(y) - 7, class: "anchor-label" }, g).textContent = a.address;
  }
  const t = rows.map(r => r.time_s);
  chart($("fix-error"), { x: "time (s)", y: "error (m)", width: 1280, height: 220, includeZero: true,
                          series: [{ xs: t, ys: rows.map(r => r.crlb_m), style: "dash", cls: "truth" },
                                   { xs: t, ys: rows.map(r => r.tracked_error_m), style: "line", cls: "smoothed" },
                                   { xs: t, ys: rows.map(r => r.error_m), style: "dots", cls: "raw" }] });
}

// Nearby Interaction's direction: azimuth and elevation over time with the error against
// the truth, and where the accessory appears in the camera's frame.
function drawDirection() {
  const rows = state.rows.filter(r => "azimuth_deg" in r);
  const t = rows.map(r => r.time_s);
  chart($("angles"), { x: "time (s)", y: "degrees", width: 1280, height: 260,
                       series: [{ xs: t, ys: rows.map(r => r.azimuth_deg), style: "line", cls: "p0" },
                                { xs: t, ys: rows.map(r => r.elevation_deg), style: "line", cls: "p1" },
                                { xs: t, ys: rows.map(r => r.direction_error_deg), style: "dots", cls: "raw" }] });
  const recent = rows.filter(r => finite(r.azimuth_deg)).slice(-40);
  const svg = $("camera");
  const { px, py } = chart(svg, { x: "azimuth (°, right +)", y: "elevation (°, up +)", width: 520, height: 520,
                                  xRange: [-90, 90], yRange: [-90, 90],
                                  series: [{ xs: recent.map(r => r.azimuth_deg), ys: recent.map(r => finite(r.elevation_deg) ? r.elevation_deg : 0),
                                             style: "dots", cls: "raw" }] });
  el("line", { x1: px(0), x2: px(0), y1: py(-90), y2: py(90), class: "frame" }, svg);
  el("line", { x1: px(-90), x2: px(90), y1: py(0), y2: py(0), class: "frame" }, svg);
  const last = recent[recent.length - 1];
  if (last) el("circle", { cx: px(last.azimuth_deg), cy: py(finite(last.elevation_deg) ? last.elevation_deg : 0), r: 8, class: "chosen-mark" }, svg);
}

// The latest records as a table: one column per key, nested objects as "key.inner",
// lists joined with "/". Text only (textContent), so no record can inject markup.
function flatten(record, prefix, out) {
  for (const [k, v] of Object.entries(record)) {
    if (k === "id" || k === "seq") continue;
    const name = prefix + k;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) flatten(v, name + ".", out);
    else if (Array.isArray(v) && v.some(x => x !== null && typeof x === "object"))
      out[name] = v.length > 3 ? `${v.length} items` : v.map(x => Object.values(x).join(" ")).join(", ") || "–";
    else out[name] = Array.isArray(v) ? v.join("/") : v === null ? "–" : String(v);
  }
  return out;
}

function drawTable() {
  const rows = state.rows.slice(-TABLE_ROWS).reverse().map(r => flatten(r, "", {}));
  const columns = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  const table = $("records"), head = table.tHead, body = table.tBodies[0];
  while (head.firstChild) head.removeChild(head.firstChild);
  while (body.firstChild) body.removeChild(body.firstChild);
  const tr = head.insertRow();
  for (const c of columns) { const th = document.createElement("th"); th.textContent = c; tr.appendChild(th); }
  for (const r of rows) {
    const row = body.insertRow();
    for (const c of columns) row.insertCell().textContent = c in r ? r[c] : "";
  }
}

function drawText() {
  const s = state.summary, n = state.rows.length;
  if (s) $("summary").textContent = s.text.trim();
  // What a row is: a fix (tdoa), an update or event (nearby), a procedure (the rest).
  const command = state.setup ? state.setup.command : "";
  const [one, many] = command === "tdoa" ? ["fix", "fixes"] : command === "nearby" ? ["record", "records"] : ["procedure", "procedures"];
  let status = `${n} ${n === 1 ? one : many}`;
  status += state.ended ? ", the run has ended" : state.connected ? ", live" : ", not connected (the tool has stopped?)";
  if (state.dropped > 0) status += `; ${state.dropped} updates dropped because this page fell behind`;
  $("status").textContent = status;
  const slider = $("chosen");
  slider.disabled = state.toneIds.length === 0;
  slider.max = String(Math.max(0, state.toneIds.length - 1));
  slider.value = String(Math.max(0, state.chosen));
}

// Redraws at most once per animation frame, however fast the events come.
let pending = false;
function redraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    if (state.follow) state.chosen = state.toneIds.length - 1;
    // Each panel shows when the run has its data: distances (a trace), tones (the chosen
    // procedure), a floor (DL-TDoA), directions (nearby); the table and set-up always.
    const has = {
      trace: state.rows.some(r => finite(r.distance_m)),
      tones: state.toneIds.length > 0,
      map: state.map !== null,
      direction: state.rows.some(r => finite(r.azimuth_deg)),
      status: state.statusLines.length > 0,
    };
    for (const k in has) document.body.classList.toggle("has-" + k, has[k]);
    if (has.trace) drawTrace();
    if (has.tones) drawProcedure();
    if (has.direction) drawDirection();
    if (has.map) drawMap();
    drawTable();
    drawText();
    $("status-lines").textContent = state.statusLines.slice(-30).join("\n");
  });
}

function choose(id) {
  const i = state.toneIds.indexOf(id);
  if (i < 0) return;
  state.chosen = i;
  state.follow = i === state.toneIds.length - 1;
  $("follow").checked = state.follow;
  redraw();
}

$("chosen").addEventListener("input", e => {
  state.chosen = Number(e.target.value);
  state.follow = state.chosen === state.toneIds.length - 1;
  $("follow").checked = state.follow;
  redraw();
});
$("follow").addEventListener("change", e => { state.follow = e.target.checked; redraw(); });

// ---- The event stream --------------------------------------------------------------

const source = new EventSource("/events");
source.onopen = () => { state.connected = true; redraw(); };
source.onerror = () => { state.connected = false; redraw(); };
source.addEventListener("setup", e => {
  state.setup = JSON.parse(e.data);
  $("command").textContent = state.setup.command;
  $("setup").textContent = state.setup.text;
});
source.addEventListener("procedure", e => {
  const row = JSON.parse(e.data);
  row.id = Number(e.lastEventId);
  row.seq = state.received++;
  state.rows.push(row);
  state.rowById.set(row.id, row);
  if (state.rows.length > MAX_ROWS) state.rowById.delete(state.rows.shift().id);
  redraw();
});
source.addEventListener("tones", e => {
  const tones = JSON.parse(e.data);
  state.tones.set(tones.procedure_id, tones);
  state.toneIds.push(tones.procedure_id);
  if (state.toneIds.length > MAX_TONES) {
    state.tones.delete(state.toneIds.shift());
    if (!state.follow) state.chosen = Math.max(0, state.chosen - 1);
  }
  redraw();
});
source.addEventListener("status", e => {
  state.statusLines.push(JSON.parse(e.data).text);
  if (state.statusLines.length > 200) state.statusLines.shift();
  redraw();
});
source.addEventListener("map", e => { state.map = JSON.parse(e.data); redraw(); });
source.addEventListener("dropped", e => { state.dropped += JSON.parse(e.data).dropped; redraw(); });
source.addEventListener("summary", e => {
  state.summary = JSON.parse(e.data);
  state.ended = true;
  // The run is over: nothing more will come, so stop reconnecting.
  source.close();
  redraw();
});
