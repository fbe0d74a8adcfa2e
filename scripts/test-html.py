#!/usr/bin/env python3
"""Drives headless Chromium through chromedriver (W3C WebDriver over HTTP, standard library
only) on a page of `bench report --html` and checks it against expectations computed here from
the results CSV and the instance file (never from the page's own data):

- the page loads without console errors or warnings (the browser log; a probe error written
  afterwards must show up, so the log is really read);
- the summary table has one row per algorithm/heuristic of the CSV;
- clicking a numeric header sorts by it (ascending, then descending on a second click), and
  clicking a text header sorts by text;
- the status filter of the per-instance table keeps exactly the CSV's rows of that status;
- the scatter plot has one point per instance both chosen pairs ran; coverage one line per pair;
- the playback starts from the instance file's board, `next` applies the solution's first move,
  `prev` undoes it, `play` advances (and `pause` stops it on the solution's board), `end`
  reaches the goal;
- a screenshot is not blank (decoded here: many colours, real variance).

Usage: test-html.py --html PAGE --results CSV --instances FILE... [--screenshot OUT.png]
(run from the directory bench run ran in: instance files are found as the CSV names them)
"""

import argparse
import base64
import csv
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib

FAILURES = []


def check(cond, what):
    print(("  ok   " if cond else "  FAIL ") + what)
    if not cond:
        FAILURES.append(what)


class Driver:
    def __init__(self, chromedriver, chromium, width, height):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.profile = tempfile.mkdtemp(prefix="npuzzle-chromium-")
        self.proc = subprocess.Popen(
            [chromedriver, "--port=%d" % self.port],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = "http://127.0.0.1:%d" % self.port
        deadline = time.time() + 20
        while True:
            try:
                if self.call("GET", "/status").get("ready"):
                    break
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if time.time() > deadline:
                raise SystemExit("test-html: chromedriver did not start")
            time.sleep(0.1)
        caps = {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-dev-shm-usage",
                    "--hide-scrollbars",
                    "--force-device-scale-factor=1",
                    "--window-size=%d,%d" % (width, height),
                    "--user-data-dir=" + self.profile,
                ],
            },
            "goog:loggingPrefs": {"browser": "ALL"},
        }
        r = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
        self.sid = r["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                out = json.loads(resp.read().decode() or "{}")
        except urllib.error.HTTPError as e:
            raise SystemExit("test-html: WebDriver %s %s: %s" % (method, path, e.read().decode()[:500]))
        return out.get("value", out)

    def s(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.sid, path), body)

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        r = self.s("POST", "/element", {"using": "css selector", "value": css})
        return list(r.values())[0]

    def click(self, css):
        self.s("POST", "/element/%s/click" % self.find(css), {})

    def log(self):
        # chromedriver's log endpoint (Selenium's path, then the legacy one).
        for path in ("/se/log", "/log"):
            try:
                return self.s("POST", path, {"type": "browser"})
            except SystemExit:
                continue
        raise SystemExit("test-html: chromedriver serves no browser log")

    def quit(self):
        try:
            self.s("DELETE", "")
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)


def png_pixels(data):
    """Width, height and the rows of RGB(A) tuples of an 8-bit truecolour PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "unexpected PNG type %d/%d" % (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def read_instances(path):
    """id -> tiles of an instance file in the project's format (header, then id ... tiles)."""
    out, cols = {}, None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if cols is None:
                cols = cells
                continue
            rec = dict(zip(cols, cells))
            out[rec["id"]] = [int(t) for t in rec["tiles"].split()]
    return out


def apply_move(tiles, rows, cols, letter):
    b = tiles.index(0)
    r, c = divmod(b, cols)
    dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[letter]
    r, c = r + dr, c + dc
    assert 0 <= r < rows and 0 <= c < cols, "illegal move"
    t = list(tiles)
    t[b], t[r * cols + c] = t[r * cols + c], 0
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--html", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--instances", required=True, nargs="+", help="as named to bench run")
    ap.add_argument("--screenshot")
    ap.add_argument("--hostile", help="a page made from results with this text in names: it "
                    "must load cleanly and show the text as text (no playback checks)")
    ap.add_argument("--chromedriver", default=shutil.which("chromedriver") or "chromedriver")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    a = ap.parse_args()

    with open(a.results, newline="") as f:
        rows = list(csv.DictReader(f))
    pairs = sorted({(r["algorithm"], r["heuristic"]) for r in rows})
    boards = {(name, i): t for name in a.instances for i, t in read_instances(name).items()}

    d = Driver(a.chromedriver, a.chromium, 1200, 860)
    try:
        run_checks(d, a, rows, pairs, boards)
    finally:
        d.quit()
    if FAILURES:
        print("test-html: %d check(s) failed" % len(FAILURES), file=sys.stderr)
        sys.exit(1)


