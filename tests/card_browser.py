"""Headless Chromium, driven through its DevTools protocol on a pipe.

The pages card writes hold no script; this measures them from outside, as
a reader's browser lays them out: Chromium is started with
--remote-debugging-pipe (the protocol's messages on file descriptors 3
and 4, each ended by a NUL byte), no network (a proxy that answers
nothing) and a profile of its own, and each page is opened from file://
at a width, in a colour scheme and for a medium (screen or print) set by
the protocol's emulation, then measured with Runtime.evaluate (what a
test's own script computes in the page's context, the page unchanged) or
photographed.

Used by tests/card_html.sh (python3 tests/card_browser.py measure ...) and
by `make screenshots` (... shot ...):

    card_browser.py measure CHROMIUM OUT.json PAGE...
    card_browser.py shot CHROMIUM PAGE OUT.png WIDTH HEIGHT [phone]

(HEIGHT 0: the whole page.)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, chromium, timeout=120):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="card-browser-")
        to_child, self.out = os.pipe()   # the browser reads fd 3
        self.inp, from_child = os.pipe()  # and writes fd 4
        # above 4, so that the dup2s below move them where they belong
        to_child, from_child = self._high(to_child), self._high(from_child)

        def fds():
            os.dup2(to_child, 3, inheritable=True)
            os.dup2(from_child, 4, inheritable=True)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--hide-scrollbars", "--mute-audio",
             "--proxy-server=http://127.0.0.1:9", "--remote-debugging-pipe",
             "--user-data-dir=" + self.profile, "about:blank"],
            preexec_fn=fds, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self.pending = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})
        self.session = self.call("Target.attachToTarget", {
            "targetId": target["targetId"], "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)

    @staticmethod
    def _high(fd):
        if fd > 4:
            return fd
        high = os.dup(fd)
        while high <= 4:
            high = os.dup(fd)
        os.close(fd)
        return high

    def _read(self):
        deadline = time.time() + self.timeout
        while b"\0" not in self.pending:
            if time.time() > deadline:
                raise RuntimeError("chromium said nothing in %d s" % self.timeout)
            data = os.read(self.inp, 1 << 16)
            if not data:
                raise RuntimeError("chromium ended")
            self.pending += data
        message, self.pending = self.pending.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=False):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.out, json.dumps(message).encode() + b"\0")
        while True:
            m = self._read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method):
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                del self.events[i]
                return m
        while True:
            m = self._read()
            if m.get("method") == method:
                return m
            self.events.append(m)

    def open(self, path, width, height, phone=False, dark=False, media=""):
        """Opens path at width x height CSS pixels: as a phone (a mobile
        viewport, which honours the page's viewport tag and would zoom
        out a page wider than the screen) or a desktop window; in the
        dark or light scheme; for media "print" or the screen."""
        self.call("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1,
            "mobile": phone}, session=True)
        self.call("Emulation.setEmulatedMedia", {
            "media": media, "features": [
                {"name": "prefers-color-scheme",
                 "value": "dark" if dark else "light"}]}, session=True)
        self.events = [m for m in self.events
                       if m.get("method") != "Page.loadEventFired"]
        self.call("Page.navigate", {"url": "file://" + os.path.abspath(path)},
                  session=True)
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", {
            "expression": expression, "returnByValue": True,
            "awaitPromise": True}, session=True)
        if "exceptionDetails" in r:
            raise RuntimeError("the measuring script failed: %s"
                               % json.dumps(r["exceptionDetails"])[:2000])
        return r["result"].get("value")

    def screenshot(self, out):
        import base64
        r = self.call("Page.captureScreenshot", {"format": "png"},
                      session=True)
        with open(out, "wb") as f:
            f.write(base64.b64decode(r["data"]))

    def console(self):
        """The console messages and exceptions seen so far."""
        return [m for m in self.events
                if m.get("method") in ("Runtime.consoleAPICalled",
                                       "Runtime.exceptionThrown")]

    def close(self):
        try:
            self.call("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.out)
        os.close(self.inp)
        shutil.rmtree(self.profile, ignore_errors=True)


# What is measured in a page, by a script of the test's own run in it
# through the protocol (the page has none): a JSON object.
MEASURE = r"""
(() => {
  const lin = c => { c /= 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const rgb = s => { const m = s.match(/rgba?\(([^)]*)\)/); if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(x => x).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = c => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const ratio = (x, y) => { const a = lum(x), b = lum(y);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); };
  // a line has no height, or no width: it is there if either is not 0
  const visible = el => { const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return false;
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden') return false; }
    return true; };
  // the page's background under an element: the first opaque background
  // of it or its ancestors
  const backOf = el => { for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) return c; }
    return {r: 255, g: 255, b: 255, a: 1}; };
  // what is under an SVG text: the filled shape drawn before it in its
  // picture that holds the text's middle, else the page
  const underSvg = el => { const box = el.getBBox();
    const x = box.x + box.width / 2, y = box.y + box.height / 2;
    const svg = el.ownerSVGElement; let under = null;
    for (const s of svg.querySelectorAll('rect,circle,path,polygon')) {
      if (s.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) continue;
      if (s.tagName === 'rect') { const b = s.getBBox();
        if (x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height &&
            getComputedStyle(s).fill !== 'none') under = s; } }
    return under ? rgb(getComputedStyle(under).fill) : backOf(svg); };
  const out = {width: innerWidth, scrollWidth: document.scrollingElement.scrollWidth,
    texts: [], marks: [], fonts: [], parts: [], legend: [], links: [],
    headline: null, overlaps: []};
  const hl = document.querySelector('.headline');
  if (hl) { const r = hl.getBoundingClientRect();
    out.headline = {top: r.top + scrollY, bottom: r.bottom + scrollY, text: hl.textContent}; }
  // every element that holds text of its own, HTML or SVG
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement;
    if (seen.has(el) || ['TITLE', 'DESC', 'STYLE', 'title', 'desc'].includes(el.tagName)) continue;
    if (el.closest('title,desc')) continue;
    seen.add(el);
    if (!visible(el)) continue;
    const s = getComputedStyle(el);
    const svg = el instanceof SVGElement;
    const fg = rgb(svg ? s.fill : s.color);
    const bg = svg ? underSvg(el) : backOf(el);
    let px = parseFloat(s.fontSize);
    if (svg) { const m = el.getScreenCTM(); px *= Math.hypot(m.a, m.b); }
    out.texts.push({text: n.textContent.trim().slice(0, 60), tag: el.tagName,
      cls: el.getAttribute('class') || '', ratio: ratio(fg, bg), px: px});
  }
  // the ::before words of the index's reflowed cells
  for (const td of document.querySelectorAll('td[data-label]')) {
    if (!visible(td)) continue;
    const s = getComputedStyle(td, '::before');
    if (s.content === 'none' || s.content === 'normal') continue;
    out.texts.push({text: s.content.slice(0, 60), tag: 'td::before', cls: '',
      ratio: ratio(rgb(s.color), backOf(td)), px: parseFloat(s.fontSize)});
  }
  // every mark: its stroke (a whisker, a line) or fill (a dot, a square,
  // a part) against the page
  for (const m of document.querySelectorAll('svg .mark, svg .seg, svg rect.sw')) {
    if (!visible(m)) continue;
    const s = getComputedStyle(m);
    const stroked = m.tagName === 'line' || m.tagName === 'path';
    const c = rgb(stroked ? s.stroke : s.fill);
    out.marks.push({cls: m.getAttribute('class'), tag: m.tagName,
      ratio: ratio(c, backOf(m.ownerSVGElement || m))});
  }
  // each visible dial part: its name, its visible label
  for (const g of document.querySelectorAll('g.part')) {
    if (!visible(g.ownerSVGElement)) continue;
    const t = g.querySelector('text');
    const svg = g.ownerSVGElement.getBoundingClientRect();
    const r = t ? t.getBoundingClientRect() : null;
    out.parts.push({outcome: g.dataset.outcome, title: g.querySelector('title').textContent,
      label: t ? t.textContent : null, inside: t ? t.classList.contains('in') : null,
      shown: !!(t && visible(t) && r.left >= svg.left - 0.5 && r.right <= svg.right + 0.5),
      fits: !!(t && t.classList.contains('in') ? r.right <= g.querySelector('rect').getBoundingClientRect().right + 0.5 : true)});
  }
  for (const li of document.querySelectorAll('.legend li'))
    out.legend.push(li.dataset.outcome);
  // texts of one picture that overlap each other
  for (const svg of document.querySelectorAll('svg')) {
    if (!visible(svg)) continue;
    const boxes = [...svg.querySelectorAll('text')].filter(visible).map(t => [t.textContent, t.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i][1], b = boxes[j][1];
      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
        out.overlaps.push([boxes[i][0], boxes[j][0]]); }
    const r = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) { if (!visible(t)) continue;
      const b = t.getBoundingClientRect();
      if (b.left < r.left - 0.5 || b.right > r.right + 0.5) out.overlaps.push([t.textContent, 'past its picture']); }
  }
  // the tables that scroll in their own box, wider than it
  out.scrolling = [...document.querySelectorAll('.scroll')].filter(d => visible(d) &&
    d.scrollWidth > d.clientWidth).map(d => d.firstElementChild.getAttribute('class'));
  for (const a of document.querySelectorAll('a[href]'))
    out.links.push({href: a.getAttribute('href'), text: a.textContent});
  return out;
})()
"""


def measure(chromium, pages):
    """Each page at 1280x800 (a desktop) and 390x844 (a phone), light and
    dark, printed from either scheme, and printed on A4 (a 718 px
    column)."""
    b = Browser(chromium)
    out = {}
    try:
        for page in pages:
            got = {}
            for name, w, h, phone, dark, media in (
                    ("desktop-light", 1280, 800, False, False, ""),
                    ("desktop-dark", 1280, 800, False, True, ""),
                    ("phone-light", 390, 844, True, False, ""),
                    ("phone-dark", 390, 844, True, True, ""),
                    ("print-light", 1280, 800, False, False, "print"),
                    ("print-dark", 1280, 800, False, True, "print"),
                    # A4's 210 mm less 2 x 10 mm margins, at 96 px an inch
                    ("print-a4", 718, 1016, False, False, "print")):
                b.open(page, w, h, phone, dark, media)
                got[name] = b.evaluate(MEASURE)
            got["console"] = len(b.console())
            out[page] = got
    finally:
        b.close()
    return out


def main(argv):
    if len(argv) >= 4 and argv[1] == "measure":
        result = measure(argv[2], argv[4:])
        with open(argv[3], "w") as f:
            json.dump(result, f)
        return 0
    if len(argv) in (7, 8) and argv[1] == "shot":
        b = Browser(argv[2])
        try:
            width, height = int(argv[5]), int(argv[6])
            phone = len(argv) == 8
            b.open(argv[3], width, height or 800, phone)
            if not height:  # the whole page
                height = b.evaluate("document.scrollingElement.scrollHeight")
                b.open(argv[3], width, height, phone)
            b.screenshot(argv[4])
        finally:
            b.close()
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
