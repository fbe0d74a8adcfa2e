// The interactive parts of `bench report --html`: everything below is built from the JSON block
// `report-data` with textContent and attributes, never from markup strings.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("report-data").textContent);
  var SVGNS = "http://www.w3.org/2000/svg";
  var COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
  // Columns of D.rows.
  var INST = 0, PAIR = 1, REP = 2, STATUS = 3, MOVES = 4, EXP = 5, GEN = 6, MS = 7, HEAP = 8, SOL = 9;

  function el(tag, attrs) {
    var e = document.createElement(tag);
    setAttrs(e, attrs);
    for (var i = 2; i < arguments.length; i++) append(e, arguments[i]);
    return e;
  }
  function sv(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    setAttrs(e, attrs);
    for (var i = 2; i < arguments.length; i++) append(e, arguments[i]);
    return e;
  }
  function setAttrs(e, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (k) {
      if (attrs[k] === null || attrs[k] === undefined) return;
      if (k === "text") e.textContent = String(attrs[k]);
      else e.setAttribute(k, String(attrs[k]));
    });
  }
  function append(e, c) {
    if (c === null || c === undefined) return;
    if (Array.isArray(c)) { c.forEach(function (x) { append(e, x); }); return; }
    e.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  function $(id) { return document.getElementById(id); }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }

  // ---- number formats --------------------------------------------------------------------
  function fmtCount(x) {
    if (x === null || x === undefined) return "\u2013";
    if (Math.abs(x) >= 1e6) return x.toExponential(3);
    if (Number.isInteger(x)) return String(x);
    return x.toFixed(Math.abs(x) >= 100 ? 1 : 2);
  }
  function fmtMs(x) {
    if (x === null || x === undefined) return "\u2013";
    if (x < 10) return x.toFixed(3);
    if (x < 1000) return x.toFixed(1);
    return x.toFixed(0);
  }
  function fmtBytes(x) {
    if (x === null || x === undefined) return "\u2013";
    var u = ["B", "KiB", "MiB", "GiB", "TiB"], i = 0;
    while (x >= 1024 && i + 1 < u.length) { x /= 1024; i++; }
    return (i === 0 ? x.toFixed(0) : x.toFixed(1)) + " " + u[i];
  }
  function fmtTick(v) {
    var e = Math.round(Math.log10(v));
    if (e >= 4) return "1e" + e;
    if (e >= 0) return String(Math.pow(10, e));
    return Math.pow(10, e).toFixed(-e);
  }
  function fmtByKey(key, v) {
    if (typeof v !== "number") return v === null || v === undefined ? "\u2013" : String(v);
    if (/bytes/.test(key)) return fmtBytes(v);
    if (/^ms_|_ms$/.test(key)) return fmtMs(v);
    if (key === "nodes_per_sec") return (v / 1e6).toFixed(2) + " M";
    if (key === "bstar" || /_vs_/.test(key)) return v.toFixed(3);
    if (/^moves_/.test(key)) return v.toFixed(2);
    return fmtCount(v);
  }

  // ---- header, notes, runs ---------------------------------------------------------------
  var prog = D.program;
  $("generated").textContent = "Generated " + D.generated + " by " + prog.name + " " +
    prog.version + " (commit " + prog.git_commit + ") with: " + D.command_line;
  if (D.notes.length) {
    $("notes-section").hidden = false;
    D.notes.forEach(function (n) { $("notes").appendChild(el("li", { text: n })); });
  }

  function dl(pairs) {
    var d = el("dl", { "class": "meta" });
    pairs.forEach(function (p) {
      if (p[1] === null || p[1] === undefined || p[1] === "") return;
      d.appendChild(el("dt", { text: p[0] }));
      d.appendChild(el("dd", null, p[1]));
    });
    return d;
  }
  function limitText(l) {
    var t = l.timeout_ms;
    return "timeout " + (t === null ? "none" : t >= 1000 ? +(t / 1000).toFixed(3) + " s" : t + " ms") +
      "; max nodes " + (l.max_nodes === null ? "none" : String(l.max_nodes)) +
      "; max memory " + (l.max_memory_bytes === null ? "none" : fmtBytes(l.max_memory_bytes)) +
      " (per job)";
  }
  (function runs() {
    var body = $("runs-body");
    D.files.forEach(function (f) {
      var head = f.path + (f.rows === null ? "" : " (" + f.rows + " rows)");
      body.appendChild(el("h3", { text: head }));
      if (f.sidecar === "missing" || f.sidecar === "unreadable") {
        body.appendChild(el("p", { "class": "note", text: "Sidecar " + f.sidecar_path + ": " + f.sidecar + "." }));
        return;
      }
      if (f.sidecar === "merged")
        body.appendChild(el("p", { "class": "help", text: "Merged file; the runs of its inputs:" }));
      f.runs.forEach(function (r) {
        var h = r.host;
        var hostText = [h.hostname, h.cpu_model, h.cores + " cores",
          h.memory_bytes === null ? null : fmtBytes(h.memory_bytes), h.os]
          .filter(function (x) { return x; }).join(", ");
        var sessions = el("ol", { "class": "sessions" });
        r.sessions.forEach(function (s) {
          sessions.appendChild(el("li", null, el("code", { text: s.command_line }),
            " \u2014 " + s.status + ", " + s.rows_written + " rows, " + s.threads + " threads, " +
            s.start_time + " \u2192 " + (s.end_time || "?") + (s.hostname ? " on " + s.hostname : "")));
        });
        var seeds = ["job order " + r.job_order_seed];
        var files = el("ul", null);
        r.instance_files.forEach(function (i) {
          var hdr = {};
          i.header.forEach(function (kv) { hdr[kv[0]] = kv[1]; });
          if (hdr.seed !== undefined) seeds.push(i.path + ": " + hdr.seed);
          files.appendChild(el("li", null, el("code", { text: i.path }),
            " \u2014 " + i.instances + " instances, " + i.size + ", goal " + i.goal +
            (hdr.generator ? ", generator " + hdr.generator : "") +
            ", sha256 " + i.sha256.slice(0, 12) + "\u2026",
            hdr.reproduce ? [el("br"), "reproduce: ", el("code", { text: hdr.reproduce })] : null));
        });
        body.appendChild(dl([
          ["run id", r.run_id],
          ["program", r.program.name + " " + r.program.version + ", commit " + r.program.git_commit + ", " + r.program.rustc],
          ["host", hostText],
          ["command lines", sessions],
          ["algorithms", r.algorithms.join(", ")],
          ["heuristics", r.heuristics.join(", ")],
          ["limits", limitText(r.limits)],
          ["seeds", seeds.join("; ")],
          ["repetitions", String(r.repeat)],
          ["threads", String(r.threads)],
          ["shard", r.shard],
          ["jobs planned", String(r.jobs_planned)],
          ["time", r.start_time + " \u2192 " + (r.end_time || "not finished")],
          ["instance files", files]
        ]));
      });
    });
  })();

  // ---- summary table, sortable -----------------------------------------------------------
  (function summary() {
    var S = D.summary, table = $("summary-table");
    var rows = S.rows.slice(), sortCol = -1, asc = true;
    var thead = el("thead"), tbody = el("tbody"), tr = el("tr");
    var ths = S.titles.map(function (t, i) {
      var th = el("th", { text: t, title: S.keys[i], "data-key": S.keys[i], scope: "col" });
      th.addEventListener("click", function () { sortBy(i); });
      tr.appendChild(th);
      return th;
    });
    thead.appendChild(tr);
    table.appendChild(thead);
    table.appendChild(tbody);
    function cmp(a, b) {
      // Empty cells last in both directions; numbers numerically, text by code points.
      if (a === null && b === null) return 0;
      if (a === null) return 1;
      if (b === null) return -1;
      var d;
      if (typeof a === "number" && typeof b === "number") d = a - b;
      else { a = String(a); b = String(b); d = a < b ? -1 : a > b ? 1 : 0; }
      return asc ? d : -d;
    }
    function sortBy(i) {
      if (sortCol === i) asc = !asc; else { sortCol = i; asc = true; }
      var idx = rows.map(function (r, k) { return k; });
      idx.sort(function (x, y) { return cmp(rows[x][i], rows[y][i]) || x - y; });
      rows = idx.map(function (k) { return rows[k]; });
      ths.forEach(function (th, k) {
        if (k === i) th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        else th.removeAttribute("aria-sort");
      });
      draw();
    }
    function draw() {
      clear(tbody);
      rows.forEach(function (r) {
        var tr = el("tr");
        r.forEach(function (v, i) {
          tr.appendChild(el("td", { "class": typeof v === "number" ? "num" : null,
            title: typeof v === "number" ? String(v) : null, text: fmtByKey(S.keys[i], v) }));
        });
        tbody.appendChild(tr);
      });
    }
    draw();
  })();

  // ---- per-instance aggregates -----------------------------------------------------------
  // agg[pair][instance] = {runs, solved, exp, ms, moves}: means over solved repetitions.
  var agg = D.pairs.map(function () { return {}; });
  D.rows.forEach(function (r) {
    var a = agg[r[PAIR]][r[INST]] || (agg[r[PAIR]][r[INST]] = { runs: 0, solved: 0, exp: 0, ms: 0, moves: null, expKnown: true });
    a.runs++;
    if (r[STATUS] === "solved") {
      a.solved++;
      if (r[EXP] === null) a.expKnown = false; else a.exp += r[EXP];
      a.ms += r[MS];
      if (r[MOVES] !== null) a.moves = a.moves === null ? r[MOVES] : Math.min(a.moves, r[MOVES]);
    }
  });
  function meanOf(a, metric) {
    if (!a || a.solved === 0) return null;
    if (metric === "expanded") return a.expKnown ? a.exp / a.solved : null;
    return a.ms / a.solved;
  }

  function logRange(values, floor) {
    var lo = Infinity, hi = -Infinity;
    values.forEach(function (v) { v = Math.max(v, floor); lo = Math.min(lo, v); hi = Math.max(hi, v); });
    if (!isFinite(lo)) return [1, 10];
    lo = Math.pow(10, Math.floor(Math.log10(lo) + 1e-9));
    hi = Math.pow(10, Math.ceil(Math.log10(hi) - 1e-9));
    if (hi <= lo) hi = lo * 10;
    return [lo, hi];
  }
  function decades(r) {
    var out = [];
    for (var e = Math.round(Math.log10(r[0])); e <= Math.round(Math.log10(r[1])); e++) out.push(Math.pow(10, e));
    return out;
  }

  // ---- scatter plot of two configurations ------------------------------------------------
  var VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  function viridis(t) {
    t = Math.max(0, Math.min(1, t)) * (VIRIDIS.length - 1);
    var i = Math.min(Math.floor(t), VIRIDIS.length - 2), f = t - i;
    var c = VIRIDIS[i].map(function (v, k) { return Math.round(v + f * (VIRIDIS[i + 1][k] - v)); });
    return "rgb(" + c.join(",") + ")";
  }
  (function scatter() {
    var selA = $("scatter-a"), selB = $("scatter-b"), selM = $("scatter-metric");
    D.pairs.forEach(function (p, i) {
      selA.appendChild(el("option", { value: i, text: p }));
      selB.appendChild(el("option", { value: i, text: p }));
    });
    selA.value = "0";
    selB.value = D.pairs.length > 1 ? "1" : "0";
    [selA, selB, selM].forEach(function (s) { s.addEventListener("change", draw); });
    function draw() {
      var box = clear($("scatter-plot")), stats = $("scatter-stats");
      var a = +selA.value, b = +selB.value, metric = selM.value;
      if (!D.pairs.length) { stats.textContent = "No rows."; return; }
      var floor = metric === "expanded" ? 1 : 1e-3;
      var pts = [];
      D.instances.forEach(function (inst, i) {
        var ra = agg[a][i], rb = agg[b][i];
        if (!ra || !rb) return;
        var len = inst.length;
        if (len === null) {
          [ra.moves, rb.moves].forEach(function (m) { if (m !== null) len = len === null ? m : Math.min(len, m); });
        }
        pts.push({ i: i, x: meanOf(ra, metric), y: meanOf(rb, metric), len: len });
      });
      var vals = [];
      pts.forEach(function (p) { if (p.x !== null) vals.push(p.x); if (p.y !== null) vals.push(p.y); });
      var lens = pts.map(function (p) { return p.len; }).filter(function (l) { return l !== null; });
      var lmin = Math.min.apply(null, lens), lmax = Math.max.apply(null, lens);
      var r = logRange(vals, floor);
      var L = 70, T = 48, W = 460, H = 460, band = 22;
      var svg = sv("svg", { viewBox: "0 0 680 580", width: 680, height: 580, role: "img",
        "aria-label": "scatter plot of " + D.pairs[b] + " against " + D.pairs[a] });
      function sx(v) { return L + (Math.log10(Math.max(v, floor)) - Math.log10(r[0])) / (Math.log10(r[1]) - Math.log10(r[0])) * W; }
      function sy(v) { return T + H - (Math.log10(Math.max(v, floor)) - Math.log10(r[0])) / (Math.log10(r[1]) - Math.log10(r[0])) * H; }
      var bx = L + W + band, by = T - band;
      svg.appendChild(sv("rect", { x: L, y: T, width: W, height: H, fill: "none", stroke: "#888" }));
      decades(r).forEach(function (v) {
        svg.appendChild(sv("line", { x1: sx(v), x2: sx(v), y1: T, y2: T + H, stroke: "#eee" }));
        svg.appendChild(sv("line", { x1: L, x2: L + W, y1: sy(v), y2: sy(v), stroke: "#eee" }));
        svg.appendChild(sv("text", { x: sx(v), y: T + H + 16, "text-anchor": "middle", text: fmtTick(v) }));
        svg.appendChild(sv("text", { x: L - 6, y: sy(v) + 4, "text-anchor": "end", text: fmtTick(v) }));
      });
      svg.appendChild(sv("line", { x1: sx(r[0]), y1: sy(r[0]), x2: sx(r[1]), y2: sy(r[1]), stroke: "#555", "stroke-dasharray": "5 4" }));
      // The border band for unsolved instances.
      svg.appendChild(sv("line", { x1: bx, x2: bx, y1: by, y2: T + H, stroke: "#c44", "stroke-dasharray": "2 3" }));
      svg.appendChild(sv("line", { x1: L, x2: bx, y1: by, y2: by, stroke: "#c44", "stroke-dasharray": "2 3" }));
      svg.appendChild(sv("text", { x: bx + 4, y: T + H, transform: "rotate(-90 " + (bx + 14) + " " + (T + H) + ")", text: "unsolved" }));
      svg.appendChild(sv("text", { x: L, y: by - 5, text: "unsolved" }));
      var unit = metric === "expanded" ? "nodes expanded" : "wall time (ms)";
      svg.appendChild(sv("text", { x: L + W / 2, y: T + H + 38, "text-anchor": "middle", text: D.pairs[a] + ": " + unit }));
      svg.appendChild(sv("text", { x: 16, y: T + H / 2, "text-anchor": "middle", transform: "rotate(-90 16 " + (T + H / 2) + ")", text: D.pairs[b] + ": " + unit }));
      var g = sv("g", { "class": "points" });
      pts.forEach(function (p) {
        var inst = D.instances[p.i];
        var col = p.len === null ? "#999" : viridis(lmax > lmin ? (p.len - lmin) / (lmax - lmin) : 0.5);
        var c = sv("circle", { cx: p.x === null ? bx : sx(p.x), cy: p.y === null ? by : sy(p.y), r: 4,
          fill: col, "fill-opacity": 0.85, stroke: "#333", "stroke-width": 0.5 });
        c.appendChild(sv("title", { text: inst.file + " #" + inst.id + " (" + inst.rows + "x" + inst.cols + ")" +
          "\n" + D.pairs[a] + ": " + (p.x === null ? "unsolved" : fmtCount(p.x)) +
          "\n" + D.pairs[b] + ": " + (p.y === null ? "unsolved" : fmtCount(p.y)) +
          (p.len === null ? "" : "\nsolution length " + p.len) }));
        g.appendChild(c);
      });
      svg.appendChild(g);
      // Colour legend: solution length.
      if (lens.length) {
        var lx = L + W + band + 40, ly = T + 20, lh = 200, n = 24;
        svg.appendChild(sv("text", { x: lx, y: ly - 8, text: "length" }));
        for (var k = 0; k < n; k++) {
          svg.appendChild(sv("rect", { x: lx, y: ly + lh - (k + 1) * lh / n, width: 16, height: lh / n + 0.5,
            fill: viridis(k / (n - 1)) }));
        }
        svg.appendChild(sv("text", { x: lx + 22, y: ly + lh, text: String(lmin) }));
        svg.appendChild(sv("text", { x: lx + 22, y: ly + 10, text: String(lmax) }));
      }
      box.appendChild(svg);
      // Statistics.
      var both = 0, aOnly = 0, bOnly = 0, none = 0, bLow = 0, aLow = 0, tie = 0, logSum = 0, logN = 0;
      pts.forEach(function (p) {
        if (p.x !== null && p.y !== null) {
          both++;
          if (p.y < p.x) bLow++; else if (p.x < p.y) aLow++; else tie++;
          if (p.x > 0 && p.y > 0) { logSum += Math.log(p.y / p.x); logN++; }
        } else if (p.x !== null) aOnly++; else if (p.y !== null) bOnly++; else none++;
      });
      stats.textContent = pts.length + " instances run by both. Solved by both: " + both +
        (logN ? "; geometric mean of y/x " + Math.exp(logSum / logN).toPrecision(3) : "") +
        "; y lower on " + bLow + ", x lower on " + aLow + ", equal on " + tie +
        ". Solved by x only: " + aOnly + ", by y only: " + bOnly + ", by neither: " + none +
        ". Points below the diagonal favour y (" + D.pairs[b] + "); colour = solution length" +
        (metric === "expanded" ? "; counts below 1 are drawn at 1." : "; times below 1 \u00b5s are drawn at 1 \u00b5s.");
    }
    draw();
  })();

  // ---- coverage over time -------------------------------------------------------------------
  (function coverage() {
    var box = $("coverage-plot");
    var series = D.pairs.map(function (p, k) {
      var t = [], total = 0;
      Object.keys(agg[k]).forEach(function (i) {
        total++;
        var m = meanOf(agg[k][i], "time");
        if (m !== null) t.push(Math.max(m, 1e-3));
      });
      t.sort(function (x, y) { return x - y; });
      return { name: p, times: t, total: total, color: COLORS[k % COLORS.length] };
    });
    var all = [];
    series.forEach(function (s) { all = all.concat(s.times); });
    if (!all.length) { box.appendChild(el("p", { "class": "empty", text: "No solved runs." })); return; }
    var r = logRange(all, 1e-3);
    var ymax = Math.max.apply(null, series.map(function (s) { return s.total; }));
    var L = 60, T = 14, W = 620, H = 340;
    var svg = sv("svg", { viewBox: "0 0 960 400", width: 960, height: 400, role: "img", "aria-label": "coverage over time" });
    function sx(v) { return L + (Math.log10(v) - Math.log10(r[0])) / (Math.log10(r[1]) - Math.log10(r[0])) * W; }
    function sy(v) { return T + H - v / ymax * H; }
    svg.appendChild(sv("rect", { x: L, y: T, width: W, height: H, fill: "none", stroke: "#888" }));
    decades(r).forEach(function (v) {
      svg.appendChild(sv("line", { x1: sx(v), x2: sx(v), y1: T, y2: T + H, stroke: "#eee" }));
      svg.appendChild(sv("text", { x: sx(v), y: T + H + 16, "text-anchor": "middle", text: fmtTick(v) }));
    });
    // A round tick step (1, 2 or 5 times a power of ten) giving at most 8 intervals.
    var step = 1;
    while (ymax / step > 8) step = [1, 2, 5].indexOf(step / Math.pow(10, Math.floor(Math.log10(step) + 1e-9))) === 1 ? step * 2.5 : step * 2;
    for (var y = 0; y <= ymax; y += step) {
      svg.appendChild(sv("line", { x1: L, x2: L + W, y1: sy(y), y2: sy(y), stroke: "#eee" }));
      svg.appendChild(sv("text", { x: L - 6, y: sy(y) + 4, "text-anchor": "end", text: String(y) }));
    }
    svg.appendChild(sv("text", { x: L + W / 2, y: T + H + 36, "text-anchor": "middle", text: "wall time (ms, log scale)" }));
    svg.appendChild(sv("text", { x: 14, y: T + H / 2, "text-anchor": "middle", transform: "rotate(-90 14 " + (T + H / 2) + ")", text: "instances solved" }));
    series.forEach(function (s, k) {
      var d = "M" + sx(r[0]) + "," + sy(0);
      s.times.forEach(function (t, i) { d += " H" + sx(t) + " V" + sy(i + 1); });
      if (s.times.length) d += " H" + sx(r[1]);
      svg.appendChild(sv("path", { d: d, fill: "none", stroke: s.color, "stroke-width": 2, "class": "coverage-line", "data-pair": s.name },
        sv("title", { text: s.name + ": " + s.times.length + " of " + s.total + " solved" })));
      var ly = T + 10 + k * 20;
      svg.appendChild(sv("line", { x1: L + W + 20, x2: L + W + 44, y1: ly, y2: ly, stroke: s.color, "stroke-width": 3 }));
      svg.appendChild(sv("text", { x: L + W + 50, y: ly + 4, text: s.name + " (" + s.times.length + "/" + s.total + ")" }));
    });
    box.appendChild(svg);
  })();

  // ---- per-instance table with filters ------------------------------------------------------
  var playRow = null; // set by the playback section
  (function instances() {
    var PAGE = 100, page = 0;
    var fSize = $("filter-size"), fFile = $("filter-file"), fStatus = $("filter-status"), fPair = $("filter-pair"), fId = $("filter-id");
    function fill(sel, values) {
      sel.appendChild(el("option", { value: "", text: "all" }));
      values.forEach(function (v) { sel.appendChild(el("option", { value: v, text: v })); });
    }
    function uniq(xs) { return xs.filter(function (x, i) { return xs.indexOf(x) === i; }).sort(); }
    var sizeOf = function (inst) { return inst.rows + "x" + inst.cols; };
    fill(fSize, uniq(D.instances.map(sizeOf)));
    fill(fFile, uniq(D.instances.map(function (i) { return i.file; })));
    fill(fStatus, uniq(D.rows.map(function (r) { return r[STATUS]; })));
    fill(fPair, D.pairs);
    var order = D.rows.map(function (r, k) { return k; });
    order.sort(function (x, y) { var a = D.rows[x], b = D.rows[y]; return a[INST] - b[INST] || a[PAIR] - b[PAIR] || a[REP] - b[REP]; });
    var table = $("instance-table");
    var heads = ["file", "id", "size", "algorithm/heuristic", "rep", "status", "moves", "optimal", "expanded", "generated", "ms", "heap", "solution"];
    var thead = el("thead", null, el("tr", null, heads.map(function (h) { return el("th", { text: h, scope: "col" }); })));
    var tbody = el("tbody");
    table.appendChild(thead);
    table.appendChild(tbody);
    [fSize, fFile, fStatus, fPair].forEach(function (s) { s.addEventListener("change", function () { page = 0; draw(); }); });
    fId.addEventListener("input", function () { page = 0; draw(); });
    $("page-prev").addEventListener("click", function () { if (page > 0) { page--; draw(); } });
    $("page-next").addEventListener("click", function () { page++; draw(); });
    function draw() {
      var id = fId.value.trim();
      var shown = order.filter(function (k) {
        var r = D.rows[k], inst = D.instances[r[INST]];
        return (!fSize.value || sizeOf(inst) === fSize.value) && (!fFile.value || inst.file === fFile.value) &&
          (!fStatus.value || r[STATUS] === fStatus.value) && (!fPair.value || D.pairs[r[PAIR]] === fPair.value) &&
          (!id || inst.id === id);
      });
      var pages = Math.max(1, Math.ceil(shown.length / PAGE));
      page = Math.min(page, pages - 1);
      $("instance-count").textContent = shown.length + " of " + D.rows.length + " runs match.";
      $("page-info").textContent = "page " + (page + 1) + " of " + pages;
      clear(tbody);
      shown.slice(page * PAGE, (page + 1) * PAGE).forEach(function (k) {
        var r = D.rows[k], inst = D.instances[r[INST]];
        var sol = null;
        if (r[SOL] !== null && inst.tiles) {
          sol = el("button", { type: "button", "class": "play-row", text: "play " + r[SOL].length });
          sol.addEventListener("click", function () { if (playRow) playRow(k); });
        }
        tbody.appendChild(el("tr", { "data-row": k },
          el("td", { text: inst.file }), el("td", { text: inst.id }), el("td", { text: sizeOf(inst) }),
          el("td", { text: D.pairs[r[PAIR]] }), el("td", { "class": "num", text: r[REP] }), el("td", { text: r[STATUS] }),
          el("td", { "class": "num", text: r[MOVES] === null ? "\u2013" : r[MOVES] }),
          el("td", { "class": "num", text: inst.length === null ? "\u2013" : inst.length }),
          el("td", { "class": "num", text: fmtCount(r[EXP]) }), el("td", { "class": "num", text: fmtCount(r[GEN]) }),
          el("td", { "class": "num", text: fmtMs(r[MS]) }), el("td", { "class": "num", text: fmtBytes(r[HEAP]) }),
          el("td", null, sol)));
      });
    }
    draw();
  })();

  // ---- solution playback --------------------------------------------------------------------
  (function playback() {
    var sel = $("pb-run"), board = $("pb-board"), info = $("pb-info"), stepLabel = $("pb-step");
    var playable = [];
    D.rows.forEach(function (r, k) { if (r[SOL] !== null && D.instances[r[INST]].tiles) playable.push(k); });
    var buttons = ["pb-first", "pb-prev", "pb-play", "pb-next", "pb-last"].map($);
    if (!playable.length) {
      buttons.forEach(function (b) { b.disabled = true; });
      sel.disabled = true;
      info.textContent = "No kept solutions in these results: run bench run with --solutions to replay them here.";
      return;
    }
    playable.sort(function (x, y) { var a = D.rows[x], b = D.rows[y]; return a[INST] - b[INST] || a[PAIR] - b[PAIR] || a[REP] - b[REP]; });
    playable.forEach(function (k) {
      var r = D.rows[k], inst = D.instances[r[INST]];
      sel.appendChild(el("option", { value: k, text: inst.file + " #" + inst.id + " \u2014 " + D.pairs[r[PAIR]] +
        (r[REP] > 1 ? " (rep " + r[REP] + ")" : "") + ", " + r[SOL].length + " moves" }));
    });
    var cur = null, tiles = null, blank = 0, step = 0, timer = null, cells = [];
    var DIR = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
    var INV = { U: "D", D: "U", L: "R", R: "L" };
    function move(letter) {
      // The letter names where the blank travels.
      var d = DIR[letter], rr = Math.floor(blank / cur.cols) + d[0], cc = blank % cur.cols + d[1];
      if (rr < 0 || rr >= cur.rows || cc < 0 || cc >= cur.cols) throw new Error("illegal move " + letter);
      var t = rr * cur.cols + cc;
      tiles[blank] = tiles[t]; tiles[t] = 0; blank = t;
    }
    function goalTile(cell) { var n = cur.rows * cur.cols; return cur.goal === "blank-first" ? cell : (cell + 1) % n; }
    function atGoal() { return tiles.every(function (v, i) { return v === goalTile(i); }); }
    function render() {
      cells.forEach(function (c, i) {
        var v = tiles[i];
        c.textContent = v === 0 ? "" : String(v);
        c.setAttribute("data-tile", v);
        c.className = "cell" + (v === 0 ? " blank" : v === goalTile(i) ? " home" : "");
      });
      var done = atGoal();
      board.className = done ? "at-goal" : "";
      board.setAttribute("data-step", step);
      stepLabel.textContent = "move " + step + " of " + cur.sol.length +
        (step > 0 ? " (" + cur.sol[step - 1] + ")" : "") + (done ? " \u2014 goal reached" : "");
      buttons[0].disabled = buttons[1].disabled = step === 0;
      buttons[3].disabled = buttons[4].disabled = step === cur.sol.length;
    }
    function load(k) {
      stop();
      var r = D.rows[k], inst = D.instances[r[INST]];
      cur = { rows: inst.rows, cols: inst.cols, goal: inst.goal, sol: r[SOL], start: inst.tiles };
      tiles = inst.tiles.slice();
      blank = tiles.indexOf(0);
      step = 0;
      var size = Math.max(14, Math.min(48, Math.floor(480 / Math.max(cur.rows, cur.cols))));
      clear(board);
      board.style.gridTemplateColumns = "repeat(" + cur.cols + ", " + size + "px)";
      board.style.gridAutoRows = size + "px";
      board.style.fontSize = Math.max(8, Math.floor(size * 0.42)) + "px";
      cells = tiles.map(function () { var c = el("div", { "class": "cell" }); board.appendChild(c); return c; });
      info.textContent = inst.file + " #" + inst.id + ", " + inst.rows + "x" + inst.cols + ", goal " + inst.goal +
        "; " + D.pairs[r[PAIR]] + ": " + r[SOL].length + " moves (letters: where the blank moves)" +
        (inst.start === "reconstructed" ? "; the instance file was not available: the start board is the goal with the solution undone" : "; start board from the instance file");
      render();
    }
    function next() { if (step < cur.sol.length) { move(cur.sol[step]); step++; render(); } }
    function prev() { if (step > 0) { step--; move(INV[cur.sol[step]]); render(); } }
    function first() { stop(); tiles = cur.start.slice(); blank = tiles.indexOf(0); step = 0; render(); }
    function last() { stop(); while (step < cur.sol.length) { move(cur.sol[step]); step++; } render(); }
    function stop() { if (timer !== null) { clearInterval(timer); timer = null; } buttons[2].textContent = "\u25B6 play"; }
    function play() {
      if (timer !== null) { stop(); return; }
      if (step === cur.sol.length) first();
      buttons[2].textContent = "\u275A\u275A pause";
      timer = setInterval(function () { if (step >= cur.sol.length) stop(); else next(); }, 250);
    }
    buttons[0].addEventListener("click", first);
    buttons[1].addEventListener("click", function () { stop(); prev(); });
    buttons[2].addEventListener("click", play);
    buttons[3].addEventListener("click", function () { stop(); next(); });
    buttons[4].addEventListener("click", last);
    sel.addEventListener("change", function () { load(+sel.value); });
    playRow = function (k) { sel.value = String(k); load(k); $("playback").scrollIntoView(); };
    load(playable[0]);
  })();
})();