def run_checks(d, a, rows, pairs, boards):
    """Every check on the page loaded in the session `d`."""
    d.s("POST", "/url", {"url": "file://" + os.path.abspath(a.html)})
    deadline = time.time() + 20
    while d.js("return document.readyState") != "complete":
        if time.time() > deadline:
            raise SystemExit("test-html: the page did not finish loading")
        time.sleep(0.1)
    entries = d.log()
    bad = [e for e in entries if e.get("level") in ("SEVERE", "WARNING")]
    check(not bad, "no console errors or warnings while loading (%s)" % (bad[:3] or "log empty of them"))

    # Summary table.
    n = d.js("return document.querySelectorAll('#summary-table tbody tr').length")
    check(n == len(pairs), "summary table has %d rows, one per algorithm/heuristic (%d)" % (n, len(pairs)))
    if a.hostile:
        scripts = d.js("return document.scripts.length")
        check(scripts == 2, "the page has its 2 script elements and no more (%d)" % scripts)
        cells = d.js("return Array.from(document.querySelectorAll('#instance-table td')).map("
                     "function (td) { return td.textContent; })")
        check(a.hostile in cells, "the hostile name is shown as text in the instance table")
        check(d.js("return window.__pwned === undefined"), "no injected script ran")
        return
    col = d.js(
        "var ths = Array.from(document.querySelectorAll('#summary-table th'));"
        "return ths.map(function (t) { return t.getAttribute('data-key'); });"
    )
    ia, ih, ie = col.index("algorithm"), col.index("heuristic"), col.index("expanded_mean")

    def order():
        return d.js(
            "return Array.from(document.querySelectorAll('#summary-table tbody tr')).map("
            "function (tr) { var c = tr.children; return [c[%d].textContent, c[%d].textContent]; });" % (ia, ih)
        )

    # Mean nodes expanded over solved rows, computed here; pairs without any last.
    means = {}
    for p in pairs:
        v = [int(r["nodes_expanded"]) for r in rows
             if (r["algorithm"], r["heuristic"]) == p and r["status"] == "solved" and r["nodes_expanded"]]
        means[p] = sum(v) / len(v) if v else None
    have = [p for p in pairs if means[p] is not None]
    missing = [list(p) for p in pairs if means[p] is None]
    want_up = [list(p) for p in sorted(have, key=lambda p: (means[p], pairs.index(p)))] + missing
    d.click("#summary-table th[data-key='expanded_mean']")
    got = order()
    check(got == want_up, "clicking 'expanded mean' sorts ascending: %s" % got)
    check(d.js("return document.querySelector(\"#summary-table th[data-key='expanded_mean']\").getAttribute('aria-sort')") == "ascending",
          "the header shows the ascending order")
    d.click("#summary-table th[data-key='expanded_mean']")
    got = order()
    want_down = [list(p) for p in sorted(have, key=lambda p: (-means[p], pairs.index(p)))] + missing
    check(got == want_down, "a second click sorts descending: %s" % got)
    d.click("#summary-table th[data-key='heuristic']")
    got = order()
    check([g[1] for g in got] == sorted(p[1] for p in pairs), "clicking 'heuristic' sorts by text: %s" % [g[1] for g in got])

    # Per-instance table filter.
    statuses = sorted({r["status"] for r in rows})
    for st in statuses:
        d.js("var s = document.getElementById('filter-status'); s.value = arguments[0];"
             "s.dispatchEvent(new Event('change'));", st)
        text = d.js("return document.getElementById('instance-count').textContent")
        want = sum(1 for r in rows if r["status"] == st)
        check(text.startswith("%d of %d " % (want, len(rows))), "status filter %s: %r (want %d)" % (st, text, want))
        shown = d.js("return Array.from(document.querySelectorAll('#instance-table tbody tr')).map("
                     "function (tr) { return tr.children[5].textContent; })")
        check(len(shown) == min(want, 100) and all(s == st for s in shown), "the %s rows shown have that status" % st)

    # Scatter and coverage.
    pa, pb = d.js("return [document.getElementById('scatter-a').selectedOptions[0].textContent,"
                  " document.getElementById('scatter-b').selectedOptions[0].textContent]")
    inst_of = lambda p: {(r["instance_file"], r["instance_id"]) for r in rows if "%s/%s" % (r["algorithm"], r["heuristic"]) == p}
    both = len(inst_of(pa) & inst_of(pb))
    pts = d.js("return document.querySelectorAll('#scatter-plot circle').length")
    check(pts == both, "scatter %s vs %s: %d points, one per instance both ran (%d)" % (pa, pb, pts, both))
    lines = d.js("return document.querySelectorAll('#coverage-plot path.coverage-line').length")
    check(lines == len(pairs), "coverage: %d lines, one per pair" % lines)

    # Playback.
    def board():
        return d.js("return Array.from(document.getElementById('pb-board').children).map("
                    "function (c) { return +c.getAttribute('data-tile'); })")

    def step():
        return int(d.js("return document.getElementById('pb-board').getAttribute('data-step')"))

    # Pick the longest kept solution.
    k = d.js("var s = document.getElementById('pb-run'); var best = null, len = -1;"
             "Array.from(s.options).forEach(function (o) { var n = +o.textContent.match(/(\\d+) moves$/)[1];"
             " if (n > len) { len = n; best = o.value; } });"
             "s.value = best; s.dispatchEvent(new Event('change')); return best;")
    label = d.js("return document.getElementById('pb-run').selectedOptions[0].textContent")
    # "FILE #ID — algo/heur, N moves": find its CSV row.
    ident = label.split(" \u2014 ")[0]
    fname, iid = ident.rsplit(" #", 1)
    pair = label.split(" \u2014 ")[1].split(",")[0].split(" (rep")[0]
    row = [r for r in rows if r["instance_file"] == fname and r["instance_id"] == iid
           and "%s/%s" % (r["algorithm"], r["heuristic"]) == pair][0]
    sol = row["solution"]
    nr, nc = int(row["rows"]), int(row["cols"])
    start = boards[(fname, iid)]
    check(board() == start and step() == 0, "playback of %s #%s %s starts from the instance file's board" % (fname, iid, pair))
    d.click("#pb-next")
    one = apply_move(start, nr, nc, sol[0])
    check(board() == one and step() == 1, "next applies the first move %s" % sol[0])
    d.click("#pb-prev")
    check(board() == start and step() == 0, "prev undoes it")
    d.click("#pb-play")
    deadline = time.time() + 15
    while step() < 2 and time.time() < deadline:
        time.sleep(0.05)
    d.click("#pb-play")  # pause; then nothing moves
    s1 = step()
    check(s1 >= 2, "play advances the board (%d moves)" % s1)
    want = start
    for m in sol[:s1]:
        want = apply_move(want, nr, nc, m)
    check(board() == want, "the board after %d moves is the solution's" % s1)
    d.click("#pb-last")
    cells = nr * nc
    goal = list(range(cells)) if row["goal"] == "blank-first" else [(i + 1) % cells for i in range(cells)]
    check(board() == goal and step() == len(sol), "end: the board is the goal after %d moves" % len(sol))
    moved = d.js("return document.getElementById('pb-board').className")
    check(moved == "at-goal", "the board is marked as at the goal")

    # Screenshot of the scatter plot and the coverage.
    d.js("document.getElementById('scatter').scrollIntoView()")
    png = base64.b64decode(d.s("GET", "/screenshot"))
    w, h, bpp, px = png_pixels(png)
    colours = set()
    total = total2 = 0
    for y in range(0, h, 2):
        line = px[y]
        for x in range(0, w * bpp, 2 * bpp):
            c = line[x : x + 3]
            colours.add(c)
            v = sum(c) / 3
            total += v
            total2 += v * v
    npx = len(range(0, h, 2)) * len(range(0, w * bpp, 2 * bpp))
    var = total2 / npx - (total / npx) ** 2
    check(w >= 800 and h >= 600, "screenshot %dx%d" % (w, h))
    check(len(colours) > 50 and var > 100, "screenshot not blank: %d colours, variance %.0f" % (len(colours), var))
    if a.screenshot:
        with open(a.screenshot, "wb") as f:
            f.write(png)
        print("  wrote %s (%d bytes)" % (a.screenshot, len(png)))

    # The log check above must be able to fail: a probe error must come through.
    d.js("console.error('npuzzle-probe')")
    probe = d.log()
    check(any("npuzzle-probe" in e.get("message", "") and e.get("level") == "SEVERE" for e in probe),
          "a console error written by the test shows up in the browser log")


if __name__ == "__main__":
    main()
